//! `paneward call TOOL [JSON]`: one tool call from a shell, through the request path an
//! MCP client's call takes (tier, input validation, reply bounds), its structured
//! result printed as pretty JSON on standard output.

use std::io::Write;
use std::process::ExitCode;

use rmcp::model::{JsonObject, RequestId};
use serde_json::Value;

use crate::app::App;
use crate::config::Config;
use crate::runtime::CallContext;

/// Exit status 0 with the result on stdout; 1 with the error on stderr.
pub fn run(config: Config, tool: &str, arguments: Option<&str>) -> ExitCode {
    match call(config, tool, arguments) {
        Ok(value) => match serde_json::to_string_pretty(&value) {
            // A reader that went away (`| head`) is an error to report, not a panic.
            Ok(text) => match writeln!(std::io::stdout().lock(), "{text}") {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => fail(tool, &format!("cannot write the result: {error}")),
            },
            Err(error) => fail(tool, &error.to_string()),
        },
        Err(message) => fail(tool, &message),
    }
}

fn fail(tool: &str, message: &str) -> ExitCode {
    eprintln!("paneward call {tool}: {message}");
    ExitCode::FAILURE
}

fn call(config: Config, tool: &str, arguments: Option<&str>) -> Result<Value, String> {
    let arguments = parse_arguments(arguments)?;
    let app = App::from_env(config)?;
    if app.catalog.get(tool).is_none() {
        let names: Vec<&str> = app
            .catalog
            .listed(paneward_contract::Tier::Destructive)
            .map(|e| e.tool.name.as_ref())
            .collect();
        let hint = super::suggest::hint(tool, names.iter().copied());
        return Err(format!(
            "unknown tool `{tool}`{hint} (`paneward tools` lists the tools this configuration offers)"
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let context = CallContext::for_request(RequestId::String("paneward-call".into()))
        .with_reply_text(crate::call::reply_text(&app));
    let tier = app.config.safety;
    let result = runtime.block_on(crate::call::run(&app, tier, tool, Some(arguments), &context));
    runtime.shutdown_background();
    result.map_err(|error| error.message().to_string())
}

/// The arguments as a JSON object; none is `{}`.
fn parse_arguments(text: Option<&str>) -> Result<JsonObject, String> {
    match text.map(serde_json::from_str::<Value>) {
        None => Ok(JsonObject::new()),
        Some(Ok(Value::Object(object))) => Ok(object),
        Some(Ok(_)) => Err("the arguments must be a JSON object, such as '{\"pane_id\": \"%0\"}'".into()),
        Some(Err(error)) => Err(format!("the arguments are not JSON: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_must_be_one_json_object() {
        assert!(parse_arguments(None).unwrap().is_empty());
        assert_eq!(parse_arguments(Some(r#"{"a": 1}"#)).unwrap()["a"], 1);
        assert!(parse_arguments(Some("[1]")).unwrap_err().contains("JSON object"));
        assert!(parse_arguments(Some("{")).unwrap_err().contains("not JSON"));
    }
}
