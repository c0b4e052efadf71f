//! "Did you mean": the known word closest to a mistyped one, if it is close enough to
//! be a typo rather than another word.

use paneward_contract::names::edit_distance;

/// The candidate nearest to `typed` by edit distance, when at most a third of its
/// letters (and at least one) differ; ties go to the first candidate.
pub fn closest<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let budget = (typed.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(typed, candidate), candidate))
        .filter(|(distance, _)| *distance <= budget)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// ` (did you mean X?)`, or nothing when no candidate is close.
pub fn hint<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(typed, candidates).map_or_else(String::new, |near| format!("; did you mean {near}?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_finds_its_word_and_another_word_finds_nothing() {
        let words = ["serve", "tools", "call", "doctor", "conform"];
        assert_eq!(closest("serv", words), Some("serve"));
        assert_eq!(closest("docter", words), Some("doctor"));
        assert_eq!(closest("list", words), None);
        assert_eq!(
            closest("snapshot_pan", ["snapshot_pane", "capture_pane"]),
            Some("snapshot_pane")
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(hint("zzzzzz", words), "");
    }
}
