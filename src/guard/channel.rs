//! tmux `wait-for` channel names a caller may use. Channels are server-global: a name
//! paneward uses for its own waits (`paneward...`, such as `run_command`'s) is refused,
//! so a caller can neither end one of paneward's waits falsely nor steal its signal.

use crate::limits::CHANNEL_NAME_MAX_CHARS;
use crate::runtime::error::ToolError;

/// Channel names starting with this (any case) are paneward's own.
pub const RESERVED_CHANNEL_PREFIX: &str = "paneward";

/// A channel name a caller may wait on or signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelName(String);

impl ChannelName {
    /// Checks a caller's channel name; `field` is its JSON pointer.
    ///
    /// # Errors
    /// A name outside `^[A-Za-z0-9_.:-]{1,128}$`, or one of paneward's own.
    pub fn parse(field: &str, text: &str) -> Result<Self, ToolError> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-');
        if text.is_empty() || text.chars().count() > CHANNEL_NAME_MAX_CHARS || !text.chars().all(allowed) {
            return Err(ToolError::invalid_argument(
                field,
                format!("must be 1 to {CHANNEL_NAME_MAX_CHARS} of the characters A-Z a-z 0-9 _ . : -"),
            ));
        }
        if text.starts_with('-') {
            // tmux would read it as a flag of wait-for.
            return Err(ToolError::invalid_argument(field, "must not start with -"));
        }
        if text
            .get(..RESERVED_CHANNEL_PREFIX.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(RESERVED_CHANNEL_PREFIX))
        {
            return Err(ToolError::invalid_argument(
                field,
                format!(
                    "names starting {RESERVED_CHANNEL_PREFIX:?} are paneward's own channels (its run_command waits); \
                     choose another name"
                ),
            ));
        }
        Ok(Self(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_outside_the_alphabet_or_too_long_are_refused() {
        assert!(ChannelName::parse("/channel", "build.done:1-a_B").is_ok());
        for bad in ["", "a b", "a;b", "é", &"x".repeat(129)] {
            let error = ChannelName::parse("/channel", bad).unwrap_err().to_string();
            assert!(
                error.contains("/channel") && error.contains("1 to 128"),
                "{bad:?}: {error}"
            );
        }
        assert!(ChannelName::parse("/channel", &"x".repeat(128)).is_ok());
        let flag = ChannelName::parse("/channel", "-S").unwrap_err().to_string();
        assert!(flag.contains("must not start with -"), "{flag}");
    }

    #[test]
    fn paneward_s_own_prefix_is_refused_in_any_case() {
        for reserved in ["paneward", "paneward_run_1", "PaneWard.x"] {
            let error = ChannelName::parse("/channel", reserved).unwrap_err().to_string();
            assert!(error.contains("paneward's own"), "{reserved}: {error}");
        }
        assert!(ChannelName::parse("/channel", "my-paneward").is_ok());
    }
}
