//! What a tool file says about its tool beyond its contract, for paneward's own guards
//! and batches to read from the generated table (never advertised, like `tier`):
//!
//! - `reaches`: what a call touches beyond the objects its arguments name (the ids of
//!   its input schema), which `--scope owned` checks too. Required of every tool above
//!   readonly (`[]`: only what it names), so that a new tool cannot leave the check open.
//! - `paneText`: its result is pane text (`lines`, `truncated`), which a batch may cut to
//!   its newest lines rather than drop.
//! - `batch`: why a batch refuses to hold it, when it does.
//! - `dryRun`: how a write batch's dry run shows a row of it ([`crate::template`]).
//! - `checkedAlone`: its handler module has `check_<tool>`, a check of the arguments
//!   alone (no tmux) that the request path runs before the call is admitted, so that a
//!   write batch refuses a bad row before any row runs.
//! - `fleet`: how a call goes when paneward serves several tmux servers ([`FleetRoute`]);
//!   absent, `one-target`.
//!
//! ```json
//! "reaches": ["pane-window", {"reach": "closing", "given": "to_window_id"}],
//! "batch": {"refused": "waits", "unless": {"argument": "detach", "equals": true}},
//! "dryRun": {"does": "end pane {pane_id}", "tmux": "kill-pane[ -t {pane_id}]",
//!            "closes": {"argument": "pane_id", "by": "ending"}}
//! ```

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::error::ContractError;
use crate::names::UnknownName;
use crate::pointer::pointer_token;
use crate::template::Template;

/// The top-level fields of a tool file that hold facts, in file order.
pub const FIELDS: [&str; 6] = ["reaches", "paneText", "batch", "dryRun", "checkedAlone", "fleet"];

/// What a call touches beyond the objects it names. The guards give each its meaning
/// (`guard::scope`); a tool file only says which apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reach {
    /// Ending a window or session ends everything inside it.
    Contents,
    /// Ending or moving away a window's last pane closes the window; a session's last
    /// window, the session.
    Closing,
    /// The pane's window changes shape (a new pane, a size, zoom, a pane swapped in or out).
    PaneWindow,
    /// The window's sessions change (a window leaves one, or gains an index).
    WindowSession,
    /// A pane broken out becomes a new window of its session.
    PaneSession,
    /// Keys typed into a pane with `synchronize-panes` on reach its synchronized siblings.
    Cohort,
    /// The whole tmux server, naming no object (`kill_server`).
    Server,
    /// Only what the person grants when asked: the tool's own question is its scope
    /// (`request_pane` names a pane outside it on purpose).
    Granted,
}

impl Reach {
    pub const ALL: [Reach; 8] = [
        Reach::Contents,
        Reach::Closing,
        Reach::PaneWindow,
        Reach::WindowSession,
        Reach::PaneSession,
        Reach::Cohort,
        Reach::Server,
        Reach::Granted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contents => "contents",
            Self::Closing => "closing",
            Self::PaneWindow => "pane-window",
            Self::WindowSession => "window-session",
            Self::PaneSession => "pane-session",
            Self::Cohort => "cohort",
            Self::Server => "server",
            Self::Granted => "granted",
        }
    }

    /// Whether this reach stands for the whole call, so it stands alone in `reaches`.
    pub fn is_whole(self) -> bool {
        matches!(self, Self::Server | Self::Granted)
    }
}

impl fmt::Display for Reach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Reach {
    type Err = UnknownName;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str() == text)
            .ok_or_else(|| UnknownName {
                what: "reach",
                name: text.chars().take(40).collect(),
                known: Self::ALL.iter().map(|r| r.as_str()).collect(),
            })
    }
}

/// One entry of `reaches`: a reach, for every call or only for calls that give (or
/// leave out) one argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReachRule {
    pub reach: Reach,
    /// `Some((argument, true))`: only when the call gives `argument`; `false`: only
    /// when it leaves it out.
    pub only: Option<(String, bool)>,
}

/// Why a batch refuses to hold a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchRefusal {
    /// It is a batch: nesting would hide which call failed.
    Batch,
    /// It is called on its own (`kill_server` ends every other row's object at once).
    Alone,
    /// It holds the call while it waits: a batch would multiply that into one call
    /// with no useful deadline.
    Waits,
}

