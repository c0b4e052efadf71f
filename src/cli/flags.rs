//! Every flag of the command line, defined once: [`FLAGS`] is what the parser accepts
//! ([`super::parse`]), what `--help` lists ([`super::help`]) and what the help test
//! checks, so a flag cannot be accepted yet missing from `--help`, or the reverse.

use std::path::PathBuf;

use super::raw::RawArgs;
use super::usage::UsageError;
use crate::mcp::http::options::checked_origin;

/// The `--help` section a flag is listed under, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Options,
    Tools,
    Remote,
    Fleet,
    Http,
    Conform,
}

impl Section {
    pub const ALL: [Self; 6] = [
        Self::Options,
        Self::Tools,
        Self::Remote,
        Self::Fleet,
        Self::Http,
        Self::Conform,
    ];

    pub fn heading(self) -> &'static str {
        match self {
            Self::Options => "Options:",
            Self::Tools => "Tools options (paneward tools):",
            Self::Remote => "Remote tmux (every tmux command runs through the system's ssh, one shared connection):",
            Self::Fleet => "Fleet (several tmux servers fixed at start-up; ids then read NAME/%3):",
            Self::Http => "HTTP (serve --http):",
            Self::Conform => "Conform options:",
        }
    }
}

/// What a flag does to the raw arguments when given.
#[derive(Clone, Copy)]
pub enum Action {
    /// A switch: takes no value.
    Switch(fn(&mut RawArgs)),
    /// Takes one value, inline (`--flag=VALUE`) or as the next argument.
    Value(fn(&mut RawArgs, String) -> Result<(), UsageError>),
    /// Ends parsing with the help text.
    Help,
    /// Ends parsing with the version.
    Version,
    /// Parsed by `paneward conform` itself (`crate::conform::options`); listed here so
    /// `--help` shows it.
    Conform,
}

/// One flag of the command line.
pub struct Flag {
    pub short: Option<char>,
    /// Without the leading `--`.
    pub long: &'static str,
    /// The value's placeholder in `--help` (`NAME`); `None` for a switch.
    pub value_name: Option<&'static str>,
    /// The variable read when the flag is not given (a switch's is on at `=1`).
    pub env: Option<&'static str>,
    pub section: Section,
    /// Accepted only after this subcommand.
    pub only_after: Option<&'static str>,
    /// Lines of the description in `--help`.
    pub help: &'static [&'static str],
    pub action: Action,
}

impl Flag {
    /// `-L, --socket-name NAME` or `    --tmux PATH`, as `--help` shows it.
    pub fn spelling(&self) -> String {
        let short = self.short.map_or_else(|| "    ".to_string(), |c| format!("-{c}, "));
        match self.value_name {
            Some(value) => format!("{short}--{} {value}", self.long),
            None => format!("{short}--{}", self.long),
        }
    }

    pub fn takes_value(&self) -> bool {
        self.value_name.is_some()
    }
}

/// The flags the parser accepts after `subcommand` (none: before any), conform's own
/// excepted.
pub fn accepted_after(subcommand: Option<&str>) -> impl Iterator<Item = &'static Flag> + '_ {
    FLAGS.iter().filter(move |flag| {
        !matches!(flag.action, Action::Conform) && flag.only_after.is_none_or(|only| subcommand == Some(only))
    })
}

