//! Prompts: recipes a person picks in their MCP client, declared in
//! `schemas/prompts/*.json` and compiled in (`build.rs`). A prompt file holds the name,
//! title, description, the tier the recipe needs (what its steps may change), its
//! arguments (each of a [`Kind`] that says how it is checked and completed) and the
//! message, in paneward's words, with `{{argument}}` where a value goes.
//!
//! A prompt above the server's tier is neither listed nor served. Argument values are
//! checked by kind and go into the message as data: ids as ids, free text as a JSON
//! string that the message introduces as caller-provided.

pub mod argument;
pub mod complete;
pub mod skill;

use serde::Deserialize;
use serde_json::Value;

use crate::runtime::error::short_echo;
use crate::runtime::Tier;
pub use argument::Kind;

mod files {
    include!(concat!(env!("OUT_DIR"), "/prompts.rs"));
}

/// One argument of a prompt, as its file declares it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgumentSpec {
    pub name: String,
    pub description: String,
    pub kind: Kind,
    pub required: bool,
    /// Put in the message when an optional argument is left out; paneward's own text.
    #[serde(default)]
    pub default: Option<String>,
}

/// One prompt file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptSpec {
    pub name: String,
    pub title: String,
    pub description: String,
    #[serde(deserialize_with = "tier")]
    pub tier: Tier,
    pub arguments: Vec<ArgumentSpec>,
    /// The message's lines, joined with newlines.
    pub message: Vec<String>,
}

fn tier<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Tier, D::Error> {
    let name = String::deserialize(deserializer)?;
    name.parse().map_err(serde::de::Error::custom)
}

/// Why `prompts/get` did not render a prompt; each becomes JSON-RPC -32602.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptError(pub String);

impl std::fmt::Display for PromptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Every prompt of `schemas/prompts`, in name order.
#[derive(Debug, Clone)]
pub struct Prompts {
    specs: Vec<PromptSpec>,
}

impl Prompts {
    /// Loads and checks the compiled-in prompt files.
    ///
    /// # Errors
    /// A file that does not parse or breaks a rule of `check` (a build fault,
    /// reported at start-up and by the tests).
    pub fn load() -> Result<Self, String> {
        let mut specs = Vec::with_capacity(files::PROMPT_FILES.len());
        for (file, text) in files::PROMPT_FILES {
            let spec: PromptSpec = serde_json::from_str(text).map_err(|e| format!("schemas/prompts/{file}: {e}"))?;
            check(&spec).map_err(|e| format!("schemas/prompts/{file}: {e}"))?;
            if format!("{}.json", spec.name) != *file {
                return Err(format!(
                    "schemas/prompts/{file}: the file must be named after the prompt"
                ));
            }
            specs.push(spec);
        }
        Ok(Self { specs })
    }

    /// The prompts a server at `tier` offers.
    pub fn listed(&self, tier: Tier) -> impl Iterator<Item = &PromptSpec> {
        self.specs.iter().filter(move |spec| spec.tier <= tier)
    }

    /// The prompt `name`, if a server at `tier` offers it.
    pub fn offered(&self, name: &str, tier: Tier) -> Option<&PromptSpec> {
        self.listed(tier).find(|spec| spec.name == name)
    }

    /// Every prompt, whatever the tier (the skills filter them their own way).
    pub fn all(&self) -> &[PromptSpec] {
        &self.specs
    }

    /// The prompt `name` whatever the tier, to say why it is withheld.
    pub fn any(&self, name: &str) -> Option<&PromptSpec> {
        self.specs.iter().find(|spec| spec.name == name)
    }

    /// The `prompts/list` entry of each prompt a server at `tier` offers.
    pub fn list(&self, tier: Tier) -> Vec<rmcp::model::Prompt> {
        self.listed(tier).map(PromptSpec::advertised).collect()
    }

