//! The prompt cases of `cases.json` (`/prompts`): each client lists the prompts, gets
//! each case's prompt or completes a prompt argument, and reports what its SDK
//! returned; they are judged here. Every prompt the server lists needs a `get` case
//! that succeeds, and the file needs a `complete` case that succeeds.
//!
//! A case: case (a unique name), method (`get` or `complete`), prompt, then for `get`
//! arguments (strings), for `complete` argument and value; expect (`success` or
//! `error`); optionally textIncludes (get: text the message must contain),
//! valuesInclude (complete: a value that must be offered) or errorIncludes (error:
//! text the protocol error must contain). Placeholders as in the tool cases.

use std::collections::BTreeSet;

use serde_json::{json, Value};

/// One prompt case, placeholders filled.
pub struct PromptCase {
    pub case: String,
    pub method: String,
    pub prompt: String,
    /// What the client is sent: method, prompt, and its arguments or argument and value.
    pub for_client: Value,
    pub expect_success: bool,
    /// textIncludes, valuesInclude or errorIncludes.
    pub expects: Option<String>,
}

/// Reads `/prompts` of the cases file; `fill` fills placeholders.
pub fn load(file: &Value, fill: &dyn Fn(&Value, &str) -> Value) -> Vec<PromptCase> {
    let Some(list) = file.get("prompts") else {
        return Vec::new();
    };
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for (index, case) in list
        .as_array()
        .expect("cases.json: /prompts is an array")
        .iter()
        .enumerate()
    {
        let at = format!("/prompts/{index}");
        let known = [
            "case",
            "method",
            "prompt",
            "arguments",
            "argument",
            "value",
            "expect",
            "textIncludes",
            "valuesInclude",
            "errorIncludes",
        ];
        if let Some(member) = case.as_object().unwrap().keys().find(|k| !known.contains(&k.as_str())) {
            panic!("cases.json {at}: unknown member {member:?}; known: {known:?}");
        }
        let text = |key: &str| {
            case[key]
                .as_str()
                .unwrap_or_else(|| panic!("cases.json {at}/{key}: a string"))
        };
        let name = text("case").to_string();
        assert!(names.insert(name.clone()), "cases.json {at}: case {name:?} twice");
        let method = text("method").to_string();
        let for_client = match method.as_str() {
            "get" => {
                json!({"method": "get", "case": name, "prompt": text("prompt"), "arguments": fill(&case["arguments"], &at)})
            }
            "complete" => json!({"method": "complete", "case": name, "prompt": text("prompt"),
                "argument": text("argument"), "value": fill(&case["value"], &at)}),
            other => panic!("cases.json {at}/method: \"get\" or \"complete\", not {other:?}"),
        };
        let expect_success = match text("expect") {
            "success" => true,
            "error" => false,
            other => panic!("cases.json {at}/expect: \"success\" or \"error\", not {other:?}"),
        };
        let expects = ["textIncludes", "valuesInclude", "errorIncludes"]
            .iter()
            .find_map(|key| case.get(*key))
            .map(|value| fill(value, &at).as_str().unwrap_or_default().to_string());
        cases.push(PromptCase {
            case: name,
            method,
            prompt: text("prompt").to_string(),
            for_client,
            expect_success,
            expects,
        });
    }
    cases
}

/// `Ok` if the client's report of `case` meets the case's expectation, else why not.
fn judge(case: &PromptCase, event: Option<&Value>, ending: &str) -> Result<(), String> {
    let Some(event) = event else {
        return Err(format!("no outcome reported: {ending}"));
    };
    let detail = event["detail"].as_str().unwrap_or_default();
    let outcome = event["outcome"].as_str().unwrap_or_default();
    match (case.expect_success, outcome) {
        (false, "protocol-error") => match &case.expects {
            Some(part) if !detail.contains(part.as_str()) => {
                Err(format!("the error does not mention {part:?}: {detail}"))
            }
            _ => Ok(()),
        },
        (false, other) => Err(format!("expected a protocol error, got {other}: {event}")),
        (true, "result") => {
            let found = match case.method.as_str() {
                "get" => event["text"].as_str().is_some_and(|text| {
                    !text.is_empty() && case.expects.as_deref().is_none_or(|part| text.contains(part))
                }),
                _ => {
                    let values = event["values"].as_array().cloned().unwrap_or_default();
                    event["hasMore"].is_boolean()
                        && case.expects.as_deref().is_none_or(|part| values.contains(&json!(part)))
                }
            };
            if found {
                Ok(())
            } else {
                Err(format!("the result lacks {:?}: {event}", case.expects))
            }
        }
        (true, other) => Err(format!("{other}: {detail}")),
    }
}

/// The prompt verdicts of one client run: lines for the report, and problems.
pub fn judge_all(client: &str, cases: &[PromptCase], events: &[Value], ending: &str) -> (String, Vec<String>) {
    if cases.is_empty() {
        return (String::new(), Vec::new());
    }
    let mut problems = Vec::new();
    let listed: Vec<String> = events
        .iter()
        .find(|e| e["event"] == "listed-prompts")
        .and_then(|e| e["prompts"].as_array())
        .map(|names| names.iter().filter_map(|n| n.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    if listed.is_empty() {
        problems.push(format!("no prompts listed: {ending}"));
    }
    for prompt in &listed {
        if !cases
            .iter()
            .any(|c| &c.prompt == prompt && c.method == "get" && c.expect_success)
        {
            problems.push(format!(
                "prompt {prompt} is listed without a get case that succeeds: add one to cases.json /prompts"
            ));
        }
    }
    if !cases.iter().any(|c| c.method == "complete" && c.expect_success) {
        problems.push("no complete case that succeeds in cases.json /prompts".into());
    }
    let mut passed = Vec::new();
    for case in cases {
        let event = events
            .iter()
            .find(|e| e["event"] == "prompt" && e["case"] == case.case.as_str());
        match judge(case, event, ending) {
            Ok(()) => passed.push(case.case.clone()),
            Err(why) => problems.push(format!("{}: {why}", case.case)),
        }
    }
    let status = if problems.is_empty() { "pass" } else { "FAIL" };
    let mut text = format!("conformance prompts {client:<6} {status}  {}\n", passed.join(", "));
    for problem in &problems {
        text.push_str(&format!("    FAILED: {problem}\n"));
    }
    (text, problems)
}
