//! Taking the measurements at one pane count. paneward's calls alternate with the raw
//! floor's (and its library's), so that they see the same load on a shared machine;
//! each peer is then measured in a loop of its own.

use std::time::{Duration, Instant};

use paneward::tmux::{ServerAddress, Tmux};
use paneward::tools::observe::pane_state::{capture, describe_pane, SNAPSHOT_FIELDS};
use serde_json::{json, Value};

use crate::cases::{Case, Flavour};
use crate::cpu::{CallCpu, Meter};
use crate::fixture::{Fixture, Shape};
use crate::job;
use crate::mcp::{Launch, Server};
use crate::raw::RawControl;
use crate::stats::Samples;
use crate::Options;

/// Calls before measuring: connections made, caches warm.
pub const WARM_UP_CALLS: usize = 20;
/// Python start-up takes about a second: fewer rounds for libtmux-mcp.
pub const SLOW_STARTUPS: usize = 5;

/// One server's figures at one pane count.
#[derive(Default)]
pub struct Figures {
    /// Per case: samples, or why there are none.
    pub calls: Vec<(Case, Result<Samples, String>)>,
    pub startup: Samples,
    /// An MCP `ping`: the protocol layer alone, no tmux.
    pub ping: Samples,
    pub tools_list_bytes: usize,
    pub peak_rss_kib: Option<u64>,
    /// Per case: the server's and the tmux server's CPU over the measured calls.
    pub cpu: Vec<(Case, CallCpu)>,
    /// The agent's job: calls it took, and whether every run of it was exact.
    pub job: Option<(usize, bool)>,
}

impl Figures {
    pub fn cpu(&self, case: Case) -> Option<(Duration, Duration)> {
        self.cpu
            .iter()
            .find(|(c, _)| *c == case)
            .and_then(|(_, cpu)| cpu.per_call())
    }

    pub fn median(&self, case: Case) -> Option<Duration> {
        self.calls
            .iter()
            .find(|(c, _)| *c == case)
            .and_then(|(_, r)| r.as_ref().ok())
            .map(Samples::median)
    }
}

/// Everything measured at one pane count.
pub struct Run {
    /// The shape's label, as the tables print it.
    pub panes: String,
    pub shape: Shape,
    pub floors: Vec<(Case, Samples)>,
    /// The tmux server's CPU per floor call.
    pub floor_cpu: Vec<(Case, CallCpu)>,
    /// `/proc/loadavg` when the run began and when it ended.
    pub load: (String, String),
    /// snapshot_pane's commands through paneward's library (no MCP).
    pub library: Samples,
    pub servers: Vec<(Flavour, Result<Figures, String>)>,
}

/// A server being measured, with its results so far.
struct Contender {
    flavour: Flavour,
    server: Server,
    tools: Vec<String>,
    figures: Figures,
}

fn startups(launch: &Launch, rounds: usize, figures: &mut Figures) -> Result<(), String> {
    for _ in 0..rounds {
        let started = Server::start(launch)?;
        figures.startup.push(started.startup);
        figures.tools_list_bytes = started.tools_list_bytes;
    }
    Ok(())
}

/// paneward's library on a runtime shaped like the server's (one thread).
struct Library {
    runtime: tokio::runtime::Runtime,
    tmux: Tmux,
    commands: [paneward::tmux::Command; 2],
}

impl Library {
    fn new(fixture: &Fixture) -> Result<Self, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let pane = fixture.target().parse().map_err(|_| "the target is not a pane id")?;
        Ok(Self {
            runtime,
            tmux: Tmux::new("tmux", ServerAddress::Name(fixture.socket.clone())),
            commands: [
                capture(pane, false).into(),
                describe_pane(pane, &SNAPSHOT_FIELDS).into(),
            ],
        })
    }

    fn snapshot(&self) -> Result<Duration, String> {
        let started = Instant::now();
        self.runtime
            .block_on(self.tmux.run_all(&self.commands))
            .map_err(|e| e.to_string())?;
        Ok(started.elapsed())
    }
}