    /// Renders prompt `name` with `arguments` for a server at `tier`.
    ///
    /// # Errors
    /// An unknown prompt, one above `tier`, or an argument missing, unknown or broken.
    pub fn get(
        &self,
        name: &str,
        arguments: Option<&serde_json::Map<String, Value>>,
        tier: Tier,
    ) -> Result<rmcp::model::GetPromptResult, PromptError> {
        let Some(spec) = self.offered(name, tier) else {
            let shown = short_echo(name);
            return Err(PromptError(match self.any(name) {
                Some(spec) => format!(
                    "prompt `{shown}` needs safety tier `{}`, but this server runs at `{tier}`: its steps change tmux",
                    spec.tier
                ),
                None => format!("unknown prompt `{shown}`; call prompts/list to see the prompts this server offers"),
            }));
        };
        let text = spec.render(arguments)?;
        Ok(
            rmcp::model::GetPromptResult::new(vec![rmcp::model::PromptMessage::new_text(
                rmcp::model::Role::User,
                text,
            )])
            .with_description(spec.description.clone()),
        )
    }
}

impl PromptSpec {
    fn advertised(&self) -> rmcp::model::Prompt {
        let arguments = self
            .arguments
            .iter()
            .map(|argument| {
                rmcp::model::PromptArgument::new(argument.name.clone())
                    .with_description(argument.description.clone())
                    .with_required(argument.required)
            })
            .collect();
        rmcp::model::Prompt::new(self.name.clone(), Some(self.description.clone()), Some(arguments))
            .with_title(self.title.clone())
    }

    pub fn argument(&self, name: &str) -> Option<&ArgumentSpec> {
        self.arguments.iter().find(|argument| argument.name == name)
    }

    /// The message with every argument's value in place.
    fn render(&self, arguments: Option<&serde_json::Map<String, Value>>) -> Result<String, PromptError> {
        let empty = serde_json::Map::new();
        let given = arguments.unwrap_or(&empty);
        if let Some(unknown) = given.keys().find(|key| self.argument(key).is_none()) {
            let shown: String = unknown
                .chars()
                .take(crate::limits::ERROR_FIELD_NAME_MAX_CHARS)
                .collect();
            let known: Vec<&str> = self.arguments.iter().map(|a| a.name.as_str()).collect();
            return Err(PromptError(format!(
                "/arguments/{shown}: prompt `{}` takes no such argument; it takes {}",
                self.name,
                known.join(", ")
            )));
        }
        let mut values = std::collections::HashMap::with_capacity(self.arguments.len());
        for argument in &self.arguments {
            let pointer = format!("/arguments/{}", argument.name);
            let value = match given.get(&argument.name) {
                // Clients send every argument as a string (MCP's prompt arguments are
                // strings); an empty one counts as left out.
                Some(Value::String(value)) if !value.is_empty() => argument
                    .kind
                    .insert(value)
                    .map_err(|rule| PromptError(format!("{pointer}: {rule}")))?,
                Some(Value::String(_)) | None if !argument.required => argument.default.clone().unwrap_or_default(),
                Some(Value::String(_)) | None => {
                    return Err(PromptError(format!(
                        "{pointer}: missing; prompt `{}` needs it ({})",
                        self.name, argument.description
                    )))
                }
                Some(_) => return Err(PromptError(format!("{pointer}: must be a string"))),
            };
            values.insert(argument.name.as_str(), value);
        }
        // One pass over the message, so a value holding `{{name}}` stays as written.
        let message = self.message.join("\n");
        let mut text = String::with_capacity(message.len());
        let mut rest = message.as_str();
        while let Some(start) = rest.find("{{") {
            text.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            match after
                .find("}}")
                .and_then(|end| values.get(&after[..end]).map(|value| (end, value)))
            {
                Some((end, value)) => {
                    text.push_str(value);
                    rest = &after[end + 2..];
                }
                // `check` rules this out for the compiled-in files.
                None => {
                    text.push_str("{{");
                    rest = after;
                }
            }
        }
        text.push_str(rest);
        Ok(text)
    }
}

