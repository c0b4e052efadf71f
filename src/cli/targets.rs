//! A fleet's targets, fixed at start-up: `--target NAME=SPEC` (repeatable, or
//! `PANEWARD_TARGETS` comma-separated) and `--targets-file FILE` (one `NAME=SPEC` a
//! line, `#` comments, blank lines). No host, user or socket is ever taken from a call,
//! so these are every server an agent can reach.
//!
//! SPEC is one of:
//! - `default`: the server plain `tmux` uses;
//! - `-L:NAME`: tmux's socket NAME (as `tmux -L NAME`);
//! - `-S:/PATH`: the socket at an absolute PATH (as `tmux -S PATH`);
//! - `ssh://[USER@]HOST[:PORT]`, optionally followed by `/-L:NAME` or `/-S:/PATH`: a
//!   server on that host, reached through the system's ssh (as `--ssh`).

use std::io::Read;
use std::path::{Path, PathBuf};

use super::usage::UsageError;
use crate::config::TargetSpec;
use crate::limits::{TARGETS_FILE_MAX_BYTES, TARGET_NAME_MAX_CHARS};
use crate::tmux::ssh::SshTarget;
use crate::tmux::ServerAddress;

/// The grammar, as messages and `--help` spell it.
pub const SPEC_FORMS: &str =
    "default, -L:SOCKETNAME, -S:/ABSOLUTE/PATH, or ssh://[USER@]HOST[:PORT][/-L:SOCKETNAME|/-S:/PATH]";

/// Every target from the flags, the variable (when no flag names one) and the file, in
/// that order, each name once.
///
/// # Errors
/// A malformed `NAME=SPEC`, a name given twice, or a file that cannot be read; each
/// message names where the bad entry came from.
pub fn resolve_targets(
    flags: Vec<String>,
    variable: Option<String>,
    file: Option<PathBuf>,
    ssh_options: &[String],
) -> Result<Vec<TargetSpec>, UsageError> {
    let mut entries: Vec<(String, String)> = Vec::new();
    if flags.is_empty() {
        for item in variable.iter().flat_map(|v| v.split(',')).map(str::trim) {
            if !item.is_empty() {
                entries.push(("PANEWARD_TARGETS".into(), item.to_string()));
            }
        }
    } else {
        entries.extend(flags.into_iter().map(|entry| ("--target".to_string(), entry)));
    }
    if let Some(path) = file {
        entries.extend(file_entries(&path)?);
    }
    let mut targets: Vec<TargetSpec> = Vec::new();
    for (origin, entry) in entries {
        let target = parse_entry(&entry, ssh_options).map_err(|rule| UsageError(format!("{origin}: {rule}")))?;
        if targets.iter().any(|known| known.name == target.name) {
            return Err(UsageError(format!(
                "{origin}: target `{}` is named twice; each target needs a name of its own",
                target.name
            )));
        }
        targets.push(target);
    }
    Ok(targets)
}

/// The entries of a targets file, each with its origin (`FILE:LINE`).
fn file_entries(path: &Path) -> Result<Vec<(String, String)>, UsageError> {
    let file = std::fs::File::open(path)
        .map_err(|e| UsageError(format!("--targets-file: cannot read {}: {e}", path.display())))?;
    let mut text = String::new();
    file.take(TARGETS_FILE_MAX_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| UsageError(format!("--targets-file: cannot read {}: {e}", path.display())))?;
    if text.len() as u64 > TARGETS_FILE_MAX_BYTES {
        return Err(UsageError(format!(
            "--targets-file: {} is larger than {TARGETS_FILE_MAX_BYTES} bytes",
            path.display()
        )));
    }
    Ok(text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(number, line)| (format!("{}:{number}", path.display()), line.to_string()))
        .collect())
}

/// One `NAME=SPEC`.
fn parse_entry(entry: &str, ssh_options: &[String]) -> Result<TargetSpec, String> {
    let Some((name, spec)) = entry.split_once('=') else {
        return Err(format!(
            "{:?} is not NAME=SPEC (e.g. build=ssh://me@build or local=-L:work)",
            excerpt(entry)
        ));
    };
    let name = checked_target_name(name.trim())?;
    let spec = spec.trim();
    let (address, ssh) = parse_spec(spec, ssh_options).map_err(|rule| format!("target `{name}`: {rule}"))?;
    Ok(TargetSpec {
        name,
        address,
        ssh,
        spec: spec.to_string(),
    })
}

/// A target name: a lowercase letter, then lowercase letters, digits and `-`.
///
/// # Errors
/// The name breaks that rule, saying which.
pub fn checked_target_name(name: &str) -> Result<String, String> {
    let mut chars = name.chars();
    let starts = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    let rest = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !starts || !rest || name.chars().count() > TARGET_NAME_MAX_CHARS {
        return Err(format!(
            "target name {:?} must be a lowercase letter followed by at most {} lowercase letters, digits or `-`",
            excerpt(name),
            TARGET_NAME_MAX_CHARS - 1
        ));
    }
    Ok(name.to_string())
}

