//! `paneward-bench`: latency, start-up and memory of the release paneward binary over
//! stdio, next to the raw tmux control-mode floor and, with `--tmux-mcp` /
//! `--libtmux-mcp`, the peer servers on the same calls. Prints Markdown tables.
//!
//! Run on demand (`bench/run.sh`), never in the test suite: it needs a quiet machine.
//! `paneward-bench soak` is the hour-long robustness run (see `soak`); `paneward-bench
//! bytes` counts the bytes of each list's reply beside the peers' (see `bytes`).

mod bytes;
mod cases;
mod cpu;
mod fixture;
mod fleet;
mod http;
mod job;
mod mcp;
mod measure;
mod raw;
mod readme;
mod report;
mod soak;
mod stats;
mod wait;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use cases::{Case, Flavour};
use fixture::{Fixture, Shape};
use mcp::Launch;

pub struct Options {
    paneward: PathBuf,
    tmux_mcp: Option<PathBuf>,
    libtmux_mcp: Option<PathBuf>,
    /// Also paneward over Streamable HTTP on loopback.
    http: bool,
    /// Also paneward driving the same tmux through ssh to this destination.
    ssh: Option<String>,
    ssh_config: Option<String>,
    /// Also paneward with control mode off (`--no-control-mode`).
    one_shot: bool,
    /// `--readme`: the runs behind README.md's figures, and those figures.
    readme: bool,
    /// Also paneward serving libtmux-mcp's contract (`--profile python`), called as
    /// libtmux-mcp is.
    python_profile: bool,
    pub calls: usize,
    pub startups: usize,
    panes: Vec<usize>,
    sessions: Vec<usize>,
    layouts: Vec<bool>,
    pub cases: Vec<Case>,
    /// `--wait`: measure `wait_for_text` (detection latency, CPU while waiting) only.
    wait: bool,
    wait_samples: usize,
    wait_seconds: f64,
}

