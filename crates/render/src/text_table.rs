//! Aligned text columns: the widths are counted in characters, numbers right-aligned.

/// How a column is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// A table: header, alignments, rows; rendered with two spaces between columns and no
/// trailing blanks.
pub fn render(header: &[&str], align: &[Align], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::new();
        for (i, c) in cells.enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            let pad = w.saturating_sub(c.chars().count());
            if i > 0 {
                s.push_str("  ");
            }
            if align.get(i).copied().unwrap_or(Align::Left) == Align::Right {
                s.extend(std::iter::repeat_n(' ', pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                s.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut header.iter().copied());
    for r in rows {
        line(&mut r.iter().map(String::as_str));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_aligned_by_characters_not_bytes() {
        let t = render(
            &["NO", "NAME"],
            &[Align::Right, Align::Left],
            &[
                vec!["1".into(), "Ćirić, Dragoljub".into()],
                vec!["12".into(), "So, Wesley".into()],
            ],
        );
        assert_eq!(t, "NO  NAME\n 1  Ćirić, Dragoljub\n12  So, Wesley\n");
    }
}
