//! The walk over the arguments: each one a subcommand, a flag of [`FLAGS`](super::flags::FLAGS) or a
//! positional, gathered as [`RawArgs`], what was typed, before any default, variable or
//! check applies ([`super::args`] resolves them into a configuration).

use std::ffi::OsString;

use super::flags::{self, Action};
use super::raw::RawArgs;
use super::suggest;
use super::usage::UsageError;

/// The subcommands besides `conform`, which parses its own arguments.
pub const SUBCOMMANDS: [&str; 6] = ["serve", "tools", "call", "doctor", "grant", "revoke"];

/// What the arguments ask for: raw arguments to resolve, or at once `--help` or
/// `--version`.
pub enum Parsed {
    Raw(Box<RawArgs>),
    /// `--help`, after the subcommand it asks about (if one came first).
    Help(Option<String>),
    Version,
}

/// Reads the arguments after the program name (and after none of `conform`'s).
///
/// # Errors
/// An argument that is not UTF-8, an unknown option or command, a flag without its
/// value, or a value a flag checks as it is given (`--allow-origin`).
pub fn raw_args(args: impl IntoIterator<Item = OsString>) -> Result<Parsed, UsageError> {
    // Converted one by one: `--help` answers whatever follows it.
    let mut args = args.into_iter().map(|arg| {
        arg.into_string()
            .map_err(|_| UsageError("arguments must be valid UTF-8".into()))
    });
    let mut raw = RawArgs::default();
    while let Some(arg) = args.next() {
        let arg = arg?;
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let flag = flags::find(name).filter(|flag| {
            flag.only_after
                .is_none_or(|only| raw.subcommand.as_deref() == Some(only))
        });
        match flag.map(|flag| (flag, flag.action)) {
            Some((_, Action::Help)) => return Ok(Parsed::Help(raw.subcommand)),
            Some((_, Action::Version)) => return Ok(Parsed::Version),
            Some((_, Action::Switch(set))) if inline.is_none() => set(&mut raw),
            Some((flag, Action::Value(set))) => {
                let value = match inline {
                    Some(value) => value,
                    None => args
                        .next()
                        .transpose()?
                        .ok_or_else(|| UsageError(format!("--{} needs a value", flag.long)))?,
                };
                set(&mut raw, value)?;
            }
            _ if raw.subcommand.is_none() && SUBCOMMANDS.contains(&name) => raw.subcommand = Some(arg),
            _ if name.starts_with('-') && name != "-" => {
                let known: Vec<String> = flags::accepted_after(raw.subcommand.as_deref())
                    .map(|flag| format!("--{}", flag.long))
                    .collect();
                let hint = suggest::hint(name, known.iter().map(String::as_str));
                return Err(UsageError(format!("unknown option {name}{hint}")));
            }
            _ if raw.subcommand.as_deref() == Some("call") && raw.positional.len() < 2 => raw.positional.push(arg),
            _ if matches!(raw.subcommand.as_deref(), Some("grant" | "revoke")) && raw.positional.is_empty() => {
                raw.positional.push(arg);
            }
            _ => {
                let hint = suggest::hint(name, SUBCOMMANDS.iter().copied().chain(["conform"]));
                return Err(UsageError(format!(
                    "unknown command {name:?}{hint} (commands: serve, tools, call, doctor, grant, revoke and conform)"
                )));
            }
        }
    }
    Ok(Parsed::Raw(Box::new(raw)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::flags::FLAGS;

    #[test]
    fn every_flag_is_found_by_each_of_its_spellings() {
        for flag in FLAGS.iter().filter(|f| !matches!(f.action, Action::Conform)) {
            let long = format!("--{}", flag.long);
            assert!(std::ptr::eq(flags::find(&long).unwrap(), flag), "{long}");
            if let Some(short) = flag.short {
                assert!(
                    std::ptr::eq(flags::find(&format!("-{short}")).unwrap(), flag),
                    "-{short}"
                );
            }
        }
        assert!(
            flags::find("--tier").is_none(),
            "conform's flags are conform's to parse"
        );
    }

    #[test]
    fn the_conform_flags_listed_are_the_ones_conform_parses() {
        let conform_flags: Vec<_> = FLAGS.iter().filter(|f| matches!(f.action, Action::Conform)).collect();
        assert_eq!(conform_flags.len(), 4);
        for flag in conform_flags {
            let value = match flag.long {
                "tier" => "readonly",
                "profile" => "default",
                "timeout" => "5",
                _ => "dir",
            };
            let args = [format!("--{}", flag.long), value.to_string(), "--".into(), "srv".into()];
            let parsed = crate::conform::options::parse(args.map(OsString::from));
            assert!(parsed.is_ok(), "--{}: {parsed:?}", flag.long);
        }
    }

    #[test]
    fn no_two_flags_parsed_here_share_a_spelling() {
        let parsed: Vec<_> = FLAGS.iter().filter(|f| !matches!(f.action, Action::Conform)).collect();
        for (index, flag) in parsed.iter().enumerate() {
            for other in &parsed[index + 1..] {
                assert_ne!(flag.long, other.long);
                assert!(flag.short.is_none() || flag.short != other.short, "-{:?}", flag.short);
            }
        }
    }
}
