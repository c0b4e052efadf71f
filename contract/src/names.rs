//! Names a caller or a file got wrong: the error that lists the known ones, and the
//! "did you mean" that suggests one a typo away. A leaf: the toolsets and classes of
//! [`crate::surface`] and the facts of [`crate::facts`] both name their values by it.

use std::fmt;

/// A name that is no toolset or class: the message lists the known ones and, when one
/// is a small typo away, suggests it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    pub what: &'static str,
    pub name: String,
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}", self.what, self.name)?;
        if let Some(near) = did_you_mean(&self.name, self.known.iter().copied()) {
            write!(f, " (did you mean {near}?)")?;
        }
        write!(f, "; use {}", self.known.join(", "))
    }
}

impl std::error::Error for UnknownName {}

/// How much of an unknown name a message repeats (it may come from anywhere).
const QUOTED_CHARS: usize = 40;

pub(crate) fn unknown(what: &'static str, text: &str, known: Vec<&'static str>) -> UnknownName {
    UnknownName {
        what,
        name: text.chars().take(QUOTED_CHARS).collect(),
        known,
    }
}

/// The known name closest to `name`, if it is at most two edits away (a typo, not a
/// different word).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const MOST_EDITS: usize = 2;
    known
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= MOST_EDITS)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance over chars: insertions, deletions and substitutions (also the
/// CLI's "did you mean", `cli::suggest`).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
