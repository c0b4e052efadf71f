//! The command line and environment: what to run, and the [`Config`] to run it with.
//! The flags are defined in [`super::flags`] and read by [`super::parse`]; here the raw
//! arguments meet the variables, the defaults and the checks (each setting's own in
//! [`super::resolve`]).
//!
//! The server is fixed at start-up so that no tool call can point paneward at another
//! one. A bad setting stops start-up with a message; it never silently widens what a
//! model may do.

use std::ffi::OsString;
use std::path::PathBuf;

use super::flags::var;
use super::parse::Parsed;
use super::raw::RawArgs;
pub use super::resolve::EnvLookup;
use super::resolve::{
    env_switch, refuse_unserved_python_settings, resolve_audit_log, resolve_deployment, resolve_http,
    resolve_max_connected_targets, resolve_max_tmux_clients, resolve_max_wait, resolve_profile, resolve_safety,
    resolve_server, resolve_ssh, resolve_surface, suppress_history_default,
};
use super::usage::UsageError;
use crate::config::Config;
use crate::config::Scope;
use crate::mcp::http::HttpOptions;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation {
    /// Serve MCP on stdin/stdout (the default).
    Serve(Config),
    /// Serve MCP over Streamable HTTP (`serve --http ADDR`).
    ServeHttp {
        config: Config,
        http: HttpOptions,
    },
    /// Print the tools the server would list; `json` prints the exact `tools/list` result.
    Tools {
        config: Config,
        json: bool,
        /// The tool reference as Markdown (`docs/tools.md`).
        markdown: bool,
    },
    /// Compare an MCP server's tools with the contract (`paneward conform`).
    Conform(crate::conform::Options),
    /// One tool call from a shell: `paneward call TOOL [JSON]`.
    Call {
        config: Config,
        tool: String,
        arguments: Option<String>,
    },
    /// Say what paneward would do and whether it can serve (`paneward doctor`).
    Doctor(Config),
    /// Mark a pane the person chose as the agent's (`paneward grant [PANE]`), or take
    /// that back (`paneward revoke [PANE]`); `None`: the pane the shell runs in.
    Grant {
        config: Config,
        pane: Option<String>,
        revoke: bool,
    },
    /// `--help`: the whole page, or one subcommand's.
    Help(Option<String>),
    Version,
}

/// Parses the arguments after the program name.
///
/// # Errors
/// An unknown option or subcommand, a missing value, both -L and -S, or an unknown tier.
pub fn parse(args: impl IntoIterator<Item = OsString>, env: EnvLookup<'_>) -> Result<Invocation, UsageError> {
    let mut args = args.into_iter().peekable();
    if args.peek().is_some_and(|first| first == "conform") {
        let rest: Vec<OsString> = args.skip(1).collect();
        if rest.first().is_some_and(|a| a == "-h" || a == "--help") {
            return Ok(Invocation::Help(Some("conform".into())));
        }
        return crate::conform::options::parse(rest)
            .map(Invocation::Conform)
            .map_err(UsageError);
    }
    let raw = match super::parse::raw_args(args)? {
        Parsed::Raw(raw) => *raw,
        Parsed::Help(subcommand) => return Ok(Invocation::Help(subcommand)),
        Parsed::Version => return Ok(Invocation::Version),
    };
    resolve(raw, env)
}