/// The variable each flag reads when it is not given, named once: [`FLAGS`] lists
/// them for `--help`, and `args.rs` reads them.
pub mod var {
    pub const SOCKET_NAME: &str = "PANEWARD_SOCKET_NAME";
    pub const SOCKET_PATH: &str = "PANEWARD_SOCKET_PATH";
    pub const PRIVATE: &str = "PANEWARD_PRIVATE";
    pub const PRIVATE_CONFIG: &str = "PANEWARD_PRIVATE_CONFIG";
    pub const START_SERVER: &str = "PANEWARD_START_SERVER";
    pub const TMUX: &str = "PANEWARD_TMUX";
    pub const SAFETY: &str = "PANEWARD_SAFETY";
    pub const SCOPE: &str = "PANEWARD_SCOPE";
    pub const REVEAL_ENVIRONMENT: &str = "PANEWARD_REVEAL_ENVIRONMENT";
    pub const SHOW_COMMANDS: &str = "PANEWARD_SHOW_COMMANDS";
    pub const ALLOW_ATTENDED_INPUT: &str = "PANEWARD_ALLOW_ATTENDED_INPUT";
    pub const NO_CONTROL_MODE: &str = "PANEWARD_NO_CONTROL_MODE";
    pub const NO_NATIVE_CLIENT: &str = "PANEWARD_NO_NATIVE_CLIENT";
    pub const NO_HIDDEN_CLIENT: &str = "PANEWARD_NO_HIDDEN_CLIENT";
    pub const MAX_TMUX_CLIENTS: &str = "PANEWARD_MAX_TMUX_CLIENTS";
    pub const MAX_WAIT: &str = "PANEWARD_MAX_WAIT";
    pub const PROFILE: &str = "PANEWARD_PROFILE";
    pub const TOOLSETS: &str = "PANEWARD_TOOLSETS";
    pub const TOOLS: &str = "PANEWARD_TOOLS";
    pub const EXCLUDE_TOOLS: &str = "PANEWARD_EXCLUDE_TOOLS";
    pub const AUDIT_LOG: &str = "PANEWARD_AUDIT_LOG";
    pub const SSH: &str = "PANEWARD_SSH";
    pub const TARGETS: &str = "PANEWARD_TARGETS";
    pub const MAX_CONNECTED_TARGETS: &str = "PANEWARD_MAX_CONNECTED_TARGETS";
    pub const DEPLOYMENT: &str = "PANEWARD_DEPLOYMENT";
}

