#!/usr/bin/env python3
"""Peak RSS of paneward with 10,000 pipelined requests on one stdio connection.

usage: bench/pipelined_rss.py BINARY (ping | TOOL) COUNT
With WRITE_FIRST=1 the answers are read only 8 s after writing starts, so the server
queues all it will. Starts and kills a tmux server of its own (tmux -L pw-rss-PID).
"""
import json, os, subprocess, sys, threading, time

binary, method, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
socket = "pw-rss-%d" % os.getpid()
subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-x", "80", "-y", "24"], check=True)
env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "PANEWARD_LOG": "error"}
server = subprocess.Popen([binary, "-L", socket], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

def send(message):
    server.stdin.write((json.dumps(message) + "\n").encode())

send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "rss", "version": "0"}}})
server.stdin.flush()
server.stdout.readline()
send({"jsonrpc": "2.0", "method": "notifications/initialized"})

def write_all():
    for id in range(1, count + 1):
        if method == "ping":
            send({"jsonrpc": "2.0", "id": id, "method": "ping"})
        else:
            send({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": method, "arguments": {}}})
    server.stdin.flush()

writer = threading.Thread(target=write_all)
writer.start()
if os.environ.get("WRITE_FIRST"):
    time.sleep(8)
answered = 0
while answered < count:
    line = server.stdout.readline()
    if not line:
        break
    if b'"id"' in line:
        answered += 1
writer.join()
with open("/proc/%d/status" % server.pid) as status:
    peak_kib = int(next(l for l in status if l.startswith("VmHWM")).split()[1])
print("%s %s x%d: answered %d, peak RSS %.1f MB" % (binary, method, count, answered, peak_kib / 1024))
server.stdin.close()
server.wait()
subprocess.run(["tmux", "-L", socket, "kill-server"])
