//! The one spelling rule of generated names: PascalCase from a tool, property or file
//! name. A leaf: naming, shapes and the generator all spell names by it.

/// `snapshot_pane`, `max-lines`, `paneId` → `SnapshotPane`, `MaxLines`, `PaneId`.
pub fn pascal_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut upper_next = true;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if upper_next {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper_next = false;
        } else {
            upper_next = true;
        }
    }
    if out.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        out.insert(0, 'N');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_case_joins_words_of_every_separator() {
        assert_eq!(pascal_case("snapshot_pane"), "SnapshotPane");
        assert_eq!(pascal_case("top-left"), "TopLeft");
        assert_eq!(pascal_case("paneId"), "PaneId");
        assert_eq!(pascal_case("9lives"), "N9lives");
    }
}
