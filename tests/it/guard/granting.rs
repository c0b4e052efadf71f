//! `request_pane`: under `--scope owned` the agent asks the person for one of their
//! panes; their yes marks it as the agent's (tools may then change it), a no or a
//! client that cannot ask leaves it the person's and names `paneward grant`; nothing is
//! asked for a pane already the agent's or under `--scope all`; a 2026-07-28 client is
//! asked in a second round.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::asking::yes;
use crate::support::{Client, Scratch, TmuxServer};

/// paneward under `--scope owned`, initialized by a legacy client that shows forms
/// (`elicit`) or not.
fn owned_client(tmux: &TmuxServer, elicit: bool) -> Client {
    let mut client = tmux.paneward_with(&["--scope", "owned"], &[]);
    client.initialize_legacy(elicit);
    client
}

fn typing(pane: &str, keys: &str) -> Value {
    json!({"pane_id": pane, "keys": keys, "literal": true})
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[test]
fn the_person_s_yes_hands_the_agent_their_pane_and_a_no_keeps_it_theirs() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = owned_client(&tmux, true);
    let no = json!({"action": "decline"});

    // The person's pane is out of scope until they hand it over.
    let (_, refused) = client.call_answering(1, "send_keys", typing(&pane, "early"), |_| no.clone());
    assert_eq!(refused["isError"], true, "{refused}");

    let (questions, declined) = client.call_answering(2, "request_pane", json!({"pane_id": pane}), |_| no.clone());
    assert_eq!(questions.len(), 1);
    assert_eq!(declined["isError"], true, "{declined}");
    assert!(
        text(&declined).contains("the person was asked and declined")
            && text(&declined).contains(&format!("paneward grant {pane}")),
        "{declined}"
    );

    let (questions, granted) = client.call_answering(3, "request_pane", json!({"pane_id": pane}), |_| yes());
    let message = questions[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("tmux pane {pane}")) && message.contains("running \""),
        "{message}"
    );
    assert_eq!(granted["structuredContent"]["granted"], true, "{granted}");
    assert_eq!(granted["structuredContent"]["outcome"], "granted");

    // Now the agent's: typing needs no question, and asking again asks nothing.
    let (questions, typed) = client.call_answering(4, "send_keys", typing(&pane, "granted"), |_| no.clone());
    assert!(questions.is_empty(), "{questions:?}");
    assert_ne!(typed["isError"], true, "{typed}");
    let (questions, again) = client.call_answering(5, "request_pane", json!({"pane_id": pane}), |_| no.clone());
    assert!(questions.is_empty(), "{questions:?}");
    assert_eq!(again["structuredContent"]["outcome"], "alreadyOwned", "{again}");
    assert_eq!(scratch.wait_for_lines("typed", 1), "granted\n");
    // The mark is the one `paneward grant` sets, at the pane's own level.
    let mark = tmux.tmux(&["show-options", "-qvp", "-t", &pane, "@paneward_owned_pane"]);
    assert_eq!(mark.trim(), "1");
}

#[test]
fn a_client_that_cannot_ask_is_told_the_shell_command_and_scope_all_asks_nothing() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = owned_client(&tmux, false);
    let (questions, refused) = client.call_answering(1, "request_pane", json!({"pane_id": pane}), |_| json!({}));
    assert!(questions.is_empty());
    assert!(
        text(&refused).contains("this client cannot ask its person")
            && text(&refused).contains(&format!("paneward grant {pane}")),
        "{refused}"
    );
    let mark = tmux.tmux(&["show-options", "-qvp", "-t", &pane, "@paneward_owned_pane"]);
    assert_eq!(mark.trim(), "", "nothing marked");
    let missing = client.call("request_pane", json!({"pane_id": "%999"}));
    assert!(text(&missing).contains("%999 does not exist"), "{missing}");

    let mut client = tmux.paneward();
    client.initialize();
    let all = client.call_ok("request_pane", json!({"pane_id": pane}));
    assert_eq!(all["outcome"], "scopeAll", "{all}");
    assert_eq!(all["granted"], false);
}

#[test]
fn a_current_client_is_asked_for_the_pane_in_a_second_round() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&["--scope", "owned"], &[]);
    let arguments = json!({"pane_id": pane});
    let first = client.call_current("request_pane", &arguments, None, None);
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let mark = tmux.tmux(&["show-options", "-qvp", "-t", &pane, "@paneward_owned_pane"]);
    assert_eq!(mark.trim(), "", "nothing marked before the answer");
    let state = first["result"]["requestState"].as_str();
    let second = client.call_current("request_pane", &arguments, state, Some(yes()));
    assert_eq!(second["result"]["structuredContent"]["outcome"], "granted", "{second}");
    let mark = tmux.tmux(&["show-options", "-qvp", "-t", &pane, "@paneward_owned_pane"]);
    assert_eq!(mark.trim(), "1");
}