impl BatchRefusal {
    pub const ALL: [BatchRefusal; 3] = [BatchRefusal::Batch, BatchRefusal::Alone, BatchRefusal::Waits];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Batch => "batch",
            Self::Alone => "alone",
            Self::Waits => "waits",
        }
    }
}

/// The `batch` field: a batch refuses the tool, unless the call's `argument` equals a value.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchRule {
    pub refused: BatchRefusal,
    /// `(argument, value)`: a call whose argument equals the value is held after all.
    pub unless: Option<(String, Value)>,
}

/// The `dryRun` field.
#[derive(Debug, Clone, PartialEq)]
pub struct DryRun {
    /// What a row does, in words.
    pub does: Template,
    /// The tmux command it centres on, if it is one paneward can name before it runs.
    pub tmux: Option<Template>,
    /// What the row closes, by the argument that names it.
    pub closes: Option<Closes>,
}

/// How a row closes what its argument names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closes {
    pub argument: String,
    pub by: CloseBy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseBy {
    /// It ends the object: the object, what is inside it, and each window or session
    /// left empty.
    Ending,
    /// It moves the pane out: its window, when that was the pane's only one.
    Leaving,
}

impl CloseBy {
    pub const ALL: [CloseBy; 2] = [CloseBy::Ending, CloseBy::Leaving];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ending => "ending",
            Self::Leaving => "leaving",
        }
    }
}

/// How a call of a tool goes when paneward serves several targets (tmux servers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FleetRoute {
    /// It runs on the one target its ids (or its `target` argument) name.
    #[default]
    OneTarget,
    /// A read that runs on every target at once; the rows of all answers are merged.
    FanOut,
    /// A batch: it runs once and each of its rows routes itself as a call of its own.
    Rows,
}

impl FleetRoute {
    pub const ALL: [FleetRoute; 3] = [FleetRoute::OneTarget, FleetRoute::FanOut, FleetRoute::Rows];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::OneTarget => "one-target",
            Self::FanOut => "fan-out",
            Self::Rows => "rows",
        }
    }
}

/// Every fact of one tool file, parsed, and the fields as written (which the importer
/// keeps and the canonical form writes back).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Facts {
    /// `None`: the file says nothing (allowed of readonly tools only, [`crate::surface`]).
    pub reaches: Option<Vec<ReachRule>>,
    pub pane_text: bool,
    pub batch: Option<BatchRule>,
    pub dry_run: Option<DryRun>,
    pub checked_alone: bool,
    pub fleet: FleetRoute,
    /// The fields of [`FIELDS`] the file has, as written.
    pub written: Map<String, Value>,
}

fn error(path: &Path, pointer: impl Into<String>, message: impl Into<String>) -> ContractError {
    ContractError::new(path, pointer, message)
}

/// Takes the fact fields out of `doc` and checks them against `input_schema` and
/// `output_schema`.
///
/// # Errors
/// A malformed field, named by its JSON pointer.
pub fn take(
    path: &Path,
    doc: &mut Map<String, Value>,
    input_schema: &Value,
    output_schema: Option<&Value>,
) -> Result<Facts, ContractError> {
    let mut facts = Facts::default();
    for field in FIELDS {
        if let Some(value) = doc.remove(field) {
            facts.written.insert(field.to_string(), value);
        }
    }
    let property = |pointer: &str, argument: &str| -> Result<Value, ContractError> {
        input_schema
            .get("properties")
            .and_then(|p| p.get(argument))
            .cloned()
            .ok_or_else(|| error(path, pointer, format!("`{argument}` is not a property of inputSchema")))
    };
    if let Some(value) = facts.written.get("reaches") {
        facts.reaches = Some(parse_reaches(path, value, &property)?);
    }
    if let Some(value) = facts.written.get("paneText") {
        let Some(pane_text) = value.as_bool() else {
            return Err(error(path, "/paneText", "must be a boolean"));
        };
        if pane_text {
            check_pane_text(path, output_schema)?;
        }
        facts.pane_text = pane_text;
    }
    if let Some(value) = facts.written.get("batch") {
        facts.batch = Some(parse_batch(path, value, &property)?);
    }
    if let Some(value) = facts.written.get("checkedAlone") {
        facts.checked_alone = value
            .as_bool()
            .ok_or_else(|| error(path, "/checkedAlone", "must be a boolean"))?;
    }
    if let Some(value) = facts.written.get("dryRun") {
        facts.dry_run = Some(parse_dry_run(path, value, input_schema)?);
    }
    if let Some(value) = facts.written.get("fleet") {
        facts.fleet = FleetRoute::ALL
            .into_iter()
            .find(|route| value.as_str() == Some(route.as_str()))
            .ok_or_else(|| error(path, "/fleet", "must be one of one-target, fan-out, rows"))?;
    }
    Ok(facts)
}

