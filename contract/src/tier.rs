//! The safety tier a tool file declares, and that `paneward --safety` selects.

use std::fmt;
use std::str::FromStr;

/// How much a tool may do. Tiers are ordered: a server at `Mutating` offers the
/// `Readonly` tools too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Observes tmux; changes nothing.
    Readonly,
    /// Changes tmux or types into panes.
    Mutating,
    /// Ends something (a pane, window, session or the server).
    Destructive,
}

impl Tier {
    pub const ALL: [Tier; 3] = [Tier::Readonly, Tier::Mutating, Tier::Destructive];

    /// The names as written in tool files and on command lines, in tier order.
    pub const NAMES: [&'static str; 3] = ["readonly", "mutating", "destructive"];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown tier name: a start-up error, never a silent widening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTier(pub String);

impl fmt::Display for UnknownTier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second, third] = Tier::NAMES;
        write!(f, "unknown safety tier {:?}; use {first}, {second} or {third}", self.0)
    }
}

impl std::error::Error for UnknownTier {}

/// How much of an unknown tier name an error repeats (it may come from anywhere).
const QUOTED_CHARS: usize = 40;

impl FromStr for Tier {
    type Err = UnknownTier;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Tier::ALL
            .into_iter()
            .find(|tier| tier.as_str() == text)
            .ok_or_else(|| UnknownTier(text.chars().take(QUOTED_CHARS).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tier_reads_back_from_its_name_in_order() {
        for (index, tier) in Tier::ALL.into_iter().enumerate() {
            assert_eq!(tier.as_str(), Tier::NAMES[index]);
            assert_eq!(tier.to_string().parse::<Tier>(), Ok(tier));
        }
        assert!(Tier::Readonly < Tier::Mutating && Tier::Mutating < Tier::Destructive);
    }

    #[test]
    fn an_unknown_name_is_refused_and_quoted_short() {
        let error = "x".repeat(100).parse::<Tier>().unwrap_err();
        assert_eq!(error.0.len(), QUOTED_CHARS);
        assert!(error.to_string().starts_with("unknown safety tier \"xxx"));
        assert_eq!(
            "all".parse::<Tier>().unwrap_err().to_string(),
            "unknown safety tier \"all\"; use readonly, mutating or destructive"
        );
        assert!("Readonly".parse::<Tier>().is_err(), "names are case-sensitive");
    }
}
