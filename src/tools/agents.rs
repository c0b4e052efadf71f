//! Known agents' readiness from their screens: the table in `schemas/agents/agents.json`
//! (which program, which busy markers, which prompt mark starts the input box), read
//! once. It only tightens the generic rules: a pane whose program is in no entry, or
//! whose box cannot be found, is judged as before. A leaf beside the groups, since
//! `wait`, `input` and the attention resource all ask it.

use std::sync::LazyLock;

use serde::Deserialize;

/// The table as the repository holds it.
const TABLE: &str = include_str!("../../schemas/agents/agents.json");

/// One known agent.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Agent {
    pub name: String,
    /// tmux's `pane_current_command` for it.
    pub programs: Vec<String>,
    /// Which version's screens the entry was written from.
    pub written_from: String,
    /// Text shown only while it works.
    pub busy: Vec<String>,
    /// What starts its input row, after spaces and a box border; none: not known.
    pub prompt_mark: Option<String>,
    /// Text an empty box shows (dimmed on the screen, plain in a capture).
    pub placeholders: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Table {
    agents: Vec<Agent>,
}

static AGENTS: LazyLock<Vec<Agent>> = LazyLock::new(|| match serde_json::from_str::<Table>(TABLE) {
    Ok(table) => table.agents,
    Err(error) => {
        // A build fault the unit test below catches; serve the generic rules meanwhile.
        tracing::error!("schemas/agents/agents.json does not load: {error}");
        Vec::new()
    }
});

/// The entry for `program` (tmux's `pane_current_command`), if it is a known agent.
pub fn agent_for(program: &str) -> Option<&'static Agent> {
    AGENTS.iter().find(|agent| agent.programs.iter().any(|p| p == program))
}

/// The input box's row as a screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputBox {
    /// Found, holding nothing (or only a placeholder).
    Empty,
    /// Found, holding this text.
    Holding(String),
    /// No row of the screen is its box, or the entry knows no box.
    NotFound,
}

/// Box borders that may stand before the prompt mark and after the text.
const BORDERS: [char; 3] = ['│', '┃', '|'];

impl Agent {
    /// Whether `rows` show a busy marker.
    pub fn busy(&self, rows: &[String]) -> bool {
        rows.iter()
            .any(|row| self.busy.iter().any(|marker| row.contains(marker.as_str())))
    }

    /// The input box on `rows`: the last row that starts with the prompt mark.
    pub fn input_box(&self, rows: &[String]) -> InputBox {
        let Some(mark) = self.prompt_mark.as_deref() else {
            return InputBox::NotFound;
        };
        let text = rows.iter().rev().find_map(|row| {
            let row = row.trim_start().trim_start_matches(BORDERS).trim_start();
            row.strip_prefix(mark)
        });
        let Some(text) = text else {
            return InputBox::NotFound;
        };
        let text = text.trim_end().trim_end_matches(BORDERS).trim();
        if text.is_empty() || self.placeholders.iter().any(|p| text.starts_with(p.as_str())) {
            InputBox::Empty
        } else {
            InputBox::Holding(text.to_string())
        }
    }

    /// Ready for input: no busy marker, and its box (where it has one) drawn and empty.
    pub fn ready(&self, rows: &[String]) -> bool {
        !self.busy(rows) && (self.prompt_mark.is_none() || self.input_box(rows) == InputBox::Empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn the_table_loads_and_every_entry_says_where_it_comes_from() {
        let table: Table = serde_json::from_str(TABLE).unwrap();
        assert_eq!(table.agents.len(), AGENTS.len());
        for agent in &table.agents {
            assert!(
                !agent.programs.is_empty() && !agent.written_from.is_empty(),
                "{}",
                agent.name
            );
        }
        for program in ["claude", "codex", "gemini", "opencode", "bash"] {
            assert!(agent_for(program).is_some(), "{program}");
        }
        assert!(agent_for("vim").is_none());
    }

    #[test]
    fn a_box_is_empty_holding_or_absent_and_a_marker_is_busy() {
        let claude = agent_for("claude").unwrap();
        let idle = rows("╭──────╮\n│ >    │\n╰──────╯\n  ? for shortcuts");
        assert_eq!(claude.input_box(&idle), InputBox::Empty);
        assert!(claude.ready(&idle));
        let typed = rows("│ > fix the tests │");
        assert_eq!(claude.input_box(&typed), InputBox::Holding("fix the tests".into()));
        let working = rows("✻ Working… (3s · esc to interrupt)\n│ >    │");
        assert!(claude.busy(&working) && !claude.ready(&working));
        assert_eq!(claude.input_box(&rows("plain output")), InputBox::NotFound);
        let placeholder = rows(r#"> Try "refactor this""#);
        assert_eq!(claude.input_box(&placeholder), InputBox::Empty);
        let shell = agent_for("bash").unwrap();
        assert!(
            shell.ready(&rows("$ ")),
            "a shell's entry leaves the prompt to the generic rule"
        );
    }
}