/// The rules a prompt file must keep beyond its shape.
fn check(spec: &PromptSpec) -> Result<(), String> {
    let well_named = |name: &str| {
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    };
    if !well_named(&spec.name) {
        return Err("/name: lowercase letters, digits and _ only".into());
    }
    let message = spec.message.join("\n");
    for (index, argument) in spec.arguments.iter().enumerate() {
        if !well_named(&argument.name) {
            return Err(format!("/arguments/{index}/name: lowercase letters, digits and _ only"));
        }
        if spec.arguments[..index].iter().any(|a| a.name == argument.name) {
            return Err(format!(
                "/arguments/{index}/name: `{}` is declared twice",
                argument.name
            ));
        }
        if argument.required && argument.default.is_some() {
            return Err(format!(
                "/arguments/{index}/default: a required argument has no default"
            ));
        }
        if !message.contains(&format!("{{{{{}}}}}", argument.name)) {
            return Err(format!("/message: never uses argument `{}`", argument.name));
        }
    }
    // A placeholder no argument fills would reach the client as written.
    let mut rest = message.as_str();
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let end = after.find("}}").ok_or("/message: a {{ is never closed")?;
        let name = &after[..end];
        if spec.argument(name).is_none() {
            return Err(format!("/message: {{{{{name}}}}} names no argument"));
        }
        rest = &after[end + 2..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn prompts() -> Prompts {
        Prompts::load().unwrap()
    }

    #[test]
    fn every_prompt_file_loads_and_keeps_the_rules() {
        let names: Vec<String> = prompts().specs.iter().map(|s| s.name.clone()).collect();
        assert_eq!(
            names,
            [
                "diagnose_pane",
                "drive_agent",
                "recover_pane",
                "run_and_wait",
                "set_up_workspace",
                "watch_panes"
            ]
        );
    }

    #[test]
    fn prompts_that_change_tmux_are_withheld_at_readonly() {
        let prompts = prompts();
        let listed: Vec<&str> = prompts.listed(Tier::Readonly).map(|s| s.name.as_str()).collect();
        assert_eq!(listed, ["diagnose_pane", "watch_panes"]);
        let refused = prompts
            .get(
                "recover_pane",
                Some(json!({"pane_id": "%1"}).as_object().unwrap()),
                Tier::Readonly,
            )
            .unwrap_err();
        assert!(refused.0.contains("needs safety tier `mutating`"), "{refused}");
    }

    #[test]
    fn free_text_goes_in_as_a_json_string_and_ids_as_ids() {
        let result = prompts()
            .get(
                "run_and_wait",
                Some(
                    json!({"pane_id": "%3", "command": "echo \"hi\" {{pane_id}}\nrm"})
                        .as_object()
                        .unwrap(),
                ),
                Tier::Mutating,
            )
            .unwrap();
        let text = serde_json::to_value(&result.messages[0]).unwrap()["content"]["text"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(text.contains(r#": "echo \"hi\" {{pane_id}}\nrm""#), "{text}");
        assert!(
            text.contains("snapshot_pane on %3") && text.contains("timeout of 60 seconds"),
            "{text}"
        );
    }

    #[test]
    fn a_bad_missing_or_unknown_argument_is_named_by_pointer() {
        let prompts = prompts();
        let get = |args: Value| {
            prompts
                .get("diagnose_pane", Some(args.as_object().unwrap()), Tier::Readonly)
                .unwrap_err()
                .0
        };
        assert!(get(json!({"pane_id": "main:0"})).starts_with("/arguments/pane_id: must be a pane id"));
        assert!(get(json!({})).starts_with("/arguments/pane_id: missing"));
        assert!(get(json!({"pane_id": "%1", "pane": "%2"}))
            .starts_with("/arguments/pane: prompt `diagnose_pane` takes no such argument"));
    }
}