const USAGE: &str = "usage: paneward-bench [--paneward PATH] [--tmux-mcp PATH] [--libtmux-mcp PATH] \
[--readme] [--http] [--one-shot] [--python-profile] [--ssh DESTINATION [--ssh-config FILE]] \
[--calls N (200)] [--startups N (20)] [--panes 1,16,64] [--sessions 1,2 (1)] \
[--layouts windows,one-window (windows)] \
[--wait [--wait-samples N (20)] [--wait-seconds S (30)]] \
[--cases list_sessions,list_windows,list_panes,list_pane_activity,snapshot_pane,capture_pane,call_read_tools_batch,long_history,long_batch,run_command,create_window+kill_window,send_keys,send_keys+confirm,search_panes,sequence,agent_job]
       paneward-bench bytes|fleet|watch|soak --help   (the bytes a model reads, a fleet's fan-out, watching subscribed panes, a soak)";

const WATCH_USAGE: &str =
    "usage: paneward-bench watch [--paneward PATH] [--panes N (16)] [--seconds N (30)] [--samples N (30)]";

const FLEET_USAGE: &str = "usage: paneward-bench fleet [--paneward PATH] [--panes N (64)] [--samples N (50)]";

/// The usage of the subcommand named first on the command line (the main run's when
/// none is), when `--help` or `-h` is anywhere on it: no flag of the bench takes a value
/// that could be spelt so, and a subcommand's own parser would read it as one.
fn help_asked() -> Option<&'static str> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|arg| arg == "--help" || arg == "-h") {
        return None;
    }
    Some(match args.first().map(String::as_str) {
        Some("bytes") => bytes::USAGE,
        Some("fleet") => FLEET_USAGE,
        Some("watch") => WATCH_USAGE,
        Some("soak") => soak::USAGE,
        _ => USAGE,
    })
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        paneward: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/paneward"),
        tmux_mcp: None,
        libtmux_mcp: None,
        http: false,
        one_shot: false,
        readme: false,
        python_profile: false,
        ssh: None,
        ssh_config: None,
        calls: 200,
        startups: 20,
        panes: vec![1, 16, 64],
        sessions: vec![1],
        layouts: vec![false],
        cases: Case::ALL.to_vec(),
        wait: false,
        wait_samples: 20,
        wait_seconds: 30.0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--paneward" => options.paneward = value()?.into(),
            "--tmux-mcp" => options.tmux_mcp = Some(value()?.into()),
            "--libtmux-mcp" => options.libtmux_mcp = Some(value()?.into()),
            "--http" => options.http = true,
            "--one-shot" => options.one_shot = true,
            // The README's pane counts and calls; later flags may still change them.
            "--readme" => {
                options.readme = true;
                options.panes = readme::PANES.to_vec();
                options.cases = readme::CASES.to_vec();
            }
            "--python-profile" => options.python_profile = true,
            "--ssh" => options.ssh = Some(value()?),
            "--ssh-config" => options.ssh_config = Some(value()?),
            "--calls" => options.calls = value()?.parse().map_err(|_| "--calls takes a number")?,
            "--startups" => options.startups = value()?.parse().map_err(|_| "--startups takes a number")?,
            "--panes" => {
                options.panes = value()?
                    .split(',')
                    .map(|n| n.trim().parse().map_err(|_| format!("bad pane count {n:?}")))
                    .collect::<Result<_, _>>()?;
            }
            "--sessions" => {
                options.sessions = value()?
                    .split(',')
                    .map(|n| match n.trim().parse() {
                        Ok(n) if n >= 1 => Ok(n),
                        _ => Err(format!("bad session count {n:?}")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--layouts" => {
                options.layouts = value()?
                    .split(',')
                    .map(|name| match name.trim() {
                        "windows" => Ok(false),
                        "one-window" => Ok(true),
                        other => Err(format!("unknown layout {other:?}: windows or one-window")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--cases" => {
                options.cases = value()?
                    .split(',')
                    .map(|name| {
                        Case::ALL
                            .into_iter()
                            .find(|c| c.tool() == name.trim())
                            .ok_or(format!("unknown case {name:?}"))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--wait" => options.wait = true,
            "--wait-samples" => {
                options.wait_samples = value()?.parse().map_err(|_| "--wait-samples takes a number")?;
            }
            "--wait-seconds" => {
                options.wait_seconds = value()?.parse().map_err(|_| "--wait-seconds takes a number")?;
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

pub fn launches(options: &Options, socket: &str) -> Vec<(Flavour, Launch)> {
    let path = |p: &PathBuf| p.to_string_lossy().into_owned();
    // Cases that change tmux need the tools that do: paneward at its widest safety
    // level, the peers with every toolset (their kill_* tools are in `teardown`).
    let changes = !options.wait && options.cases.iter().any(|case| case.changes());
    let safety = if changes { "destructive" } else { "readonly" };
    let toolsets = || {
        (changes || options.wait).then(|| {
            (
                "LIBTMUX_TOOLSETS".to_string(),
                "inspect,manage,execute,teardown".to_string(),
            )
        })
    };
    let mut launches = vec![(
        Flavour::Paneward,
        Launch {
            program: path(&options.paneward),
            args: vec!["--socket-name".into(), socket.into(), "--safety".into(), safety.into()],
            env: vec![("PANEWARD_LOG".into(), "error".into())],
            http_token: None,
        },
    )];
    if options.http {
        // A fixed token is fine on loopback for a benchmark; paneward needs 32 bytes.
        let token = "b".repeat(40);
        launches.push((
            Flavour::PanewardHttp,
            Launch {
                program: path(&options.paneward),
                args: vec![
                    "serve".into(),
                    "--http".into(),
                    "127.0.0.1:0".into(),
                    "--socket-name".into(),
                    socket.into(),
                    "--safety".into(),
                    safety.into(),
                ],
                // It says where it listens at info level, on standard error.
                env: vec![
                    ("PANEWARD_LOG".into(), "info".into()),
                    ("PANEWARD_TOKEN".into(), token.clone()),
                ],
                http_token: Some(token),
            },
        ));
    }
    if options.one_shot {
        launches.push((
            Flavour::PanewardOneShot,
            Launch {
                program: path(&options.paneward),
                args: vec![
                    "--no-control-mode".into(),
                    "--socket-name".into(),
                    socket.into(),
                    "--safety".into(),
                    safety.into(),
                ],
                env: vec![("PANEWARD_LOG".into(), "error".into())],
                http_token: None,
            },
        ));
    }
    if options.python_profile {
        launches.push((
            Flavour::PanewardPython,
            Launch {
                program: path(&options.paneward),
                args: vec![
                    "--profile".into(),
                    "python".into(),
                    "--toolsets".into(),
                    "inspect,manage,execute,teardown".into(),
                    "--socket-name".into(),
                    socket.into(),
                    "--safety".into(),
                    safety.into(),
                ],
                env: vec![("PANEWARD_LOG".into(), "error".into())],
                http_token: None,
            },
        ));
    }
    if let Some(destination) = &options.ssh {
        let mut args = vec![
            "--ssh".into(),
            destination.clone(),
            "--socket-name".into(),
            socket.into(),
            "--safety".into(),
            safety.into(),
        ];
        if let Some(config) = &options.ssh_config {
            args.extend(["--ssh-config".into(), config.clone()]);
        }
        launches.push((
            Flavour::PanewardSsh,
            Launch {
                program: path(&options.paneward),
                args,
                env: vec![("PANEWARD_LOG".into(), "error".into())],
                http_token: None,
            },
        ));
    }
    if let Some(program) = &options.tmux_mcp {
        launches.push((
            Flavour::TmuxMcp,
            Launch {
                program: path(program),
                args: vec!["--socket-name".into(), socket.into()],
                env: toolsets().into_iter().collect(),
                http_token: None,
            },
        ));
    }
    if let Some(program) = &options.libtmux_mcp {
        launches.push((
            Flavour::LibtmuxMcp,
            Launch {
                program: path(program),
                args: Vec::new(),
                env: vec![
                    ("LIBTMUX_SOCKET".into(), socket.into()),
                    ("FASTMCP_SHOW_CLI_BANNER".into(), "false".into()),
                    ("FASTMCP_LOG_LEVEL".into(), "ERROR".into()),
                ]
                .into_iter()
                .chain(toolsets())
                .collect(),
                http_token: None,
            },
        ));
    }
    launches
}

fn run(options: &Options) -> Result<String, String> {
    if !options.paneward.exists() {
        return Err(format!(
            "{} does not exist: build it with `cargo build --release -p paneward`",
            options.paneward.display()
        ));
    }
    if options.wait {
        return wait::run(options);
    }
    let mut runs = Vec::new();
    for &panes in &options.panes {
        for &one_window in &options.layouts {
            for &sessions in &options.sessions {
                let shape = Shape {
                    panes,
                    one_window,
                    sessions,
                };
                eprintln!("{} panes", shape.label());
                let long_history = options.cases.iter().any(|case| case.long_history());
                let mut fixture = Fixture::start(shape, long_history)?;
                if options.cases.iter().any(|case| case.shell()) {
                    fixture.shell = Some(fixture.shell_pane()?);
                }
                let launches = launches(options, &fixture.socket);
                runs.push(measure::measure(&fixture, shape, options, &launches)?);
            }
        }
    }
    let mut report = report::report(&runs, options);
    if options.readme {
        report.push_str(&readme::summary(&runs));
    }
    Ok(report)
}

/// The flags of a small subcommand after its name: `--paneward PATH` (returned; the
/// release build by default) and the whole numbers of `numbers`, each at least 1, with
/// `usage` in every error.
fn subcommand_flags(usage: &str, numbers: &mut [(&str, &mut usize)]) -> Result<PathBuf, String> {
    let mut paneward = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/paneward");
    let mut args = std::env::args().skip(2);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value\n{usage}"))?;
        if flag == "--paneward" {
            paneward = value.into();
            continue;
        }
        let Some((_, number)) = numbers.iter_mut().find(|(name, _)| *name == flag) else {
            return Err(format!("unknown argument {flag:?}\n{usage}"));
        };
        **number = value
            .parse::<usize>()
            .map_err(|_| format!("{flag} takes a number\n{usage}"))?
            .max(1);
    }
    Ok(paneward)
}

/// `paneward-bench watch [--paneward PATH] [--panes 16] [--seconds 30] [--samples 30]`.
fn watch_main() -> Result<String, String> {
    let (mut panes, mut seconds, mut samples) = (16, 30, 30);
    let paneward = subcommand_flags(
        WATCH_USAGE,
        &mut [
            ("--panes", &mut panes),
            ("--seconds", &mut seconds),
            ("--samples", &mut samples),
        ],
    )?;
    watch::run(&paneward, panes, u64::try_from(seconds).unwrap_or(30), samples)
}

/// `paneward-bench fleet [--panes 64] [--samples 50] [--paneward PATH]`: see [`fleet`].
fn fleet_main() -> Result<String, String> {
    let (mut panes, mut samples) = (64, 50);
    let paneward = subcommand_flags(FLEET_USAGE, &mut [("--panes", &mut panes), ("--samples", &mut samples)])?;
    fleet::run(&paneward, panes, samples)
}

/// `paneward-bench soak [--minutes 60] ...`: see [`soak`].
fn soak_main() -> ExitCode {
    let outcome = soak::SoakOptions::parse(std::env::args().skip(2)).and_then(|options| soak::run(&options));
    match outcome {
        Ok(outcome) => {
            print!("{}", outcome.report);
            if outcome.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("paneward-bench soak: {error}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    if let Some(usage) = help_asked() {
        println!("{usage}");
        return ExitCode::SUCCESS;
    }
    if std::env::args().nth(1).as_deref() == Some("bytes") {
        return match bytes::run(std::env::args().skip(2)) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("paneward-bench bytes: {error}");
                ExitCode::FAILURE
            }
        };
    }
    if std::env::args().nth(1).as_deref() == Some("soak") {
        return soak_main();
    }
    if std::env::args().nth(1).as_deref() == Some("fleet") {
        return match fleet_main() {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("paneward-bench fleet: {error}");
                ExitCode::FAILURE
            }
        };
    }
    if std::env::args().nth(1).as_deref() == Some("watch") {
        return match watch_main() {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("paneward-bench watch: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("paneward-bench: {error}");
            ExitCode::FAILURE
        }
    }
}
