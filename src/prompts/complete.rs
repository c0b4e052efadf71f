//! `completion/complete` for prompt arguments (`ref/prompt`): the values an argument
//! can take, from what tmux has now, filtered by the prefix typed so far. At most
//! [`COMPLETION_MAX_VALUES`] values, with `total` and `hasMore` when there were more.
//! Anything that cannot be completed (an unknown prompt or argument, a prompt above
//! the tier, no tmux server) completes to nothing rather than an error: completion is
//! a convenience for a person typing.

use rmcp::model::CompletionInfo;

use crate::guard::{GuardState, ReadGate};
use crate::limits::COMPLETION_MAX_VALUES;
use crate::prompts::argument::SECONDS_SUGGESTED;
use crate::prompts::{Kind, Prompts};
use crate::runtime::CallContext;
use crate::tmux::{ReadCommand, ReadVerb};

/// Completes argument `argument` of prompt `prompt` from `typed`, the value so far.
pub async fn complete_prompt_argument(
    prompts: &Prompts,
    state: &GuardState,
    prompt: &str,
    argument: &str,
    typed: &str,
) -> CompletionInfo {
    let Some(kind) = prompts
        .offered(prompt, state.settings.safety)
        .and_then(|spec| spec.argument(argument))
        .map(|argument| argument.kind)
    else {
        return bounded(Vec::new());
    };
    let candidates = match kind {
        Kind::Pane => pane_ids(state).await,
        Kind::Seconds => SECONDS_SUGGESTED.iter().map(ToString::to_string).collect(),
        Kind::Name | Kind::Text => Vec::new(),
    };
    bounded(
        candidates
            .into_iter()
            .filter(|value| value.starts_with(typed))
            .collect(),
    )
}

/// Every pane id of the server, in tmux's order; none when tmux cannot be read.
async fn pane_ids(state: &GuardState) -> Vec<String> {
    let context = CallContext::default();
    let gate = ReadGate::new(state, &context);
    let list = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg("#{pane_id}");
    match gate.run(list).await {
        Ok(output) => String::from_utf8_lossy(&output)
            .lines()
            .filter(|line| line.starts_with('%'))
            .map(str::to_string)
            .collect(),
        Err(error) => {
            tracing::debug!("no pane ids to complete: {error}");
            Vec::new()
        }
    }
}

/// The first [`COMPLETION_MAX_VALUES`] of `values`, saying how many there were.
pub fn bounded(mut values: Vec<String>) -> CompletionInfo {
    let total = values.len();
    values.truncate(COMPLETION_MAX_VALUES);
    let count = Some(u32::try_from(total).unwrap_or(u32::MAX));
    // At most COMPLETION_MAX_VALUES, which is MCP's own bound: this cannot fail.
    CompletionInfo::with_pagination(values, count, total > COMPLETION_MAX_VALUES).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_a_hundred_values_and_the_rest_counted() {
        let info = bounded((0..150).map(|n| format!("%{n}")).collect());
        assert_eq!(
            (info.values.len(), info.total, info.has_more),
            (100, Some(150), Some(true))
        );
        let info = bounded(vec!["%1".into()]);
        assert_eq!(
            (info.values.len(), info.total, info.has_more),
            (1, Some(1), Some(false))
        );
    }
}
