//! The measured calls, what each server names them, and the tmux commands paneward's
//! tool sends for each (the floor: the same commands, without paneward's framing).

use paneward::tmux::format::record_format;
use paneward::tmux::script::command_line;
use paneward::tmux::{Command, PaneId};
use paneward::tools::hierarchy::PANE_DETAIL;
use paneward::tools::objects::{fields, PANE_FIELDS};
use paneward::tools::pane::capture;
use paneward::tools::pane::{describe_pane, SNAPSHOT_FIELDS};
use serde_json::{json, Value};

use crate::fixture::Fixture;

/// Lines a history capture asks for.
pub const HISTORY_CAPTURE: usize = 2_000;
/// Operations in the batch call.
pub const BATCH_OPERATIONS: usize = 16;

/// One measured call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    ListPanes,
    SnapshotPane,
    CaptureHistory,
    Batch,
}

impl Case {
    pub const ALL: [Self; 4] = [Self::ListPanes, Self::SnapshotPane, Self::CaptureHistory, Self::Batch];

    /// The tool name, as `--cases` takes it.
    pub fn tool(self) -> &'static str {
        match self {
            Self::ListPanes => "list_panes",
            Self::SnapshotPane => "snapshot_pane",
            Self::CaptureHistory => "capture_pane",
            Self::Batch => "call_read_tools_batch",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::ListPanes => "list_panes",
            Self::SnapshotPane => "snapshot_pane",
            Self::CaptureHistory => "capture_pane (history, 2,000 lines)",
            Self::Batch => "call_read_tools_batch (16 operations)",
        }
    }

    /// The tmux commands paneward's tool sends for the call, as one control-mode line,
    /// and how many blocks tmux answers with. A history capture reads the whole
    /// scrollback: the reply counts the bytes of the lines it drops.
    pub fn floor(self, fixture: &Fixture) -> (String, usize) {
        let pane = |text: &str| text.parse::<PaneId>().ok();
        let Some(target) = pane(fixture.target()) else {
            return (String::new(), 0);
        };
        let commands = match self {
            Self::ListPanes => vec![Command::new("list-panes")
                .arg("-a")
                .arg("-F")
                .arg(record_format(&PANE_FIELDS))],
            Self::SnapshotPane => vec![
                capture(target, false).into(),
                describe_pane(target, &SNAPSHOT_FIELDS).into(),
            ],
            Self::CaptureHistory => vec![capture(target, true).into()],
            Self::Batch => batch_panes(fixture)
                .iter()
                .filter_map(|text| pane(text))
                .enumerate()
                .map(|(index, pane)| {
                    if index % 2 == 0 {
                        capture(pane, false).into()
                    } else {
                        pane_info(pane)
                    }
                })
                .collect(),
        };
        (command_line(&commands), commands.len())
    }
}

/// What `get_pane_info` sends.
fn pane_info(pane: PaneId) -> Command {
    Command::new("display-message")
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&fields(&[&PANE_FIELDS, &PANE_DETAIL])))
}

/// The panes the batch reads: every pane in turn, 16 operations in all.
fn batch_panes(fixture: &Fixture) -> Vec<String> {
    (0..BATCH_OPERATIONS)
        .map(|index| fixture.panes[(index / 2) % fixture.panes.len()].clone())
        .collect()
}

/// The servers measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Paneward,
    TmuxMcp,
    LibtmuxMcp,
}

impl Flavour {
    pub fn name(self) -> &'static str {
        match self {
            Self::Paneward => "paneward",
            Self::TmuxMcp => "tmux-mcp 0.1.2",
            Self::LibtmuxMcp => "libtmux-mcp 0.1.0a22",
        }
    }

    /// The tool and arguments that do `case` on this server, read from its tools/list:
    /// tmux-mcp names a pane `pane`, the others `pane_id`; for a history capture
    /// paneward takes `history` + `max_lines`, the peers a negative `start` line.
    pub fn call(self, case: Case, fixture: &Fixture) -> (&'static str, Value) {
        let pane_key = if self == Self::TmuxMcp { "pane" } else { "pane_id" };
        let target = fixture.target();
        match case {
            Case::ListPanes => ("list_panes", json!({})),
            Case::SnapshotPane => ("snapshot_pane", json!({pane_key: target})),
            Case::CaptureHistory => {
                let arguments = match self {
                    Self::Paneward => json!({"pane_id": target, "history": true, "max_lines": HISTORY_CAPTURE}),
                    Self::TmuxMcp => json!({"pane": target, "start": -(HISTORY_CAPTURE as i64)}),
                    Self::LibtmuxMcp => {
                        json!({"pane_id": target, "start": -(HISTORY_CAPTURE as i64), "max_lines": HISTORY_CAPTURE})
                    }
                };
                ("capture_pane", arguments)
            }
            Case::Batch => {
                let operations: Vec<Value> = batch_panes(fixture)
                    .iter()
                    .enumerate()
                    .map(|(index, pane)| {
                        let tool = if index % 2 == 0 {
                            "capture_pane"
                        } else {
                            "get_pane_info"
                        };
                        json!({"tool": tool, "arguments": {pane_key: pane}})
                    })
                    .collect();
                ("call_read_tools_batch", json!({"operations": operations}))
            }
        }
    }
}
