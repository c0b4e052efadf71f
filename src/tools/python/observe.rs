//! libtmux-mcp's tools for listing and reading sessions, windows and panes, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::ReadGate;
use crate::runtime::ToolError;
use crate::tmux::{ReadCommand, ReadVerb};

use super::filters::Filters;
use super::models::{self, Scope};
use super::served::Served;
use super::target::{checked, explained, named_pane, session_id, upstream_error, window_id, Level, Server};

pub use super::capture::{capture_pane, snapshot_pane};

pub use super::since::capture_since;

pub use super::display::display_message;

pub async fn find_pane_by_position(
    gate: &ReadGate<'_>,
    input: FindPaneByPositionInput,
) -> Result<FindPaneByPositionOutput, ToolError> {
    let window = window_id(gate, &checked(gate, &input)?).await?;
    let corner = input.corner;
    let (vertical, horizontal) = match corner {
        FindPaneByPositionInputCorner::TopLeft => ("pane_at_top", "pane_at_left"),
        FindPaneByPositionInputCorner::TopRight => ("pane_at_top", "pane_at_right"),
        FindPaneByPositionInputCorner::BottomLeft => ("pane_at_bottom", "pane_at_left"),
        FindPaneByPositionInputCorner::BottomRight => ("pane_at_bottom", "pane_at_right"),
    };
    let flag = |pane: &serde_json::Value, key: &str| pane.get(key) == Some(&serde_json::Value::Bool(true));
    let offset = |pane: &serde_json::Value| {
        ["pane_left", "pane_top"]
            .iter()
            .map(|key| pane.get(*key).and_then(serde_json::Value::as_i64).unwrap_or(0))
            .sum::<i64>()
    };
    // Of several panes at the corner, libtmux-mcp takes the one furthest from the
    // window's origin (the first listed of equals).
    let mut best: Option<serde_json::Value> = None;
    for pane in models::panes(gate, Scope::Target(&window)).await? {
        if !(flag(&pane, vertical) && flag(&pane, horizontal)) {
            continue;
        }
        if best.as_ref().is_none_or(|kept| offset(&pane) > offset(kept)) {
            best = Some(pane);
        }
    }
    let Some(pane) = best else {
        return Err(upstream_error(
            "ExpectedToolError",
            &format!(
                "No pane found at corner '{corner}' in window {window}. This is unusual — built-in layouts always have a pane at every corner."
            ),
            None,
        ));
    };
    models::typed(pane)
}

pub async fn get_pane_info(gate: &ReadGate<'_>, input: GetPaneInfoInput) -> Result<GetPaneInfoOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    if let Some(pane) = named_pane(&targeting) {
        let id = pane.to_string();
        let read = models::pane(gate, &id).await;
        return match read.and_then(|records| models::one(records, "pane_id", &id)) {
            Ok(record) => models::typed(record),
            Err(error) => Err(explained(gate, &targeting, error).await),
        };
    }
    let server = Server::read_for(gate, &targeting, Level::Pane).await?;
    let pane = server.pane(&targeting)?;
    let id = pane.id.as_str();
    let record = models::one(models::pane(gate, id).await?, "pane_id", id)?;
    models::typed(record)
}

pub async fn get_server_info(gate: &ReadGate<'_>, input: GetServerInfoInput) -> Result<GetServerInfoOutput, ToolError> {
    checked(gate, &input)?;
    models::typed(server_info(gate).await)
}

pub async fn get_session_info(
    gate: &ReadGate<'_>,
    input: GetSessionInfoInput,
) -> Result<GetSessionInfoOutput, ToolError> {
    let id = session_id(gate, &checked(gate, &input)?).await?;
    models::typed(models::one(models::sessions(gate).await?, "session_id", &id)?)
}

pub async fn get_window_info(gate: &ReadGate<'_>, input: GetWindowInfoInput) -> Result<GetWindowInfoOutput, ToolError> {
    let id = window_id(gate, &checked(gate, &input)?).await?;
    // `list-windows -t @N` lists the windows of the session holding @N.
    models::typed(models::one(
        models::windows(gate, Scope::Target(&id)).await?,
        "window_id",
        &id,
    )?)
}

