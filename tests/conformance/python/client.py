"""paneward's conformance client on the official Python MCP SDK (`mcp`, pinned in requirements.txt).

Usage: client.py CASES.json -- SERVER_COMMAND [ARGS...]

Connects the way the SDK does by default (probing `server/discover`, then `initialize`),
starts the server with the SDK's default environment (no locale, as real hosts do), lists
every tool, then calls each case of CASES.json in order. The SDK checks each successful
result against the tool's outputSchema itself. This script judges nothing: it prints one
JSON line per event on stdout, and tests/conformance/suite.rs compares them with the
expectations of tests/conformance/cases.json.
"""

import json
import sys

import anyio
from mcp import Client, MCPError, StdioServerParameters

# How long the handshake, a listing or one call may take before it counts as a hang.
CALL_TIMEOUT_SECONDS = 30


def emit(**event):
    print(json.dumps(event), flush=True)


def first_text(result):
    for block in result.content:
        if getattr(block, "type", None) == "text":
            return block.text
    return None


async def call(client, case):
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
        "isError": bool(result.is_error),
        "structuredContent": result.structured_content,
        "text": first_text(result),
        "progress": progress,
    }


async def main(cases_path, command):
    with open(cases_path, encoding="utf-8") as cases_file:
        cases = json.load(cases_file)
    server = StdioServerParameters(command=command[0], args=command[1:])
    # read_timeout_seconds bounds the handshake's requests too.
    async with Client(server, read_timeout_seconds=CALL_TIMEOUT_SECONDS) as client:
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
        for case in cases:
            emit(event="called", tool=case["tool"], case=case["case"], **(await call(client, case)))
    emit(event="done")


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: client.py CASES.json -- SERVER_COMMAND [ARGS...]")
    anyio.run(main, sys.argv[1], sys.argv[3:])
