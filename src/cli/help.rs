//! `paneward --help`, rendered from the subcommands below and the flags of
//! [`super::flags::FLAGS`]: a flag the parser accepts is a flag this text lists.

use std::fmt::Write as _;

use super::flags::{Flag, Section, FLAGS};

const INTRO: &str = "\
paneward: a Model Context Protocol server for tmux

An MCP client starts paneward as a subprocess and speaks JSON-RPC on its standard
input and output. paneward drives one tmux server, chosen here and fixed for the
life of the process. Logs go to standard error.
";

/// Each way to run paneward: its usage line and what it does.
pub const COMMANDS: &[(&str, &[&str])] = &[
    ("paneward [OPTIONS]", &["serve MCP over stdio (what MCP clients run)"]),
    (
        "paneward serve --http ADDR --token-file FILE [OPTIONS]",
        &["serve MCP over Streamable HTTP at http://ADDR/mcp"],
    ),
    (
        "paneward tools [--json | --markdown] [OPTIONS]",
        &[
            "print the tools this configuration offers",
            "(--json: the exact tools/list result;",
            "--markdown: the reference docs/tools.md holds)",
        ],
    ),
    (
        "paneward call TOOL [JSON] [OPTIONS]",
        &[
            "one tool call from a shell, through the same path",
            "as an MCP call (tier, validation, bounds); prints",
            "the structured result as JSON on stdout, or the",
            "error on stderr with exit status 1",
        ],
    ),
    (
        "paneward doctor [OPTIONS]",
        &[
            "say which tmux, socket (and what chose it), server,",
            "tier, profile, caller pane and connection paneward",
            "would use; exits 0 if it can serve, 1 with the reason",
        ],
    ),
    (
        "paneward grant [PANE] [OPTIONS]",
        &[
            "mark a pane of yours (default: this shell's, $TMUX_PANE,",
            "when on paneward's server) as the agent's, so --scope",
            "owned covers it; audited",
        ],
    ),
    (
        "paneward revoke [PANE] [OPTIONS]",
        &["take a granted pane back (removes its mark); audited"],
    ),
    (
        "paneward conform [--tier TIER] [--profile NAME] [--schemas DIR] [--timeout SECS] -- COMMAND [ARGS...]",
        &[
            "start the MCP server COMMAND, list its tools and",
            "compare each with paneward's contract; prints every",
            "difference by tool and JSON pointer; exits 0 when",
            "equal, 1 on a difference, 2 if it cannot compare",
        ],
    ),
    ("paneward --help | --version", &[]),
];

const OUTRO: &str = "\
Without -L or -S, paneward uses the server `tmux` alone would use. libtmux-mcp's
variables are read after paneward's own: LIBTMUX_SOCKET (a name, or a path if it holds a
/), LIBTMUX_SOCKET_PATH (wins over LIBTMUX_SOCKET), LIBTMUX_TMUX_BIN (the tmux to run),
LIBTMUX_TOOLSETS, LIBTMUX_TOOLS and LIBTMUX_EXCLUDE_TOOLS (as --toolsets, --tools and
--exclude-tools). With --profile python, serving libtmux-mcp's own tools: the toolsets
default to inspect,manage,execute as there; LIBTMUX_SUPPRESS_HISTORY=0 turns off
run_command's default of keeping commands out of shell history; and LIBTMUX_SAFETY,
which libtmux-mcp 0.1.0a22 removed, stops start-up (in the default profile it is read
as --safety). With --profile libtmux, serving tmux-mcp 0.1.2's tools: the toolsets
default to inspect,manage,execute as there, and LIBTMUX_SAFETY or TMUX_MCP_SAFETY stops
start-up.

