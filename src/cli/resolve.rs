//! Each setting from its flag, else its variable, else its default, checked: the
//! server, profile, tier, audit log, limits, ssh, HTTP and the tools served. A bad
//! value is a [`UsageError`] that names the flag or variable.

use crate::limits::{MAX_WAIT_CEILING_SECONDS, MAX_WAIT_DEFAULT, PRIVATE_NAME_MAX_CHARS, TMUX_CLIENTS_DEFAULT_MAX};
use std::path::PathBuf;

use paneward_contract::Tier;

use super::flags::var;
use super::usage::UsageError;
use crate::catalog::profile::Profile;
use crate::catalog::surface::{parse_tools, parse_toolsets, SurfaceChoice};
use crate::config::{AuditTarget, ServerStart, PRIVATE_SOCKET_PREFIX};
use crate::mcp::http::options::{parse_bind, TokenSource};
use crate::mcp::http::HttpOptions;
use crate::tmux::ssh::SshTarget;
use crate::tmux::ServerAddress;

/// Reads the environment through a function so tests can supply their own.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Which tmux server, how it was chosen, whether paneward may start it, and the
/// `--private` name: `--private` (or its variable) names its own socket and config,
/// else the socket flags or variables, else tmux's default.
pub(super) fn resolve_server(
    private: Option<String>,
    private_config: Option<PathBuf>,
    start_server: bool,
    socket_name: Option<String>,
    socket_path: Option<PathBuf>,
    env: EnvLookup<'_>,
) -> Result<(ServerAddress, &'static str, ServerStart, Option<String>), UsageError> {
    let private = private.or_else(|| env(var::PRIVATE).filter(|v| !v.is_empty()));
    let private_config =
        private_config.or_else(|| env(var::PRIVATE_CONFIG).filter(|v| !v.is_empty()).map(PathBuf::from));
    let start_server = start_server || env_switch(var::START_SERVER, env)?;
    Ok(match private {
        Some(name) => {
            if socket_name.is_some()
                || socket_path.is_some()
                || env(var::SOCKET_NAME).is_some_and(|v| !v.is_empty())
                || env(var::SOCKET_PATH).is_some_and(|v| !v.is_empty())
            {
                return Err(UsageError(
                    "--private names its own socket; give it without --socket-name/--socket-path (or their variables)"
                        .into(),
                ));
            }
            let name = checked_private_name(name)?;
            let address = ServerAddress::Name(format!("{PRIVATE_SOCKET_PREFIX}{name}"));
            // Never the person's ~/.tmux.conf unless they name it (--private-config).
            let config_file = private_config.unwrap_or_else(|| PathBuf::from("/dev/null"));
            (address, "--private", ServerStart::ConfigFile(config_file), Some(name))
        }
        None => {
            if private_config.is_some() {
                return Err(UsageError("--private-config goes with --private".into()));
            }
            let (address, origin) = resolve_address(socket_name, socket_path, env)?;
            let start = if start_server {
                ServerStart::TmuxConfig
            } else {
                ServerStart::Refused
            };
            (address, origin, start, None)
        }
    })
}

/// The contract served: `--profile`, else its variable, else paneward's own.
pub(super) fn resolve_profile(profile: Option<String>, env: EnvLookup<'_>) -> Result<Profile, UsageError> {
    Ok(match profile.or_else(|| env(var::PROFILE).filter(|v| !v.is_empty())) {
        Some(text) => text
            .parse::<Profile>()
            .map_err(|e| UsageError(format!("--profile: {e}")))?,
        None => Profile::Default,
    })
}

/// Where the audit log goes, if anywhere: a path, or `-` for stderr.
pub(super) fn resolve_audit_log(
    audit_log: Option<String>,
    env: EnvLookup<'_>,
) -> Result<Option<AuditTarget>, UsageError> {
    Ok(
        match audit_log.or_else(|| env(var::AUDIT_LOG).filter(|v| !v.is_empty())) {
            Some(text) if text == "-" => Some(AuditTarget::Stderr),
            Some(text) if text.is_empty() => {
                return Err(UsageError("--audit-log needs a path, or - for stderr".into()))
            }
            Some(text) => Some(AuditTarget::File(PathBuf::from(text))),
            None => None,
        },
    )
}

/// The settings the libtmux family retired, which stop `--profile libtmux` as they stop
/// `tmux-mcp` 0.1.2: the family's ordered safety level and the Rust port's older one.
const LIBTMUX_RETIRED: [&str; 2] = ["LIBTMUX_SAFETY", "TMUX_MCP_SAFETY"];

