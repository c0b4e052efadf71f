//! Comparing the tools a server lists with the contract, and saying how they differ.

use crate::limits::CONFORM_VALUE_MAX_CHARS;
use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use super::contract::Contract;
use super::diff::{diff, Change, Difference};
use paneward_contract::Tier;

/// What is wrong with one tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// The contract has the tool at the compared tier; the server does not list it.
    Missing,
    /// The server lists a tool the contract does not have at the compared tier;
    /// `contract_tier` is its tier if the contract has it above.
    Extra { contract_tier: Option<Tier> },
    /// The server lists the name more than once.
    ListedMoreThanOnce { times: usize },
    /// The listed tool differs from the contract at a JSON pointer within the tool.
    Field(Difference),
}

/// One finding for one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolFinding {
    pub tool: String,
    pub finding: Finding,
}

/// The outcome of comparing one server with the contract.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The server's name, version and agreed protocol version, as it said.
    pub server: String,
    pub tier: Tier,
    /// How many contract tools were expected, and how many the server listed.
    pub expected: usize,
    pub listed: usize,
    /// Sorted by tool, then by pointer order within the tool.
    pub findings: Vec<ToolFinding>,
}

/// Compares the `listed` tools (each a `tools/list` entry, named) with the tools of
/// `contract` at `tier`.
pub fn compare(contract: &Contract, tier: Tier, listed: &[(String, Value)]) -> Vec<ToolFinding> {
    let mut by_name: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for (name, tool) in listed {
        by_name.entry(name.as_str()).or_default().push(tool);
    }
    let mut names: Vec<&str> = by_name.keys().copied().collect();
    names.extend(contract.keys().map(String::as_str));
    names.sort_unstable();
    names.dedup();
    let mut findings = Vec::new();
    for name in names {
        let expected = contract.get(name).filter(|tool| tool.tier <= tier);
        let found = by_name.get(name).map(Vec::as_slice).unwrap_or_default();
        let mut add = |finding| {
            findings.push(ToolFinding {
                tool: name.to_string(),
                finding,
            })
        };
        match (expected, found.first()) {
            (None, None) => continue,
            (Some(_), None) => add(Finding::Missing),
            (None, Some(_)) => add(Finding::Extra {
                contract_tier: contract.get(name).map(|tool| tool.tier),
            }),
            (Some(expected), Some(actual)) => {
                for difference in diff(&expected.advertised, actual) {
                    add(Finding::Field(difference));
                }
            }
        }
        if found.len() > 1 {
            add(Finding::ListedMoreThanOnce { times: found.len() });
        }
    }
    findings
}

impl Report {
    /// No finding: the server lists exactly the contract at the tier.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The report as text: the server, one line per finding, and a summary.
    pub fn render(&self) -> String {
        let mut text = format!("server: {}\n", self.server);
        for finding in &self.findings {
            text.push_str(&finding.describe(self.tier));
            text.push('\n');
        }
        let tools: std::collections::BTreeSet<&str> = self.findings.iter().map(|f| f.tool.as_str()).collect();
        if self.is_clean() {
            text.push_str(&format!(
                "no differences: the server lists the contract's {} tools at tier {} unchanged\n",
                self.expected, self.tier
            ));
        } else {
            text.push_str(&format!(
                "{} in {} (the contract has {} tools at tier {}; the server lists {})\n",
                counted(self.findings.len(), "difference"),
                counted(tools.len(), "tool"),
                self.expected,
                self.tier,
                self.listed
            ));
        }
        text
    }
}

impl ToolFinding {
    /// One line saying what differs.
    pub fn describe(&self, tier: Tier) -> String {
        let tool = &self.tool;
        match &self.finding {
            Finding::Missing => {
                format!("{tool}: missing: the contract has this tool at tier {tier}; the server does not list it")
            }
            Finding::Extra { contract_tier: None } => {
                format!("{tool}: extra: the server lists this tool; the contract does not have it")
            }
            Finding::Extra {
                contract_tier: Some(above),
            } => {
                format!("{tool}: extra: the server lists this tool; the contract has it at tier {above}, above {tier}")
            }
            Finding::ListedMoreThanOnce { times } => format!("{tool}: listed {times} times"),
            Finding::Field(Difference { pointer, change }) => match change {
                Change::Changed { expected, actual } => {
                    format!("{tool} {pointer}: expected {}, got {}", show(expected), show(actual))
                }
                Change::Missing { expected } => format!("{tool} {pointer}: missing, expected {}", show(expected)),
                Change::Unexpected { actual } => format!("{tool} {pointer}: unexpected {}", show(actual)),
            },
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Compact JSON, cut to [`CONFORM_VALUE_MAX_CHARS`] characters.
fn show(value: &Value) -> String {
    paneward_contract::excerpt(&value.to_string(), CONFORM_VALUE_MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::contract::ContractTool;
    use serde_json::json;

    fn contract() -> Contract {
        let tool = |name: &str, tier| ContractTool {
            tier,
            advertised: json!({"name": name, "description": "d", "inputSchema": {"type": "object"}}),
        };
        [
            ("alpha", Tier::Readonly),
            ("beta", Tier::Mutating),
            ("gamma", Tier::Destructive),
        ]
        .into_iter()
        .map(|(name, tier)| (name.to_string(), tool(name, tier)))
        .collect()
    }

    fn listed(tools: &[Value]) -> Vec<(String, Value)> {
        tools
            .iter()
            .map(|t| (t["name"].as_str().unwrap().to_string(), t.clone()))
            .collect()
    }

    #[test]
    fn the_same_tools_at_the_tier_have_no_findings() {
        let tools = listed(&[
            json!({"name": "alpha", "description": "d", "inputSchema": {"type": "object"}}),
            json!({"name": "beta", "description": "d", "inputSchema": {"type": "object"}}),
        ]);
        assert!(compare(&contract(), Tier::Mutating, &tools).is_empty());
        // At readonly, beta is a tool the server should not list.
        let findings = compare(&contract(), Tier::Readonly, &tools);
        assert_eq!(
            findings,
            vec![ToolFinding {
                tool: "beta".into(),
                finding: Finding::Extra {
                    contract_tier: Some(Tier::Mutating)
                }
            }]
        );
    }

    #[test]
    fn every_kind_of_finding_reads_as_one_line() {
        let tools = listed(&[
            json!({"name": "alpha", "description": "changed", "inputSchema": {"type": "object"}, "icons": []}),
            json!({"name": "delta"}),
            json!({"name": "delta"}),
        ]);
        let report = Report {
            server: "fixture 1.0 (protocol 2025-06-18)".into(),
            tier: Tier::Mutating,
            expected: 2,
            listed: 3,
            findings: compare(&contract(), Tier::Mutating, &tools),
        };
        assert!(!report.is_clean());
        assert_eq!(
            report.render(),
            "server: fixture 1.0 (protocol 2025-06-18)\n\
             alpha /description: expected \"d\", got \"changed\"\n\
             alpha /icons: unexpected []\n\
             beta: missing: the contract has this tool at tier mutating; the server does not list it\n\
             delta: extra: the server lists this tool; the contract does not have it\n\
             delta: listed 2 times\n\
             5 differences in 3 tools (the contract has 2 tools at tier mutating; the server lists 3)\n"
        );
    }

    #[test]
    fn long_values_are_cut() {
        let long = json!("x".repeat(500));
        assert!(show(&long).chars().count() <= CONFORM_VALUE_MAX_CHARS + 1);
    }
}
