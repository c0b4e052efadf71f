#!/usr/bin/env python3
"""What the spelling of a pane description costs tmux: a read batch's 16 commands (8
captures, 8 `get_pane_info` descriptions) on a bare `tmux -C` client at N panes, with the
free-text terminators as 16 hex digits or 11 letters and digits, and the variables that
have one-letter names (#D #P #I #S #W #T) written in full or short. tmux's command
parser grows an argument a byte at a time, so the bytes of a format cost it CPU.

Usage: scripts/format-cost.py PANES CALLS (BENCHMARKS.md, issue 28; src/tmux/format.rs)."""
import subprocess, sys, time
import tmux_fixture

N = int(sys.argv[1]); CALLS = int(sys.argv[2]); SOCK = f"fmtc{N}"
T, pid, ids = tmux_fixture.start(SOCK, N)
ctl = subprocess.Popen(["tmux", "-u", "-L", SOCK, "-C"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
ctl.stdin.write(b"refresh-client -f no-output,ignore-size\n"); ctl.stdin.flush()
END = "pw4f50979e5c7f1a62d688f5d1041ea9bae"  # an unknown command: tmux answers at parse time


def batch_round_trip(text):
    ctl.stdin.write(text.encode()); ctl.stdin.flush()
    while END.encode() not in ctl.stdout.readline():
        pass


# get_pane_info's variables in paneward's order; "|" marks a free-text field's terminator.
FIELDS = ("pane_id pane_index session_id window_id window_index pane_active pane_left pane_top "
          "pane_width pane_height pane_pid pane_dead pane_in_mode socket_path| pid session_name| "
          "window_name| pane_current_command| pane_current_path| @paneward_owned_pane "
          "pane_dead_status pane_dead_signal pane_tty pane_mode window_zoomed_flag history_size "
          "history_limit cursor_x cursor_y alternate_on pane_synchronized pane_title|").split()
SHORT = {"pane_id": "#D", "pane_index": "#P", "window_index": "#I", "session_name": "#S",
         "window_name": "#W", "pane_title": "#T"}


def describe_format(terminator, short):
    fields = []
    for field in FIELDS:
        name = field.rstrip("|")
        text = SHORT[name] if short and name in SHORT else "#{%s}" % name
        fields.append(text + ("\x1f" + terminator if field.endswith("|") else ""))
    # Quoted as paneward quotes it: control characters as octal escapes outside quotes.
    return "'" + "\x1f".join(fields).replace("\x1f", "'\\037'") + "'\\036''"


def batch(terminator, short):
    panes = [ids[(i // 2) % len(ids)] for i in range(16)]
    rows = [f"capture-pane '-p' '-t' '{p}'" if i % 2 == 0 else
            f"display-message '-p' '-t' '{p}' {describe_format(terminator, short)}"
            for i, p in enumerate(panes)]
    return "".join(row + "\n" for row in rows) + END + "\n"


cases = {
    "16 hex digits, full names (before)": batch("68075bdab2937f07", False),
    "11 letters and digits, full names": batch("a8Zk3QpL0xW", False),
    "16 hex digits, short names": batch("68075bdab2937f07", True),
    "11 letters and digits, short names (now)": batch("a8Zk3QpL0xW", True),
    "no terminators at all (unsafe; for scale)": batch("", False),
}
runs = {}
for _ in range(7):
    for name, text in cases.items():
        batch_round_trip(text)
        cpu0 = tmux_fixture.cpu_seconds(pid); t0 = time.perf_counter()
        for _ in range(CALLS):
            batch_round_trip(text)
        runs.setdefault(name, []).append(((tmux_fixture.cpu_seconds(pid) - cpu0) / CALLS * 1e6,
                                          (time.perf_counter() - t0) / CALLS * 1e6))
print(N, "panes, load", open("/proc/loadavg").read().split()[:3])
for name, samples in runs.items():
    cpu = sorted(c for c, _ in samples); wall = sorted(w for _, w in samples)
    print("  %-44s %5d bytes  tmux CPU median %4.0f µs  wall median %4.0f µs"
          % (name, len(cases[name]), cpu[len(cpu) // 2], wall[len(wall) // 2]))
ctl.kill(); subprocess.run(["tmux", "-L", SOCK, "kill-server"])
