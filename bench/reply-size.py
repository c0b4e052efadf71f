#!/usr/bin/env python3
"""Bytes of the text a model reads per call (the text blocks of a tools/call result),
beside the bytes of its structuredContent as compact JSON, for paneward and the peers,
on a private tmux server shaped like the bench's fixture (one session, four panes a
window, the first pane holding 3,000 lines of history).

usage: reply-size.py PANES NAME=PROGRAM[,ENV=VALUE...] ...
  e.g. reply-size.py 16 paneward=target/debug/paneward \
         libtmux-mcp=/path/to/libtmux-mcp,LIBTMUX_SOCKET=@
An argument `@` or an ENV value `@` is replaced by the tmux socket name.
"""
import json
import os
import subprocess
import sys

CALLS = ["list_sessions", "list_windows", "list_panes", "snapshot_pane", "capture_pane"]


def tmux(socket, *args):
    return subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True, text=True).stdout


def fixture(socket, panes):
    history = "seq -f 'history line %g of the benchmark, padded to a typical terminal width' 1 3000; exec sleep 1000000"
    tmux(socket, "-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", "200", "-y", "50", history)
    tmux(socket, "set-option", "-g", "history-limit", "10000")
    filler = "printf 'a pane of the benchmark\\n'; exec sleep 1000000"
    for index in range(1, panes):
        if index % 4 == 0:
            tmux(socket, "new-window", "-d", "-t", "bench:", filler)
        else:
            window = f"bench:{index // 4}"
            tmux(socket, "split-window", "-d", "-t", window, filler)
            tmux(socket, "select-layout", "-t", window, "tiled")
    return tmux(socket, "display-message", "-p", "-t", "bench:0.0", "#{pane_id}").strip()


class Server:
    def __init__(self, program, args, env):
        self.proc = subprocess.Popen([program, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env={**os.environ, **env}, text=True)
        self.next = 1

    def request(self, method, params):
        ident = self.next
        self.next += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n")
        self.proc.stdin.flush()
        while True:
            message = json.loads(self.proc.stdout.readline())
            if message.get("id") == ident:
                return message

    def start(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "reply-size", "version": "0"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        self.proc.stdin.flush()
        return {tool["name"]: tool for tool in self.request("tools/list", {})["result"]["tools"]}

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def arguments(tool, schema, pane):
    props = schema["inputSchema"].get("properties", {})
    key = "pane" if "pane" in props else "pane_id"
    if tool == "snapshot_pane":
        return {key: pane}
    if tool == "capture_pane":
        # paneward: history + max_lines; tmux-mcp: pane + start; libtmux-mcp: start + max_lines.
        if "history" in props and "max_lines" in props:
            return {key: pane, "history": True, "max_lines": 2000}
        return {key: pane, "start": -2000, **({"max_lines": 2000} if "max_lines" in props else {})}
    return {}


def main():
    panes = int(sys.argv[1])
    socket = f"reply-size-{os.getpid()}"
    pane = fixture(socket, panes)
    try:
        print(f"| server ({panes} panes) | " + " | ".join(CALLS) + " |")
        print("|---" * (len(CALLS) + 1) + "|")
        for spec in sys.argv[2:]:
            name, rest = spec.split("=", 1)
            program, *pairs = rest.split(",")
            env = dict(pair.split("=", 1) for pair in pairs)
            env = {k: socket if v == "@" else v for k, v in env.items()}
            args = ["--socket-name", socket] if not env else []
            server = Server(program, args, env)
            tools = server.start()
            cells = []
            for tool in CALLS:
                if tool not in tools:
                    cells.append("n/a")
                    continue
                result = server.request("tools/call", {"name": tool, "arguments": arguments(tool, tools[tool], pane)})
                result = result.get("result", {})
                text = sum(len(b["text"].encode()) for b in result.get("content", []) if b.get("type") == "text")
                structured = result.get("structuredContent")
                json_bytes = len(json.dumps(structured, separators=(",", ":"), ensure_ascii=False).encode()) \
                    if structured is not None else 0
                mark = " (error)" if result.get("isError") else ""
                cells.append(f"{text:,} (JSON {json_bytes:,}){mark}")
            server.stop()
            print(f"| {name} | " + " | ".join(cells) + " |")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


if __name__ == "__main__":
    main()