/// One sample of `case`: the call; for [`Case::CreateKill`] the kill of the window it
/// made too, both timed; for [`Case::Sequence`] all its calls; for [`Case::AgentJob`]
/// the whole job.
fn sample(
    contender: &mut Contender,
    case: Case,
    tool: &str,
    arguments: &Value,
    fixture: &Fixture,
) -> Result<Duration, String> {
    match case {
        Case::CreateKill => {
            let (created, reply) = contender.server.call_reply(tool, arguments)?;
            let (kill, kill_arguments) = contender.flavour.kill_call(&reply)?;
            Ok(created + contender.server.call(kill, &kill_arguments)?)
        }
        Case::Sequence => {
            let mut total = Duration::ZERO;
            for (tool, arguments) in contender.flavour.sequence(fixture) {
                total += contender.server.call(tool, &arguments)?;
            }
            Ok(total)
        }
        Case::AgentJob => {
            let job = job::run(&mut contender.server, contender.flavour, fixture)?;
            let exact = contender.figures.job.is_none_or(|(_, exact)| exact) && job.exact;
            contender.figures.job = Some((job.calls, exact));
            Ok(job.elapsed)
        }
        _ => contender.server.call(tool, arguments),
    }
}

/// Makes one call of `contender`'s, unless it has failed already; keeps the sample.
fn call_once(
    contender: &mut Contender,
    case: Case,
    call: &Option<(&'static str, Value)>,
    result: &mut Result<Samples, String>,
    measured: bool,
    fixture: &Fixture,
    cpu: &mut CallCpu,
) {
    let (Some((tool, arguments)), Ok(samples)) = (call, &mut *result) else {
        return;
    };
    let meter = Meter::start(&[contender.server.pid(), fixture.tmux_pid]);
    match sample(contender, case, tool, arguments, fixture) {
        Ok(elapsed) if measured => {
            cpu.add(&meter.spent());
            samples.push(elapsed);
        }
        Ok(_) => {}
        Err(error) => {
            eprintln!("    {} failed: {error}", contender.flavour.name());
            *result = Err(error);
        }
    }
}

/// The three load averages of `/proc/loadavg`.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Measures every case on the raw floor, the library and each launched server.
///
/// # Errors
/// The fixture's tmux or the raw control client failed.
pub fn measure(
    fixture: &Fixture,
    shape: Shape,
    options: &Options,
    launches: &[(Flavour, Launch)],
) -> Result<Run, String> {
    let load_before = loadavg();
    let mut servers = Vec::new();
    let mut contenders = Vec::new();
    for (flavour, launch) in launches {
        let mut figures = Figures::default();
        let rounds = if *flavour == Flavour::LibtmuxMcp {
            options.startups.min(SLOW_STARTUPS)
        } else {
            options.startups
        };
        eprintln!("  start-up: {}", flavour.name());
        let started = startups(launch, rounds, &mut figures).and_then(|()| Server::start(launch));
        match started {
            Ok(started) => contenders.push(Contender {
                flavour: *flavour,
                server: started.server,
                tools: started.tools,
                figures,
            }),
            Err(error) => servers.push((*flavour, Err(error))),
        }
    }
    // The raw floor is a control client: on a server of several detached sessions it
    // would attach one and so make an attach acceptable to paneward too. There the
    // floor is not run, and paneward is compared with its own one-session figures.
    let mut raw = if shape.sessions > 1 {
        None
    } else {
        Some(RawControl::attach(&fixture.socket, "bench")?)
    };
    let library = Library::new(fixture)?;

    eprintln!("  ping");
    for round in 0..WARM_UP_CALLS + options.calls {
        for contender in &mut contenders {
            if let Ok((elapsed, _, _)) = contender.server.request("ping", &json!({})) {
                if round >= WARM_UP_CALLS {
                    contender.figures.ping.push(elapsed);
                }
            }
        }
    }

    let mut floors = Vec::new();
    let mut floor_cpus = Vec::new();
    let mut library_samples = Samples::default();
    for &case in &options.cases {
        eprintln!("  {}", case.label());
        let floor_lines = case.floor(fixture);
        let mut floor = Samples::default();
        let mut floor_cpu = CallCpu::default();
        let calls: Vec<Option<(&'static str, Value)>> = contenders
            .iter()
            .map(|c| {
                let (tool, arguments) = c.flavour.call(case, fixture);
                let offered = |name: &str| c.tools.iter().any(|t| t == name);
                let needed: Vec<&str> = match case {
                    Case::CreateKill => vec![tool, "kill_window"],
                    Case::AgentJob => job::tools(c.flavour).to_vec(),
                    Case::Sequence => c.flavour.sequence(fixture).into_iter().map(|(t, _)| t).collect(),
                    _ => vec![tool],
                };
                needed.iter().all(|t| offered(t)).then_some((tool, arguments))
            })
            .collect();
        let mut results: Vec<Result<Samples, String>> = calls
            .iter()
            .map(|call| match call {
                Some(_) => Ok(Samples::default()),
                None => Err("n/a: not advertised".into()),
            })
            .collect();
        let mut cpus = vec![CallCpu::default(); contenders.len()];
        // paneward's calls alternate with the floor's, back to back, so both run warm
        // and under the same load; each peer then runs its own loop (a peer's calls
        // take milliseconds, and between them paneward would sit idle and wake cold).
        let rounds = if case == Case::AgentJob {
            WARM_UP_CALLS / 4 + options.calls / 4
        } else {
            WARM_UP_CALLS + options.calls
        };
        let warm_up = rounds
            - if case == Case::AgentJob {
                options.calls / 4
            } else {
                options.calls
            };
        for round in 0..rounds {
            let measured = round >= warm_up;
            // A case without a floor sends nothing (an empty line would end the client).
            if let Some(raw) = raw.as_mut().filter(|_| !floor_lines.is_empty()) {
                let meter = Meter::start(&[0, fixture.tmux_pid]);
                let mut elapsed = Duration::ZERO;
                for (line, blocks) in &floor_lines {
                    elapsed += raw.round_trip(line, *blocks)?;
                }
                if measured {
                    floor_cpu.add(&meter.spent());
                    floor.push(elapsed);
                }
            }
            if case == Case::SnapshotPane {
                let elapsed = library.snapshot()?;
                if measured {
                    library_samples.push(elapsed);
                }
            }
            for (index, contender) in contenders.iter_mut().enumerate() {
                if contender.flavour == Flavour::Paneward {
                    call_once(
                        contender,
                        case,
                        &calls[index],
                        &mut results[index],
                        measured,
                        fixture,
                        &mut cpus[index],
                    );
                }
            }
        }
        for (index, contender) in contenders.iter_mut().enumerate() {
            if contender.flavour != Flavour::Paneward {
                for round in 0..rounds {
                    call_once(
                        contender,
                        case,
                        &calls[index],
                        &mut results[index],
                        round >= warm_up,
                        fixture,
                        &mut cpus[index],
                    );
                }
            }
        }
        floors.push((case, floor));
        floor_cpus.push((case, floor_cpu));
        for ((contender, result), cpu) in contenders.iter_mut().zip(results).zip(cpus) {
            contender.figures.calls.push((case, result));
            contender.figures.cpu.push((case, cpu));
        }
    }
    for mut contender in contenders {
        contender.figures.peak_rss_kib = contender.server.peak_rss_kib();
        servers.push((contender.flavour, Ok(contender.figures)));
    }
    Ok(Run {
        panes: shape.label(),
        shape,
        floors,
        floor_cpu: floor_cpus,
        load: (load_before, loadavg()),
        library: library_samples,
        servers,
    })
}
