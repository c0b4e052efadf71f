//! Asking the person (`elicitation/create`): input to the caller pane without `force`,
//! and ending whatever holds it, are put to the person where the client can ask; their
//! yes lets that one action through, their no keeps the refusal, and a client that
//! cannot ask gets today's refusal with its way out.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use serde_json::json;

use paneward::app::App;
use paneward::catalog::profile::Profile;
use paneward::config::Config;
use paneward::guard::caller::CallerPane;
use paneward::guard::end::Ending;
use paneward::guard::EndGate;
use paneward::limits::TMUX_CLIENTS_DEFAULT_MAX;
use paneward::runtime::ask::{Answer, AskPerson, Asker};
use paneward::runtime::{CallContext, Tier, ToolErrorKind};
use paneward::tmux::ServerAddress;

use crate::support::asking::yes;
use crate::support::{Client, Scratch, TmuxServer};

/// paneward in `caller` of `tmux`, initialized by a client that declares elicitation.
fn asking_client(tmux: &TmuxServer, caller: &str) -> Client {
    let mut client = tmux.paneward_with(&[], &[("TMUX", &tmux.tmux_env()), ("TMUX_PANE", caller)]);
    client.initialize_legacy(true);
    client
}

#[test]
fn input_to_the_caller_pane_asks_the_person_and_their_yes_types_it() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let mut client = asking_client(&tmux, &caller);
    let secret = "s3cret-typed-text";
    let (questions, result) = client.call_answering(
        1,
        "send_keys",
        json!({"paneId": caller, "keys": secret, "literal": true}),
        |_| yes(),
    );
    assert_ne!(result["isError"], json!(true), "{result}");
    assert_eq!(result["structuredContent"]["resolvedPaneIds"], json!([caller]));
    assert_eq!(scratch.wait_for_lines("typed", 1), format!("{secret}\n"));
    // The question names the pane and the size of the input, never the text.
    let question = questions.last().expect("a question");
    let message = question["message"].as_str().expect("a question");
    assert!(message.contains(&format!("pane {caller}")), "{message}");
    assert!(
        message.contains(&format!("literal text of {} characters, then Enter", secret.len())),
        "{message}"
    );
    assert!(!question.to_string().contains(secret), "{question}");
    assert_eq!(question["mode"], "form");
    assert_eq!(question["requestedSchema"]["properties"]["allow"]["type"], "boolean");
}

#[test]
fn a_no_or_a_dismissed_question_keeps_the_refusal_and_types_nothing() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let mut client = asking_client(&tmux, &caller);
    for (id, answer) in [
        (1, json!({"action": "decline"})),
        (2, json!({"action": "cancel"})),
        (3, json!({"action": "accept", "content": {"allow": false}})),
    ] {
        let (questions, result) = client.call_answering(
            id,
            "send_keys",
            json!({"paneId": caller, "keys": "refused", "literal": true}),
            |_| answer.clone(),
        );
        assert!(!questions.is_empty(), "the person was asked");
        assert_eq!(result["isError"], json!(true), "{answer}: {result}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains("the person was asked and declined"), "{text}");
        assert!(
            text.contains("force: true"),
            "the agent's way out is still named: {text}"
        );
    }
    // Typed text lands in the file line by line; a marker typed elsewhere shows that
    // nothing refused above arrived before it.
    client.call_ok(
        "send_keys",
        json!({"pane_id": caller, "keys": "marker", "literal": true, "force": true}),
    );
    assert_eq!(scratch.wait_for_lines("typed", 1), "marker\n");
}

#[test]
fn force_and_other_panes_need_no_question() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let other = tmux.recorder(&scratch.path("other"));
    let mut client = asking_client(&tmux, &caller);
    for (id, pane, force) in [(1, &other, false), (2, &caller, true)] {
        let (questions, result) = client.call_answering(
            id,
            "send_keys",
            json!({"paneId": pane, "keys": "x", "literal": true, "force": force}),
            |_| json!({"action": "decline"}),
        );
        assert!(
            questions.is_empty(),
            "no question for {pane} (force {force}): {questions:?}"
        );
        assert_ne!(result["isError"], json!(true), "{result}");
    }
}