/// Applies variables, defaults and checks to the arguments as given.
fn resolve(raw: RawArgs, env: EnvLookup<'_>) -> Result<Invocation, UsageError> {
    let RawArgs {
        subcommand,
        positional,
        socket_name,
        socket_path,
        tmux_binary,
        safety,
        scope,
        profile,
        toolsets,
        tools,
        exclude_tools,
        audit_log,
        json,
        markdown,
        reveal_environment,
        show_commands,
        allow_attended_input,
        no_control_mode,
        no_native_client,
        no_hidden_client,
        max_tmux_clients,
        max_wait,
        http,
        token_file,
        extra_origins,
        extra_hosts,
        ssh,
        ssh_options,
        private,
        private_config,
        start_server,
        targets,
        targets_file,
        max_connected_targets,
        deployment,
    } = raw;
    let profile = resolve_profile(profile, env)?;
    // libtmux-mcp's create_session starts the server when none runs; so does its profile's.
    let start_server = start_server || profile == crate::catalog::profile::Profile::Python;
    let (address, address_origin, server_start, private_name) =
        resolve_server(private, private_config, start_server, socket_name, socket_path, env)?;
    let audit_log = resolve_audit_log(audit_log, env)?;
    let safety = resolve_safety(safety, profile, env)?;
    refuse_unserved_python_settings(profile, env)?;
    let scope = match scope.or_else(|| env(var::SCOPE).filter(|v| !v.is_empty())) {
        Some(text) => text.parse::<Scope>().map_err(|e| UsageError(format!("--scope: {e}")))?,
        // On its own server paneward touches only what it made or was granted.
        None if private_name.is_some() => Scope::Owned,
        None => Scope::All,
    };
    let tmux_binary = tmux_binary
        .or_else(|| env(var::TMUX).map(PathBuf::from))
        .or_else(|| env("LIBTMUX_TMUX_BIN").filter(|v| !v.is_empty()).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("tmux"));
    let suppress_history = suppress_history_default(env)?;
    let reveal_environment = reveal_environment || env_switch(var::REVEAL_ENVIRONMENT, env)?;
    let show_commands = show_commands || env_switch(var::SHOW_COMMANDS, env)?;
    let allow_attended_input = allow_attended_input || env_switch(var::ALLOW_ATTENDED_INPUT, env)?;
    let control_mode = !(no_control_mode || env_switch(var::NO_CONTROL_MODE, env)?);
    let native_client = !(no_native_client || env_switch(var::NO_NATIVE_CLIENT, env)?);
    let hidden_client = !(no_hidden_client || env_switch(var::NO_HIDDEN_CLIENT, env)?);
    let max_tmux_clients = resolve_max_tmux_clients(max_tmux_clients, env)?;
    let max_wait = resolve_max_wait(max_wait, profile, env)?;
    let targets_given =
        !targets.is_empty() || targets_file.is_some() || env(var::TARGETS).is_some_and(|v| !v.is_empty());
    let ssh_for_targets = ssh_options.clone();
    if targets_given && (ssh.is_some() || env(var::SSH).is_some_and(|v| !v.is_empty())) {
        return Err(UsageError(
            "--target names each server itself; give it without --ssh (write the host in the target: NAME=ssh://HOST)"
                .into(),
        ));
    }
    let ssh = if targets_given {
        None
    } else {
        resolve_ssh(ssh, ssh_options, env)?
    };
    let mut targets = super::targets::resolve_targets(targets, env(var::TARGETS), targets_file, &ssh_for_targets)?;
    if targets_given {
        if private_name.is_some() || !address_origin.starts_with("none") {
            return Err(UsageError(format!(
                "--target names each server itself; give it without -L, -S or --private (set by {address_origin})"
            )));
        }
        if targets.len() > 1 && profile != crate::catalog::profile::Profile::Default {
            return Err(UsageError(
                "several --target serve paneward's own contract only; leave out --profile".into(),
            ));
        }
    }
    let max_connected_targets = resolve_max_connected_targets(max_connected_targets, env)?;
    let deployment = resolve_deployment(deployment, env)?;
    // One target is today's server, named differently: nothing else changes.
    let (address, ssh, address_origin) = match targets.as_slice() {
        [only] => {
            let only = only.clone();
            targets.clear();
            (only.address, only.ssh, "--target")
        }
        _ => (address, ssh, address_origin),
    };
    let surface = resolve_surface(profile, (toolsets, tools, exclude_tools), env)?;
    let config = Config {
        ssh,
        tmux_binary,
        address,
        safety,
        scope,
        reveal_environment,
        show_commands,
        allow_attended_input,
        suppress_history,
        control_mode,
        native_client,
        hidden_client,
        max_tmux_clients,
        max_wait,
        profile,
        surface,
        audit_log,
        address_origin,
        private: private_name,
        server_start,
        targets,
        max_connected_targets,
        deployment,
    };
    if let Some(http) = resolve_http(subcommand.as_deref(), http, token_file, extra_origins, extra_hosts, env)? {
        return Ok(Invocation::ServeHttp { config, http });
    }
    invocation(subcommand, positional, config, json, markdown)
}