pub async fn list_panes(gate: &ReadGate<'_>, input: ListPanesInput) -> Result<ListPanesOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let filters = Filters::parse(&input.filters, &models::pane_filter_fields())?;
    // The scope, resolved to an id: a window, a session, or the whole server.
    let scope = if targeting.window_id.is_some() || targeting.window_index.is_some() {
        Some(("window_id", window_id(gate, &targeting).await?))
    } else if targeting.session_id.is_some() || targeting.session_name.is_some() {
        Some(("session_id", session_id(gate, &targeting).await?))
    } else {
        None
    };
    let mut panes = none_without_server(models::panes(gate, Scope::Server).await)?;
    if let Some((key, id)) = &scope {
        panes.retain(|pane| pane.get(*key).and_then(serde_json::Value::as_str) == Some(id.as_str()));
    }
    Ok(ListPanesOutput {
        result: typed_all(filters.keep(panes))?,
    })
}

/// Only the server paneward serves is listed: one paneward drives one tmux server, and
/// asking other servers anything is not its business (paneward's own `list_servers`
/// says which others are alive). A path in `extra_socket_paths` adds nothing more.
pub async fn list_servers(gate: &ReadGate<'_>, input: ListServersInput) -> Result<ListServersOutput, ToolError> {
    let ListServersInput { extra_socket_paths: _ } = input;
    let info = server_info(gate).await;
    let alive = info.get("is_alive") == Some(&serde_json::Value::Bool(true));
    let result = if alive { vec![models::typed(info)?] } else { Vec::new() };
    Ok(ListServersOutput { result })
}

pub async fn list_sessions(gate: &ReadGate<'_>, input: ListSessionsInput) -> Result<ListSessionsOutput, ToolError> {
    checked(gate, &input)?;
    let filters = Filters::parse(&input.filters, &models::session_filter_fields())?;
    let result = typed_all(filters.keep(none_without_server(models::sessions(gate).await)?))?;
    Ok(ListSessionsOutput { result })
}

pub async fn list_windows(gate: &ReadGate<'_>, input: ListWindowsInput) -> Result<ListWindowsOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let filters = Filters::parse(&input.filters, &models::window_filter_fields())?;
    let windows = if targeting.session_id.is_some() || targeting.session_name.is_some() {
        let session = session_id(gate, &targeting).await?;
        models::windows(gate, Scope::Target(&session)).await?
    } else {
        none_without_server(models::windows(gate, Scope::Server).await)?
    };
    Ok(ListWindowsOutput {
        result: typed_all(filters.keep(windows))?,
    })
}

pub use super::search::search_panes;

/// A whole-server listing where no tmux server runs yet: nothing, as libtmux lists it
/// (`create_session` starts the server under this profile), not an error.
///
/// # Errors
/// Any other failure.
pub(super) fn none_without_server<T>(listed: Result<Vec<T>, ToolError>) -> Result<Vec<T>, ToolError> {
    match listed {
        Err(error) if error.kind() == crate::runtime::error::ToolErrorKind::TmuxUnavailable => Ok(Vec::new()),
        other => other,
    }
}

/// Records as the generated item type of a listing.
fn typed_all<T: serde::de::DeserializeOwned>(records: Vec<serde_json::Value>) -> Result<Vec<T>, ToolError> {
    records.into_iter().map(models::typed).collect()
}

/// libtmux-mcp's `ServerInfo` of the served server: its real socket name
/// ([`Served`]; null only for a socket outside tmux's folder), and its `socket_path`
/// when paneward reaches it by path, as libtmux holds it; a server that does not
/// answer is not alive.
async fn server_info(gate: &ReadGate<'_>) -> serde_json::Value {
    let served = Served::serving(&gate.state().settings);
    let socket_path = served
        .path
        .filter(|_| served.by_path)
        .map(|path| path.display().to_string());
    let socket_name = served.name;
    let version = ReadCommand::new(ReadVerb::DisplayMessage).arg("#{version}");
    let (alive, version, sessions) = match gate.run(version).await {
        Ok(output) => {
            let version = String::from_utf8_lossy(&output).trim_end().to_string();
            let sessions = models::sessions(gate).await.map_or(0, |all| all.len());
            (true, (!version.is_empty()).then_some(version), sessions)
        }
        Err(_) => (false, None, 0),
    };
    serde_json::json!({
        "is_alive": alive,
        "socket_name": socket_name,
        "socket_path": socket_path,
        "session_count": sessions,
        "version": version,
    })
}
