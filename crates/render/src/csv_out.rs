//! CSV through the `csv` crate: RFC 4180 quoting, one header row.
use crate::RenderError;

/// Writes `header` and `rows` as CSV.
pub fn render(header: &[&str], rows: &[Vec<String>]) -> Result<String, RenderError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header)
        .map_err(|e| RenderError::Output(format!("csv: {e}")))?;
    for r in rows {
        w.write_record(r)
            .map_err(|e| RenderError::Output(format!("csv: {e}")))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| RenderError::Output(format!("csv: {e}")))?;
    String::from_utf8(bytes).map_err(|e| RenderError::Output(format!("csv: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_commas_and_quotes_are_quoted() {
        let s = render(
            &["tpn", "name"],
            &[vec!["1".into(), "O\"Brien, \"Tom\"".into()]],
        )
        .ok();
        assert_eq!(
            s.as_deref(),
            Some("tpn,name\n1,\"O\"\"Brien, \"\"Tom\"\"\"\n")
        );
    }
}
