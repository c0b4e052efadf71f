//! The documentation tells the truth: `docs/tools.md` is what `paneward tools
//! --markdown` prints from the schemas, the README's first run works (twice, the second
//! time on a session the first left), and every `paneward` command line the README and
//! `docs/` show uses a subcommand, flags and tool the binary accepts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::Path;
use std::process::Command;

use crate::support::{clean_env, root, TmuxServer};

mod citations;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn tools_md_is_what_the_schemas_generate() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let out = command
        .args(["tools", "--markdown", "--safety", "destructive"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let committed = std::fs::read_to_string(root().join("docs/tools.md")).unwrap_or_default();
    assert!(
        committed == text(&out.stdout),
        "docs/tools.md is stale (a schema changed); regenerate it with:\n  {}",
        paneward::cli::tools_doc::REGENERATE
    );
}

#[test]
fn the_first_run_says_paneward_works_and_works_again_on_the_session_it_left() {
    let tmux = TmuxServer::start();
    for run in ["first", "second"] {
        let mut command = Command::new(root().join("scripts/first-run"));
        clean_env(&mut command);
        let out = command
            .env("PANEWARD", env!("CARGO_BIN_EXE_paneward"))
            .env("PANEWARD_DEMO_SOCKET", &tmux.name)
            .output()
            .unwrap();
        let said = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{run} run: {said}{}", text(&out.stderr));
        for line in [
            "doctor: ok: paneward can serve (tmux ".to_string(),
            // The script says this only when its wait for the prompt matched.
            "shell prompt seen in pane %".to_string(),
            "run_command in pane %".to_string(),
            "  output: hello from ".to_string(),
            "  exit status: 0\n".to_string(),
            format!(
                "Stop the tmux server this started with: tmux -L {} kill-server",
                tmux.name
            ),
        ] {
            assert!(said.contains(&line), "{run} run lacks {line:?}:\n{said}");
        }
    }
    let sessions = tmux.tmux(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(sessions.lines().filter(|name| *name == "demo").count(), 1, "{sessions}");
}

/// The documents whose commands are checked: the README and every page of `docs/`.
fn documents() -> Vec<std::path::PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut pages: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// The command lines of a document's `sh` blocks, with their line numbers.
fn shell_lines(path: &Path) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_shell = false;
    for (number, line) in std::fs::read_to_string(path).unwrap().lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_shell = !in_shell && trimmed == "```sh";
            continue;
        }
        if in_shell {
            lines.push((number + 1, trimmed.to_string()));
        }
    }
    lines
}

/// Words as sh splits them (quotes removed; no expansion), comments dropped; each
/// command of a list (`&&`, `||`, `;`, `|`) separately.
fn commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let quoted: String = chars.by_ref().take_while(|&q| q != c).collect();
                word.get_or_insert_with(String::new).push_str(&quoted);
            }
            '#' if word.is_none() => break,
            ' ' | '\t' => commands.last_mut().unwrap().extend(word.take()),
            ';' | '|' | '&' | '(' | ')' | '{' | '}' => {
                commands.last_mut().unwrap().extend(word.take());
                commands.push(Vec::new());
            }
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    commands.last_mut().unwrap().extend(word);
    commands.retain(|command| !command.is_empty());
    commands
}

/// What is wrong with one `paneward ...` command line, if anything: what paneward's own
/// parser says of its arguments (no environment; nothing is started), and for `call`,
/// whether the tool exists.
fn problem(words: &[String]) -> Option<String> {
    use paneward::cli::args::{parse, Invocation};
    let args = words[1..].iter().map(std::ffi::OsString::from);
    match parse(args, &|_| None) {
        Err(error) => Some(error.to_string()),
        Ok(Invocation::Call { tool, .. })
            if tool != "TOOL" && !root().join(format!("schemas/tools/{tool}.json")).is_file() =>
        {
            Some(format!("no tool {tool}"))
        }
        Ok(_) => None,
    }
}

#[test]
fn every_paneward_command_the_docs_show_is_one_it_accepts() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for path in documents() {
        for (number, line) in shell_lines(&path) {
            for words in commands(&line) {
                let program = Path::new(&words[0]).file_name().unwrap_or_default();
                if program != "paneward" {
                    continue;
                }
                checked += 1;
                if let Some(problem) = problem(&words) {
                    problems.push(format!("{}:{number}: {line}\n    {problem}", path.display()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "commands the binary does not accept:\n{}",
        problems.join("\n")
    );
    assert!(
        checked >= 5,
        "only {checked} paneward commands found: is the extraction broken?"
    );
}

#[test]
fn the_command_splitter_reads_what_the_docs_write() {
    assert_eq!(
        commands(r#"paneward -L work call capture_pane '{"pane_id": "%0"}' && tmux kill-server # done"#),
        vec![
            vec!["paneward", "-L", "work", "call", "capture_pane", r#"{"pane_id": "%0"}"#],
            vec!["tmux", "kill-server"]
        ]
    );
    let words = |line: &str| commands(line).remove(0);
    assert_eq!(problem(&words("paneward -L work doctor")), None);
    assert!(problem(&words("paneward --no-such-flag")).is_some());
    assert!(problem(&words("paneward call no_such_tool")).is_some());
    assert!(problem(&words("paneward tools --token-file x")).is_some());
    assert_eq!(
        problem(&words("paneward conform --tier readonly -- other --anything")),
        None
    );
}

#[test]
fn server_json_names_this_version_within_the_registry_rules() {
    let text = std::fs::read_to_string(root().join("server.json")).unwrap();
    let server: serde_json::Value = serde_json::from_str(&text).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(server["version"], version, "server.json's version is not Cargo.toml's");
    for package in server["packages"].as_array().unwrap() {
        assert_eq!(package["version"], version);
        assert!(package["identifier"]
            .as_str()
            .unwrap()
            .contains(&format!("/v{version}/")));
    }
    // The registry's schema: one slash in a reverse-DNS name, a description of 1 to 100.
    let name = server["name"].as_str().unwrap();
    assert_eq!(name.matches('/').count(), 1, "{name}");
    let description = server["description"].as_str().unwrap();
    assert!((1..=100).contains(&description.chars().count()), "{description}");
}
