//! `list_servers`: this user's tmux servers, found in tmux's socket folder and probed
//! with a plain `connect` (a live server accepts at once, a stale socket refuses at
//! once), never by asking another server anything: what runs there is not this
//! call's business, and a folder of stale sockets stays cheap. Nothing is removed and
//! paneward keeps driving the one server it started with.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use tokio::task::JoinSet;

use crate::generated::types::{ListServersInput, ListServersOutput, ListServersOutputServersItem};
use crate::guard::ReadGate;
use crate::limits::{SERVER_PROBE_TIMEOUT, SERVER_SCAN_MAX_ENTRIES};
use crate::runtime::ToolError;
use crate::tmux::native::socket::{socket_path, user_folder};

/// One socket found.
struct Found {
    name: String,
    path: PathBuf,
    is_target: bool,
}

pub async fn list_servers(gate: &ReadGate<'_>, input: ListServersInput) -> Result<ListServersOutput, ToolError> {
    let ListServersInput {
        include_dead,
        max_servers,
        name_contains,
    } = input;
    let var = |key: &str| std::env::var(key).ok();
    let folder = user_folder(var).ok_or_else(|| ToolError::internal("tmux's socket folder cannot be found"))?;
    let target = socket_path(&gate.state().settings.address, var);
    let target = target.map(|path| std::fs::canonicalize(&path).unwrap_or(path));
    let (mut found, unread) = scan(&folder, target.as_deref());
    // The target is listed even when it lives outside the folder (`-S`).
    if let Some(target) = &target {
        if !found.iter().any(|f| f.is_target) {
            let name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push(Found {
                name,
                path: target.clone(),
                is_target: true,
            });
        }
    }
    if let Some(part) = name_contains.as_deref() {
        found.retain(|f| f.is_target || f.name.contains(part));
    }
    let mut servers = probe_all(found).await;
    if !include_dead {
        servers.retain(|server| server.alive || server.is_target);
    }
    servers.sort_by(|a, b| b.is_target.cmp(&a.is_target).then_with(|| a.name.cmp(&b.name)));
    let others_alive = servers.iter().filter(|s| s.alive && !s.is_target).count();
    let total = servers.len();
    // The schema bounds it (1 to 100, default 20).
    let limit = usize::try_from(max_servers.get()).unwrap_or(usize::MAX);
    servers.truncate(limit);
    let mut notes = Vec::new();
    if others_alive > 0 {
        notes.push(
            "paneward drives only the isTarget server; to work on another, start another paneward with its socket (-L NAME or -S PATH)".to_string(),
        );
    }
    if unread > 0 {
        notes.push(format!(
            "the folder holds more than {SERVER_SCAN_MAX_ENTRIES} entries; {unread} were not looked at"
        ));
    }
    Ok(ListServersOutput {
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        searched_in: folder.to_string_lossy().into_owned(),
        servers: servers
            .into_iter()
            .map(|s| ListServersOutputServersItem {
                alive: s.alive,
                is_target: s.is_target,
                name: s.name,
                socket_path: s.path.to_string_lossy().into_owned(),
            })
            .collect(),
        total: i64::try_from(total).unwrap_or(i64::MAX),
        truncated: total > limit,
    })
}

/// The sockets in `folder` (at most [`SERVER_SCAN_MAX_ENTRIES`] entries looked at),
/// and how many entries were left unread.
fn scan(folder: &Path, target: Option<&Path>) -> (Vec<Found>, usize) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return (Vec::new(), 0);
    };
    let mut found = Vec::new();
    let mut unread = 0;
    for (index, entry) in entries.flatten().enumerate() {
        if index >= SERVER_SCAN_MAX_ENTRIES {
            unread += 1;
            continue;
        }
        if !entry.file_type().is_ok_and(|t| t.is_socket()) {
            continue;
        }
        let path = entry.path();
        found.push(Found {
            name: entry.file_name().to_string_lossy().into_owned(),
            is_target: target == Some(path.as_path()),
            path,
        });
    }
    (found, unread)
}

/// A socket and whether it accepted a connection.
struct Probed {
    name: String,
    path: PathBuf,
    is_target: bool,
    alive: bool,
}

/// Connects to every socket at once, each within [`SERVER_PROBE_TIMEOUT`].
async fn probe_all(found: Vec<Found>) -> Vec<Probed> {
    let mut probes = JoinSet::new();
    for socket in found {
        probes.spawn(async move {
            let connect = tokio::net::UnixStream::connect(socket.path.clone());
            let alive = matches!(tokio::time::timeout(SERVER_PROBE_TIMEOUT, connect).await, Ok(Ok(_)));
            Probed {
                name: socket.name,
                path: socket.path,
                is_target: socket.is_target,
                alive,
            }
        });
    }
    let mut probed = Vec::new();
    while let Some(result) = probes.join_next().await {
        if let Ok(socket) = result {
            probed.push(socket);
        }
    }
    probed
}
