//! MCP over standard input and output: a thin layer in front of rmcp.
//!
//! Each line from the client is read once (the shared protocol layer,
//! [`crate::mcp::protocol`]) and reaches rmcp as a parsed message ([`handover`]):
//! malformed JSON, unserved methods, bad params and pre-handshake notifications are
//! settled here, because rmcp 3.11 would stay silent, answer with the wrong code or
//! without the id, or end the session (see docs/mcp-quirks.md). Each request reaches
//! rmcp under its arrival number as id ([`ids`]), registered in the server's
//! [`Flight`], which orders tool calls, refuses an id still in flight and records
//! cancellations; the response, encoded once, goes back with the client's id. One
//! writer puts whole lines on standard output, so answers from here and from rmcp
//! never interleave; when a write fails the client is gone, and the server stops.
//! Standard output carries nothing but protocol.

pub mod handover;
pub mod ids;
pub mod lines;
pub mod streams;

use crate::limits::{
    MCP_ANSWER_QUEUE_MESSAGES, MCP_HANDOVER_QUEUE_MESSAGES, MCP_LINE_MAX_BYTES as MAX_LINE_BYTES,
    MCP_REQUESTS_IN_FLIGHT_MAX, MCP_WRITE_BUFFER_KEPT_BYTES,
};
use std::sync::Arc;

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::service::ServerInitializeError;
use rmcp::ServiceExt;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::mcp::flight::Flight;
use crate::mcp::protocol::revision::Era;
use crate::mcp::protocol::triage::{self, triage, Request, Triage};
use crate::mcp::server::McpServer;
use handover::Handover;
use lines::{read_line, Line};

/// Serves `server` on this process's standard input and output until the client
/// closes standard input.
///
/// # Errors
/// The handshake failed, or rmcp's service ended abnormally. End of input, even before
/// `initialize`, is a normal end.
pub async fn serve(server: McpServer) -> Result<(), String> {
    let (input, output) = streams::standard_streams();
    serve_on(server, input, output).await
}

/// [`serve`] on any byte streams.
///
/// # Errors
/// As [`serve`].
pub async fn serve_on<R, W>(server: McpServer, input: R, output: W) -> Result<(), String>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_rmcp, rmcp_input) = mpsc::channel(MCP_HANDOVER_QUEUE_MESSAGES);
    let (rmcp_output, from_rmcp) = mpsc::channel(MCP_HANDOVER_QUEUE_MESSAGES);
    let (answers, queued_answers) = mpsc::channel(MCP_ANSWER_QUEUE_MESSAGES);
    let flight = server.flight();
    let reader = tokio::spawn(read_client(input, to_rmcp, answers, flight.clone()));
    let writer = tokio::spawn(write_client(output, from_rmcp, queued_answers, flight));
    let transport = Handover::new(rmcp_input, rmcp_output);
    let served = match server.serve(transport).await {
        Ok(running) => running.waiting().await.map(drop).map_err(|e| e.to_string()),
        // The client left before the handshake: as ordinary an end as leaving after it.
        Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(error) => Err(error.to_string()),
    };
    // rmcp has dropped its sender, so the writer drains what is left and stops.
    let written = writer.await.unwrap_or(Ok(()));
    reader.abort();
    written.and(served)
}

