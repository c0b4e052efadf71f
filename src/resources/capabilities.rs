//! `tmux://capabilities`: what this server serves, as fixed at start-up (tier,
//! toolsets, access classes, tools and how tmux is reached), so a client or an operator
//! can see the surface without comparing `tools/list` against the documentation.

use std::collections::BTreeSet;

use rmcp::model::{ErrorData, ReadResourceResult, ResourceContents};
use serde_json::{json, Value};

use crate::catalog::Catalog;
use crate::config::Config;
use paneward_contract::{AccessClass, Toolset};

pub const URI: &str = "tmux://capabilities";

/// How tmux is reached, as configured: control mode attaches when tmux lets it (and
/// falls back per call when it does not), so `control` names the preferred path.
pub fn connection(config: &Config) -> &'static str {
    match (&config.ssh, config.control_mode, config.native_client) {
        (Some(_), _, _) => "ssh",
        (None, true, _) => "control",
        (None, false, true) => "native",
        (None, false, false) => "per-call",
    }
}

/// The toolsets chosen: the operator's, or the profile's default.
pub fn toolsets(config: &Config) -> Vec<Toolset> {
    match &config.surface.toolsets {
        Some(chosen) => chosen.iter().copied().collect(),
        None => config.profile.default_toolsets().to_vec(),
    }
}

/// One line saying what narrows the surface, for `paneward tools` and `doctor`.
pub fn summary(config: &Config) -> String {
    let names = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(",");
    let toolsets: Vec<&str> = toolsets(config).iter().map(|t| t.as_str()).collect();
    let mut line = format!(
        "toolsets {}",
        if toolsets.is_empty() {
            "none".to_string()
        } else {
            toolsets.join(",")
        }
    );
    if !config.surface.tools.is_empty() {
        line.push_str(&format!(", plus {}", names(&config.surface.tools)));
    }
    if !config.surface.exclude.is_empty() {
        line.push_str(&format!(", excluding {}", names(&config.surface.exclude)));
    }
    line
}

/// The capabilities document of a server with this configuration and catalogue.
pub fn document(config: &Config, catalog: &Catalog) -> Value {
    let served: Vec<_> = catalog.listed(config.safety).collect();
    let classes: BTreeSet<AccessClass> = served.iter().map(|entry| entry.class).collect();
    let tools: Vec<Value> = served
        .iter()
        .map(|entry| {
            let mut tool = json!({
                "name": entry.spec.name,
                "tier": entry.tier.as_str(),
                "toolset": entry.toolset.as_str(),
                "class": entry.class.as_str(),
            });
            // The libtmux family's record of what the tool may do, as its tools/list
            // carries it, so its clients read the same authority here as upstream.
            if let Some(record) = entry
                .tool
                .meta
                .as_ref()
                .and_then(|meta| meta.get(paneward_contract::load::CAPABILITY_META))
            {
                tool["capability"] = record.clone();
            }
            tool
        })
        .collect();
    json!({
        "tier": config.safety.as_str(),
        "profile": config.profile.as_str(),
        "toolsets": toolsets(config).iter().map(|t| t.as_str()).collect::<Vec<_>>(),
        "classes": classes.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
        "tools": tools,
        "connection": connection(config),
    })
}

/// Reads `tmux://capabilities`.
///
/// # Errors
/// The document cannot be encoded (a fault of ours).
pub fn read(config: &Config, catalog: &Catalog) -> Result<ReadResourceResult, ErrorData> {
    let text = serde_json::to_string(&document(config, catalog))
        .map_err(|e| ErrorData::internal_error(format!("cannot encode {URI}: {e}"), None))?;
    Ok(ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: URI.to_string(),
        mime_type: Some("application/json".to_string()),
        text,
        meta: None,
    }]))
}