fn parse_reaches(
    path: &Path,
    value: &Value,
    property: &dyn Fn(&str, &str) -> Result<Value, ContractError>,
) -> Result<Vec<ReachRule>, ContractError> {
    let Some(items) = value.as_array() else {
        return Err(error(
            path,
            "/reaches",
            "must be an array of reaches (`[]`: the call touches only what it names)",
        ));
    };
    let mut rules: Vec<ReachRule> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let at = format!("/reaches/{index}");
        let rule = match item {
            Value::String(name) => ReachRule {
                reach: reach_name(path, &at, name)?,
                only: None,
            },
            Value::Object(object) => {
                if let Some(key) = object
                    .keys()
                    .find(|k| !["reach", "given", "omitted"].contains(&k.as_str()))
                {
                    return Err(error(
                        path,
                        format!("{at}/{}", pointer_token(key)),
                        "unknown field; a conditional reach has only reach and one of given, omitted",
                    ));
                }
                let Some(name) = object.get("reach").and_then(Value::as_str) else {
                    return Err(error(path, format!("{at}/reach"), "must be the name of a reach"));
                };
                let reach = reach_name(path, &format!("{at}/reach"), name)?;
                let (key, given) = match (object.get("given"), object.get("omitted")) {
                    (Some(_), None) => ("given", true),
                    (None, Some(_)) => ("omitted", false),
                    _ => {
                        return Err(error(
                            path,
                            at,
                            "a conditional reach names its argument in exactly one of given, omitted",
                        ))
                    }
                };
                let Some(argument) = object[key].as_str() else {
                    return Err(error(path, format!("{at}/{key}"), "must be an argument name"));
                };
                property(&format!("{at}/{key}"), argument)?;
                ReachRule {
                    reach,
                    only: Some((argument.to_string(), given)),
                }
            }
            _ => {
                return Err(error(
                    path,
                    at,
                    "must be a reach name or {\"reach\", \"given\"|\"omitted\"}",
                ))
            }
        };
        if rules.contains(&rule) {
            return Err(error(path, at, "the same reach is listed twice"));
        }
        if rule.reach.is_whole() && (items.len() > 1 || rule.only.is_some()) {
            return Err(error(
                path,
                at,
                format!(
                    "`{}` stands for the whole call: it is the only reach, for every call",
                    rule.reach
                ),
            ));
        }
        rules.push(rule);
    }
    Ok(rules)
}

fn reach_name(path: &Path, at: &str, name: &str) -> Result<Reach, ContractError> {
    name.parse::<Reach>().map_err(|e| error(path, at, e.to_string()))
}

/// A pane-text result has the fields a batch cuts: `lines` (strings) and `truncated`.
fn check_pane_text(path: &Path, output_schema: Option<&Value>) -> Result<(), ContractError> {
    // `"type": "array"` or `"type": ["array"]`, as upstream writes it.
    let is = |schema: Option<&Value>, kind: &str| match schema.and_then(|s| s.get("type")) {
        Some(Value::String(name)) => name == kind,
        Some(Value::Array(names)) => names.iter().any(|name| name.as_str() == Some(kind)),
        _ => false,
    };
    let property = |name: &str| {
        output_schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(name))
    };
    let lines = property("lines");
    if !is(lines, "array") || !is(lines.and_then(|l| l.get("items")), "string") {
        return Err(error(
            path,
            "/paneText",
            "pane text returns `lines`, an array of strings, in its outputSchema",
        ));
    }
    if !is(property("truncated"), "boolean") {
        return Err(error(
            path,
            "/paneText",
            "pane text says in `truncated` (a boolean of its outputSchema) whether lines were left out",
        ));
    }
    Ok(())
}

