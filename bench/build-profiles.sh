#!/usr/bin/env bash
# Measures what each release profile costs to build and buys at run time: one clean
# build per variant, each into its own target directory (deleted afterwards), then the
# same per-call benchmark against every variant's binary, side by side.
#
#   bench/build-profiles.sh [VARIANT ...]      (default: all, in the order below)
#
# Variants (cargo's CARGO_PROFILE_RELEASE_* overrides on top of Cargo.toml's release):
#   release   the shipped default: thin LTO, 16 codegen units, stripped
#   max       --profile release-max: fat LTO, one codegen unit, stripped
#   no-lto    LTO off (cargo's default release, stripped)
#   opt2      release with opt-level 2
#   abort     release with panic = "abort"
#   cgu1      release with one codegen unit (thin LTO)
#   unstripped release without strip (binary size only; the build is the same work)
#
# Build time is reported both as wall time and as CPU time (user + system of cargo and
# every rustc and linker it ran): on a shared machine the wall time says how busy the
# machine was, the CPU time what the profile costs. The load is printed beside each.
# Results go to stdout as Markdown; progress to stderr. Needs tmux and a Rust toolchain.
#
# The benchmark then runs twice over the binaries, interleaved (A B C .. A B C ..), so a
# change of load shows as two runs of one binary disagreeing, not as a difference
# between profiles. BUILD_PROFILES_BENCH_ONLY=1 skips the builds and benchmarks the
# binaries an earlier run left in $BUILD_PROFILES_DIR/bin.
set -euo pipefail
cd "$(dirname "$0")/.."

work=${BUILD_PROFILES_DIR:-/tmp/paneward-build-profiles}
calls=${BUILD_PROFILES_CALLS:-300}
mkdir -p "$work/bin"
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(release max no-lto opt2 abort cgu1 unstripped)
fi

# The cargo arguments and environment of one variant.
configure() {
  profile=release
  overrides=()
  case "$1" in
    release) ;;
    max) profile=release-max ;;
    no-lto) overrides=(CARGO_PROFILE_RELEASE_LTO=false) ;;
    opt2) overrides=(CARGO_PROFILE_RELEASE_OPT_LEVEL=2) ;;
    abort) overrides=(CARGO_PROFILE_RELEASE_PANIC=abort) ;;
    cgu1) overrides=(CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1) ;;
    unstripped) overrides=(CARGO_PROFILE_RELEASE_STRIP=false) ;;
    *) echo "unknown variant $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
}

load() { cut -d' ' -f1 /proc/loadavg; }

if [ "${BUILD_PROFILES_BENCH_ONLY:-}" != 1 ]; then
echo "| variant | clean build: wall | CPU (user + sys) | load start → end | binary | target/ |"
echo "|---|---:|---:|---|---:|---:|"
for variant in "${variants[@]}"; do
  configure "$variant"
  target="$work/target-$variant"
  rm -rf "$target"
  echo "== $variant: building into $target" >&2
  start_load=$(load)
  times="$work/$variant.time"
  env ${overrides[@]+"${overrides[@]}"} CARGO_TARGET_DIR="$target" \
    /usr/bin/time -f '%e %U %S' -o "$times" \
    cargo build --locked --profile "$profile" -p paneward >&2
  end_load=$(load)
  read -r wall user sys <"$times"
  binary="$target/$profile/paneward"
  cp "$binary" "$work/bin/paneward-$variant"
  size=$(stat -c %s "$binary")
  disk=$(du -sm "$target" | cut -f1)
  rm -rf "$target"
  printf '| %s | %s | %s | %s → %s | %s bytes | %s MB |\n' "$variant" \
    "$(awk -v s="$wall" 'BEGIN{printf "%d min %02d s", s/60, s%60}')" \
    "$(awk -v u="$user" -v y="$sys" 'BEGIN{t=u+y; printf "%d min %02d s", t/60, t%60}')" \
    "$start_load" "$end_load" "$size" "$disk"
done
fi

echo "== building the benchmark" >&2
CARGO_TARGET_DIR="$work/target-bench" cargo build --locked --release -p paneward-bench >&2
bench="$work/target-bench/release/paneward-bench"
for round in 1 2; do
  for variant in "${variants[@]}"; do
    # The unstripped binary runs the same code as release's.
    [ "$variant" = unstripped ] && continue
    echo
    echo "### $variant, round $round (load $(load) before)"
    "$bench" --paneward "$work/bin/paneward-$variant" --calls "$calls" --startups 20 --panes 16 \
      --cases list_panes,snapshot_pane,call_read_tools_batch,run_command
  done
done