/// Reads client lines, answers what [`triage`](fn@triage) settles, and passes the rest to rmcp,
/// until the client closes its end or is gone.
async fn read_client<R: AsyncRead + Unpin>(
    input: R,
    to_rmcp: mpsc::Sender<ClientJsonRpcMessage>,
    answers: mpsc::Sender<String>,
    flight: Arc<Flight>,
) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    // The era the lifecycle started in, once a request started it.
    let mut era: Option<Era> = None;
    loop {
        let read = tokio::select! {
            read = read_line(&mut input, &mut line, MAX_LINE_BYTES) => read,
            () = flight.gone() => break,
        };
        let verdict = match read {
            Ok(Line::Complete) => {
                // RFC 8259 lets a parser skip a byte order mark; rmcp does.
                if line.starts_with(b"\xEF\xBB\xBF") {
                    line.drain(..3);
                }
                triage(&line, era.is_some())
            }
            Ok(Line::TooLong) => Triage::Answer(triage::line_too_long(MAX_LINE_BYTES)),
            Ok(Line::End) => break,
            Err(error) => {
                tracing::warn!("cannot read standard input: {error}");
                break;
            }
        };
        let forward = match verdict {
            Triage::Forward { starts } => {
                era = era.or(starts);
                match forwarded(&line) {
                    Ok(Some(message)) => message,
                    Ok(None) => continue,
                    Err(answer) => {
                        if answers.send(answer).await.is_err() {
                            break;
                        }
                        continue;
                    }
                }
            }
            Triage::Request(request) => {
                // rmcp keeps serving in the era it started in: an `initialize` after a
                // stateless start would be answered and change nothing.
                if era == Some(Era::Stateless) && request.starts == Some(Era::Handshake) {
                    let answer = triage::handshake_after_stateless(&line[request.id_span.clone()]);
                    if answers.send(answer).await.is_err() {
                        break;
                    }
                    continue;
                }
                era = era.or(request.starts);
                // Each request in flight holds memory (rmcp's task, its reply) until it
                // is answered: past the bound the client's next request waits unread.
                // Before the lifecycle starts rmcp answers one request at a time, so no bound.
                if era.is_some() {
                    flight.room(MCP_REQUESTS_IN_FLIGHT_MAX).await;
                }
                match admit(&flight, &line, request, era.is_some()) {
                    Ok(forward) => forward,
                    Err(answer) => {
                        if answers.send(answer).await.is_err() {
                            break;
                        }
                        continue;
                    }
                }
            }
            Triage::Cancel { key } => {
                match flight.cancel(&key) {
                    Some(cancelled) => tracing::debug!(id = %key, started = cancelled.started, "cancellation received"),
                    None => tracing::debug!(id = %key, "cancellation of a request not in flight"),
                }
                continue;
            }
            Triage::Answer(message) => {
                if answers.send(message).await.is_err() {
                    break;
                }
                continue;
            }
            Triage::Ignore(why) => {
                tracing::debug!("ignored a client line: {why}");
                continue;
            }
        };
        if to_rmcp.send(forward).await.is_err() {
            break;
        }
    }
    // Dropping the sender is how rmcp learns that the client has gone.
}

/// A line [`triage`](fn@triage) forwards as it is, as rmcp reads it: `Ok(None)` for a
/// notification rmcp cannot read (JSON-RPC answers no notification), else the answer
/// that says it is no message.
fn forwarded(text: &[u8]) -> Result<Option<ClientJsonRpcMessage>, String> {
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(text) {
        Ok(message) => return Ok(Some(message)),
        Err(error) => error,
    };
    let notification = match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(message)) => {
            message.get("method").is_some_and(Value::is_string) && !message.contains_key("id")
        }
        _ => false,
    };
    if notification {
        tracing::debug!("ignored a notification rmcp cannot read: {error}");
        return Ok(None);
    }
    Err(triage::not_a_message(&error))
}

/// Registers `request` (its line is `text`) and returns the message for rmcp, its id
/// swapped for the arrival number, or the answer that refuses it.
fn admit(
    flight: &Flight,
    text: &[u8],
    request: Request,
    lifecycle_started: bool,
) -> Result<ClientJsonRpcMessage, String> {
    let echo = &text[request.id_span.clone()];
    // Before the lifecycle starts rmcp answers a tool call with an error without running
    // it; it then takes no turn.
    let takes_turn = request.tool_call && lifecycle_started;
    let echo_text = String::from_utf8_lossy(echo).into_owned();
    let Some(arrival) = flight.admit(request.key, echo_text, takes_turn) else {
        return Err(triage::id_in_flight(echo));
    };
    let forward = ids::replace(text, request.id_span, arrival.to_string().as_bytes());
    // rmcp would answer a request it cannot read without its id: it is read as rmcp
    // reads it, and refused here with the id.
    crate::mcp::protocol::rmcp_message(&forward, echo, request.arguments).inspect_err(|_| {
        flight.finish(arrival);
    })
}

