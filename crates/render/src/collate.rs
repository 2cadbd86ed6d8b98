//! Alphabetical order of names as a reader expects it on the wall: case and accents do
//! not move a name (`Ćirić` beside `Cirić`, `de Firmian` among the Ds), spaces and
//! punctuation count as one separator before any letter.
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The sort key of a name: letters without their accents, lower case; then the name
/// itself, so that names equal but for their accents keep one order.
#[must_use]
pub fn name_key(name: &str) -> (String, String) {
    let folded: String = name
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    (folded, name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_and_case_do_not_move_a_name() {
        let mut v = vec![
            "Zeller, Anna",
            "Ćirić, Dragoljub",
            "adams, Mike",
            "Cooper, Ed",
        ];
        v.sort_by_key(|n| name_key(n));
        assert_eq!(
            v,
            [
                "adams, Mike",
                "Ćirić, Dragoljub",
                "Cooper, Ed",
                "Zeller, Anna"
            ]
        );
    }
}
