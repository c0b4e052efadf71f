//! Server-wide reads: `get_server_info` and `get_tmux_variables`.

use crate::limits::{LISTED_MAX_ITEMS, VARIABLE_NAMES_MAX, VARIABLE_NAME_MAX_CHARS};
use std::collections::HashSet;

use crate::generated::types::{
    GetServerInfoInput, GetServerInfoOutput, GetServerInfoOutputSafety, GetTmuxVariablesInput, GetTmuxVariablesOutput,
    GetTmuxVariablesOutputContext, GetTmuxVariablesOutputVariablesItem,
};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_one, parse_records, record_format};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, SessionId, WindowId};
use crate::tools::observe::objects::{count, reply_id, terminal_clients, CLIENT_FIELDS};
use paneward_contract::Tier;

/// The server's own variables.
const SERVER_FIELDS: [&str; 4] = ["socket_path", "pid", "version", "start_time"];

/// One short record per pane, enough to count sessions, windows and panes (tmux 3.3a
/// has no variable for those counts).
const COUNT_FIELDS: [&str; 3] = ["session_id", "window_id", "pane_id"];

pub async fn get_server_info(gate: &ReadGate<'_>, input: GetServerInfoInput) -> Result<GetServerInfoOutput, ToolError> {
    // No arguments; destructured so an argument added upstream is a compile error here.
    let GetServerInfoInput {} = input;
    let commands = [
        ReadCommand::new(ReadVerb::DisplayMessage).arg(record_format(&SERVER_FIELDS)),
        ReadCommand::new(ReadVerb::ListPanes)
            .arg("-a")
            .arg("-F")
            .arg(record_format(&COUNT_FIELDS)),
        ReadCommand::new(ReadVerb::ListClients)
            .arg("-F")
            .arg(record_format(&CLIENT_FIELDS)),
    ];
    let [server, panes, clients] = gate.run_each(commands).await?;
    let server = String::from_utf8_lossy(&server);
    let server = parse_one("display-message", &SERVER_FIELDS, &server)?;
    let panes = String::from_utf8_lossy(&panes);
    let panes = parse_records("list-panes", &COUNT_FIELDS, &panes)?;
    let clients = String::from_utf8_lossy(&clients);
    let clients = terminal_clients(&parse_records("list-clients", &CLIENT_FIELDS, &clients)?)?;

    let distinct = |name: &str| -> HashSet<&str> { panes.iter().filter_map(|record| record.text(name).ok()).collect() };
    let pane_ids = distinct("pane_id");
    let socket_path = server.text("socket_path")?.to_string();
    let pid = server.int("pid")?;
    // Only a caller pane this server still has: TMUX may name a pane since closed.
    let caller_pane_id = gate
        .state()
        .caller
        .as_ref()
        .filter(|caller| caller.is_on_server(&socket_path, pid))
        .map(|caller| caller.pane.to_string())
        .filter(|pane| pane_ids.contains(pane.as_str()));
    let attached_clients = count(clients.len());
    let mut clients = clients;
    clients.truncate(LISTED_MAX_ITEMS);
    Ok(GetServerInfoOutput {
        socket_path,
        version: server.text("version")?.to_string(),
        pid,
        start_time: server.int("start_time")?,
        session_count: count(distinct("session_id").len()),
        window_count: count(distinct("window_id").len()),
        pane_count: count(pane_ids.len()),
        attached_clients,
        clients,
        caller_pane_id,
        host: gate.state().settings.ssh_host.clone(),
        safety: match gate.state().settings.safety {
            Tier::Readonly => GetServerInfoOutputSafety::Readonly,
            Tier::Mutating => GetServerInfoOutputSafety::Mutating,
            Tier::Destructive => GetServerInfoOutputSafety::Destructive,
        },
        environment_values_revealed: gate.state().settings.reveal_environment,
        paneward_version: env!("CARGO_PKG_VERSION").to_string(),
    })
}

/// Whether `name` matches `[A-Za-z][A-Za-z0-9_]*`.
fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Checks the requested names.
///
/// # Errors
/// Too many names, or one that breaks the pattern or the length limit (named by pointer).
fn checked_names(names: &[String]) -> Result<(), ToolError> {
    if names.len() > VARIABLE_NAMES_MAX {
        return Err(ToolError::invalid_argument(
            "/names",
            format!("at most {VARIABLE_NAMES_MAX} names; got {}", names.len()),
        ));
    }
    for (index, name) in names.iter().enumerate() {
        if name.len() > VARIABLE_NAME_MAX_CHARS || !is_variable_name(name) {
            return Err(ToolError::invalid_argument(
                &format!("/names/{index}"),
                format!("must match [A-Za-z][A-Za-z0-9_]* and be at most {VARIABLE_NAME_MAX_CHARS} characters"),
            ));
        }
    }
    Ok(())
}