/// The tier: `--safety`, else paneward's variable, else libtmux-mcp's old one (which
/// the python profile refuses, as libtmux-mcp does), else mutating.
pub(super) fn resolve_safety(safety: Option<String>, profile: Profile, env: EnvLookup<'_>) -> Result<Tier, UsageError> {
    // libtmux-mcp 0.1.0a22 refuses to start with LIBTMUX_SAFETY set (it removed the
    // setting); under its profile so does paneward, rather than guess what was meant.
    if profile == Profile::Python && env("LIBTMUX_SAFETY").is_some() {
        return Err(UsageError(
            "LIBTMUX_SAFETY has been removed (as in libtmux-mcp 0.1.0a22): select toolsets with LIBTMUX_TOOLSETS \
             (inspect; inspect,manage,execute; or inspect,manage,execute,teardown), and paneward's tier with --safety \
             readonly|mutating|destructive; unset LIBTMUX_SAFETY"
                .into(),
        ));
    }
    // tmux-mcp 0.1.2 stops on either of its retired safety settings, with this reason.
    if profile == Profile::Libtmux {
        if let Some(retired) = LIBTMUX_RETIRED.into_iter().find(|name| env(name).is_some()) {
            return Err(UsageError(format!(
                "{retired} has been removed; use LIBTMUX_TOOLSETS (and paneward's tier with --safety)"
            )));
        }
    }
    let safety_text = safety.or_else(|| env(var::SAFETY)).or_else(|| env("LIBTMUX_SAFETY"));
    Ok(match safety_text {
        Some(text) => text.parse::<Tier>().map_err(|e| UsageError(format!("--safety: {e}")))?,
        None => Tier::Mutating,
    })
}

/// How many tmux clients paneward keeps at once: 1 to 256.
pub(super) fn resolve_max_tmux_clients(
    max_tmux_clients: Option<String>,
    env: EnvLookup<'_>,
) -> Result<usize, UsageError> {
    Ok(match max_tmux_clients.or_else(|| env(var::MAX_TMUX_CLIENTS)) {
        None => TMUX_CLIENTS_DEFAULT_MAX,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=256).contains(n))
            .ok_or_else(|| UsageError("--max-tmux-clients must be a number from 1 to 256".into()))?,
    })
}

/// The longest wait a tool may ask for, in whole seconds.
pub(super) fn resolve_max_wait(
    max_wait: Option<String>,
    profile: Profile,
    env: EnvLookup<'_>,
) -> Result<std::time::Duration, UsageError> {
    Ok(match max_wait.or_else(|| env(var::MAX_WAIT)) {
        None if profile == Profile::Python => python_wait_ceiling(env("LIBTMUX_MCP_WAIT_MAX_SECONDS").as_deref()),
        None => MAX_WAIT_DEFAULT,
        Some(text) => text
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_WAIT_CEILING_SECONDS).contains(n))
            .map(std::time::Duration::from_secs)
            .ok_or_else(|| {
                UsageError(format!(
                    "--max-wait must be a whole number of seconds from 1 to {MAX_WAIT_CEILING_SECONDS}"
                ))
            })?,
    })
}

/// Refuses, under the python profile, a libtmux-mcp setting paneward does not serve:
/// `LIBTMUX_MCP_PROMPTS_AS_TOOLS=1` (libtmux-mcp then also lists its prompts as tools;
/// paneward's prompts are its own, so the tools it would add do not exist here).
/// libtmux-mcp reads no other value of it, so neither does paneward.
///
/// # Errors
/// The variable is `1` under `--profile python`.
pub(super) fn refuse_unserved_python_settings(profile: Profile, env: EnvLookup<'_>) -> Result<(), UsageError> {
    if profile == Profile::Python && env("LIBTMUX_MCP_PROMPTS_AS_TOOLS").as_deref() == Some("1") {
        return Err(UsageError(
            "LIBTMUX_MCP_PROMPTS_AS_TOOLS=1 is not served: paneward's prompts are its own, not libtmux-mcp's, so the \
             prompt tools it would add do not exist under --profile python; unset it and use prompts/list"
                .into(),
        ));
    }
    Ok(())
}

/// libtmux-mcp 0.1.0a22's wait ceiling, from `LIBTMUX_MCP_WAIT_MAX_SECONDS` as it
/// reads it: unset 30 s; a number of seconds held within 1 to 120; a value that is not
/// a finite number 30 s, with a warning (libtmux-mcp starts anyway, and so does paneward).
fn python_wait_ceiling(value: Option<&str>) -> std::time::Duration {
    const DEFAULT: f64 = 30.0;
    let seconds = match value.map(|text| (text, text.trim().parse::<f64>())) {
        None => DEFAULT,
        Some((_, Ok(parsed))) if parsed.is_finite() => {
            let clamped = parsed.clamp(1.0, 120.0);
            if clamped != parsed {
                eprintln!(
                    "paneward: LIBTMUX_MCP_WAIT_MAX_SECONDS={parsed} is out of range: the wait ceiling is {clamped} s"
                );
            }
            clamped
        }
        Some((text, _)) => {
            eprintln!(
                "paneward: LIBTMUX_MCP_WAIT_MAX_SECONDS={text:?} is not a number of seconds: the wait ceiling is 30 s"
            );
            DEFAULT
        }
    };
    std::time::Duration::from_secs_f64(seconds)
}

