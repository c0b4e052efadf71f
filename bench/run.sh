#!/usr/bin/env bash
# Runs the benchmark: installs the two peer servers into target/bench-peers/ if they
# are missing, builds the release binaries, and prints the Markdown tables that
# BENCHMARKS.md records. Extra arguments go to paneward-bench (see --help), e.g.
#   bench/run.sh --calls 500 --panes 16
# Every speed figure README.md states, beside the peers, with the commit and the load:
#   bench/run.sh --readme
# paneward over Streamable HTTP on loopback, and with tmux reached through ssh, beside
# stdio (needs an sshd you can log in to without a prompt, e.g. on localhost):
#   bench/run.sh --cases snapshot_pane --http --ssh "$USER@localhost" [--ssh-config FILE]
# Needs tmux, a Rust toolchain, python3 with venv, and the crates.io and PyPI registries.
set -euo pipefail
cd "$(dirname "$0")/.."

peers=target/bench-peers
tmux_mcp="$peers/tmux-mcp/bin/tmux-mcp"
libtmux_venv="$peers/libtmux-mcp-venv"
libtmux_mcp="$libtmux_venv/bin/libtmux-mcp"

if [ ! -x "$tmux_mcp" ]; then
  echo "== installing tmux-mcp 0.1.2 (crates.io) into $peers/tmux-mcp" >&2
  # A machine without crates.io still measures paneward and the other peer.
  cargo install --locked --root "$peers/tmux-mcp" tmux-mcp --version 0.1.2 >&2 ||
    echo "== tmux-mcp could not be installed: measuring without it" >&2
fi
if [ ! -x "$libtmux_mcp" ]; then
  echo "== installing libtmux-mcp 0.1.0a22 (PyPI) into $libtmux_venv" >&2
  python3 -m venv "$libtmux_venv"
  "$libtmux_venv/bin/pip" install --quiet --pre 'libtmux-mcp==0.1.0a22' >&2
fi

echo "== building release binaries" >&2
cargo build --release --locked -p paneward -p paneward-bench >&2

tmux_mcp_flag=()
if [ -x "$tmux_mcp" ]; then tmux_mcp_flag=(--tmux-mcp "$tmux_mcp"); fi

echo "== load before: $(uptime)" >&2
./target/release/paneward-bench \
  --paneward target/release/paneward \
  ${tmux_mcp_flag[@]+"${tmux_mcp_flag[@]}"} \
  --libtmux-mcp "$libtmux_mcp" \
  "$@"
echo "== load after: $(uptime)" >&2
