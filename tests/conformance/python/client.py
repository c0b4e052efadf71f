"""paneward's conformance client on the official Python MCP SDK (`mcp`, pinned in requirements.txt).

Usage: client.py CASES.json -- SERVER_COMMAND [ARGS...]
       client.py CASES.json -- --url URL     (Streamable HTTP; the bearer token, if
                                             any, from PANEWARD_CONFORMANCE_TOKEN)

Connects the way the SDK does by default (probing `server/discover`, and speaking
2026-07-28 where the server lists it; `initialize` otherwise), or with
PANEWARD_CONFORMANCE_MODE=legacy the SDK's `mode="legacy"` (the `initialize` handshake),
starts the server with the SDK's default environment (no locale, as real hosts do), lists
every tool; runs the prompt cases of CASES.json (those with a `method`: `get` a prompt,
`complete` a prompt argument) after listing the prompts, then the resource cases (list,
read, subscribe and wait for the update, complete), then each tool case in order (last,
since the last may end the fixture). The SDK checks each successful tool result against the tool's outputSchema
itself. This script judges nothing: it prints one
JSON line per event on stdout, and tests/conformance/suite.rs compares them with the
expectations of tests/conformance/cases.json.
"""

import json
import os
import sys

import anyio
from mcp import Client, MCPError, StdioServerParameters, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import ElicitResult, PromptReference

# How long the handshake, a listing or one call may take before it counts as a hang.
CALL_TIMEOUT_SECONDS = 30


# How the person answers a question (elicitation/create) during the case being run: a
# case's `elicit` ("accept" or "decline"); no answer given is a decline.
current = {"elicit": None, "asked": []}


async def answer_question(context, params):
    current["asked"].append(params.message)
    if current["elicit"] == "accept":
        return ElicitResult(action="accept", content={"allow": True})
    return ElicitResult(action="decline")


def emit(**event):
    print(json.dumps(event), flush=True)


def first_text(result):
    for block in result.content:
        if getattr(block, "type", None) == "text":
            return block.text
    return None


async def call(client, case):
    current["elicit"], current["asked"] = case.get("elicit"), []
    progress = []

    async def on_progress(done, total, message):
        progress.append({"progress": done, "total": total, "message": message})

    callback = on_progress if case.get("progress") else None
    cancel_after = case.get("cancelAfterSeconds")
    try:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            if cancel_after is not None:
                # Leaving the scope cancels the call; the SDK tells the server.
                with anyio.move_on_after(cancel_after):
                    await client.call_tool(case["tool"], case["arguments"], progress_callback=callback)
                    return {"outcome": "result", "detail": "ended before the cancel", "progress": progress}
                return {"outcome": "cancelled", "progress": progress}
            result = await client.call_tool(case["tool"], case["arguments"], progress_callback=callback)
    except TimeoutError:
        return {"outcome": "timeout", "detail": f"no answer within {CALL_TIMEOUT_SECONDS} s"}
    except MCPError as error:
        return {"outcome": "protocol-error", "detail": f"JSON-RPC error {error.code}: {error}"}
    except RuntimeError as error:
        # The SDK raises RuntimeError when structuredContent breaks the outputSchema.
        outcome = "invalid-reply" if "structured content" in str(error) else "client-error"
        return {"outcome": outcome, "detail": str(error)}
    except Exception as error:  # anything else the SDK raised is a failed case, not a crash
        return {"outcome": "client-error", "detail": f"{type(error).__name__}: {error}"}
    return {
        "outcome": "result",
        "asked": len(current["asked"]),
        "isError": bool(result.is_error),
        "structuredContent": result.structured_content,
        "text": first_text(result),
        "progress": progress,
    }


class Updates:
    """The URIs of the notifications/resources/updated received, as a message_handler."""

    def __init__(self):
        self.uris = []
        self.arrived = anyio.Event()

    async def __call__(self, message):
        if getattr(message, "method", None) == "notifications/resources/updated":
            self.uris.append(message.params.uri)
            self.arrived.set()
            self.arrived = anyio.Event()

    async def wait_for(self, uri):
        while uri not in self.uris:
            await self.arrived.wait()


