//! Importing the seed pages reproduces the committed tool files byte for byte, whether
//! the file is new or an outdated copy is being updated, and importing the captured
//! libtmux-mcp server reproduces the python profile; the importer always works on a
//! temp copy of `schemas/`, never on the real one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::{Path, PathBuf};

use crate::common::{codegen, schemas, schemas_copy, seed, stderr, stdout};
use paneward_codegen::import::{import, Options, Source};
use paneward_codegen::load::Tier;
use serde_json::{json, Value};

/// A seed page and the file it becomes.
struct Seed {
    page: &'static str,
    /// Relative to `schemas/`.
    file: &'static str,
    profile: Option<&'static str>,
    tier: Tier,
    /// Only for a page without a `Source:` line.
    source_flag: Option<&'static str>,
}

/// Seed 001, libtmux-mcp's page for `call_read_tools_batch`, is not among them: the
/// python profile is imported from the server itself ([`CAPTURE`]), whose schemas the
/// page's equal (`the_python_profile_is_the_captured_server_and_agrees_with_its_page`).
const SEEDS: [Seed; 3] = [
    Seed {
        page: "000_e4f42a30e7e3fc17.txt",
        file: "tools/call_read_tools_batch.json",
        profile: None,
        tier: Tier::Readonly,
        source_flag: None,
    },
    Seed {
        page: "003_a849fd8044bdd967.txt",
        file: "tools/send_keys_batch.json",
        profile: None,
        tier: Tier::Mutating,
        source_flag: Some("https://libtmux.org/en/ts/latest/mcp/tools/send_keys_batch/"),
    },
    Seed {
        page: "004_a9b3d516c071323e.txt",
        file: "tools/snapshot_pane.json",
        profile: None,
        tier: Tier::Readonly,
        source_flag: None,
    },
];

fn options(schemas: &Path, seed: &Seed) -> Options {
    let mut options = Options::new(schemas);
    options.profile = seed.profile.map(str::to_string);
    options
}

/// The handler module the committed file names (paneward's own field, like the tier).
fn committed_handler(file: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(&committed(file)).unwrap();
    value["handler"].as_str().map(str::to_string)
}

fn committed(file: &str) -> String {
    std::fs::read_to_string(schemas().join(file)).unwrap()
}

#[test]
fn importing_each_seed_page_as_a_new_tool_writes_exactly_the_committed_file() {
    for seed in &SEEDS {
        let (_guard, copy) = schemas_copy();
        let target = copy.join(seed.file);
        std::fs::remove_file(&target).unwrap();
        let mut options = options(&copy, seed);
        options.tier = Some(seed.tier);
        options.source = seed.source_flag.map(str::to_string);
        options.handler = committed_handler(seed.file);
        let committed_file: serde_json::Value = serde_json::from_str(&committed(seed.file)).unwrap();
        options.toolset = committed_file["toolset"].as_str().map(str::to_string);
        options.class = committed_file["class"].as_str().map(str::to_string);
        for field in paneward_contract::facts::FIELDS {
            if let Some(value) = committed_file.get(field) {
                options.facts.insert(field.to_string(), value.clone());
            }
        }
        let outcome = import(&[Source::File(crate::common::seed(seed.page))], &options).unwrap();
        assert_eq!(outcome.planned.len(), 1, "{}", seed.page);
        assert_eq!(outcome.planned[0].path, target);
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            committed(seed.file),
            "{}",
            seed.page
        );
        let changes = outcome.changes();
        assert_eq!(changes.len(), 1, "{}: {changes:?}", seed.page);
        assert_eq!(changes[0].rule.as_str(), "tool-added");
    }
}

/// The committed file with its contract made stale (its tier and source untouched).
fn outdated(file: &str) -> String {
    let mut value: Value = serde_json::from_str(&committed(file)).unwrap();
    value["description"] = json!("An older description.");
    value["inputSchema"] = json!({"type": "object", "properties": {"gone": {"type": "string"}}});
    value["annotations"] = json!({"readOnlyHint": true});
    value.as_object_mut().unwrap().remove("title");
    serde_json::to_string(&value).unwrap()
}

