//! `paneward-codegen import --from-server` against the built paneward binary: reading
//! paneward's own tools/list back reproduces every file of `schemas/tools` byte for byte.
//! (It lives here because only this package's tests can name the paneward binary.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::{Path, PathBuf};

use crate::support::root;
use paneward_codegen::import::{import, Options, Source};
use serde_json::{json, Value};

/// A copy of `schemas/` in a fresh temp folder, removed on drop.
struct SchemasCopy(PathBuf);

impl SchemasCopy {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("paneward-import-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_tree(&root().join("schemas"), &dir.join("schemas"));
        Self(dir)
    }

    fn schemas(&self) -> PathBuf {
        self.0.join("schemas")
    }
}

impl Drop for SchemasCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

fn tool_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn importing_from_the_paneward_binary_reproduces_every_tool_file_exactly() {
    let copy = SchemasCopy::new();
    let tools = copy.schemas().join("tools");
    // Make every copy stale, keeping only what tools/list cannot tell: tier, toolset,
    // class, handler, escalations, the facts and source (escalations are checked
    // against the inputSchema, so a file with escalations keeps that too).
    for file in tool_files(&tools) {
        let committed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let mut stale = json!({
            "name": committed["name"],
            "description": "stale",
            "tier": committed["tier"],
            "toolset": committed["toolset"],
            "class": committed["class"],
            "handler": committed["handler"],
            "source": committed["source"],
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"},
            "annotations": {}
        });
        if let Some(escalations) = committed.get("escalations") {
            stale["escalations"] = escalations.clone();
            stale["inputSchema"] = committed["inputSchema"].clone();
        }
        // The facts are paneward's own too: a re-import keeps them.
        for field in paneward_contract::facts::FIELDS {
            if let Some(fact) = committed.get(field) {
                stale[field] = fact.clone();
            }
        }
        std::fs::write(&file, stale.to_string()).unwrap();
    }
    let server = Source::Server(vec![
        env!("CARGO_BIN_EXE_paneward").to_string(),
        // A socket flag of its own, so no PANEWARD_SOCKET_* of the caller's can interfere.
        "--socket-name".into(),
        "pw-unused-import".into(),
        "--safety".into(),
        "destructive".into(),
    ]);
    let outcome = import(&[server], &Options::new(copy.schemas())).unwrap();
    let imported: Vec<PathBuf> = outcome.planned.iter().map(|p| p.path.clone()).collect();
    assert_eq!(imported, tool_files(&tools), "the server lists exactly the tool files");
    for file in tool_files(&root().join("schemas/tools")) {
        let name = file.file_name().unwrap();
        assert_eq!(
            std::fs::read_to_string(tools.join(name)).unwrap(),
            std::fs::read_to_string(&file).unwrap(),
            "{}",
            name.to_string_lossy()
        );
    }
    assert!(outcome.notes.is_empty(), "{:?}", outcome.notes);
}