Logging: RUST_LOG-style filters in PANEWARD_LOG, on standard error (default: info,rmcp=warn,
and rmcp's HTTP refusal lines off: paneward says each refusal once, in words).
";

/// Where a command's description starts.
const COMMAND_COLUMN: usize = 34;
/// Where a flag's description starts.
const FLAG_COLUMN: usize = 27;
/// Where an `[env …]` note starts when it fits beside a flag's first line.
const ENV_BESIDE_COLUMN: usize = 68;
/// Where an `[env …]` note starts on a line of its own.
const ENV_BELOW_COLUMN: usize = 52;

/// The whole `--help` text.
pub fn render() -> String {
    let mut out = String::from(INTRO);
    out.push_str("\nUsage:\n");
    for (usage, about) in COMMANDS {
        let head = format!("  {usage}");
        let mut lines = about.iter();
        match lines.next() {
            Some(first) if head.len() < COMMAND_COLUMN => {
                let _ = writeln!(out, "{head:<COMMAND_COLUMN$}{first}");
            }
            Some(first) => {
                let _ = writeln!(out, "{head}\n{:COMMAND_COLUMN$}{first}", "");
            }
            None => {
                let _ = writeln!(out, "{head}");
            }
        }
        for line in lines {
            let _ = writeln!(out, "{:COMMAND_COLUMN$}{line}", "");
        }
    }
    for section in Section::ALL {
        let _ = writeln!(out, "\n{}", section.heading());
        for flag in FLAGS.iter().filter(|flag| flag.section == section) {
            render_flag(&mut out, flag);
        }
    }
    out.push('\n');
    out.push_str(OUTRO);
    out
}

/// `paneward SUBCOMMAND --help`: that command's usage and the flags it takes; the
/// whole page for a name it does not know.
pub fn render_command(subcommand: &str) -> String {
    let Some(sections) = sections_of(subcommand) else {
        return render();
    };
    let mut out = format!("paneward {subcommand}\n\nUsage:\n");
    for (usage, about) in COMMANDS
        .iter()
        .filter(|(usage, _)| command_of(usage) == Some(subcommand))
    {
        let _ = writeln!(out, "  {usage}");
        for line in *about {
            let _ = writeln!(out, "      {line}");
        }
    }
    for section in sections {
        let _ = writeln!(out, "\n{}", section.heading());
        for flag in FLAGS.iter().filter(|flag| flag.section == *section) {
            render_flag(&mut out, flag);
        }
    }
    out.push_str("\nEvery command and option: paneward --help\n");
    out
}

/// The subcommand a usage line of [`COMMANDS`] runs (`paneward [OPTIONS]` serves).
fn command_of(usage: &str) -> Option<&str> {
    match usage.split_whitespace().nth(1) {
        Some("[OPTIONS]") => Some("serve"),
        Some(word) if !word.starts_with('-') => Some(word),
        _ => None,
    }
}

/// The `--help` sections whose flags `subcommand` takes.
fn sections_of(subcommand: &str) -> Option<&'static [Section]> {
    Some(match subcommand {
        "serve" => &[Section::Options, Section::Remote, Section::Fleet, Section::Http],
        "tools" => &[Section::Options, Section::Tools, Section::Remote, Section::Fleet],
        "call" | "doctor" => &[Section::Options, Section::Remote, Section::Fleet],
        "conform" => &[Section::Conform],
        _ => return None,
    })
}

/// The note naming the variable a flag falls back to.
pub fn env_note(flag: &Flag) -> Option<String> {
    flag.env.map(|name| match flag.value_name {
        Some(_) => format!("[env {name}]"),
        None => format!("[env {name}=1]"),
    })
}

fn render_flag(out: &mut String, flag: &Flag) {
    let head = format!("  {:<width$} ", flag.spelling(), width = FLAG_COLUMN - 3);
    let (first, rest) = flag
        .help
        .split_first()
        .map_or(("", &[][..]), |(first, rest)| (*first, rest));
    let mut first_line = format!("{head}{first}");
    let note = env_note(flag);
    let beside = note.as_ref().filter(|_| first_line.len() + 2 <= ENV_BESIDE_COLUMN);
    if let Some(note) = beside {
        first_line = format!("{first_line:<ENV_BESIDE_COLUMN$}{note}");
    }
    let _ = writeln!(out, "{first_line}");
    for line in rest {
        let _ = writeln!(out, "{:FLAG_COLUMN$}{line}", "");
    }
    if let (Some(note), None) = (&note, beside) {
        let _ = writeln!(out, "{:ENV_BELOW_COLUMN$}{note}", "");
    }
}