#[test]
fn a_client_that_cannot_ask_gets_the_refusal_with_its_way_out() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    // From %3 on, `display-message` mangles pane ids in formats (docs/tmux-quirks.md):
    // the caller pane here is past that point.
    for _ in 0..3 {
        tmux.window_running("exec cat");
    }
    let caller = tmux.recorder(&scratch.path("typed"));
    assert!(caller.trim_start_matches('%').parse::<u32>().unwrap() >= 3, "{caller}");
    let mut client = tmux.paneward_in(&caller);
    let (questions, result) = client.call_answering(
        50,
        "send_keys",
        json!({"paneId": caller, "keys": "x", "literal": true}),
        |_| yes(),
    );
    assert!(questions.is_empty(), "{questions:?}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("is the caller pane") && text.contains("force: true"),
        "{text}"
    );
    assert!(!text.contains("asked"), "{text}");
}

/// A person who answers every question with `answer`, and remembers the questions.
struct ScriptedPerson {
    answer: Answer,
    questions: Mutex<Vec<String>>,
}

impl AskPerson for ScriptedPerson {
    fn ask(&self, question: String) -> Pin<Box<dyn Future<Output = Answer> + Send + '_>> {
        self.questions.lock().unwrap().push(question);
        let answer = self.answer.clone();
        Box::pin(async move { answer })
    }
}

fn app_in(tmux: &TmuxServer, caller: &str) -> App {
    let config = Config {
        tmux_binary: PathBuf::from("tmux"),
        address: ServerAddress::Name(tmux.name.clone()),
        safety: Tier::Destructive,
        reveal_environment: false,
        show_commands: false,
        allow_attended_input: false,
        suppress_history: true,
        control_mode: false,
        native_client: true,
        hidden_client: true,
        max_tmux_clients: TMUX_CLIENTS_DEFAULT_MAX,
        profile: Profile::Default,
        surface: Default::default(),
        audit_log: None,
        address_origin: "the test",
        private: None,
        server_start: paneward::config::ServerStart::Refused,
        targets: Vec::new(),
        max_connected_targets: paneward::limits::CONNECTED_TARGETS_DEFAULT_MAX,
        deployment: None,
        scope: paneward::config::Scope::All,
        max_wait: paneward::limits::MAX_WAIT_DEFAULT,
        ssh: None,
    };
    let caller = CallerPane::from_env(Some(&tmux.tmux_env()), Some(caller)).unwrap();
    App::new(config, Some(caller)).unwrap()
}

fn end_asking(app: &App, person: &Arc<ScriptedPerson>, ending: Ending) -> Result<(), paneward::runtime::ToolError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let context = CallContext::nested().with_asker(Asker::new(person.clone()));
    runtime.block_on(EndGate::new(&app.guard, &context).end(&ending))
}

#[test]
fn ending_what_holds_the_caller_pane_asks_and_only_a_yes_ends_it() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let window = tmux.pane_value(&caller, "#{window_id}");
    tmux.window_running("sleep 600"); // the server outlives the window
    let app = app_in(&tmux, &caller);
    let exists = |target: &str| tmux.try_tmux(&["list-panes", "-t", target]);

    let declines = Arc::new(ScriptedPerson {
        answer: Answer::No,
        questions: Mutex::default(),
    });
    let error = end_asking(&app, &declines, Ending::KillWindow(window.parse().unwrap())).unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::Blocked);
    assert!(error.message().contains("the person was asked and declined"), "{error}");
    assert!(exists(&window), "a no ends nothing");
    let asked = declines.questions.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].contains(&format!("end window {window}, which holds tmux pane {caller}")),
        "{asked:?}"
    );

    let agrees = Arc::new(ScriptedPerson {
        answer: Answer::Yes,
        questions: Mutex::default(),
    });
    end_asking(&app, &agrees, Ending::KillWindow(window.parse().unwrap())).expect("the person's yes ends it");
    assert!(!exists(&window));

    // What does not hold the caller pane is ended without a question.
    let other = tmux.window_running("sleep 600");
    end_asking(&app, &agrees, Ending::KillPane(other.parse().unwrap())).unwrap();
    assert_eq!(agrees.questions.lock().unwrap().len(), 1, "asked once only");
}
