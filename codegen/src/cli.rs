//! The `paneward-codegen` command line: argument parsing and output, over the library.
//!
//! Reports go to stdout (so `diff … > report.txt` keeps only the report), notes and
//! errors to stderr. The exit status tells a script what happened without parsing.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::diff::report::{self, EXIT_ERROR, EXIT_UNCHANGED};
use crate::error::CodegenError;
use crate::import::{self, Options, Source};
use crate::load::Tier;

const USAGE: &str = "\
paneward-codegen: check, generate, import and compare paneward's tool contracts

usage:
  paneward-codegen check [DIR...]      check tool files (default: schemas/tools and every
                                       schemas/profiles/*): also that each declares its
                                       toolset and class (above readonly, what it
                                       reaches), and that paneward's own carry the
                                       annotations their tier and class give
  paneward-codegen generate [DIR]      print the Rust build.rs generates from DIR
                                       (default: schemas/tools)
  paneward-codegen import [OPTIONS] SOURCE... [--from-server -- COMMAND [ARG...]]
                                       write the contracts of the sources into schemas/,
                                       print what changed and exit as `diff` does
  paneward-codegen diff [--json] OLD NEW
                                       compare two contracts, each change classified
                                       breaking or compatible for clients
  paneward-codegen --help              this text

SOURCE, OLD, NEW:
  a documentation page (markdown with ```json blocks, or the plain-text rendering),
  a JSON file holding an MCP Tool, a tools/list result or a JSON-RPC response carrying
  one, or (OLD and NEW only) a folder of tool files such as schemas/tools.

import options:
  --schemas DIR     the schemas folder (default: schemas)
  --profile NAME    write into schemas/profiles/NAME/ instead of schemas/tools/
  --tier TIER       tier of tools that have no file yet: readonly, mutating or destructive
  --handler MODULE  module of src/tools holding the handler of tools that have no file yet
                    (default: a module named like the tool)
                    (existing files keep theirs)
  --toolset NAME    toolset of tools that have no file yet: inspect, manage, execute or
                    teardown (in a profile: the default tool's)
  --class NAME      access class of tools that have no file yet (upstream Go's seven;
                    in a profile: the default tool's)
  --facts JSON      facts of tools that have no file yet, as a tool file writes them:
                    '{\"reaches\": []}' (in a profile: the default tool's reaches)
  --source URL      source of tools whose page names none (else the existing file's)
  --dry-run         print the changes, write nothing
  --json            print the changes as JSON
  --from-server     everything after `--` is a command serving MCP on stdio; its
                    tools/list is imported
  --save FILE       with --from-server: also write the server's tools/list result to
                    FILE (as served), to import again later without the server

exit status:
  0  success; for diff and import: no changes
  1  diff, import: compatible changes only
  2  diff, import: at least one breaking change (import has written it, unless
     --dry-run: read the report before committing)
  3  error: bad usage, or a source or file that cannot be read or fails the checks
     (import then writes nothing)
";

/// Runs the command line `args` (without the program name); returns the exit status.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => return usage_error(err, "a command is needed"),
    };
    let result = match command {
        "check" => check(rest, err),
        "generate" => generate(rest, out),
        "import" => run_import(rest, out, err),
        "diff" => run_diff(rest, out),
        "-h" | "--help" | "help" => {
            let _ = out.write_all(USAGE.as_bytes());
            Ok(EXIT_UNCHANGED)
        }
        other => return usage_error(err, &format!("unknown command `{other}`")),
    };
    match result {
        Ok(status) => status,
        Err(Failure::Usage(message)) => usage_error(err, &message),
        Err(Failure::Codegen(error)) => {
            let _ = writeln!(err, "error: {error}");
            EXIT_ERROR
        }
    }
}

enum Failure {
    Usage(String),
    Codegen(CodegenError),
}

impl From<CodegenError> for Failure {
    fn from(error: CodegenError) -> Self {
        Self::Codegen(error)
    }
}

fn usage_error(err: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(err, "error: {message}\ntry `paneward-codegen --help`");
    EXIT_ERROR
}

fn check(args: &[String], err: &mut dyn Write) -> Result<u8, Failure> {
    if let Some(option) = args.iter().find(|a| a.starts_with('-')) {
        return Err(Failure::Usage(format!("check takes no option `{option}`")));
    }
    let dirs: Vec<PathBuf> = if args.is_empty() {
        default_folders(Path::new("schemas"))
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    for dir in dirs {
        let tools = crate::load::load_dir(&dir)?;
        // Served files declare their toolset and class (and above readonly what they
        // reach), paneward's own carry the annotations the rule derives from tier and
        // class, and few load on every turn.
        paneward_contract::surface::check_served(&tools)?;
        let count = tools.len();
        // What only generation finds: two schemas that would share one Rust name.
        let shapes = crate::shapes_beside(&dir)?;
        crate::generate::generate_folder(&dir, tools)?;
        let _ = writeln!(
            err,
            "{}: {count} tool files are valid ({} shared shapes)",
            dir.display(),
            shapes.len()
        );
    }
    Ok(EXIT_UNCHANGED)
}

/// `schemas/tools` and every profile folder under `schemas/profiles`.
fn default_folders(schemas: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![schemas.join("tools")];
    if let Ok(entries) = std::fs::read_dir(schemas.join("profiles")) {
        let mut profiles: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        profiles.sort();
        dirs.extend(profiles);
    }
    dirs
}

fn generate(args: &[String], out: &mut dyn Write) -> Result<u8, Failure> {
    let dir = match args {
        [] => PathBuf::from("schemas/tools"),
        [dir] if !dir.starts_with('-') => PathBuf::from(dir),
        _ => return Err(Failure::Usage("generate takes one folder".into())),
    };
    let source = match crate::generate::profile_of(&dir) {
        Some(_) => crate::generate::generate_folder(&dir, crate::load::load_dir(&dir)?)?,
        None => crate::generate_from_dir(&dir)?,
    };
    let _ = out.write_all(source.as_bytes());
    Ok(EXIT_UNCHANGED)
}

fn run_diff(args: &[String], out: &mut dyn Write) -> Result<u8, Failure> {
    let json = args.iter().any(|a| a == "--json");
    let paths: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    if let Some(option) = paths.iter().find(|a| a.starts_with('-')) {
        return Err(Failure::Usage(format!("diff has no option `{option}`")));
    }
    let [old, new] = paths.as_slice() else {
        return Err(Failure::Usage("diff compares two contracts: OLD NEW".into()));
    };
    let old = crate::source::read_contract(Path::new(old.as_str()))?;
    let new = crate::source::read_contract(Path::new(new.as_str()))?;
    Ok(print_report(&crate::diff::diff(&old, &new), json, out))
}

/// Prints `changes` as text or JSON and returns the exit status that classifies them,
/// so a script (or CI) learns that the contract broke clients without parsing the report.
fn print_report(changes: &[crate::diff::Change], json: bool, out: &mut dyn Write) -> u8 {
    let text = if json {
        report::json(changes)
    } else {
        report::text(changes)
    };
    let _ = out.write_all(text.as_bytes());
    report::exit_status(changes)
}

fn run_import(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, Failure> {
    let mut options = Options::new("schemas");
    let mut sources = Vec::new();
    let mut json = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| Failure::Usage(format!("{name} needs a value")))
        };
        match arg.as_str() {
            "--schemas" => options.schemas = PathBuf::from(value("--schemas")?),
            "--profile" => options.profile = Some(value("--profile")?),
            "--tier" => {
                let tier = value("--tier")?
                    .parse::<Tier>()
                    .map_err(|unknown| Failure::Usage(unknown.to_string()))?;
                options.tier = Some(tier);
            }
            "--source" => options.source = Some(value("--source")?),
            "--handler" => options.handler = Some(value("--handler")?),
            "--toolset" => options.toolset = Some(value("--toolset")?),
            "--class" => options.class = Some(value("--class")?),
            "--facts" => {
                let text = value("--facts")?;
                options.facts = match serde_json::from_str(&text) {
                    Ok(serde_json::Value::Object(facts)) => facts,
                    _ => {
                        return Err(Failure::Usage(
                            "--facts takes a JSON object, like '{\"reaches\": []}'".into(),
                        ))
                    }
                };
            }
            "--save" => options.save = Some(PathBuf::from(value("--save")?)),
            "--dry-run" => options.dry_run = true,
            "--json" => json = true,
            "--from-server" => {
                if args.next().map(String::as_str) != Some("--") {
                    return Err(Failure::Usage("write --from-server -- COMMAND [ARG...]".into()));
                }
                let command: Vec<String> = args.by_ref().cloned().collect();
                if command.is_empty() {
                    return Err(Failure::Usage("--from-server -- needs a command".into()));
                }
                sources.push(Source::Server(command));
            }
            option if option.starts_with('-') => return Err(Failure::Usage(format!("unknown option `{option}`"))),
            path => sources.push(Source::File(PathBuf::from(path))),
        }
    }
    if sources.is_empty() {
        return Err(Failure::Usage("import needs at least one source".into()));
    }
    let outcome = import::import(&sources, &options)?;
    for note in &outcome.notes {
        let _ = writeln!(err, "note: {note}");
    }
    for planned in &outcome.planned {
        let verb = match (planned.changed, options.dry_run) {
            (false, _) => "unchanged",
            (true, true) => "would write",
            (true, false) => "wrote",
        };
        let _ = writeln!(err, "{verb} {}", planned.path.display());
    }
    // Exits as `diff` does.
    Ok(print_report(&outcome.changes(), json, out))
}