#[test]
fn importing_each_seed_page_over_an_outdated_file_keeps_its_tier_and_source_and_restores_the_committed_file() {
    for seed in &SEEDS {
        let (_guard, copy) = schemas_copy();
        let target = copy.join(seed.file);
        std::fs::write(&target, outdated(seed.file)).unwrap();
        // No --tier and no --source: both must come from the file being updated.
        let outcome = import(&[Source::File(crate::common::seed(seed.page))], &options(&copy, seed)).unwrap();
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            committed(seed.file),
            "{}",
            seed.page
        );
        let changes = outcome.changes();
        let at = |pointer: &str| changes.iter().find(|c| c.pointer == pointer);
        assert!(at("/description").is_some(), "{}: {changes:?}", seed.page);
        assert_eq!(
            at("/inputSchema/properties/gone").map(|c| c.rule.as_str()),
            Some("input-removed".to_string()),
            "{}",
            seed.page
        );
    }
}

#[test]
fn importing_an_unchanged_seed_page_reports_no_changes_and_rewrites_nothing() {
    let (_guard, copy) = schemas_copy();
    let before = crate::common::tree(&copy);
    let seed = &SEEDS[2];
    let outcome = import(&[Source::File(crate::common::seed(seed.page))], &options(&copy, seed)).unwrap();
    assert!(outcome.changes().is_empty(), "{:?}", outcome.changes());
    assert!(!outcome.planned[0].changed);
    assert_eq!(crate::common::tree(&copy), before);
}

