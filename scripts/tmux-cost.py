#!/usr/bin/env python3
"""tmux server CPU and wall per call at N panes over control mode: raw `tmux -C` vs paneward.

Usage: scripts/tmux-cost.py PANES CALLS PATH-TO-PANEWARD (BENCHMARKS.md, issue 28)."""
import json, os, subprocess, sys, time
import tmux_fixture
N = int(sys.argv[1]); CALLS = int(sys.argv[2]); BIN = sys.argv[3]
SOCK = f"frraw{N}"
T, pid, ids = tmux_fixture.start(SOCK, N)
def cpu(): return tmux_fixture.cpu_seconds(pid)
ctl = subprocess.Popen(["tmux", "-u", "-L", SOCK, "-C", "attach", "-t", "s0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def rt(line):
    ctl.stdin.write((line + "\ndisplay-message -p ENDMARK\n").encode()); ctl.stdin.flush()
    while ctl.stdout.readline().rstrip(b"\n") != b"ENDMARK": pass
    ctl.stdout.readline()
rt("refresh-client -C 200x50")
FS, RE = "\x1f", "\x1e"
q = lambda s: "'" + s.replace("\x1f", "'\\037'").replace("\x1e", "'\\036'") + "'"
FREE = {"session_name","window_name","pane_current_command","pane_current_path","socket_path"}
PANE = ["pane_id","pane_index","session_id","window_id","window_index","pane_active","pane_left","pane_top","pane_width","pane_height","pane_pid","pane_dead","pane_in_mode","socket_path","pid","session_name","window_name","pane_current_command","pane_current_path","@paneward_owned_pane"]
old = FS.join(("#{s/[" + FS + RE + "]/?/:" + n + "}") if n in FREE else "#{" + n + "}" for n in PANE) + RE
new = FS.join("#{" + n + "}" + (FS + "0123456789abcdef" if n in FREE else "") for n in PANE) + RE
SF = ["pane_id","pane_height","pane_index","window_id","window_index","session_id","session_name","window_name"]
slist = "list-panes -a -F " + q(FS.join("#{" + n + "}" + (FS + "0123456789abcdef" if n in FREE else "") for n in SF) + RE)
caps = ["capture-pane -p -t " + i for i in ids]
raw = {
    "list old s/ format": lambda: rt("list-panes -a -F " + q(old)),
    "list new format": lambda: rt("list-panes -a -F " + q(new)),
    "search raw bare": lambda: (rt(slist), rt(" ; ".join(caps))),
    "search raw separated": lambda: (rt(slist), rt(" ; display-message -p SEPSEPSEP ; ".join(caps))),
}
p = subprocess.Popen([BIN, "-L", SOCK], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
rid = 0
def call(method, params):
    global rid; rid += 1
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n"); p.stdin.flush()
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == rid: return m
call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "m", "version": "0"}})
p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"); p.stdin.flush()
for tool, args in [("list_panes", {}), ("search_panes", {"pattern": "199"})]:
    raw["paneward " + tool] = (lambda tool=tool, args=args: call("tools/call", {"name": tool, "arguments": args}))
out = {}
for rnd in range(3):
    for name, f in raw.items():
        f()
        c0 = cpu(); t0 = time.perf_counter()
        for _ in range(CALLS): f()
        out.setdefault(name, []).append(((cpu() - c0) / CALLS * 1000, (time.perf_counter() - t0) / CALLS * 1000))
print(f"{N} panes, {CALLS} calls x3, load", open("/proc/loadavg").read().split()[:3])
for k, v in out.items():
    print("  %-24s server cpu %.2f ms  wall %.2f ms" % (k, min(c for c, _ in v), min(w for _, w in v)))
p.kill(); ctl.kill(); subprocess.run(["tmux", "-L", SOCK, "kill-server"])
