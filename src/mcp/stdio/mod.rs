//! MCP over standard input and output: a thin layer in front of rmcp's transport.
//!
//! Each line from the client is looked at once ([`triage`]) before rmcp sees it:
//! malformed JSON, unserved methods and pre-handshake notifications are settled here,
//! because rmcp 3.11 would stay silent, answer -32602, or end the session (see
//! docs/mcp-quirks.md). Everything else reaches rmcp unchanged through an in-memory
//! pipe, and one writer puts whole lines on standard output, so answers from here and
//! from rmcp never interleave. Standard output carries nothing but protocol.

pub mod lines;
pub mod streams;
pub mod triage;

use rmcp::service::ServerInitializeError;
use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

use crate::mcp::server::McpServer;
use lines::{read_line, Line, MAX_LINE_BYTES};
use triage::{triage, with_null_id, Triage};

/// Bytes buffered between this layer and rmcp in each direction; larger messages
/// stream through.
const PIPE_CAPACITY: usize = 64 * 1024;

/// Answers made here that may wait for the writer; the reader pauses beyond that.
const ANSWER_QUEUE: usize = 64;

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
    let (to_rmcp, rmcp_input) = tokio::io::duplex(PIPE_CAPACITY);
    let (rmcp_output, from_rmcp) = tokio::io::duplex(PIPE_CAPACITY);
    let (answers, queued_answers) = mpsc::channel(ANSWER_QUEUE);
    let reader = tokio::spawn(read_client(input, to_rmcp, answers));
    let writer = tokio::spawn(write_client(output, from_rmcp, queued_answers));
    let served = match server.serve((rmcp_input, rmcp_output)).await {
        Ok(running) => running.waiting().await.map(drop).map_err(|e| e.to_string()),
        // The client left before the handshake: as ordinary an end as leaving after it.
        Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(error) => Err(error.to_string()),
    };
    // rmcp has dropped its pipe ends, so the writer drains what is left and stops.
    let _ = writer.await;
    reader.abort();
    served
}

/// Reads client lines, answers what [`triage`] settles, and passes the rest to rmcp.
async fn read_client<R: AsyncRead + Unpin>(input: R, mut to_rmcp: DuplexStream, answers: mpsc::Sender<String>) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let mut initialize_seen = false;
    loop {
        let verdict = match read_line(&mut input, &mut line, MAX_LINE_BYTES).await {
            Ok(Line::Complete) => triage(&line, initialize_seen),
            Ok(Line::TooLong) => Triage::Answer(triage::line_too_long(MAX_LINE_BYTES)),
            Ok(Line::End) => break,
            Err(error) => {
                tracing::warn!("cannot read standard input: {error}");
                break;
            }
        };
        match verdict {
            Triage::Forward { initialize } => {
                initialize_seen |= initialize;
                line.push(b'\n');
                if to_rmcp.write_all(&line).await.is_err() {
                    break;
                }
            }
            Triage::Answer(message) => {
                if answers.send(message).await.is_err() {
                    break;
                }
            }
            Triage::Ignore(why) => tracing::debug!("ignored a client line: {why}"),
        }
    }
    // Closing rmcp's input is how rmcp learns that the client has gone.
    let _ = to_rmcp.shutdown().await;
}

/// Writes rmcp's lines and this layer's answers to the client, one whole line at a time.
async fn write_client<W: AsyncWrite + Unpin>(
    mut output: W,
    from_rmcp: DuplexStream,
    mut answers: mpsc::Receiver<String>,
) {
    let mut from_rmcp = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    let mut answers_open = true;
    loop {
        // read_until keeps a partial line in `line` when the other branch wins; it
        // continues that line next time, so `line` is emptied only once it is whole.
        let message = tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut line) => match read {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let whole = std::mem::take(&mut line);
                    with_null_id(&whole).unwrap_or(whole)
                }
            },
            answer = answers.recv(), if answers_open => match answer {
                Some(answer) => answer.into_bytes(),
                None => {
                    answers_open = false;
                    continue;
                }
            },
        };
        if write_line(&mut output, &message).await.is_err() {
            return;
        }
    }
    // Answers already made still go out after rmcp has finished.
    while let Ok(answer) = answers.try_recv() {
        if write_line(&mut output, answer.as_bytes()).await.is_err() {
            return;
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(output: &mut W, line: &[u8]) -> std::io::Result<()> {
    output.write_all(line).await?;
    if !line.ends_with(b"\n") {
        output.write_all(b"\n").await?;
    }
    output.flush().await
}