fn parse_batch(
    path: &Path,
    value: &Value,
    property: &dyn Fn(&str, &str) -> Result<Value, ContractError>,
) -> Result<BatchRule, ContractError> {
    let Some(object) = value.as_object() else {
        return Err(error(path, "/batch", "must be an object {\"refused\", \"unless\"?}"));
    };
    if let Some(key) = object.keys().find(|k| !["refused", "unless"].contains(&k.as_str())) {
        return Err(error(
            path,
            format!("/batch/{}", pointer_token(key)),
            "unknown field; batch has only refused, unless",
        ));
    }
    let names = || BatchRefusal::ALL.map(BatchRefusal::as_str).join(", ");
    let refused = object
        .get("refused")
        .and_then(Value::as_str)
        .and_then(|name| BatchRefusal::ALL.into_iter().find(|r| r.as_str() == name))
        .ok_or_else(|| error(path, "/batch/refused", format!("must be one of {}", names())))?;
    let unless = match object.get("unless") {
        None => None,
        Some(Value::Object(unless)) => {
            if let Some(key) = unless.keys().find(|k| !["argument", "equals"].contains(&k.as_str())) {
                return Err(error(
                    path,
                    format!("/batch/unless/{}", pointer_token(key)),
                    "unknown field; unless has only argument, equals",
                ));
            }
            let Some(argument) = unless.get("argument").and_then(Value::as_str) else {
                return Err(error(path, "/batch/unless/argument", "must be an argument name"));
            };
            let schema = property("/batch/unless/argument", argument)?;
            let Some(equals) = unless.get("equals") else {
                return Err(error(path, "/batch/unless/equals", "missing required field `equals`"));
            };
            let accepted = jsonschema::validator_for(&schema)
                .map(|v| v.is_valid(equals))
                .unwrap_or(false);
            if !accepted {
                return Err(error(
                    path,
                    "/batch/unless/equals",
                    format!(
                        "{equals} is not a value /inputSchema/properties/{} accepts",
                        pointer_token(argument)
                    ),
                ));
            }
            Some((argument.to_string(), equals.clone()))
        }
        Some(_) => return Err(error(path, "/batch/unless", "must be {\"argument\", \"equals\"}")),
    };
    Ok(BatchRule { refused, unless })
}

