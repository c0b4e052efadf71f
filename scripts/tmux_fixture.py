"""The tmux server the cost scripts measure: N panes of 200 printed lines on a private
socket, four panes a window, tiled; and tmux's CPU time, read from /proc."""
import os, subprocess

PANE_COMMAND = "seq 1 200; exec sleep 100000"


def start(sock, panes):
    """Starts (after killing any old one) the server on `sock`; returns a function that
    runs a tmux command there, the server's pid, and its pane ids."""
    def tmux(*args):
        return subprocess.run(["tmux", "-u", "-L", sock, *args], capture_output=True, text=True).stdout
    subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
    tmux("-f", "/dev/null", "new-session", "-d", "-s", "s0", "-x", "200", "-y", "50", PANE_COMMAND)
    made = 1
    while made < panes:
        window = tmux("new-window", "-d", "-P", "-F", "#{window_id}", "-t", "s0:", PANE_COMMAND).strip()
        made += 1
        for _ in range(3):
            if made >= panes:
                break
            tmux("split-window", "-d", "-t", window, PANE_COMMAND)
            made += 1
        tmux("select-layout", "-t", window, "tiled")
    pid = int(tmux("display-message", "-p", "#{pid}").strip())
    return tmux, pid, tmux("list-panes", "-a", "-F", "#{pane_id}").split()


def cpu_seconds(pid):
    """User and system CPU time of process `pid` so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
