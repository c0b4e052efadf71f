//! Standard input and output of the binary: polled when they are pipes (the usual case,
//! covered by every other test) or sockets (clients built on Node.js), read through
//! blocking threads when they are anything else, such as a file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::io::{BufRead, BufReader, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};

use crate::support::{clean_env, wait_for, Scratch, TmuxServer, PATIENCE};
use serde_json::{json, Value};

const HANDSHAKE: [&str; 3] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
];

fn paneward() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    command.env("PANEWARD_LOG", "error").args(["-L", "pw-stdio-unused"]);
    command
}

fn tools_listed(responses: &[Value]) -> usize {
    let list = responses
        .iter()
        .find(|r| r["id"] == json!(2))
        .expect("a tools/list response");
    list["result"]["tools"].as_array().expect("tools").len()
}

#[test]
fn requests_read_from_a_file_are_answered() {
    let path = std::env::temp_dir().join(format!("pw-stdio-{}.jsonl", std::process::id()));
    std::fs::write(&path, HANDSHAKE.join("\n") + "\n").unwrap();
    let output = paneward()
        .stdin(std::fs::File::open(&path).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(output.status.success());
    let responses: Vec<Value> = output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).unwrap())
        .collect();
    assert!(tools_listed(&responses) > 0);
}

#[test]
fn standard_output_as_a_pipe_is_widened_to_hold_a_long_reply_in_one_write() {
    // The pipe is made here, so that its size is read before paneward can change it.
    let (stdout, theirs) = std::io::pipe().unwrap();
    let default = rustix::pipe::fcntl_getpipe_size(&stdout).unwrap();
    let mut command = paneward();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(theirs)
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    drop(command);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", HANDSHAKE[0]).unwrap();
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("\"result\""), "{line}");
    // paneward widens its standard output before it reads the first request.
    let now = rustix::pipe::fcntl_getpipe_size(reader.get_ref()).unwrap();
    assert!(default < paneward::limits::REPLY_PIPE_BYTES, "{default}");
    assert_eq!(now, paneward::limits::REPLY_PIPE_BYTES);
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_socket_as_standard_input_and_output_works() {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let theirs_out = theirs.try_clone().unwrap();
    let mut child = paneward()
        .stdin(Stdio::from(OwnedFd::from(theirs)))
        .stdout(Stdio::from(OwnedFd::from(theirs_out)))
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    ours.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut writer = ours.try_clone().unwrap();
    writer.write_all((HANDSHAKE.join("\n") + "\n").as_bytes()).unwrap();
    let mut reader = BufReader::new(ours.try_clone().unwrap());
    let mut responses = Vec::new();
    while responses.len() < 2 {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "paneward closed the socket");
        responses.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    assert!(tools_listed(&responses) > 0);
    // Closing our end is EOF for paneward, which then exits.
    ours.shutdown(std::net::Shutdown::Both).unwrap();
    drop((writer, reader));
    let status = child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn a_client_that_closed_standard_output_is_left_and_nothing_more_is_typed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut child = paneward_on(&tmux)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The client stops reading but keeps standard input open.
    drop(child.stdout.take());
    let mut lines: Vec<String> = HANDSHAKE[..2].iter().map(ToString::to_string).collect();
    lines.extend((0..5).map(|i| {
        json!({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call", "params": {"name": "send_keys",
            "arguments": {"pane_id": pane, "keys": format!("typed {i}"), "literal": true, "enter": true}}})
        .to_string()
    }));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    let status = wait_for("paneward to exit", || child.try_wait().unwrap());
    assert!(!status.success(), "{status}");
    drop(stdin);
    // Typed input arrives in order, so a marker typed now comes after anything typed before.
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "marker"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    assert_eq!(scratch.wait_for_lines("typed", 1), "marker\n");
}

fn paneward_on(tmux: &TmuxServer) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    command.env("PANEWARD_LOG", "error").args(["-L", &tmux.name]);
    command
}

#[test]
fn requests_queued_by_a_client_that_does_not_read_its_answers_hold_bounded_memory() {
    const REQUESTS: usize = 10_000;
    let mut child = paneward()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // A second handle on the pipe to the server, to see how much it has left unread.
    let pipe = std::os::fd::AsFd::as_fd(&input).try_clone_to_owned().unwrap();
    for line in &HANDSHAKE[..2] {
        writeln!(input, "{line}").unwrap();
    }
    let all_written = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let written = std::sync::Arc::clone(&all_written);
    let writer = std::thread::spawn(move || {
        for id in 0..REQUESTS {
            // A tool call, not a ping: rmcp answers a ping in its reading loop, so a full
            // answer pipe stops it reading anyway; a call runs as a task of its own, and
            // without a bound on calls in flight the server reads on and queues them all.
            // A tool no server has: answered at once, with no tmux process behind it, so
            // the answers fill their pipe as fast on a loaded machine as on an idle one.
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"no_such_tool","arguments":{{}}}}}}"#,
                id + 10
            );
            writeln!(input, "{call}").unwrap();
        }
        input.flush().unwrap();
        written.store(true, std::sync::atomic::Ordering::SeqCst);
        input
    });
    // Nothing is read from the server yet: once the pipe of its answers is full (it
    // is up and answering, past its start-up), nothing it answers leaves; at its bound
    // of unanswered requests it reads no more, and the pipe to it fills.
    let stdout = child.stdout.take().unwrap();
    let answers = std::os::fd::AsFd::as_fd(&stdout).try_clone_to_owned().unwrap();
    let mut last_unread = 0;
    wait_for("the server to stop reading", || {
        assert!(
            !all_written.load(std::sync::atomic::Ordering::SeqCst),
            "the server read all {REQUESTS} requests while none of its answers was read"
        );
        let answers_full = rustix::io::ioctl_fionread(&answers).unwrap() >= 60_000;
        let unread = rustix::io::ioctl_fionread(&pipe).unwrap();
        // Full, and no byte of it read since the last look.
        let stopped = answers_full && unread >= 60_000 && unread == last_unread;
        last_unread = unread;
        stopped.then_some(())
    });
    // Reading the answers lets it go on: every request is answered.
    let lines = crate::support::line_channel(stdout);
    let mut answered = 0;
    while answered < REQUESTS + 1 {
        let line = lines.recv_timeout(PATIENCE).expect("an answer");
        if serde_json::from_str::<Value>(&line).unwrap()["id"].is_number() {
            answered += 1;
        }
    }
    // What the queue held at its fullest: bounded, a debug build stays near 40 MB
    // (BENCHMARKS.md, "Pipelined requests").
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert!(
        peak_kib < 64 * 1024,
        "peak RSS {peak_kib} KiB with {REQUESTS} requests queued"
    );
    // Both handles on the pipe closed: the end of input, and a clean exit.
    drop((writer.join().unwrap(), pipe, answers));
    assert!(child.wait().unwrap().success());
}
