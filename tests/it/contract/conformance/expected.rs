//! `expected-failures.yaml`: which cases may fail, per client. Only a strict subset of
//! YAML is read (`client:` lines, `  - TOOL/CASE` lines, comments), so that nothing in
//! the file is silently ignored.

use std::collections::BTreeSet;
use std::path::Path;

/// (client, "tool/case") pairs.
pub type ExpectedFailures = BTreeSet<(String, String)>;

/// Reads the file at `path`; `clients` are the section names allowed.
pub fn load(path: &Path, clients: &[&str]) -> ExpectedFailures {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&text, clients).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Parses the file's text.
pub fn parse(text: &str, clients: &[&str]) -> Result<ExpectedFailures, String> {
    let mut entries = ExpectedFailures::new();
    let mut section: Option<String> = None;
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_suffix(':').filter(|n| !n.starts_with(' ')) {
            if !clients.contains(&name) {
                return Err(format!(
                    "line {number}: unknown client {name:?}; the clients are {clients:?}"
                ));
            }
            section = Some(name.to_string());
            continue;
        }
        let Some(entry) = line.strip_prefix("  - ").map(str::trim) else {
            return Err(format!(
                "line {number}: expected `client:` or `  - TOOL/CASE`, found {line:?}"
            ));
        };
        let Some(client) = &section else {
            return Err(format!("line {number}: an entry before any `client:` line"));
        };
        if entry.split('/').count() != 2 || entry.contains(' ') {
            return Err(format!("line {number}: {entry:?} is not TOOL/CASE"));
        }
        if !entries.insert((client.clone(), entry.to_string())) {
            return Err(format!("line {number}: {entry} is listed twice for {client}"));
        }
    }
    Ok(entries)
}

#[test]
fn the_expected_failures_subset_of_yaml_is_read_strictly() {
    let parsed = parse(
        "# c\npython:\n  # why\n  - a/b\n\nnode:\n  - a/b\n",
        &["python", "node"],
    )
    .unwrap();
    assert_eq!(parsed.len(), 2);
    assert!(parsed.contains(&("node".to_string(), "a/b".to_string())));
    assert!(parse("ruby:\n  - a/b\n", &["python"])
        .unwrap_err()
        .contains("unknown client"));
    assert!(parse("  - a/b\n", &["python"]).unwrap_err().contains("before any"));
    assert!(parse("python:\n  - a\n", &["python"])
        .unwrap_err()
        .contains("not TOOL/CASE"));
    assert!(parse("python:\n  - a/b\n  - a/b\n", &["python"])
        .unwrap_err()
        .contains("twice"));
    assert!(parse("python: [a/b]\n", &["python"]).unwrap_err().contains("expected"));
}
