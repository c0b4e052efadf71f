//! Argument escalations: a tool file may say that one value of one argument needs a
//! higher tier than the tool's own (`respawn_pane` with `kill: true` ends a program, so
//! it needs `destructive` although respawning a dead pane is `mutating`). Declared in the
//! file, beside `tier`, so the tier of every call is read from one place:
//!
//! ```json
//! "escalations": [{"argument": "kill", "equals": true, "tier": "destructive"}]
//! ```
//!
//! `argument` is a top-level property of `inputSchema`, `equals` a value that property
//! accepts, and `tier` a tier above the tool's. A call whose argument equals the value
//! needs that tier; the request path refuses it below.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::ContractError;
use crate::pointer::pointer_token;
use crate::tier::Tier;

/// One escalation: a call with `argument` equal to `equals` needs `tier`.
#[derive(Debug, Clone, PartialEq)]
pub struct Escalation {
    pub argument: String,
    pub equals: Value,
    pub tier: Tier,
}

/// The keys of one escalation, all required.
const KEYS: [&str; 3] = ["argument", "equals", "tier"];

impl Escalation {
    /// Whether a call with `arguments` (an object) meets this escalation.
    pub fn met_by(&self, arguments: &Value) -> bool {
        arguments.get(&self.argument) == Some(&self.equals)
    }

    /// The escalation as a tool file writes it.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("argument".into(), Value::String(self.argument.clone()));
        object.insert("equals".into(), self.equals.clone());
        object.insert("tier".into(), Value::String(self.tier.as_str().into()));
        Value::Object(object)
    }
}

/// The highest tier a tool of `tier` with `escalations` can need.
pub fn reach(tier: Tier, escalations: &[Escalation]) -> Tier {
    escalations.iter().map(|e| e.tier).fold(tier, Tier::max)
}

/// Checks the `escalations` field of a tool file against its `inputSchema` and `tier`.
///
/// # Errors
/// Not a non-empty array of `{argument, equals, tier}` objects, an argument that is not
/// a property of `inputSchema`, a value that property refuses, a tier not above the
/// tool's, or the same argument and value twice; each named by its JSON pointer.
pub fn parse(
    path: &Path,
    value: &Value,
    input_schema: &Value,
    tool_tier: Tier,
) -> Result<Vec<Escalation>, ContractError> {
    let Some(items) = value.as_array().filter(|items| !items.is_empty()) else {
        return Err(ContractError::new(
            path,
            "/escalations",
            "must be a non-empty array of {\"argument\", \"equals\", \"tier\"} objects",
        ));
    };
    let mut escalations: Vec<Escalation> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let at = format!("/escalations/{index}");
        let Some(object) = item.as_object() else {
            return Err(ContractError::new(path, at, "must be an object"));
        };
        if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
            return Err(ContractError::new(
                path,
                format!("{at}/{}", pointer_token(key)),
                "unknown field; an escalation has only argument, equals, tier",
            ));
        }
        if let Some(key) = KEYS.iter().find(|key| !object.contains_key(**key)) {
            return Err(ContractError::new(
                path,
                format!("{at}/{key}"),
                format!("missing required field `{key}`"),
            ));
        }
        let Some(argument) = object["argument"].as_str() else {
            return Err(ContractError::new(path, format!("{at}/argument"), "must be a string"));
        };
        let Some(property) = input_schema.get("properties").and_then(|p| p.get(argument)) else {
            return Err(ContractError::new(
                path,
                format!("{at}/argument"),
                format!("`{argument}` is not a property of inputSchema"),
            ));
        };
        let equals = object["equals"].clone();
        let accepted = jsonschema::validator_for(property)
            .map(|v| v.is_valid(&equals))
            .unwrap_or(false);
        if !accepted {
            return Err(ContractError::new(
                path,
                format!("{at}/equals"),
                format!(
                    "{equals} is not a value /inputSchema/properties/{} accepts",
                    pointer_token(argument)
                ),
            ));
        }
        let tier = object["tier"]
            .as_str()
            .ok_or_else(|| ContractError::new(path, format!("{at}/tier"), "must be a string"))?
            .parse::<Tier>()
            .map_err(|unknown| ContractError::new(path, format!("{at}/tier"), unknown.to_string()))?;
        if tier <= tool_tier {
            return Err(ContractError::new(
                path,
                format!("{at}/tier"),
                format!("must be above the tool's tier `{tool_tier}`; an escalation only ever raises it"),
            ));
        }
        let escalation = Escalation {
            argument: argument.to_string(),
            equals,
            tier,
        };
        if escalations
            .iter()
            .any(|e| e.argument == escalation.argument && e.equals == escalation.equals)
        {
            return Err(ContractError::new(
                path,
                at,
                "the same argument and value are escalated twice",
            ));
        }
        escalations.push(escalation);
    }
    Ok(escalations)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({"type": "object", "properties": {"kill": {"type": "boolean"}}})
    }

    fn check(value: Value) -> Result<Vec<Escalation>, ContractError> {
        parse(Path::new("t.json"), &value, &schema(), Tier::Mutating)
    }

    #[test]
    fn a_good_escalation_reads_and_is_met_only_by_its_value() {
        let escalations = check(json!([{"argument": "kill", "equals": true, "tier": "destructive"}])).unwrap();
        assert_eq!(escalations[0].tier, Tier::Destructive);
        assert!(escalations[0].met_by(&json!({"kill": true})));
        assert!(!escalations[0].met_by(&json!({"kill": false})));
        assert!(!escalations[0].met_by(&json!({})));
        assert_eq!(reach(Tier::Mutating, &escalations), Tier::Destructive);
        assert_eq!(
            escalations[0].to_value(),
            json!({"argument": "kill", "equals": true, "tier": "destructive"})
        );
    }

    #[test]
    fn each_bad_escalation_is_named_by_its_pointer() {
        let cases = [
            (json!([]), "/escalations"),
            (
                json!([{"argument": "nope", "equals": true, "tier": "destructive"}]),
                "/escalations/0/argument",
            ),
            (
                json!([{"argument": "kill", "equals": "yes", "tier": "destructive"}]),
                "/escalations/0/equals",
            ),
            (
                json!([{"argument": "kill", "equals": true, "tier": "mutating"}]),
                "/escalations/0/tier",
            ),
            (
                json!([{"argument": "kill", "equals": true, "tier": "all"}]),
                "/escalations/0/tier",
            ),
            (json!([{"argument": "kill", "equals": true}]), "/escalations/0/tier"),
            (
                json!([{"argument": "kill", "equals": true, "tier": "destructive", "x": 1}]),
                "/escalations/0/x",
            ),
        ];
        for (value, pointer) in cases {
            let error = check(value.clone()).unwrap_err();
            assert_eq!(error.pointer, pointer, "{value}: {error}");
        }
    }
}
