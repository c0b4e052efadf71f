//! Which resources the surface serves. A resource is served only while a served tool
//! reads the same thing (`servedWith` in its declaration file), so `--toolsets`,
//! `--tools` and `--exclude-tools` narrow `resources/list`, `resources/templates/list`,
//! reads, subscriptions and completions as they narrow `tools/list`: with
//! `capture_pane` not served, no pane's text can be read as `tmux://panes/3/content`.

use rmcp::model::ErrorData;

use crate::catalog::Catalog;
use crate::resources::{declared, uri};
use crate::runtime::error::echo;
use crate::runtime::Tier;

/// Whether `catalog` serves the tool `name` to a server at `tier`.
pub fn serves(catalog: &Catalog, tier: Tier) -> impl Fn(&str) -> bool + '_ {
    move |name| catalog.listed(tier).any(|entry| entry.spec.name == name)
}

/// Refuses a URI of a resource the surface does not serve, as -32602 naming the tools
/// that would serve it. A URI that is not paneward's passes: the read's own parse names
/// what is wrong with it.
///
/// # Errors
/// The resource is not served, or its declaration does not load (a build fault).
pub fn check(spelled: &str, serves: impl Fn(&str) -> bool) -> Result<(), ErrorData> {
    let Ok(target) = uri::parse(spelled) else {
        return Ok(());
    };
    let declared = declared::of(target).map_err(|e| ErrorData::internal_error(e, None))?;
    if declared.served(&serves) {
        return Ok(());
    }
    Err(ErrorData::invalid_params(
        format!(
            "/params/uri: {} is not served here: it is what {} reads, and no such tool is served (--toolsets, --tools, --exclude-tools)",
            echo(spelled),
            declared.served_with.join(" or ")
        ),
        None,
    ))
}
