//! The command line of `paneward conform`.

use crate::limits::CONFORM_DEFAULT_TIMEOUT;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use paneward_contract::Tier;

/// The tier compared unless `--tier` says: paneward's own default `--safety`.
pub const DEFAULT_TIER: Tier = Tier::Mutating;

/// The tier a profile is compared at unless `--tier` says: the python and libtmux
/// profiles mirror servers that have no tiers and list every tool, so all of them.
fn profile_tier(profile: crate::catalog::profile::Profile) -> Tier {
    match profile {
        crate::catalog::profile::Profile::Default => DEFAULT_TIER,
        crate::catalog::profile::Profile::Python | crate::catalog::profile::Profile::Libtmux => Tier::Destructive,
    }
}

/// What `paneward conform` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Compare with the contract's tools at or below this tier.
    pub tier: Tier,
    /// A folder of tool files to compare with instead of the compiled contract.
    pub schemas: Option<PathBuf>,
    /// Compare with this profile's contract (its tool files in place of the default ones).
    pub profile: crate::catalog::profile::Profile,
    pub timeout: Duration,
    /// The server command: program, then its arguments.
    pub command: Vec<OsString>,
}

/// Parses the arguments after `conform`.
///
/// # Errors
/// An unknown option, a missing or bad value, or no server command after `--`.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Options, String> {
    let mut args = args.into_iter();
    let mut tier = None;
    let mut options = Options {
        tier: DEFAULT_TIER,
        schemas: None,
        profile: crate::catalog::profile::Profile::Default,
        timeout: CONFORM_DEFAULT_TIMEOUT,
        command: Vec::new(),
    };
    while let Some(arg) = args.next() {
        let arg = arg
            .into_string()
            .map_err(|_| "conform options must be valid UTF-8".to_string())?;
        if arg == "--" {
            options.command = args.collect();
            break;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || -> Result<String, String> {
            match inline.clone() {
                Some(value) => Ok(value),
                None => args
                    .next()
                    .and_then(|v| v.into_string().ok())
                    .ok_or_else(|| format!("{flag} needs a value")),
            }
        };
        match flag.as_str() {
            "--tier" => tier = Some(value()?.parse::<Tier>().map_err(|e| format!("--tier: {e}"))?),
            "--schemas" => options.schemas = Some(PathBuf::from(value()?)),
            "--profile" => options.profile = value()?.parse().map_err(|e| format!("--profile: {e}"))?,
            "--timeout" => options.timeout = parse_seconds(&value()?)?,
            other => {
                return Err(format!(
                    "conform: unexpected {other:?}; give options first, then -- and the server command"
                ))
            }
        }
    }
    options.tier = tier.unwrap_or_else(|| profile_tier(options.profile));
    if options.command.is_empty() {
        return Err("conform needs a server command after --, e.g. paneward conform -- paneward -L work".into());
    }
    Ok(options)
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(seconds) if seconds > 0 => Ok(Duration::from_secs(seconds)),
        _ => Err(format!("--timeout: {text:?} is not a whole number of seconds above 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Options, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn everything_after_the_separator_is_the_server_command() {
        let options = parse_strs(&["--tier", "readonly", "--", "paneward", "--safety", "readonly"]).unwrap();
        assert_eq!(options.tier, Tier::Readonly);
        assert_eq!(
            options.command,
            ["paneward", "--safety", "readonly"].map(OsString::from)
        );
        assert_eq!(options.timeout, CONFORM_DEFAULT_TIMEOUT);
        assert_eq!(options.schemas, None);
    }

    #[test]
    fn options_take_inline_values_and_have_defaults() {
        let options = parse_strs(&["--schemas=dir", "--timeout=5", "--", "srv"]).unwrap();
        assert_eq!(options.tier, DEFAULT_TIER);
        assert_eq!(options.schemas, Some(PathBuf::from("dir")));
        assert_eq!(options.timeout, Duration::from_secs(5));
    }

    #[test]
    fn a_profile_is_compared_on_request() {
        use crate::catalog::profile::Profile;
        assert_eq!(parse_strs(&["--", "srv"]).unwrap().profile, Profile::Default);
        assert_eq!(
            parse_strs(&["--profile", "python", "--", "srv"]).unwrap().profile,
            Profile::Python
        );
        assert!(parse_strs(&["--profile=x", "--", "srv"])
            .unwrap_err()
            .contains("unknown profile"));
    }

    #[test]
    fn a_missing_command_or_a_bad_option_is_a_usage_error() {
        assert!(parse_strs(&["--tier", "readonly"]).unwrap_err().contains("after --"));
        assert!(parse_strs(&["--", ""][..1]).unwrap_err().contains("after --"));
        assert!(parse_strs(&["paneward"]).unwrap_err().contains("unexpected"));
        assert!(parse_strs(&["--tier", "all", "--", "x"])
            .unwrap_err()
            .contains("unknown safety tier"));
        assert!(parse_strs(&["--timeout", "0", "--", "x"])
            .unwrap_err()
            .contains("--timeout"));
        assert!(parse_strs(&["--tier"]).unwrap_err().contains("needs a value"));
    }
}
