//! Asking the person of an MCP 2026-07-28 client, which takes no server-to-client
//! request: input to the caller pane ends with an `InputRequiredResult` (the question,
//! and a sealed `requestState`) and types nothing; the same call sent again with the
//! person's yes and the state types it once; a no keeps the refusal; a state replayed,
//! altered or brought to another call is refused, naming the field; and a batch puts a
//! question off only while it has changed nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::asking::yes;
use crate::support::{Client, Scratch, TmuxServer};

/// paneward in `caller` of `tmux`; a 2026-07-28 client needs no handshake.
fn current_client(tmux: &TmuxServer, caller: &str) -> Client {
    tmux.paneward_with(&[], &[("TMUX", &tmux.tmux_env()), ("TMUX_PANE", caller)])
}

/// The `requestState` of an `InputRequiredResult` reply, checking its shape.
fn asked(reply: &Value) -> String {
    let result = &reply["result"];
    assert_eq!(result["resultType"], "input_required", "{reply}");
    let request = &result["inputRequests"]["consent"];
    assert_eq!(request["method"], "elicitation/create", "{reply}");
    assert_eq!(request["params"]["mode"], "form", "{reply}");
    assert_eq!(
        request["params"]["requestedSchema"]["required"],
        json!(["allow"]),
        "{reply}"
    );
    result["requestState"].as_str().expect("a requestState").to_string()
}

/// Types `marker` into `pane` with force (no question), as the last input of a test:
/// typed text lands in the recorder line by line, so what arrived before it shows.
fn marker(client: &mut Client, pane: &str) {
    let reply = client.call_current(
        "send_keys",
        &json!({"pane_id": pane, "keys": "marker", "literal": true, "force": true}),
        None,
        None,
    );
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    assert_ne!(reply["result"]["isError"], json!(true), "{reply}");
}

#[test]
fn the_person_is_asked_in_a_second_round_and_their_yes_types_once() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let mut client = current_client(&tmux, &caller);
    let arguments = json!({"pane_id": caller, "keys": "s3cret", "literal": true});
    let first = client.call_current("send_keys", &arguments, None, None);
    let state = asked(&first);
    let message = first["result"]["inputRequests"]["consent"]["params"]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains(&format!("pane {caller}")) && !message.contains("s3cret"),
        "{message}"
    );

    let second = client.call_current("send_keys", &arguments, Some(&state), Some(yes()));
    assert_eq!(second["result"]["resultType"], "complete", "{second}");
    assert_ne!(second["result"]["isError"], json!(true), "{second}");
    assert_eq!(
        second["result"]["structuredContent"]["resolvedPaneIds"],
        json!([caller])
    );

    // The same answer again (a replay, or a client sending its repeat twice) runs nothing.
    let replay = client.call_current("send_keys", &arguments, Some(&state), Some(yes()));
    let error = &replay["error"];
    assert_eq!(error["code"], -32602, "{replay}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("/params/requestState: was used already"),
        "{replay}"
    );
    marker(&mut client, &caller);
    assert_eq!(scratch.wait_for_lines("typed", 2), "s3cret\nmarker\n");
}

#[test]
fn a_no_keeps_the_refusal_and_a_forged_or_borrowed_state_is_refused() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let mut client = current_client(&tmux, &caller);
    let arguments = json!({"pane_id": caller, "keys": "refused", "literal": true});

    let state = asked(&client.call_current("send_keys", &arguments, None, None));
    let declined = client.call_current(
        "send_keys",
        &arguments,
        Some(&state),
        Some(json!({"action": "decline"})),
    );
    assert_eq!(declined["result"]["isError"], json!(true), "{declined}");
    let text = declined["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("the person was asked and declined"), "{text}");

    // A state issued for one call does not carry a yes to another.
    let state = asked(&client.call_current("send_keys", &arguments, None, None));
    let other = json!({"pane_id": caller, "keys": "other text", "literal": true});
    let borrowed = client.call_current("send_keys", &other, Some(&state), Some(yes()));
    assert!(
        borrowed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/params/requestState: was issued for another call"),
        "{borrowed}"
    );
    // An altered state, and an answer without its state.
    let mut forged = state.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    let altered = client.call_current("send_keys", &arguments, Some(&forged), Some(yes()));
    assert!(
        altered["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/params/requestState: was altered"),
        "{altered}"
    );
    // An answer without its state answers no question paneward can tell: it is
    // ignored, nothing is typed, and the person is asked anew (SEP-2322's re-request).
    let bare = client.call_current("send_keys", &arguments, None, Some(yes()));
    asked(&bare);
    marker(&mut client, &caller);
    assert_eq!(scratch.wait_for_lines("typed", 1), "marker\n");
}

#[test]
fn a_batch_puts_a_question_off_only_while_it_has_changed_nothing() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let other = tmux.recorder(&scratch.path("other"));
    let mut client = current_client(&tmux, &caller);
    let row = |pane: &str, keys: &str| json!({"tool": "send_keys", "arguments": {"pane_id": pane, "keys": keys, "literal": true}});

    // The caller pane first: nothing has run, so the whole batch waits for the answer,
    // and its repeat with a yes runs every row once.
    let batch = json!({"operations": [row(&caller, "first"), row(&other, "second")]});
    let state = asked(&client.call_current("call_mutating_tools_batch", &batch, None, None));
    let repeat = client.call_current("call_mutating_tools_batch", &batch, Some(&state), Some(yes()));
    let reply = &repeat["result"]["structuredContent"];
    assert_eq!(reply["succeeded"], 2, "{repeat}");

    // Another pane first: that row typed, so the caller row cannot be put off to a
    // repeat (which would type the first row again): it is refused, saying why.
    let batch = json!({"operations": [row(&other, "third"), row(&caller, "fourth")], "on_error": "continue"});
    let reply = client.call_current("call_mutating_tools_batch", &batch, None, None);
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    let rows = &reply["result"]["structuredContent"]["results"];
    assert_eq!(rows[0]["success"], true, "{reply}");
    assert_eq!(rows[1]["success"], false, "{reply}");
    assert!(
        rows[1]["error"].as_str().unwrap().contains("already changed tmux"),
        "{reply}"
    );

    marker(&mut client, &caller);
    marker(&mut client, &other);
    assert_eq!(scratch.wait_for_lines("typed", 2), "first\nmarker\n");
    assert_eq!(scratch.wait_for_lines("other", 3), "second\nthird\nmarker\n");
}
