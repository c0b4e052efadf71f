//! paneward's key-name grammar against tmux's own parser: every name paneward accepts
//! must be one tmux reads as a key, or a typo would be typed as text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use paneward::tools::input::keys::{is_key_name, NAMED_KEYS};

/// tmux's verdict: `list-keys` parses its key argument and says `invalid key` when it
/// cannot (and `unknown key` for a valid key that is not bound).
fn tmux_reads_as_a_key(tmux: &TmuxServer, word: &str) -> bool {
    let output = tmux
        .command()
        .args(["list-keys", "-T", "root", "--", word])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    output.status.success() || stderr.contains("unknown key")
}

#[test]
fn real_tmux_compat_every_key_name_paneward_accepts_is_a_key_to_tmux() {
    let tmux = TmuxServer::start();
    let mut accepted: Vec<String> = Vec::new();
    for name in NAMED_KEYS {
        for modifiers in ["", "C-", "M-", "S-", "C-M-S-", "^", "c-m-"] {
            accepted.push(format!("{modifiers}{name}"));
            accepted.push(format!("{modifiers}{}", name.to_lowercase()));
        }
    }
    let characters = ('!'..='~')
        .map(String::from)
        .chain(["é", "中", "😀", "\u{301}", "\u{a0}"].map(String::from));
    for character in characters {
        // `;` at the end of an argument ends a tmux command; paneward escapes it, this probe does not.
        if character == ";" {
            continue;
        }
        for modifiers in ["", "C-", "M-", "S-", "^", "C-M-"] {
            accepted.push(format!("{modifiers}{character}"));
        }
    }
    let mut checked = 0;
    for word in accepted.iter().filter(|w| is_key_name(w)) {
        assert!(
            tmux_reads_as_a_key(&tmux, word),
            "paneward accepts {word:?} but tmux does not"
        );
        checked += 1;
    }
    assert!(checked > 800, "only {checked} names were checked");
}

#[test]
fn real_tmux_compat_words_tmux_cannot_read_are_refused_by_paneward_too() {
    let tmux = TmuxServer::start();
    for word in [
        "ls",
        "C-",
        "x-y",
        "--",
        "F13",
        "F0",
        "C-{",
        "Enter2",
        "PasteStart",
        "hello",
        "C-cc",
    ] {
        assert!(!tmux_reads_as_a_key(&tmux, word), "tmux reads {word:?} as a key now");
        assert!(!is_key_name(word), "paneward accepts {word:?}");
    }
}