/// What the subcommand asks for, with the configuration resolved.
fn invocation(
    subcommand: Option<String>,
    positional: Vec<String>,
    config: Config,
    json: bool,
    markdown: bool,
) -> Result<Invocation, UsageError> {
    Ok(match subcommand.as_deref() {
        Some("tools") if json && markdown => {
            return Err(UsageError("give either --json or --markdown, not both".into()))
        }
        Some("tools") => Invocation::Tools { config, json, markdown },
        Some("doctor") => Invocation::Doctor(config),
        Some(verb @ ("grant" | "revoke")) => Invocation::Grant {
            revoke: verb == "revoke",
            pane: positional.into_iter().next(),
            config,
        },
        Some("call") => {
            let mut positional = positional.into_iter();
            let Some(tool) = positional.next() else {
                return Err(UsageError(
                    "call needs a tool name, e.g. paneward call list_panes or paneward call capture_pane '{\"pane_id\":\"%0\"}'".into(),
                ));
            };
            Invocation::Call {
                config,
                tool,
                arguments: positional.next(),
            }
        }
        _ => Invocation::Serve(config),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::profile::Profile;
    use crate::config::{AuditTarget, ServerStart};
    use crate::limits::{MAX_WAIT_DEFAULT, TMUX_CLIENTS_DEFAULT_MAX};
    use crate::mcp::http::options::TokenSource;
    use crate::tmux::ServerAddress;
    use paneward_contract::Tier;
    use std::collections::HashMap;

    fn parse_with(args: &[&str], vars: &[(&str, &str)]) -> Result<Invocation, UsageError> {
        let vars: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        parse(args.iter().map(OsString::from), &|key| vars.get(key).cloned())
    }

    fn serve_config(args: &[&str], vars: &[(&str, &str)]) -> Config {
        match parse_with(args, vars).unwrap() {
            Invocation::Serve(config) => config,
            other => panic!("expected serve, got {other:?}"),
        }
    }

    #[test]
    fn defaults_are_the_default_server_and_the_mutating_tier() {
        let config = serve_config(&[], &[]);
        assert_eq!(config.address, ServerAddress::Default);
        assert_eq!(config.safety, Tier::Mutating);
        assert_eq!(config.tmux_binary, PathBuf::from("tmux"));
    }

    #[test]
    fn libtmux_mcp_variables_mean_what_they_mean_to_libtmux_mcp() {
        // A socket path beats a socket name, as libtmux hands tmux -S before -L.
        let both = [("LIBTMUX_SOCKET", "lib"), ("LIBTMUX_SOCKET_PATH", "/run/lib.sock")];
        assert_eq!(
            serve_config(&[], &both).address,
            ServerAddress::Path("/run/lib.sock".into())
        );
        assert_eq!(serve_config(&[], &both).address_origin, "LIBTMUX_SOCKET_PATH");
        assert_eq!(
            serve_config(&[], &[("LIBTMUX_TMUX_BIN", "/opt/tmux/bin/tmux")]).tmux_binary,
            PathBuf::from("/opt/tmux/bin/tmux")
        );
        assert_eq!(
            serve_config(&[], &[("PANEWARD_TMUX", "ours"), ("LIBTMUX_TMUX_BIN", "theirs")]).tmux_binary,
            PathBuf::from("ours")
        );
        // LIBTMUX_SUPPRESS_HISTORY: unset or 1 on, 0 off, anything else refused.
        assert!(serve_config(&[], &[]).suppress_history);
        assert!(serve_config(&[], &[("LIBTMUX_SUPPRESS_HISTORY", "1")]).suppress_history);
        assert!(!serve_config(&[], &[("LIBTMUX_SUPPRESS_HISTORY", "0")]).suppress_history);
        let error = parse_with(&[], &[("LIBTMUX_SUPPRESS_HISTORY", "yes")]).unwrap_err();
        assert_eq!(error.0, "LIBTMUX_SUPPRESS_HISTORY must be unset, '0', or '1'");
        // Under the python profile LIBTMUX_SAFETY stops start-up, as 0.1.0a22 does.
        let error = parse_with(&["--profile", "python"], &[("LIBTMUX_SAFETY", "readonly")]).unwrap_err();
        assert!(error.0.starts_with("LIBTMUX_SAFETY has been removed"), "{}", error.0);
        assert!(error.0.contains("LIBTMUX_TOOLSETS"), "{}", error.0);
    }

    #[test]
    fn flags_beat_paneward_variables_which_beat_libtmux_variables() {
        let vars = [
            ("PANEWARD_SOCKET_NAME", "env"),
            ("LIBTMUX_SOCKET", "lib"),
            ("PANEWARD_SAFETY", "readonly"),
            ("LIBTMUX_SAFETY", "destructive"),
        ];
        assert_eq!(
            serve_config(&["-L", "flag"], &vars).address,
            ServerAddress::Name("flag".into())
        );
        assert_eq!(serve_config(&[], &vars).address, ServerAddress::Name("env".into()));
        assert_eq!(serve_config(&[], &vars).safety, Tier::Readonly);
        assert_eq!(serve_config(&[], &vars[2..]).address, ServerAddress::Default);
        assert_eq!(
            serve_config(&[], &[("LIBTMUX_SOCKET", "lib")]).address,
            ServerAddress::Name("lib".into())
        );
        assert_eq!(
            serve_config(&[], &[("LIBTMUX_SOCKET", "/run/t.sock")]).address,
            ServerAddress::Path("/run/t.sock".into())
        );
        assert_eq!(
            serve_config(&[], &[("LIBTMUX_SAFETY", "destructive")]).safety,
            Tier::Destructive
        );
        assert_eq!(serve_config(&["--safety=readonly"], &vars[3..]).safety, Tier::Readonly);
    }

    #[test]
    fn the_scope_is_all_unless_a_flag_or_variable_says_owned() {
        assert_eq!(serve_config(&[], &[]).scope, Scope::All);
        assert_eq!(serve_config(&[], &[("PANEWARD_SCOPE", "owned")]).scope, Scope::Owned);
        assert_eq!(
            serve_config(&["--scope", "all"], &[("PANEWARD_SCOPE", "owned")]).scope,
            Scope::All
        );
        let error = parse_with(&["--scope", "mine"], &[]).unwrap_err();
        assert!(error.0.contains("unknown scope \"mine\""), "{error}");
    }

    #[test]
    fn private_names_its_own_socket_starts_it_without_config_and_scopes_to_owned() {
        let config = serve_config(&["--private", "work"], &[]);
        assert_eq!(config.address, ServerAddress::Name("paneward-work".into()));
        assert_eq!(config.private.as_deref(), Some("work"));
        assert_eq!(config.scope, Scope::Owned);
        assert_eq!(config.server_start, ServerStart::ConfigFile("/dev/null".into()));
        assert_eq!(config.address_origin, "--private");
        let config = serve_config(
            &["--scope", "all", "--private-config", "/c"],
            &[("PANEWARD_PRIVATE", "w")],
        );
        assert_eq!(
            (config.scope, config.server_start),
            (Scope::All, ServerStart::ConfigFile("/c".into()))
        );
        // Elsewhere a server is started only when asked, with tmux's own configuration.
        assert_eq!(serve_config(&["-L", "x"], &[]).server_start, ServerStart::Refused);
        assert_eq!(
            serve_config(&["-L", "x", "--start-server"], &[]).server_start,
            ServerStart::TmuxConfig
        );
        assert_eq!(
            serve_config(&[], &[("PANEWARD_START_SERVER", "1")]).server_start,
            ServerStart::TmuxConfig
        );
        assert_eq!(serve_config(&[], &[]).scope, Scope::All);
        for (args, vars) in [
            (&["--private", "w", "-L", "x"][..], &[][..]),
            (&["--private", "w"][..], &[("PANEWARD_SOCKET_PATH", "/s")][..]),
            (&["--private", "a/b"][..], &[][..]),
            (&["--private", ""][..], &[][..]),
            (&["--private", "a-very-long-name-of-more-than-32-chars"][..], &[][..]),
            (&["--private-config", "/c"][..], &[][..]),
        ] {
            assert!(parse_with(args, vars).is_err(), "{args:?} {vars:?}");
        }
    }

    #[test]
    fn grant_and_revoke_take_at_most_one_pane() {
        match parse_with(&["grant", "%3", "-L", "w"], &[]).unwrap() {
            Invocation::Grant { pane, revoke, config } => {
                assert_eq!((pane.as_deref(), revoke), (Some("%3"), false));
                assert_eq!(config.address, ServerAddress::Name("w".into()));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_with(&["revoke"], &[]).unwrap(),
            Invocation::Grant {
                pane: None,
                revoke: true,
                ..
            }
        ));
        assert!(parse_with(&["grant", "%1", "%2"], &[]).is_err());
    }

    #[test]
    fn an_unknown_tier_stops_start_up() {
        let error = parse_with(&["--safety", "everything"], &[]).unwrap_err();
        assert!(error.0.contains("unknown safety tier \"everything\""), "{error}");
        assert!(parse_with(&[], &[("PANEWARD_SAFETY", "yolo")]).is_err());
    }

    #[test]
    fn conflicting_or_malformed_sockets_are_refused() {
        assert!(parse_with(&["-L", "a", "-S", "/b"], &[]).is_err());
        assert!(parse_with(&["-L", "../x"], &[]).is_err());
        assert!(parse_with(&["-L"], &[]).unwrap_err().0.contains("needs a value"));
        assert!(parse_with(&["--bogus"], &[])
            .unwrap_err()
            .0
            .contains("unknown option --bogus"));
    }

    #[test]
    fn control_mode_is_on_unless_turned_off() {
        assert!(serve_config(&[], &[]).control_mode);
        assert!(!serve_config(&["--no-control-mode"], &[]).control_mode);
        assert!(!serve_config(&[], &[("PANEWARD_NO_CONTROL_MODE", "1")]).control_mode);
        assert!(parse_with(&[], &[("PANEWARD_NO_CONTROL_MODE", "maybe")]).is_err());
    }

    #[test]
    fn the_native_client_is_on_unless_turned_off_and_clients_are_bounded() {
        let config = serve_config(&[], &[]);
        assert!(config.native_client);
        assert_eq!(config.max_tmux_clients, TMUX_CLIENTS_DEFAULT_MAX);
        assert!(!serve_config(&["--no-native-client"], &[]).native_client);
        assert!(!serve_config(&[], &[("PANEWARD_NO_NATIVE_CLIENT", "1")]).native_client);
        assert_eq!(serve_config(&["--max-tmux-clients", "3"], &[]).max_tmux_clients, 3);
        assert_eq!(
            serve_config(&[], &[("PANEWARD_MAX_TMUX_CLIENTS", "2")]).max_tmux_clients,
            2
        );
        assert!(parse_with(&["--max-tmux-clients", "0"], &[]).is_err());
        assert_eq!(serve_config(&[], &[]).max_wait, MAX_WAIT_DEFAULT);
        assert_eq!(serve_config(&["--max-wait", "60"], &[]).max_wait.as_secs(), 60);
        assert_eq!(serve_config(&[], &[("PANEWARD_MAX_WAIT", "7")]).max_wait.as_secs(), 7);
        assert!(parse_with(&["--max-wait", "0"], &[]).is_err());
        assert!(parse_with(&["--max-wait", "1.5"], &[]).is_err());
    }

    #[test]
    fn environment_values_are_revealed_only_on_request() {
        assert!(!serve_config(&[], &[]).reveal_environment);
        assert!(serve_config(&["--reveal-environment"], &[]).reveal_environment);
        assert!(serve_config(&[], &[("PANEWARD_REVEAL_ENVIRONMENT", "1")]).reveal_environment);
        assert!(!serve_config(&[], &[("PANEWARD_REVEAL_ENVIRONMENT", "off")]).reveal_environment);
        assert!(!serve_config(&[], &[]).show_commands);
        assert!(serve_config(&["--show-commands"], &[]).show_commands);
        assert!(serve_config(&[], &[("PANEWARD_SHOW_COMMANDS", "1")]).show_commands);
        assert!(!serve_config(&[], &[]).allow_attended_input);
        assert!(serve_config(&["--allow-attended-input"], &[]).allow_attended_input);
        assert!(serve_config(&[], &[("PANEWARD_ALLOW_ATTENDED_INPUT", "1")]).allow_attended_input);
        assert!(parse_with(&[], &[("PANEWARD_REVEAL_ENVIRONMENT", "maybe")]).is_err());
        assert!(parse_with(&["--reveal-environment=yes"], &[]).is_err());
    }

    #[test]
    fn the_tools_subcommand_takes_json() {
        match parse_with(&["tools", "--json", "--safety", "readonly"], &[]).unwrap() {
            Invocation::Tools { config, json, .. } => {
                assert!(json);
                assert_eq!(config.safety, Tier::Readonly);
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_with(&["--json"], &[]).is_err());
    }

    #[test]
    fn the_conform_subcommand_takes_its_own_options_and_the_server_command() {
        match parse_with(&["conform", "--tier", "readonly", "--", "paneward", "-L", "x"], &[]).unwrap() {
            Invocation::Conform(options) => {
                assert_eq!(options.tier, Tier::Readonly);
                assert_eq!(options.command, ["paneward", "-L", "x"].map(OsString::from));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse_with(&["conform", "--help"], &[]).unwrap(),
            Invocation::Help(Some("conform".into()))
        );
        assert_eq!(
            parse_with(&["call", "--help"], &[]).unwrap(),
            Invocation::Help(Some("call".into()))
        );
        assert_eq!(parse_with(&["--help", "call"], &[]).unwrap(), Invocation::Help(None));
        assert!(parse_with(&["conform"], &[]).unwrap_err().0.contains("after --"));
    }

    #[test]
    fn profile_and_audit_log_come_from_flags_or_variables() {
        assert_eq!(serve_config(&[], &[]).profile, Profile::Default);
        assert_eq!(serve_config(&["--profile", "python"], &[]).profile, Profile::Python);
        assert_eq!(
            serve_config(&[], &[("PANEWARD_PROFILE", "python")]).profile,
            Profile::Python
        );
        assert!(parse_with(&["--profile", "ruby"], &[])
            .unwrap_err()
            .0
            .contains("unknown profile"));
        assert_eq!(serve_config(&[], &[]).audit_log, None);
        assert_eq!(
            serve_config(&["--audit-log", "-"], &[]).audit_log,
            Some(AuditTarget::Stderr)
        );
        assert_eq!(
            serve_config(&[], &[("PANEWARD_AUDIT_LOG", "/tmp/a.log")]).audit_log,
            Some(AuditTarget::File("/tmp/a.log".into()))
        );
        assert!(parse_with(&["--audit-log="], &[]).is_err());
    }

    #[test]
    fn the_address_says_what_chose_it() {
        assert_eq!(serve_config(&["-L", "x"], &[]).address_origin, "--socket-name");
        assert_eq!(
            serve_config(&[], &[("PANEWARD_SOCKET_PATH", "/s")]).address_origin,
            "PANEWARD_SOCKET_PATH"
        );
        assert_eq!(
            serve_config(&[], &[("LIBTMUX_SOCKET", "lib")]).address_origin,
            "LIBTMUX_SOCKET"
        );
        assert!(serve_config(&[], &[]).address_origin.starts_with("none"));
    }

    #[test]
    fn call_takes_a_tool_and_optional_json_and_doctor_takes_options() {
        match parse_with(&["call", "capture_pane", r#"{"pane_id": "%1"}"#, "-L", "w"], &[]).unwrap() {
            Invocation::Call {
                config,
                tool,
                arguments,
            } => {
                assert_eq!(tool, "capture_pane");
                assert_eq!(arguments.as_deref(), Some(r#"{"pane_id": "%1"}"#));
                assert_eq!(config.address, ServerAddress::Name("w".into()));
            }
            other => panic!("{other:?}"),
        }
        match parse_with(&["-L", "w", "call", "list_panes"], &[]).unwrap() {
            Invocation::Call { tool, arguments, .. } => assert_eq!((tool.as_str(), arguments), ("list_panes", None)),
            other => panic!("{other:?}"),
        }
        assert!(parse_with(&["call"], &[]).unwrap_err().0.contains("needs a tool name"));
        assert!(parse_with(&["call", "a", "{}", "extra"], &[]).is_err());
        assert!(
            matches!(parse_with(&["doctor", "--safety", "readonly"], &[]).unwrap(), Invocation::Doctor(c) if c.safety == Tier::Readonly)
        );
    }

    #[test]
    fn serve_http_needs_a_token_and_its_own_flags_need_it() {
        let error = parse_with(&["serve", "--http", "8765"], &[]).unwrap_err();
        assert!(error.0.contains("openssl rand"), "{error}");
        match parse_with(
            &[
                "serve",
                "--http",
                "8765",
                "--token-file",
                "/t",
                "--allow-origin",
                "https://a.example:443",
            ],
            &[],
        )
        .unwrap()
        {
            Invocation::ServeHttp { http, .. } => {
                assert_eq!(http.bind, "127.0.0.1:8765".parse().unwrap());
                assert_eq!(http.token, TokenSource::File("/t".into()));
                assert_eq!(http.extra_origins, ["https://a.example:443"]);
            }
            other => panic!("{other:?}"),
        }
        match parse_with(&["--http", "[::1]:9"], &[("PANEWARD_TOKEN", "x")]).unwrap() {
            Invocation::ServeHttp { http, .. } => assert_eq!(http.token, TokenSource::Environment("x".into())),
            other => panic!("{other:?}"),
        }
        assert!(parse_with(&["--token-file", "/t"], &[]).is_err());
        assert!(parse_with(&["tools", "--http", "1"], &[("PANEWARD_TOKEN", "x")]).is_err());
        assert!(parse_with(&["--http", "1", "--allow-origin", "nohost"], &[("PANEWARD_TOKEN", "x")]).is_err());
    }

    #[test]
    fn ssh_takes_a_destination_and_its_options_in_order() {
        let config = serve_config(
            &[
                "--ssh",
                "ssh://u@h:2222",
                "--ssh-config",
                "/c",
                "--ssh-option",
                "Port=1",
                "-L",
                "w",
            ],
            &[],
        );
        let ssh = config.ssh.unwrap();
        assert_eq!(ssh.destination, "ssh://u@h:2222");
        assert_eq!(ssh.options, ["-F", "/c", "-o", "Port=1"]);
        assert_eq!(config.address, ServerAddress::Name("w".into()));
        assert_eq!(
            serve_config(&[], &[("PANEWARD_SSH", "box")]).ssh.unwrap().destination,
            "box"
        );
        assert!(serve_config(&[], &[]).ssh.is_none());
        assert!(parse_with(&["--ssh-option", "A=b"], &[]).is_err());
        assert!(parse_with(&["--ssh", "-oProxyCommand=x"], &[]).is_err());
    }

    #[test]
    fn targets_are_fixed_at_start_up_and_never_mixed_with_one_server() {
        let config = serve_config(&["--target", "a=-L:x", "--target", "b=ssh://u@h:22/-S:/s"], &[]);
        let names: Vec<&str> = config.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(config.targets[1].ssh.as_ref().unwrap().destination, "ssh://u@h:22");
        assert_eq!(
            config.max_connected_targets,
            crate::limits::CONNECTED_TARGETS_DEFAULT_MAX
        );
        let config = serve_config(&[], &[("PANEWARD_TARGETS", "a=-L:x,b=-L:y")]);
        assert_eq!(config.targets.len(), 2);
        // One target is today's server: no fleet at all.
        let one = serve_config(&["--target", "x=-L:sock"], &[]);
        assert_eq!(one.address, ServerAddress::Name("sock".into()));
        assert!(one.targets.is_empty() && one.ssh.is_none());
        let far = serve_config(&["--target", "x=ssh://h", "--ssh-config", "/c"], &[]);
        assert_eq!(far.ssh.unwrap().options, ["-F", "/c"]);
        for (args, vars, says) in [
            (&["--target", "a=-L:x", "-L", "y"][..], &[][..], "without -L"),
            (&["--target", "a=-L:x", "-S", "/y"][..], &[][..], "without -L"),
            (&["--target", "a=-L:x", "--private", "w"][..], &[][..], "--private"),
            (&["--target", "a=-L:x", "--ssh", "h"][..], &[][..], "without --ssh"),
            (
                &["--target", "a=-L:x"][..],
                &[("PANEWARD_SOCKET_NAME", "y")][..],
                "PANEWARD_SOCKET_NAME",
            ),
            (
                &["--target", "a=-L:x", "--target", "a=-L:y"][..],
                &[][..],
                "named twice",
            ),
            (&["--target", "A=-L:x"][..], &[][..], "--target: target name"),
            (
                &["--target", "a=-L:x", "--target", "b=-L:y", "--profile", "python"][..],
                &[][..],
                "--profile",
            ),
            (&["--max-connected-targets", "0"][..], &[][..], "at least 1"),
            (&["--deployment", "a b"][..], &[][..], "--deployment"),
        ] {
            let error = parse_with(args, vars).unwrap_err();
            assert!(error.0.contains(says), "{args:?}: {error}");
        }
        assert_eq!(
            serve_config(&["--max-connected-targets", "2"], &[]).max_connected_targets,
            2
        );
        assert_eq!(
            serve_config(&["--deployment", "lab"], &[]).deployment.as_deref(),
            Some("lab")
        );
        assert_eq!(serve_config(&[], &[]).deployment, None);
    }
}