#[test]
fn the_command_line_imports_a_page_and_prints_the_change_report() {
    let (_guard, copy) = schemas_copy();
    let target = copy.join("tools/snapshot_pane.json");
    std::fs::write(&target, outdated("tools/snapshot_pane.json")).unwrap();
    let page = seed(SEEDS[2].page);
    let output = codegen(&["import", "--schemas", copy.to_str().unwrap(), page.to_str().unwrap()]);
    // The outdated file had an input the page no longer has: a breaking change, exit 2 as `diff`.
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        committed("tools/snapshot_pane.json")
    );
    let report = stdout(&output);
    assert!(
        report.contains("breaking   snapshot_pane#/inputSchema/properties/gone: input `gone` removed\n"),
        "{report}"
    );
    assert!(
        report.contains("compatible snapshot_pane#/description: description changed\n"),
        "{report}"
    );
    assert!(
        stderr(&output).contains(&format!("wrote {}", target.display())),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_dry_run_reports_the_changes_and_writes_nothing() {
    let (_guard, copy) = schemas_copy();
    let target = copy.join("tools/snapshot_pane.json");
    std::fs::write(&target, outdated("tools/snapshot_pane.json")).unwrap();
    let before = crate::common::tree(&copy);
    let page = seed(SEEDS[2].page);
    let output = codegen(&[
        "import",
        "--dry-run",
        "--schemas",
        copy.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("snapshot_pane#/description"),
        "{}",
        stdout(&output)
    );
    assert!(stderr(&output).contains("would write"), "{}", stderr(&output));
    assert_eq!(crate::common::tree(&copy), before);
}

#[test]
fn every_committed_tool_file_is_in_the_canonical_format() {
    let mut folders: Vec<PathBuf> = vec![schemas().join("tools")];
    for entry in std::fs::read_dir(schemas().join("profiles")).unwrap() {
        folders.push(entry.unwrap().path());
    }
    let mut count = 0;
    for folder in folders {
        for tool in paneward_codegen::load::load_dir(&folder).unwrap() {
            let text = std::fs::read_to_string(&tool.path).unwrap();
            assert_eq!(
                paneward_codegen::canonical::render(&tool),
                text,
                "{}",
                tool.path.display()
            );
            count += 1;
        }
    }
    assert!(count >= 4, "the seeded files are there");
}

/// libtmux-mcp 0.1.0a22's `tools/list`, as `import --from-server --save` kept it.
const CAPTURE: &str = "upstream/libtmux-mcp-0.1.0a22.tools.json";

#[test]
fn importing_the_captured_server_again_changes_nothing_in_the_python_profile() {
    let (_guard, copy) = schemas_copy();
    let before = crate::common::tree(&copy);
    let mut options = Options::new(&copy);
    options.profile = Some("python".into());
    let outcome = import(&[Source::File(copy.join(CAPTURE))], &options).unwrap();
    assert_eq!(outcome.planned.len(), 54);
    assert!(outcome.planned.iter().all(|p| !p.changed), "the profile is the capture");
    assert_eq!(crate::common::tree(&copy), before);
}

#[test]
fn the_python_profile_is_the_captured_server_and_agrees_with_its_page() {
    let tool =
        paneward_codegen::load::load_file(&schemas().join("profiles/python/call_read_tools_batch.json")).unwrap();
    assert_eq!(tool.tier, Tier::Readonly);
    assert_eq!(tool.source, "https://pypi.org/project/libtmux-mcp/0.1.0a22/");
    assert_eq!(
        tool.title.as_deref(),
        Some("Call Read Tools Batch"),
        "the server gives a title"
    );
    assert_eq!(
        tool.annotations,
        json!({"destructiveHint": true, "idempotentHint": false, "openWorldHint": true, "readOnlyHint": false})
    );
    // The page renders the same schemas the server lists.
    let page = paneward_codegen::source::read_file(&seed("001_039d2ea31acf6622.txt")).unwrap();
    assert_eq!(page[0].input_schema, tool.input_schema);
    assert_eq!(page[0].output_schema, tool.output_schema);
}

#[test]
fn check_validates_the_profile_folders_too() {
    let (_guard, copy) = schemas_copy();
    std::fs::write(copy.join("profiles/python/call_read_tools_batch.json"), "{}").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_paneward-codegen"))
        .arg("check")
        .current_dir(copy.parent().unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert!(
        stderr(&output).contains("profiles/python/call_read_tools_batch.json at /name: missing required field `name`"),
        "{}",
        stderr(&output)
    );
}

/// tmux-mcp 0.1.2's `tools/list` (the libtmux family's 45 tools), as
/// `import --profile libtmux --from-server --save` kept it.
const FAMILY_CAPTURE: &str = "upstream/tmux-mcp-0.1.2.tools.json";

#[test]
fn importing_the_captured_family_again_changes_nothing_in_the_libtmux_profile() {
    let (_guard, copy) = schemas_copy();
    let before = crate::common::tree(&copy);
    let mut options = Options::new(&copy);
    options.profile = Some("libtmux".into());
    let outcome = import(&[Source::File(copy.join(FAMILY_CAPTURE))], &options).unwrap();
    assert_eq!(outcome.planned.len(), 45);
    let drifted: Vec<String> = outcome
        .planned
        .iter()
        .filter(|p| p.changed)
        .map(|p| p.path.display().to_string())
        .collect();
    assert!(drifted.is_empty(), "the profile's files are the capture: {drifted:?}");
    assert_eq!(crate::common::tree(&copy), before);
}

#[test]
fn a_libtmux_profile_file_that_drifts_from_the_capture_is_found_and_classified() {
    let (_guard, copy) = schemas_copy();
    // A hand edit: kill_pane's schema loses the family's `pane` and takes the Go spelling.
    let file = copy.join("profiles/libtmux/kill_pane.json");
    let edited = std::fs::read_to_string(&file)
        .unwrap()
        .replace("\"pane\"", "\"pane_id\"");
    std::fs::write(&file, edited).unwrap();
    let output = codegen(&[
        "import",
        "--schemas",
        copy.to_str().unwrap(),
        "--profile",
        "libtmux",
        "--dry-run",
        copy.join(FAMILY_CAPTURE).to_str().unwrap(),
    ]);
    // From the edited file back to the capture: the edit's input goes, the family's comes.
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(
        report.contains("kill_pane#/inputSchema/properties/pane: required input `pane` added"),
        "{report}"
    );
    assert!(
        report.contains("kill_pane#/inputSchema/properties/pane_id: input `pane_id` removed"),
        "{report}"
    );
    assert!(stderr(&output).contains("would write"), "{}", stderr(&output));
}

#[test]
fn the_family_inventory_is_classified_against_the_seeded_go_page_and_the_default_contract() {
    let capture = schemas().join(FAMILY_CAPTURE);
    // Seed 004, the Go manifest's page of snapshot_pane: the Rust port spells its
    // target `pane`, and 44 tools are new to the page.
    let page = codegen(&[
        "diff",
        seed("004_a9b3d516c071323e.txt").to_str().unwrap(),
        capture.to_str().unwrap(),
    ]);
    assert_eq!(page.status.code(), Some(2));
    let report = stdout(&page);
    assert!(
        report.contains("breaking   snapshot_pane#/inputSchema/properties/pane_id: input `pane_id` removed"),
        "{report}"
    );
    assert!(report.contains("compatible run_shell_command: tool added"), "{report}");
    // paneward's own contract: its batches are not the family's, and the family's
    // run_shell_command is not a tool of paneward's own.
    let own = codegen(&[
        "diff",
        schemas().join("tools").to_str().unwrap(),
        capture.to_str().unwrap(),
    ]);
    let report = stdout(&own);
    assert!(
        report.contains("breaking   call_mutating_tools_batch: tool removed"),
        "{report}"
    );
    assert!(report.contains("compatible run_shell_command: tool added"), "{report}");
    // A reference is compared as the definition it names, not left for review.
    assert!(!report.contains("`$ref` changed"), "{report}");
}