/// The ssh destination tmux runs behind, with its options, if any.
pub(super) fn resolve_ssh(
    ssh: Option<String>,
    ssh_options: Vec<String>,
    env: EnvLookup<'_>,
) -> Result<Option<SshTarget>, UsageError> {
    Ok(match ssh.or_else(|| env(var::SSH).filter(|v| !v.is_empty())) {
        Some(destination) if destination.is_empty() || destination.starts_with('-') => {
            return Err(UsageError(
                "--ssh needs a destination such as user@host or ssh://user@host:port".into(),
            ))
        }
        Some(destination) => Some(SshTarget {
            destination,
            options: ssh_options,
        }),
        None if !ssh_options.is_empty() => return Err(UsageError("--ssh-config and --ssh-option need --ssh".into())),
        None => None,
    })
}

/// `serve --http`'s options: the address, and the bearer token from `--token-file` or
/// `PANEWARD_TOKEN`; `None` without `--http`, whose companions are then refused.
pub(super) fn resolve_http(
    subcommand: Option<&str>,
    http: Option<String>,
    token_file: Option<PathBuf>,
    extra_origins: Vec<String>,
    extra_hosts: Vec<String>,
    env: EnvLookup<'_>,
) -> Result<Option<HttpOptions>, UsageError> {
    let serving = matches!(subcommand, None | Some("serve"));
    if http.is_some() && !serving {
        return Err(UsageError("--http goes with serve".into()));
    }
    if let Some(bind) = http {
        let token = match token_file {
            Some(path) => TokenSource::File(path),
            None => match env("PANEWARD_TOKEN").filter(|v| !v.is_empty()) {
                Some(text) => TokenSource::Environment(text),
                None => {
                    return Err(UsageError(format!(
                        "serve --http needs a bearer token (--token-file FILE or PANEWARD_TOKEN); {}",
                        crate::mcp::http::token::MAKE_ONE
                    )))
                }
            },
        };
        let http = HttpOptions {
            bind: parse_bind(&bind).map_err(UsageError)?,
            token,
            extra_origins,
            extra_hosts,
        };
        return Ok(Some(http));
    }
    if token_file.is_some() || !extra_origins.is_empty() || !extra_hosts.is_empty() {
        return Err(UsageError(
            "--token-file, --allow-origin and --allow-host go with serve --http".into(),
        ));
    }
    Ok(None)
}

/// The operator's choice of tools: each list from its flag, else paneward's variable,
/// else libtmux-mcp's. A variable set but empty counts (an empty toolset list serves
/// none), as libtmux-mcp reads it. Tool names are checked against the tools of the
/// profile served.
pub(super) fn resolve_surface(
    profile: Profile,
    (toolsets, tools, exclude): (Option<String>, Option<String>, Option<String>),
    env: EnvLookup<'_>,
) -> Result<SurfaceChoice, UsageError> {
    let pick = |flag: Option<String>, long: &'static str, ours: &'static str, theirs: &'static str| {
        flag.map(|text| (text, long))
            .or_else(|| env(ours).map(|text| (text, ours)))
            .or_else(|| env(theirs).map(|text| (text, theirs)))
    };
    let toolsets = match pick(toolsets, "--toolsets", var::TOOLSETS, "LIBTMUX_TOOLSETS") {
        Some((text, origin)) => Some(parse_toolsets(&text, origin).map_err(UsageError)?),
        None => None,
    };
    let list = |given: Option<(String, &'static str)>| match given {
        Some((text, origin)) => parse_tools(&text, origin, profile).map_err(UsageError),
        None => Ok(Default::default()),
    };
    Ok(SurfaceChoice {
        toolsets,
        tools: list(pick(tools, "--tools", var::TOOLS, "LIBTMUX_TOOLS"))?,
        exclude: list(pick(
            exclude,
            "--exclude-tools",
            var::EXCLUDE_TOOLS,
            "LIBTMUX_EXCLUDE_TOOLS",
        ))?,
    })
}

/// `LIBTMUX_SUPPRESS_HISTORY`, read as libtmux-mcp 0.1.0a22 reads it: unset or `1` is
/// on, `0` off, anything else stops start-up.
pub(super) fn suppress_history_default(env: EnvLookup<'_>) -> Result<bool, UsageError> {
    match env("LIBTMUX_SUPPRESS_HISTORY").as_deref() {
        None | Some("1") => Ok(true),
        Some("0") => Ok(false),
        Some(_) => Err(UsageError("LIBTMUX_SUPPRESS_HISTORY must be unset, '0', or '1'".into())),
    }
}