async def resource_step(client, updates, case):
    """Runs one resource case; returns the text the suite looks for mentions in."""
    action = case["action"]
    if action == "list":
        resources = await client.list_resources(cache_mode="bypass")
        templates = await client.list_resource_templates(cache_mode="bypass")
        listed = [(r.name, str(r.uri)) for r in resources.resources]
        listed += [(t.name, t.uri_template) for t in templates.resource_templates]
        return json.dumps(listed)
    if action == "read":
        result = await client.read_resource(case["uri"], cache_mode="bypass")
        return "\n".join(getattr(c, "text", "") for c in result.contents)
    if action == "subscribe" and client.protocol_version >= "2026-07-28":
        # 2026-07-28 removed resources/subscribe: one subscriptions/listen stream instead.
        trigger = case["trigger"]
        async with client.listen(resource_subscriptions=[case["uri"]]) as subscription:
            await client.call_tool(trigger["tool"], trigger["arguments"])
            async for event in subscription:
                if getattr(event, "uri", None) == case["uri"]:
                    break
        return "updated " + case["uri"]
    if action == "subscribe":
        await client.subscribe_resource(case["uri"])
        trigger = case["trigger"]
        await client.call_tool(trigger["tool"], trigger["arguments"])
        await updates.wait_for(case["uri"])
        await client.unsubscribe_resource(case["uri"])
        return "updated " + case["uri"]
    if action == "complete":
        ref = types.ResourceTemplateReference(type="ref/resource", uri=case["uri"])
        context = (case.get("context") or None)
        result = await client.complete(ref, case["argument"], context_arguments=context)
        return "," + ",".join(result.completion.values) + ","
    raise ValueError(f"unknown action {action!r}")


async def resource(client, updates, case):
    try:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            text = await resource_step(client, updates, case)
    except TimeoutError:
        return {"outcome": "timeout", "detail": f"no answer within {CALL_TIMEOUT_SECONDS} s"}
    except MCPError as error:
        return {"outcome": "protocol-error", "code": error.code, "detail": str(error)}
    except Exception as error:  # anything else the SDK raised is a failed case, not a crash
        return {"outcome": "client-error", "detail": f"{type(error).__name__}: {error}"}
    return {"outcome": "result", "text": text}


async def prompt_case(client, case):
    try:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            if case["method"] == "get":
                result = await client.get_prompt(case["prompt"], case["arguments"])
                texts = [m.content.text for m in result.messages if getattr(m.content, "type", None) == "text"]
                return {"outcome": "result", "text": "\n".join(texts)}
            ref = PromptReference(type="ref/prompt", name=case["prompt"])
            result = await client.complete(ref, {"name": case["argument"], "value": case["value"]})
            completion = result.completion
            return {
                "outcome": "result",
                "values": completion.values,
                "total": completion.total,
                "hasMore": completion.has_more,
            }
    except TimeoutError:
        return {"outcome": "timeout", "detail": f"no answer within {CALL_TIMEOUT_SECONDS} s"}
    except MCPError as error:
        return {"outcome": "protocol-error", "detail": f"JSON-RPC error {error.code}: {error}"}
    except Exception as error:  # anything else the SDK raised is a failed case, not a crash
        return {"outcome": "client-error", "detail": f"{type(error).__name__}: {error}"}


async def main(cases_path, command):
    with open(cases_path, encoding="utf-8") as cases_file:
        all_cases = json.load(cases_file)
    cases = all_cases["tools"]
    if command[0] == "--url":
        token = os.environ.get("PANEWARD_CONFORMANCE_TOKEN")
        headers = {"Authorization": f"Bearer {token}"} if token else None
        server = streamable_http_client(command[1], http_client=create_mcp_http_client(headers=headers))
    else:
        server = StdioServerParameters(command=command[0], args=command[1:])
    updates = Updates()
    # read_timeout_seconds bounds the handshake's requests too.
    async with Client(
        server,
        mode=os.environ.get("PANEWARD_CONFORMANCE_MODE", "auto"),
        read_timeout_seconds=CALL_TIMEOUT_SECONDS,
        message_handler=updates,
        elicitation_callback=answer_question,
    ) as client:
        info = client.server_info
        emit(event="connected", protocolVersion=client.protocol_version, server=info.name if info else None)
        names, cursor = [], None
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            while True:
                page = await client.list_tools(cursor=cursor)
                names += [tool.name for tool in page.tools]
                cursor = page.next_cursor
                if not cursor:
                    break
        emit(event="listed", tools=names)
        prompt_cases = [case for case in cases if "method" in case]
        if prompt_cases:
            with anyio.fail_after(CALL_TIMEOUT_SECONDS):
                listed = await client.list_prompts()
            emit(event="listed-prompts", prompts=[prompt.name for prompt in listed.prompts])
            for case in prompt_cases:
                emit(event="prompt", case=case["case"], **(await prompt_case(client, case)))
        for case in all_cases.get("resources", []):
            emit(event="resource", case=case["case"], **(await resource(client, updates, case)))
        # Tool cases last: the last of them may end the fixture (kill_server).
        for case in cases:
            if "method" not in case:
                emit(event="called", tool=case["tool"], case=case["case"], **(await call(client, case)))
    emit(event="done")


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: client.py CASES.json -- SERVER_COMMAND [ARGS...]")
    try:
        anyio.run(main, sys.argv[1], sys.argv[3:])
    except BaseException as error:  # e.g. a refused connection: said as an event, then exit 1
        emit(event="failed", detail=f"{type(error).__name__}: {error!r}")
        sys.exit(1)
