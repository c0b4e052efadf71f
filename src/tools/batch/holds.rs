//! Which rows a write batch holds, by what each tool's file says (`batch`): a batch
//! never holds a batch (nesting hides which call failed) nor a tool called on its own
//! (`kill_server` ends every other row's object at once), and holds a wait only where
//! the file names the argument that makes it not wait (`run_command` with `detach`).

use serde_json::{Map, Value};

use crate::generated::TOOLS;
use crate::runtime::facts::BatchRefusal;
use crate::runtime::ToolSpec;

/// Why a write batch refuses a row of `tool` with `arguments`; `None` when it holds it
/// (or there is no such tool: the request path says so).
pub fn refusal(tool: &str, arguments: &Map<String, Value>) -> Option<String> {
    let batch = ToolSpec::find(&TOOLS, tool)?.batch?;
    if !batch.refuses(arguments) {
        return None;
    }
    Some(match batch.refused {
        BatchRefusal::Batch | BatchRefusal::Alone => format!("`{tool}` cannot run inside a batch"),
        BatchRefusal::Waits => format!("`{tool}` waits, and waits are not run inside a batch{}", held_waits()),
    })
}

/// The waits a batch holds after all, as their files say: ` (run_command only with
/// detach: true)`.
fn held_waits() -> String {
    let held: Vec<String> = TOOLS
        .iter()
        .filter_map(|spec| {
            let batch = spec.batch.filter(|batch| batch.refused == BatchRefusal::Waits)?;
            let unless = batch.unless?;
            Some(format!(
                "{} only with {}: {}",
                spec.name, unless.argument, unless.equals
            ))
        })
        .collect();
    if held.is_empty() {
        return String::new();
    }
    format!(" ({})", held.join("; "))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn arguments(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_batch_holds_what_the_files_allow() {
        assert_eq!(refusal("list_panes", &arguments(json!({}))), None);
        assert_eq!(refusal("no_such_tool", &arguments(json!({}))), None);
        assert_eq!(
            refusal("kill_server", &arguments(json!({}))).as_deref(),
            Some("`kill_server` cannot run inside a batch")
        );
        assert_eq!(
            refusal("run_command", &arguments(json!({"detach": false}))).as_deref(),
            Some("`run_command` waits, and waits are not run inside a batch (run_command only with detach: true)")
        );
        assert_eq!(refusal("run_command", &arguments(json!({"detach": true}))), None);
    }
}