/// The variable names in `display-message -a` output (`name=value` lines).
///
/// Values are printed raw, newlines included, so a program can make a line of its value
/// look like `pane_id=%9`: this listing only says which names tmux knows (a forged line
/// at worst adds a well-formed name), never what a value is.
pub fn listed_names(output: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in output.split('\n') {
        if let Some((name, _)) = line.split_once('=') {
            if is_variable_name(name) && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The ids that say which pane tmux's "current" context is; read as a record, so no
/// value can pose as another.
const CONTEXT_FIELDS: [&str; 3] = ["session_id", "window_id", "pane_id"];

pub async fn get_tmux_variables(
    gate: &ReadGate<'_>,
    input: GetTmuxVariablesInput,
) -> Result<GetTmuxVariablesOutput, ToolError> {
    let GetTmuxVariablesInput { names, pane_id } = input;
    // An absent list reads as an empty one (the generated field is a plain Vec): both
    // mean every variable, as `null` does in the former spelling (src/call/former.rs).
    let names = (!names.is_empty()).then_some(names);
    if let Some(names) = &names {
        checked_names(names)?;
    }
    let pane = pane_id
        .as_deref()
        .map(|text| crate::tools::args::pane_id("/pane_id", text))
        .transpose()?;
    // Every read names the pane when one was asked for; `show-options` comes first
    // because, unlike display-message, it fails for a missing pane.
    let display = || {
        let read = ReadCommand::new(ReadVerb::DisplayMessage);
        match pane {
            Some(pane) => read.arg("-t").arg(pane.to_string()),
            None => read,
        }
    };
    // The names tmux knows in that context.
    let listing = match pane {
        Some(pane) => {
            let exists = ReadCommand::new(ReadVerb::ShowOptions)
                .arg("-p")
                .arg("-t")
                .arg(pane.to_string());
            let [_, listing] = gate.run_each([exists, display().arg("-a")]).await?;
            listing
        }
        None => gate.run(display().arg("-a")).await?,
    };
    let known = listed_names(&String::from_utf8_lossy(&listing));
    let (wanted, unknown) = match names {
        None => (known.into_iter().take(LISTED_MAX_ITEMS).collect::<Vec<_>>(), Vec::new()),
        Some(names) => {
            let mut wanted = Vec::new();
            let mut unknown: Vec<String> = Vec::new();
            let mut seen = HashSet::new();
            for name in names {
                if !seen.insert(name.clone()) {
                    continue;
                }
                if known.contains(&name) {
                    wanted.push(name);
                } else {
                    unknown.push(name);
                }
            }
            (wanted, unknown)
        }
    };
    // One `display-message` per value, in one round trip: each output is split off on
    // the transport's secret separator, so a value's newlines stay inside it. Only names
    // tmux itself listed (and that match the identifier pattern) enter these formats.
    // The context goes last in the same round trip, so it names the pane the values
    // describe even if tmux's current pane changed since the listing.
    let mut reads: Vec<ReadCommand> = wanted
        .iter()
        .map(|name| display().arg(format!("#{{{name}}}")))
        .collect();
    reads.push(display().arg(record_format(&CONTEXT_FIELDS)));
    let mut values = gate.run_all(&reads).await?;
    let context_output = values.pop().unwrap_or_default();
    let context_text = String::from_utf8_lossy(&context_output);
    let record = parse_one("display-message", &CONTEXT_FIELDS, &context_text)?;
    let context = GetTmuxVariablesOutputContext {
        session_id: reply_id::<SessionId>(record.text("session_id")?)?,
        window_id: reply_id::<WindowId>(record.text("window_id")?)?,
        pane_id: reply_id::<PaneId>(record.text("pane_id")?)?,
    };
    let variables = wanted
        .into_iter()
        .zip(values)
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(&value);
            // display-message ends its output with one newline of its own.
            let value = value.strip_suffix('\n').unwrap_or(&value).to_string();
            GetTmuxVariablesOutputVariablesItem { name, value }
        })
        .collect();
    Ok(GetTmuxVariablesOutput {
        context,
        variables,
        unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_names_follow_the_schema_pattern() {
        assert!(is_variable_name("pane_id") && is_variable_name("A1_"));
        for bad in ["", "1a", "_a", "a-b", "a b", "#{pane_id}", "é"] {
            assert!(!is_variable_name(bad), "{bad:?}");
        }
        let names: Vec<String> = vec!["ok".into(), "#(reboot)".into()];
        let error = checked_names(&names).unwrap_err().to_string();
        assert!(error.contains("/names/1"), "{error}");
    }

    #[test]
    fn the_listing_gives_names_only_once_and_only_well_formed_ones() {
        let listed = listed_names("a=1\npane_title=two\npane_id=%9\nb=\n#x=1\npane_id=%1\n");
        assert_eq!(listed, ["a", "pane_title", "pane_id", "b"]);
    }
}
