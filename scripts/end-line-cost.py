#!/usr/bin/env python3
"""What ending a control-mode round trip costs tmux: a `display-message` of the end nonce
against the nonce alone (a command name tmux does not know), behind a read batch's 16
commands on a bare `tmux -C` client, at N panes; tmux server CPU and wall per batch.

Usage: scripts/end-line-cost.py PANES CALLS (BENCHMARKS.md, issue 28; docs/tmux-quirks.md)."""
import os, subprocess, sys, time
import tmux_fixture
N=int(sys.argv[1]); CALLS=int(sys.argv[2]); SOCK=f"endc{N}"
T, pid, ids = tmux_fixture.start(SOCK, N)
def cpu(): return tmux_fixture.cpu_seconds(pid)
ctl=subprocess.Popen(["tmux","-u","-L",SOCK,"-C"],stdin=subprocess.PIPE,stdout=subprocess.PIPE)
ctl.stdin.write(b"refresh-client -f no-output,ignore-size\n"); ctl.stdin.flush()
END="pw4f50979e5c7f1a62d688f5d1041ea9bae"
def send(text, ends, show=False):
    ctl.stdin.write(text.encode()); ctl.stdin.flush()
    seen=0
    while seen<ends:
        l=ctl.stdout.readline()
        if show: print("   |", l[:100])
        if END.encode() in l: seen+=1
INFO='"#{pane_id}\\037#{pane_index}\\037#{session_id}\\037#{window_id}\\037#{window_index}\\037#{pane_active}\\037#{pane_left}\\037#{pane_top}\\037#{pane_width}\\037#{pane_height}\\037#{pane_pid}\\037#{pane_dead}\\037#{pane_in_mode}\\037#{socket_path}\\03768075bdab2937f07\\037#{pid}\\037#{session_name}\\03768075bdab2937f07\\037#{window_name}\\03768075bdab2937f07\\037#{pane_current_command}\\03768075bdab2937f07\\037#{pane_current_path}\\03768075bdab2937f07\\037#{@paneward_owned_pane}\\037#{pane_dead_status}\\037#{pane_dead_signal}\\037#{pane_tty}\\037#{pane_mode}\\037#{window_zoomed_flag}\\037#{history_limit}\\037#{cursor_x}\\037#{cursor_y}\\037#{alternate_on}\\037#{pane_synchronized}\\037#{pane_title}\\03768075bdab2937f07\\036"'
bp=[ids[(i//2)%len(ids)] for i in range(16)]
rows=[(f"capture-pane -p -t {p}" if i%2==0 else f"display-message -p -t {p} {INFO}") for i,p in enumerate(bp)]
ends={"display-message":f"display-message -p {END}","parse error":END,"show-buffer":f"show-buffer -b {END}","list-keys":f"list-keys -T {END}"}
for k,e in ends.items():
    print(k); send(f"{e}\n",1,True)
cases={f"16 x (row, {k})":("".join(f"{r}\n{e}\n" for r in rows),16) for k,e in ends.items()}
cases["16 rows + 1 end"]=("".join(f"{r}\n" for r in rows)+ends["display-message"]+"\n",1)
cases["16 rows on one line + 1 end"]=(" ; ".join(rows)+"\n"+ends["display-message"]+"\n",1)
cases["16 x end only (display)"]=("".join(f"{ends['display-message']}\n" for r in rows),16)
cases["16 x end only (parse error)"]=("".join(f"{END}\n" for r in rows),16)
out={}
for rnd in range(3):
    for name,(text,n) in cases.items():
        send(text,n)
        c0=cpu(); t0=time.perf_counter()
        for _ in range(CALLS): send(text,n)
        out.setdefault(name,[]).append(((cpu()-c0)/CALLS*1e6,(time.perf_counter()-t0)/CALLS*1e6))
print(N,"panes, load",open("/proc/loadavg").read().split()[:3])
for k,v in out.items(): print("  %-36s tmux cpu %5.0f us  wall %5.0f us"%(k,min(c for c,_ in v),min(w for _,w in v)))
ctl.kill(); subprocess.run(["tmux","-L",SOCK,"kill-server"])
