//! `resources/read`: each resource answered by the inspect tools' own handlers, through
//! a [`ReadGate`], so a resource and its tool can never disagree.

use crate::limits::TEXT_DEFAULT_LINES;
use rmcp::model::{ErrorData, MetaObject, ReadResourceResult, ResourceContents};
use serde::Serialize;
use serde_json::{json, Value};

use crate::generated::types::{
    GetJobInput, GetPaneInfoInput, GetSessionInfoInput, GetWindowInfoInput, ListPanesOutput, ListSessionsInput,
    ListSessionsInputDetail, ListWindowsOutput,
};
use crate::guard::terminal::pane_input_wait;
use crate::guard::ReadGate;
use crate::resources::uri::{self, Target};
use crate::resources::Servers;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::runtime::CallContext;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, SessionId, TmuxError, WindowId};
use crate::tools::observe::activity::input_fields;
use crate::tools::observe::capture::{read_newest, TEXT_FIELDS};
use crate::tools::observe::objects::{capped, window_from, WINDOW_FIELDS};
use crate::tools::observe::rows::{pane_row, window_row, Detail};
use crate::tools::observe::tree::{get_pane_info, get_session_info, get_window_info, list_sessions, panes_listed};
use crate::tools::run::get_job;

/// The `_meta` key of a text resource's truncation counts.
pub const TEXT_META_KEY: &str = "paneward/text";

/// What a read returns before it is wrapped for the wire.
pub enum Content {
    Json(Value),
    /// Text with its `_meta["paneward/text"]` counts.
    Text(String, Value),
}