/// A SPEC: the socket, and the far host when there is one.
fn parse_spec(spec: &str, ssh_options: &[String]) -> Result<(ServerAddress, Option<SshTarget>), String> {
    if let Some(rest) = spec.strip_prefix("ssh://") {
        let (authority, socket) = match rest.split_once('/') {
            Some((authority, socket)) => (authority, Some(socket)),
            None => (rest, None),
        };
        let host_ok = !authority.is_empty()
            && !authority.starts_with('-')
            && !authority.starts_with('@')
            && !authority.ends_with(':')
            && authority.chars().all(|c| c.is_ascii_graphic());
        if !host_ok {
            return Err(format!("{:?} names no host; the forms are {SPEC_FORMS}", excerpt(spec)));
        }
        let address = match socket {
            None => ServerAddress::Default,
            Some(socket) => parse_socket(socket)?,
        };
        let ssh = SshTarget {
            destination: format!("ssh://{authority}"),
            options: ssh_options.to_vec(),
        };
        return Ok((address, Some(ssh)));
    }
    Ok((parse_socket(spec)?, None))
}

/// `default`, `-L:NAME` or `-S:/PATH`.
fn parse_socket(spec: &str) -> Result<ServerAddress, String> {
    if spec == "default" {
        return Ok(ServerAddress::Default);
    }
    if let Some(name) = spec.strip_prefix("-L:") {
        if name.is_empty() || name.contains('/') {
            return Err("-L: needs a socket name with no `/`; use -S: for a path".into());
        }
        return Ok(ServerAddress::Name(name.to_string()));
    }
    if let Some(path) = spec.strip_prefix("-S:") {
        if !path.starts_with('/') {
            return Err(format!("-S: needs an absolute path, not {:?}", excerpt(path)));
        }
        return Ok(ServerAddress::Path(PathBuf::from(path)));
    }
    Err(format!(
        "{:?} is not a target; the forms are {SPEC_FORMS}",
        excerpt(spec)
    ))
}

fn excerpt(text: &str) -> String {
    text.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(entry: &str) -> Result<TargetSpec, String> {
        parse_entry(entry, &["-F".into(), "/c".into()])
    }

    #[test]
    fn every_form_of_the_grammar_reads_as_its_socket_and_host() {
        let local = one("local=-L:work").unwrap();
        assert_eq!((local.address, local.ssh), (ServerAddress::Name("work".into()), None));
        assert_eq!(one("plain=default").unwrap().address, ServerAddress::Default);
        assert_eq!(
            one("p=-S:/run/t.sock").unwrap().address,
            ServerAddress::Path("/run/t.sock".into())
        );
        let far = one("build=ssh://me@build:2222/-L:agents").unwrap();
        assert_eq!(far.address, ServerAddress::Name("agents".into()));
        let ssh = far.ssh.unwrap();
        assert_eq!(ssh.destination, "ssh://me@build:2222");
        assert_eq!(ssh.options, ["-F", "/c"]);
        let far = one("vm=ssh://vm/-S:/tmp/s").unwrap();
        assert_eq!(far.address, ServerAddress::Path("/tmp/s".into()));
        assert_eq!(one("vm=ssh://vm").unwrap().address, ServerAddress::Default);
    }

    #[test]
    fn each_bad_entry_is_refused_with_its_rule() {
        for (entry, rule) in [
            ("noequals", "NAME=SPEC"),
            ("Big=-L:x", "lowercase letter"),
            ("9a=-L:x", "lowercase letter"),
            ("a/b=-L:x", "lowercase letter"),
            ("a=-L:", "-L: needs"),
            ("a=-L:x/y", "-L: needs"),
            ("a=-S:rel", "absolute path"),
            ("a=tcp://x", "the forms are"),
            ("a=ssh://", "names no host"),
            ("a=ssh://-oProxyCommand=x", "names no host"),
            ("a=ssh://h/x", "the forms are"),
        ] {
            let error = one(entry).unwrap_err();
            assert!(error.contains(rule), "{entry}: {error}");
        }
        let long = format!("{}=-L:x", "a".repeat(TARGET_NAME_MAX_CHARS + 1));
        assert!(one(&long).is_err());
        assert!(one(&format!("{}=-L:x", "a".repeat(TARGET_NAME_MAX_CHARS))).is_ok());
    }

    #[test]
    fn flags_beat_the_variable_and_the_file_adds_its_lines_and_names_are_unique() {
        let flags = vec!["a=-L:x".to_string()];
        let got = resolve_targets(flags, Some("b=-L:y".into()), None, &[]).unwrap();
        assert_eq!(got.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a"]);
        let got = resolve_targets(Vec::new(), Some("b=-L:y, c=default".into()), None, &[]).unwrap();
        assert_eq!(got.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["b", "c"]);
        let dir = std::env::temp_dir().join(format!("paneward-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("targets");
        std::fs::write(&file, "# the fleet\n\nd=-L:z\n  e = ssh://h/-L:w  \n").unwrap();
        let got = resolve_targets(vec!["a=-L:x".into()], None, Some(file.clone()), &[]).unwrap();
        assert_eq!(got.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a", "d", "e"]);
        std::fs::write(&file, "a=-L:z\n").unwrap();
        let error = resolve_targets(vec!["a=-L:x".into()], None, Some(file.clone()), &[]).unwrap_err();
        assert!(error.0.contains("named twice") && error.0.contains(":1"), "{error}");
        std::fs::write(&file, "\nbad line\n").unwrap();
        let error = resolve_targets(Vec::new(), None, Some(file.clone()), &[]).unwrap_err();
        assert!(error.0.contains("targets:2"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
        let error = resolve_targets(Vec::new(), None, Some(dir.join("none")), &[]).unwrap_err();
        assert!(error.0.starts_with("--targets-file: cannot read"), "{error}");
    }
}