/// Writes rmcp's messages, with the client's ids, and this layer's answers to the
/// client, one whole line at a time. A failed write means the client is gone: nothing
/// more may start, and the server stops.
async fn write_client<W: AsyncWrite + Unpin>(
    mut output: W,
    mut from_rmcp: mpsc::Receiver<ServerJsonRpcMessage>,
    mut answers: mpsc::Receiver<String>,
    flight: Arc<Flight>,
) -> Result<(), String> {
    let mut answers_open = true;
    // One buffer for every message: a large reply (a long capture) is encoded without
    // growing a fresh buffer from nothing each time.
    let mut line = Vec::new();
    loop {
        tokio::select! {
            message = from_rmcp.recv() => {
                let Some(message) = message else { break };
                if !encode(&message, &mut line) || !for_client(&mut line, &flight) {
                    continue;
                }
                write_or_stop(&mut output, &line, &flight).await?;
                // A reply's values are freed once the client has it, not before.
                drop(message);
                if line.capacity() > MCP_WRITE_BUFFER_KEPT_BYTES {
                    line = Vec::new();
                }
            }
            answer = answers.recv(), if answers_open => match answer {
                Some(answer) => write_or_stop(&mut output, &answer_line(answer), &flight).await?,
                None => answers_open = false,
            },
        }
    }
    // Answers already made still go out after rmcp has finished.
    while let Ok(answer) = answers.try_recv() {
        write_or_stop(&mut output, &answer_line(answer), &flight).await?;
    }
    Ok(())
}

/// One of this layer's answers as a line with its newline, written in one write.
fn answer_line(answer: String) -> Vec<u8> {
    let mut line = answer.into_bytes();
    line.push(b'\n');
    line
}

/// Writes `message` into `line` (emptied first) as one line with its newline, as rmcp
/// writes it; `false` if it cannot be encoded.
fn encode(message: &ServerJsonRpcMessage, line: &mut Vec<u8>) -> bool {
    line.clear();
    match serde_json::to_writer(&mut *line, message) {
        Ok(()) => {
            line.push(b'\n');
            true
        }
        Err(error) => {
            tracing::error!("cannot encode a message for the client: {error}");
            false
        }
    }
}

/// Makes a line of rmcp's into the line the client gets: a response carries the
/// client's id, and the response to a cancelled request is dropped (`false`); a
/// notification of a `subscriptions/listen` stream names that request by the client's id.
fn for_client(line: &mut Vec<u8>, flight: &Flight) -> bool {
    if let Some((arrival, span)) = ids::subscription_arrival(line) {
        if let Some(echo) = flight.echo(arrival) {
            ids::replace_in_place(line, span, echo.as_bytes());
        }
        return true;
    }
    // rmcp's own errors always carry the request's id; only its line transport, no
    // longer used, wrote one without.
    let Some((arrival, span)) = ids::response_arrival(line) else {
        return true;
    };
    match flight.finish(arrival) {
        Some(finished) if finished.cancelled => {
            tracing::debug!(id = %finished.echo, "the reply to a cancelled request is dropped");
            false
        }
        Some(finished) => {
            ids::replace_in_place(line, span, finished.echo.as_bytes());
            true
        }
        None => true,
    }
}

async fn write_or_stop<W: AsyncWrite + Unpin>(output: &mut W, line: &[u8], flight: &Flight) -> Result<(), String> {
    write_line(output, line).await.map_err(|error| {
        flight.client_gone();
        let message = format!("cannot write to standard output ({error}): the client is gone, stopping");
        tracing::warn!("{message}");
        message
    })
}

async fn write_line<W: AsyncWrite + Unpin>(output: &mut W, line: &[u8]) -> std::io::Result<()> {
    output.write_all(line).await?;
    if !line.ends_with(b"\n") {
        output.write_all(b"\n").await?;
    }
    output.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_forwarded_line_rmcp_cannot_read_is_answered_unless_it_is_a_notification() {
        let fits = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert!(matches!(forwarded(fits), Ok(Some(_))));
        let unfit = br#"{"jsonrpc":"2.0","method":"notifications/initialized","params":5}"#;
        assert!(matches!(forwarded(unfit), Ok(None)));
        let not_messages: [&[u8]; 4] = [
            br#"{"hello":"world"}"#,
            b"[1,2]",
            br#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","method":5}"#,
        ];
        for text in not_messages {
            let answer: Value = serde_json::from_str(&forwarded(text).unwrap_err()).unwrap();
            assert_eq!(
                (&answer["id"], &answer["error"]["code"]),
                (&Value::Null, &json!(-32600)),
                "{answer}"
            );
        }
    }
}