/// Reads `uri` (as the client spelled it; the reply carries that spelling).
///
/// # Errors
/// -32602 for a URI that is not paneward's, -32002 for one that names nothing, -32603
/// when tmux cannot answer.
pub async fn read(servers: &Servers, spelled: &str) -> Result<ReadResourceResult, ErrorData> {
    let target = uri::parse(spelled).map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
    let context = CallContext::default();
    let gate = ReadGate::new(&servers.first, &context);
    let content = content(&gate, servers, target)
        .await
        .map_err(|e| as_protocol_error(target, spelled, &e))?;
    let declared = super::declared::of(target).map_err(|e| ErrorData::internal_error(e, None))?;
    #[cfg(debug_assertions)]
    check_declared(target, &content)?;
    let contents = match content {
        Content::Json(value) => {
            let text = serde_json::to_string(&value)
                .map_err(|e| ErrorData::internal_error(format!("cannot encode {spelled}: {e}"), None))?;
            ResourceContents::TextResourceContents {
                uri: spelled.to_string(),
                mime_type: Some(declared.mime_type.clone()),
                text,
                meta: None,
            }
        }
        Content::Text(text, counts) => {
            let mut meta = MetaObject::default();
            meta.0.insert(TEXT_META_KEY.to_string(), counts);
            ResourceContents::TextResourceContents {
                uri: spelled.to_string(),
                mime_type: Some(declared.mime_type.clone()),
                text,
                meta: Some(meta),
            }
        }
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

/// Debug builds (tests) refuse a read that breaks its declared schema, as tool replies
/// are checked against their `outputSchema`.
#[cfg(debug_assertions)]
fn check_declared(target: Target, content: &Content) -> Result<(), ErrorData> {
    let instance = match content {
        Content::Json(value) => value,
        Content::Text(_, counts) => counts,
    };
    let problems = super::declared::problems(target, instance).map_err(|e| ErrorData::internal_error(e, None))?;
    if problems.is_empty() {
        return Ok(());
    }
    Err(ErrorData::internal_error(
        format!("{} breaks its declared schema: {problems:?}", target.uri()),
        None,
    ))
}

/// The content `target` names, as its declaration describes it.
///
/// # Errors
/// The object is gone (`notFound`), or tmux failed.
pub async fn content(gate: &ReadGate<'_>, servers: &Servers, target: Target) -> Result<Content, ToolError> {
    let value = match target {
        Target::Sessions => unfiltered(json_of(
            &list_sessions(
                gate,
                ListSessionsInput {
                    attached: None,
                    detail: Some(ListSessionsInputDetail::Full),
                    name: None,
                    path_under: None,
                },
            )
            .await?,
        )?),
        Target::Session(id) => json_of(
            &get_session_info(
                gate,
                GetSessionInfoInput {
                    session_id: id.to_string(),
                },
            )
            .await?,
        )?,
        Target::SessionWindows(id) => unfiltered(json_of(&session_windows(gate, id).await?)?),
        Target::Window(id) => json_of(
            &get_window_info(
                gate,
                GetWindowInfoInput {
                    window_id: id.to_string(),
                },
            )
            .await?,
        )?,
        Target::WindowPanes(id) => unfiltered(json_of(&window_panes(gate, id).await?)?),
        Target::Pane(id) => {
            let mut value = json_of(
                &get_pane_info(
                    gate,
                    GetPaneInfoInput {
                        pane_id: id.to_string(),
                        // Not on a resource read, which subscriptions repeat: see the schema.
                        history_bytes: None,
                    },
                )
                .await?,
            )?;
            // Whether it waits for input: the kernel's answer, as list_pane_activity's.
            let (input, reads_as) = input_fields(&pane_input_wait(gate, id).await?);
            value["input"] = json_of(&input)?;
            if let Some(reads_as) = reads_as {
                value["readsAs"] = json_of(&reads_as)?;
            }
            value
        }
        Target::PaneContent(id) => return pane_text(gate, id).await,
        Target::Job(job) => unwaited(json_of(
            &get_job(
                gate,
                GetJobInput {
                    job_id: job
                        .job_id()
                        .parse()
                        .map_err(|e| ToolError::internal(format!("a parsed job id does not fit get_job: {e}")))?,
                    timeout_seconds: None,
                    max_lines: None,
                },
            )
            .await?,
        )?),
        Target::Attention => super::attention::look(servers).await?.0,
    };
    Ok(Content::Json(value))
}

fn json_of<T: Serialize>(output: &T) -> Result<Value, ToolError> {
    serde_json::to_value(output).map_err(|e| ToolError::internal(format!("cannot encode a resource: {e}")))
}

/// A list in its resource's shape: resources take no filters, so their declared
/// content has no `filteredOut` (always 0 here).
fn unfiltered(mut value: Value) -> Value {
    if let Value::Object(fields) = &mut value {
        fields.remove("filteredOut");
    }
    value
}

/// A job in its resource's shape: a read never waits, so the declared content has
/// none of `get_job`'s wait fields (always 0 and false here).
fn unwaited(mut value: Value) -> Value {
    if let Value::Object(fields) = &mut value {
        fields.remove("timeoutSeconds");
        fields.remove("timeoutClamped");
    }
    value
}

fn gone(message: String) -> ToolError {
    TmuxError::ObjectGone { message }.into()
}

/// The windows of session `id`, in `list_windows`' shape.
async fn session_windows(gate: &ReadGate<'_>, id: SessionId) -> Result<ListWindowsOutput, ToolError> {
    let id = id.to_string();
    let command = ReadCommand::new(ReadVerb::ListWindows)
        .arg("-t")
        .arg(id.as_str())
        .arg("-F")
        .arg(record_format(&WINDOW_FIELDS));
    let output = gate.run(command).await?;
    let text = String::from_utf8_lossy(&output);
    let records = parse_records("list-windows", &WINDOW_FIELDS, &text)?;
    if records.is_empty() || records.iter().any(|r| !r.text("session_id").is_ok_and(|s| s == id)) {
        return Err(gone(format!("can't find session: {id}")));
    }
    let session = records[0].text("session_name")?.to_string();
    let windows = records
        .iter()
        .map(|record| window_from(record, None).map(|window| window_row(window, Detail::Full)))
        .collect::<Result<Vec<_>, _>>()?;
    let (windows, total, truncated) = capped(windows);
    Ok(ListWindowsOutput {
        session: Some(session),
        windows,
        total,
        filtered_out: Some(0),
        truncated: Some(truncated),
    })
}

/// The panes of window `id`, in `list_panes`' shape.
async fn window_panes(gate: &ReadGate<'_>, id: WindowId) -> Result<ListPanesOutput, ToolError> {
    let id = id.to_string();
    let panes = panes_listed(gate, &["-t", id.as_str()]).await?;
    // tmux falls back to another window for a missing target: check what came back.
    if panes.is_empty() || panes.iter().any(|pane| *pane.window_id != id) {
        return Err(gone(format!("can't find window: {id}")));
    }
    let panes = panes.into_iter().map(|pane| pane_row(pane, Detail::Full)).collect();
    let (panes, total, truncated) = capped(panes);
    Ok(ListPanesOutput {
        panes,
        total,
        filtered_out: Some(0),
        truncated: Some(truncated),
    })
}

/// A pane's newest rows as text, bounded as `snapshot_pane` bounds them, with a first
/// line saying what was left out.
async fn pane_text(gate: &ReadGate<'_>, id: PaneId) -> Result<Content, ToolError> {
    let max_lines = usize::try_from(TEXT_DEFAULT_LINES).unwrap_or(500);
    let (text, _) = read_newest(gate, id, true, max_lines, &TEXT_FIELDS).await?;
    let mut counts = json!({
        "truncated": text.truncated(),
        "truncatedLines": text.truncated_lines,
        "lines": text.lines.len(),
    });
    if let Some(bytes) = text.truncated_bytes {
        counts["truncatedBytes"] = json!(bytes);
    }
    let mut body = String::new();
    if text.truncated() {
        let bytes = text
            .truncated_bytes
            .map_or_else(String::new, |bytes| format!(" ({bytes} bytes)"));
        body.push_str(&format!(
            "[paneward: {} older rows left out{bytes}; the newest {} follow. capture_pane reads up to 5,000]\n",
            text.truncated_lines,
            text.lines.len()
        ));
    }
    body.push_str(&text.lines.join("\n"));
    Ok(Content::Text(body, counts))
}

/// The JSON-RPC error for a failed read of `target`, spelled `uri`.
pub fn as_protocol_error(target: Target, uri: &str, error: &ToolError) -> ErrorData {
    let data = Some(json!({ "uri": uri }));
    match error.kind() {
        ToolErrorKind::NotFound => ErrorData::resource_not_found(
            format!(
                "resource not found: {} ({}); {}",
                crate::runtime::error::echo(uri),
                error.message(),
                target.where_to_look()
            ),
            data,
        ),
        ToolErrorKind::InvalidArguments => ErrorData::invalid_params(error.message().to_string(), data),
        _ => ErrorData::internal_error(error.message().to_string(), data),
    }
}