/// An on/off environment variable: unset or empty is off; anything but the usual
/// spellings stops start-up rather than guessing.
pub(super) fn env_switch(key: &str, env: EnvLookup<'_>) -> Result<bool, UsageError> {
    match env(key).as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "0" | "false" | "no" | "off") => Ok(false),
        Some("1" | "true" | "yes" | "on") => Ok(true),
        Some(_) => Err(UsageError(format!(
            "{key} must be 1 or 0 (or true/false, yes/no, on/off)"
        ))),
    }
}

/// Flags beat paneward's variables, which beat libtmux-mcp's; also says which chose.
fn resolve_address(
    name: Option<String>,
    path: Option<PathBuf>,
    env: EnvLookup<'_>,
) -> Result<(ServerAddress, &'static str), UsageError> {
    let non_empty = |key: &str| env(key).filter(|v| !v.is_empty());
    let from = |origin: &'static str| move |address| (address, origin);
    match (name, path) {
        (Some(_), Some(_)) => Err(UsageError(
            "give either --socket-name or --socket-path, not both".into(),
        )),
        (Some(name), None) => checked_name(name).map(from("--socket-name")),
        (None, Some(path)) => Ok((ServerAddress::Path(path), "--socket-path")),
        (None, None) => match (non_empty(var::SOCKET_NAME), non_empty(var::SOCKET_PATH)) {
            (Some(_), Some(_)) => Err(UsageError(format!(
                "{} and {} are both set; unset one",
                var::SOCKET_NAME,
                var::SOCKET_PATH
            ))),
            (Some(name), None) => checked_name(name).map(from(var::SOCKET_NAME)),
            (None, Some(path)) => Ok((ServerAddress::Path(PathBuf::from(path)), var::SOCKET_PATH)),
            // libtmux hands tmux `-S` when it has a path, else `-L`: the path wins.
            (None, None) => match (non_empty("LIBTMUX_SOCKET_PATH"), non_empty("LIBTMUX_SOCKET")) {
                (Some(path), _) => Ok((ServerAddress::Path(PathBuf::from(path)), "LIBTMUX_SOCKET_PATH")),
                (None, Some(value)) if value.contains('/') => {
                    Ok((ServerAddress::Path(PathBuf::from(value)), "LIBTMUX_SOCKET"))
                }
                (None, Some(value)) => checked_name(value).map(from("LIBTMUX_SOCKET")),
                (None, None) => Ok((
                    ServerAddress::Default,
                    "none: tmux's own default ($TMUX, then the default socket)",
                )),
            },
        },
    }
}

/// A private server's NAME: letters, digits, `-` and `_`, so the socket name is one
/// plain word a person can type after `tmux -L`.
fn checked_private_name(name: String) -> Result<String, UsageError> {
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if name.is_empty() || name.chars().count() > PRIVATE_NAME_MAX_CHARS || !plain {
        return Err(UsageError(format!(
            "--private NAME must be 1 to {PRIVATE_NAME_MAX_CHARS} letters, digits, - or _"
        )));
    }
    Ok(name)
}

/// tmux joins the name onto its socket folder: a `/` would reach outside it.
fn checked_name(name: String) -> Result<ServerAddress, UsageError> {
    if name.is_empty() || name.contains('/') {
        return Err(UsageError(
            "a socket name must be non-empty and hold no `/`; use --socket-path for a path".into(),
        ));
    }
    Ok(ServerAddress::Name(name))
}

/// `--max-connected-targets`: at least 1.
pub(super) fn resolve_max_connected_targets(flag: Option<String>, env: EnvLookup<'_>) -> Result<usize, UsageError> {
    match flag.or_else(|| env(var::MAX_CONNECTED_TARGETS).filter(|v| !v.is_empty())) {
        None => Ok(crate::limits::CONNECTED_TARGETS_DEFAULT_MAX),
        Some(text) => match text.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(UsageError(format!(
                "--max-connected-targets must be a whole number of at least 1, not {:?}",
                text.chars().take(20).collect::<String>()
            ))),
        },
    }
}

/// `--deployment`: the name `serverInfo` gives, a short word a gateway can prefix with.
pub(super) fn resolve_deployment(flag: Option<String>, env: EnvLookup<'_>) -> Result<Option<String>, UsageError> {
    let Some(name) = flag.or_else(|| env(var::DEPLOYMENT).filter(|v| !v.is_empty())) else {
        return Ok(None);
    };
    let fits = !name.is_empty()
        && name.len() <= crate::limits::TARGET_NAME_MAX_CHARS
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !fits {
        return Err(UsageError(format!(
            "--deployment must be 1 to {} letters, digits, - or _",
            crate::limits::TARGET_NAME_MAX_CHARS
        )));
    }
    Ok(Some(name))
}
