#!/usr/bin/env python3
"""Search benchmark: retrieval quality and speed on a generated memory, and what search
costs the hook.

    bench/search.py [--turns 100000] [--runs 300] [--skip-startup]

1. `cargo bench --bench search` (hook-cli/benches/search.rs): builds a memory of generated
   sessions with planted facts (prompts, assistant text, tool output, line 400 of a 20 KB
   output; English, Japanese, identifiers with separators; files read ten times) and reports
   verbatim@3 (in the library and through `throughline mcp` with the MCP SDK's client),
   recall@3, characters per answer, query latency and the index's share of the database.
2. Hook start-up with and without the `mcp` feature (the MCP server's async runtime is linked
   into the same binary): whole `throughline hook claude` processes on a SessionStart payload,
   interleaved with spawns of /bin/true as the reference, medians reported.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
PAYLOAD = os.path.join(
    ROOT, "hook-cli", "tests", "fixtures", "claude-2.1.197", "hooks", "01-SessionStart.json"
)


def cargo(*args, env=None):
    subprocess.run(["cargo", *args], cwd=ROOT, check=True, env=env)


def spawn(argv, env):
    with open(PAYLOAD, "rb") as stdin:
        start = time.perf_counter()
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, env=env, check=True)
        return time.perf_counter() - start


def startup(runs):
    with_mcp = os.path.join(TARGET, "release", "throughline")
    without_dir = os.path.join(TARGET, "no-mcp")
    without_mcp = os.path.join(without_dir, "release", "throughline")
    cargo("build", "--release", "-p", "throughline")
    cargo("build", "--release", "-p", "throughline", "--no-default-features",
          "--target-dir", without_dir)
    home = tempfile.mkdtemp(prefix="tl-search-bench-")
    env = dict(os.environ, THROUGHLINE_HOME=home)
    times = {"/bin/true": [], "with mcp": [], "without mcp": []}
    argv = {
        "/bin/true": ["/bin/true"],
        "with mcp": [with_mcp, "hook", "claude"],
        "without mcp": [without_mcp, "hook", "claude"],
    }
    for name in times:  # warm up: first call creates the database
        spawn(argv[name], env)
    for _ in range(runs):
        for name in times:
            times[name].append(spawn(argv[name], env))
    ref = statistics.median(times["/bin/true"])
    print(f"\nhook start-up, `throughline hook claude` on SessionStart, median of {runs}:")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:<12} {med * 1000:6.2f} ms  ({med / ref:4.1f}x /bin/true)")
    for name in ("with mcp", "without mcp"):
        print(f"  binary {name}: {os.path.getsize(argv[name][0]) / 1048576:.1f} MiB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--skip-startup", action="store_true")
    args = parser.parse_args()
    # The release profile's fat LTO is for the shipped binary; the library code measured here
    # is the same without it, and builds in minutes instead of a quarter hour (and shares its
    # build with bench/search_live.py).
    env = dict(os.environ, BENCH_TURNS=str(args.turns), CARGO_PROFILE_RELEASE_LTO="false",
               CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16")
    cargo("bench", "-p", "throughline", "--bench", "search", "--profile", "release", env=env)
    if not args.skip_startup:
        startup(args.runs)


if __name__ == "__main__":
    sys.exit(main())