fn parse_dry_run(path: &Path, value: &Value, input_schema: &Value) -> Result<DryRun, ContractError> {
    let Some(object) = value.as_object() else {
        return Err(error(
            path,
            "/dryRun",
            "must be an object {\"does\", \"tmux\"?, \"closes\"?}",
        ));
    };
    if let Some(key) = object
        .keys()
        .find(|k| !["does", "tmux", "closes"].contains(&k.as_str()))
    {
        return Err(error(
            path,
            format!("/dryRun/{}", pointer_token(key)),
            "unknown field; dryRun has only does, tmux, closes",
        ));
    }
    let template = |field: &str| -> Result<Option<Template>, ContractError> {
        let pointer = format!("/dryRun/{field}");
        match object.get(field) {
            None => Ok(None),
            Some(Value::String(text)) => Template::parse(text, input_schema)
                .map(Some)
                .map_err(|rule| error(path, pointer, rule)),
            Some(_) => Err(error(path, pointer, "must be a template string")),
        }
    };
    let does = template("does")?.ok_or_else(|| error(path, "/dryRun/does", "missing required field `does`"))?;
    let tmux = template("tmux")?;
    let closes = match object.get("closes") {
        None => None,
        Some(Value::Object(closes)) => {
            let Some(argument) = closes.get("argument").and_then(Value::as_str) else {
                return Err(error(path, "/dryRun/closes/argument", "must be an argument name"));
            };
            if input_schema.get("properties").and_then(|p| p.get(argument)).is_none() {
                return Err(error(
                    path,
                    "/dryRun/closes/argument",
                    format!("`{argument}` is not a property of inputSchema"),
                ));
            }
            let by = closes
                .get("by")
                .and_then(Value::as_str)
                .and_then(|name| CloseBy::ALL.into_iter().find(|b| b.as_str() == name))
                .ok_or_else(|| {
                    error(
                        path,
                        "/dryRun/closes/by",
                        format!("must be one of {}", CloseBy::ALL.map(CloseBy::as_str).join(", ")),
                    )
                })?;
            if let Some(key) = closes.keys().find(|k| !["argument", "by"].contains(&k.as_str())) {
                return Err(error(
                    path,
                    format!("/dryRun/closes/{}", pointer_token(key)),
                    "unknown field; closes has only argument, by",
                ));
            }
            Some(Closes {
                argument: argument.to_string(),
                by,
            })
        }
        Some(_) => return Err(error(path, "/dryRun/closes", "must be {\"argument\", \"by\"}")),
    };
    Ok(DryRun { does, tmux, closes })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn input() -> Value {
        json!({"type": "object", "properties": {
            "pane_id": {"type": "string"},
            "to_window_id": {"type": "string"},
            "detach": {"type": "boolean"}
        }})
    }

    fn facts(fields: Value) -> Result<Facts, ContractError> {
        let mut doc = fields.as_object().cloned().unwrap_or_default();
        let output = json!({"type": "object", "properties": {
            "lines": {"type": "array", "items": {"type": "string"}},
            "truncated": {"type": "boolean"}
        }});
        take(Path::new("t.json"), &mut doc, &input(), Some(&output))
    }

    #[test]
    fn good_facts_read_and_keep_what_was_written() {
        let fields = json!({
            "reaches": ["pane-window", {"reach": "closing", "given": "to_window_id"}, {"reach": "pane-session", "omitted": "to_window_id"}],
            "paneText": true,
            "batch": {"refused": "waits", "unless": {"argument": "detach", "equals": true}},
            "dryRun": {"does": "end pane {pane_id}", "tmux": "kill-pane[ -t {pane_id}]", "closes": {"argument": "pane_id", "by": "ending"}}
        });
        let facts = facts(fields.clone()).unwrap();
        let reaches = facts.reaches.unwrap();
        assert_eq!(reaches[1].only, Some(("to_window_id".into(), true)));
        assert_eq!(reaches[2].only, Some(("to_window_id".into(), false)));
        assert!(facts.pane_text);
        assert_eq!(facts.batch.unwrap().unless, Some(("detach".into(), json!(true))));
        assert_eq!(facts.dry_run.unwrap().closes.unwrap().by, CloseBy::Ending);
        assert_eq!(Value::Object(facts.written), fields);
    }

    #[test]
    fn each_bad_fact_is_named_by_its_pointer() {
        let cases = [
            (json!({"reaches": "closing"}), "/reaches"),
            (json!({"reaches": ["closed"]}), "/reaches/0"),
            (json!({"reaches": ["closing", "closing"]}), "/reaches/1"),
            (
                json!({"reaches": [{"reach": "closing", "given": "nope"}]}),
                "/reaches/0/given",
            ),
            (json!({"reaches": [{"reach": "closing"}]}), "/reaches/0"),
            (json!({"reaches": ["server", "closing"]}), "/reaches/0"),
            (json!({"paneText": "yes"}), "/paneText"),
            (json!({"batch": {"refused": "never"}}), "/batch/refused"),
            (
                json!({"batch": {"refused": "waits", "unless": {"argument": "detach", "equals": 1}}}),
                "/batch/unless/equals",
            ),
            (json!({"dryRun": {"tmux": "x"}}), "/dryRun/does"),
            (json!({"dryRun": {"does": "end pane {pane}"}}), "/dryRun/does"),
            (
                json!({"dryRun": {"does": "x", "closes": {"argument": "pane_id", "by": "killing"}}}),
                "/dryRun/closes/by",
            ),
        ];
        for (fields, pointer) in cases {
            let error = facts(fields.clone()).unwrap_err();
            assert_eq!(error.pointer, pointer, "{fields}: {error}");
        }
    }

    #[test]
    fn pane_text_needs_lines_and_truncated_in_the_output() {
        let mut doc = json!({"paneText": true}).as_object().cloned().unwrap();
        let output = json!({"type": "object", "properties": {"lines": {"type": "array", "items": {"type": "string"}}}});
        let error = take(Path::new("t.json"), &mut doc, &input(), Some(&output)).unwrap_err();
        assert!(error.message.contains("truncated"), "{error}");
    }
}