/// Every flag, in `--help` order within each section.
pub static FLAGS: &[Flag] = &[
    Flag {
        short: Some('L'),
        long: "socket-name",
        value_name: Some("NAME"),
        env: Some(var::SOCKET_NAME),
        section: Section::Options,
        only_after: None,
        help: &["use tmux's socket NAME (as tmux -L)"],
        action: Action::Value(|raw, v| {
            raw.socket_name = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: Some('S'),
        long: "socket-path",
        value_name: Some("PATH"),
        env: Some(var::SOCKET_PATH),
        section: Section::Options,
        only_after: None,
        help: &["use the socket at PATH (as tmux -S)"],
        action: Action::Value(|raw, v| {
            raw.socket_path = Some(PathBuf::from(v));
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "private",
        value_name: Some("NAME"),
        env: Some(var::PRIVATE),
        section: Section::Options,
        only_after: None,
        help: &[
            "use paneward's own server, tmux -L paneward-NAME, started",
            "when needed with no configuration (-f /dev/null); the",
            "scope defaults to owned; not with -L/-S",
        ],
        action: Action::Value(|raw, v| {
            raw.private = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "private-config",
        value_name: Some("FILE"),
        env: Some(var::PRIVATE_CONFIG),
        section: Section::Options,
        only_after: None,
        help: &["a private server started reads FILE (e.g. ~/.tmux.conf)"],
        action: Action::Value(|raw, v| {
            raw.private_config = Some(PathBuf::from(v));
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "start-server",
        value_name: None,
        env: Some(var::START_SERVER),
        section: Section::Options,
        only_after: None,
        help: &[
            "create_session may start the server on -L/-S (or the",
            "default socket) when none runs, with tmux's own config",
        ],
        action: Action::Switch(|raw| raw.start_server = true),
    },
    Flag {
        short: None,
        long: "tmux",
        value_name: Some("PATH"),
        env: Some(var::TMUX),
        section: Section::Options,
        only_after: None,
        help: &["the tmux binary (default: tmux on PATH)"],
        action: Action::Value(|raw, v| {
            raw.tmux_binary = Some(PathBuf::from(v));
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "safety",
        value_name: Some("TIER"),
        env: Some(var::SAFETY),
        section: Section::Options,
        only_after: None,
        help: &[
            "readonly | mutating | destructive",
            "default mutating; tools above the tier are",
            "neither listed nor callable",
        ],
        action: Action::Value(|raw, v| {
            raw.safety = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "scope",
        value_name: Some("SCOPE"),
        env: Some(var::SCOPE),
        section: Section::Options,
        only_after: None,
        help: &[
            "all | owned: owned limits every tool above readonly",
            "(input included) to panes, windows and sessions",
            "paneward created; default all",
        ],
        action: Action::Value(|raw, v| {
            raw.scope = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "reveal-environment",
        value_name: None,
        env: Some(var::REVEAL_ENVIRONMENT),
        section: Section::Options,
        only_after: None,
        help: &[
            "show_environment returns values, not only",
            "names (values may be secrets)",
        ],
        action: Action::Switch(|raw| raw.reveal_environment = true),
    },
    Flag {
        short: None,
        long: "show-commands",
        value_name: None,
        env: Some(var::SHOW_COMMANDS),
        section: Section::Options,
        only_after: None,
        help: &[
            "run_command prints each command in its pane",
            "as a # line first, for a person watching",
        ],
        action: Action::Switch(|raw| raw.show_commands = true),
    },
    Flag {
        short: None,
        long: "allow-attended-input",
        value_name: None,
        env: Some(var::ALLOW_ATTENDED_INPUT),
        section: Section::Options,
        only_after: None,
        help: &[
            "let input reach a pane a terminal attached to",
            "tmux shows (refused by default unless granted)",
        ],
        action: Action::Switch(|raw| raw.allow_attended_input = true),
    },
    Flag {
        short: None,
        long: "no-control-mode",
        value_name: None,
        env: Some(var::NO_CONTROL_MODE),
        section: Section::Options,
        only_after: None,
        help: &[
            "never attach a control-mode client (tmux -C); talk to",
            "tmux as its own command client does, per call",
        ],
        action: Action::Switch(|raw| raw.no_control_mode = true),
    },
    Flag {
        short: None,
        long: "no-native-client",
        value_name: None,
        env: Some(var::NO_NATIVE_CLIENT),
        section: Section::Options,
        only_after: None,
        help: &[
            "outside control mode, run one tmux process per call",
            "instead of speaking tmux's socket protocol (slower)",
        ],
        action: Action::Switch(|raw| raw.no_native_client = true),
    },
    Flag {
        short: None,
        long: "no-hidden-client",
        value_name: None,
        env: Some(var::NO_HIDDEN_CLIENT),
        section: Section::Options,
        only_after: None,
        help: &[
            "do not open a control-mode client that sits in no session;",
            "attach one only where no one can tell, else one client per call",
        ],
        action: Action::Switch(|raw| raw.no_hidden_client = true),
    },
    Flag {
        short: None,
        long: "max-tmux-clients",
        value_name: Some("N"),
        env: Some(var::MAX_TMUX_CLIENTS),
        section: Section::Options,
        only_after: None,
        help: &[
            "at most N tmux connections or processes at once",
            "besides the control client (default 8)",
        ],
        action: Action::Value(|raw, v| {
            raw.max_tmux_clients = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "max-wait",
        value_name: Some("SECONDS"),
        env: Some(var::MAX_WAIT),
        section: Section::Options,
        only_after: None,
        help: &[
            "the longest any tool waits (run_command, get_job,",
            "wait_for_text, wait_for_channel; default 300,",
            "1 to 86400); longer timeouts are clamped to it",
        ],
        action: Action::Value(|raw, v| {
            raw.max_wait = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "profile",
        value_name: Some("NAME"),
        env: Some(var::PROFILE),
        section: Section::Options,
        only_after: None,
        help: &[
            "default | python | libtmux: python serves the tool files",
            "of schemas/profiles/python in place of the default ones",
            "(libtmux-mcp's contract), libtmux those of",
            "schemas/profiles/libtmux (tmux-mcp 0.1.2's 45 tools)",
        ],
        action: Action::Value(|raw, v| {
            raw.profile = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "toolsets",
        value_name: Some("LIST"),
        env: Some(var::TOOLSETS),
        section: Section::Options,
        only_after: None,
        help: &[
            "serve only these toolsets, within the tier: a comma list of",
            "inspect, manage, execute, teardown (empty: none); default all",
            "(else LIBTMUX_TOOLSETS)",
        ],
        action: Action::Value(|raw, v| {
            raw.toolsets = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "tools",
        value_name: Some("LIST"),
        env: Some(var::TOOLS),
        section: Section::Options,
        only_after: None,
        help: &[
            "serve these tools too, whatever their toolset (comma list;",
            "else LIBTMUX_TOOLS); --toolsets '' --tools a,b serves a and b only",
        ],
        action: Action::Value(|raw, v| {
            raw.tools = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "exclude-tools",
        value_name: Some("LIST"),
        env: Some(var::EXCLUDE_TOOLS),
        section: Section::Options,
        only_after: None,
        help: &[
            "never serve these tools (comma list; else",
            "LIBTMUX_EXCLUDE_TOOLS); exclusions win",
        ],
        action: Action::Value(|raw, v| {
            raw.exclude_tools = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "audit-log",
        value_name: Some("PATH|-"),
        env: Some(var::AUDIT_LOG),
        section: Section::Options,
        only_after: None,
        help: &[
            "append one JSON line per call of a mutating or",
            "destructive tool and per batch row to PATH (created",
            "0600), or to stderr for -; typed text, commands and",
            "values appear only as a length and a keyed hash",
        ],
        action: Action::Value(|raw, v| {
            raw.audit_log = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: Some('h'),
        long: "help",
        value_name: None,
        env: None,
        section: Section::Options,
        only_after: None,
        help: &["this text"],
        action: Action::Help,
    },
    Flag {
        short: Some('V'),
        long: "version",
        value_name: None,
        env: None,
        section: Section::Options,
        only_after: None,
        help: &["print the version"],
        action: Action::Version,
    },
    Flag {
        short: None,
        long: "json",
        value_name: None,
        env: None,
        section: Section::Tools,
        only_after: Some("tools"),
        help: &["print the exact tools/list result instead of a summary"],
        action: Action::Switch(|raw| raw.json = true),
    },
    Flag {
        short: None,
        long: "markdown",
        value_name: None,
        env: None,
        section: Section::Tools,
        only_after: Some("tools"),
        help: &[
            "print the tool reference as Markdown (docs/tools.md is this,",
            "at --safety destructive)",
        ],
        action: Action::Switch(|raw| raw.markdown = true),
    },
    Flag {
        short: None,
        long: "ssh",
        value_name: Some("DESTINATION"),
        env: Some(var::SSH),
        section: Section::Remote,
        only_after: None,
        help: &[
            "drive tmux on DESTINATION (user@host, ssh://user@host:port,",
            "or a Host alias); -L/-S/--tmux then name the socket and",
            "binary on that host",
        ],
        action: Action::Value(|raw, v| {
            raw.ssh = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "ssh-config",
        value_name: Some("FILE"),
        env: None,
        section: Section::Remote,
        only_after: None,
        help: &["ssh reads FILE as its configuration (ssh -F FILE)"],
        action: Action::Value(|raw, v| {
            raw.ssh_options.extend(["-F".to_string(), v]);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "ssh-option",
        value_name: Some("OPTION"),
        env: None,
        section: Section::Remote,
        only_after: None,
        help: &["one more ssh option (ssh -o OPTION); repeatable"],
        action: Action::Value(|raw, v| {
            raw.ssh_options.extend(["-o".to_string(), v]);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "target",
        value_name: Some("NAME=SPEC"),
        env: Some(var::TARGETS),
        section: Section::Fleet,
        only_after: None,
        help: &[
            "serve the tmux server SPEC as target NAME; repeatable",
            "(the variable: comma-separated). NAME: a lowercase letter,",
            "then up to 31 lowercase letters, digits or -. SPEC: default,",
            "-L:SOCKETNAME, -S:/ABSOLUTE/PATH, or",
            "ssh://[USER@]HOST[:PORT] with /-L:SOCKETNAME or /-S:/PATH",
            "for the socket there. Not with -L, -S, --ssh or --private",
        ],
        action: Action::Value(|raw, v| {
            raw.targets.push(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "targets-file",
        value_name: Some("FILE"),
        env: None,
        section: Section::Fleet,
        only_after: None,
        help: &["more targets, one NAME=SPEC a line (# comments, blank lines)"],
        action: Action::Value(|raw, v| {
            raw.targets_file = Some(PathBuf::from(v));
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "max-connected-targets",
        value_name: Some("N"),
        env: Some(var::MAX_CONNECTED_TARGETS),
        section: Section::Fleet,
        only_after: None,
        help: &[
            "at most N targets connected at once (default 16); beyond",
            "it the least recently used idle one is disconnected",
        ],
        action: Action::Value(|raw, v| {
            raw.max_connected_targets = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "http",
        value_name: Some("ADDR"),
        env: None,
        section: Section::Http,
        only_after: None,
        help: &[
            "listen on ADDR: a port alone (8765) means 127.0.0.1:8765;",
            "else IP:PORT ([::1]:8765, 0.0.0.0:8765)",
        ],
        action: Action::Value(|raw, v| {
            raw.http = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "token-file",
        value_name: Some("FILE"),
        env: None,
        section: Section::Http,
        only_after: None,
        help: &[
            "the bearer token clients must send (required; or set",
            "PANEWARD_TOKEN); make one with",
            "(umask 077; openssl rand -hex 32 > FILE)",
        ],
        action: Action::Value(|raw, v| {
            raw.token_file = Some(PathBuf::from(v));
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "allow-origin",
        value_name: Some("URL"),
        env: None,
        section: Section::Http,
        only_after: None,
        help: &[
            "accept browser requests from origin URL",
            "(scheme://host:port, :* for any port); repeatable;",
            "loopback origins are always accepted",
        ],
        action: Action::Value(|raw, v| {
            raw.extra_origins.push(checked_origin(&v).map_err(UsageError)?);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "allow-host",
        value_name: Some("NAME"),
        env: None,
        section: Section::Http,
        only_after: None,
        help: &[
            "accept Host: NAME (or NAME:PORT) besides loopback names",
            "and the bound IP; repeatable",
        ],
        action: Action::Value(|raw, v| {
            raw.extra_hosts.push(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "deployment",
        value_name: Some("NAME"),
        env: Some(var::DEPLOYMENT),
        section: Section::Http,
        only_after: None,
        help: &[
            "the name serverInfo gives (default paneward), so a gateway",
            "that prefixes tools with it keeps them short",
        ],
        action: Action::Value(|raw, v| {
            raw.deployment = Some(v);
            Ok(())
        }),
    },
    Flag {
        short: None,
        long: "tier",
        value_name: Some("TIER"),
        env: None,
        section: Section::Conform,
        only_after: Some("conform"),
        help: &[
            "compare with the contract's tools at or below TIER, as a",
            "server started with --safety TIER lists them (default mutating)",
        ],
        action: Action::Conform,
    },
    Flag {
        short: None,
        long: "profile",
        value_name: Some("NAME"),
        env: None,
        section: Section::Conform,
        only_after: Some("conform"),
        help: &["compare with that profile's contract (as --profile above)"],
        action: Action::Conform,
    },
    Flag {
        short: None,
        long: "schemas",
        value_name: Some("DIR"),
        env: None,
        section: Section::Conform,
        only_after: Some("conform"),
        help: &[
            "compare with the tool files in DIR (as schemas/tools)",
            "instead of the contract built into this paneward",
        ],
        action: Action::Conform,
    },
    Flag {
        short: None,
        long: "timeout",
        value_name: Some("SECS"),
        env: None,
        section: Section::Conform,
        only_after: Some("conform"),
        help: &["how long the server may take per request (default 30)"],
        action: Action::Conform,
    },
];

/// The flag `arg` names (`-L` or `--socket-name`), among those parsed here.
pub fn find(arg: &str) -> Option<&'static Flag> {
    let matches = |flag: &&Flag| match arg.strip_prefix("--") {
        Some(long) => flag.long == long,
        None => arg.strip_prefix('-').is_some_and(|short| {
            let mut chars = short.chars();
            chars.next().is_some_and(|c| Some(c) == flag.short) && chars.next().is_none()
        }),
    };
    FLAGS
        .iter()
        .filter(|flag| !matches!(flag.action, Action::Conform))
        .find(matches)
}
