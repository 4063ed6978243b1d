#!/usr/bin/env python3
"""Search benchmark: retrieval quality and speed on a generated memory, and what search
costs the hook.

    bench/search.py [--turns 100000] [--runs 300] [--cold-runs 5] [--skip-startup]

1. `cargo bench --bench search` (hook-cli/benches/search.rs): builds a memory of generated
   sessions with planted facts (prompts, assistant text, tool output, line 400 of a 20 KB
   output; English, Japanese, identifiers with separators; files read ten times) and reports
   verbatim@3 (in the library and through `throughline mcp` with the MCP SDK's client),
   recall@3, characters per answer, query latency and the index's share of the database.
2. The first query of a fresh process on a cold database: whole `throughline search`
   processes on the memory the bench built, each after the database file and its WAL were
   evicted from the page cache (posix_fadvise DONTNEED, no root needed), against the same
   query warm (p50 / p95 of --runs processes).
3. Hook start-up with and without the `mcp` feature (the MCP server's async runtime is linked
   into the same binary): whole `throughline hook claude` processes on a SessionStart payload,
   interleaved with spawns of /bin/true as the reference, medians reported.
"""
import argparse
import os
import shutil
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


# Queries of the generated memory's words: a code name beside two words its decoys share,
# Japanese, and two frequent words.
COLD_QUERIES = ["Kestrel deploy key", "夜間バックアップ", "retry timeout"]


def evict(path):
    """Drops `path` from the page cache. Dirty pages are not dropped: they are written first."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def search_once(argv, env, cold):
    db = os.path.join(env["THROUGHLINE_HOME"], "throughline.db")
    if cold:
        for path in (db, db + "-wal"):
            if os.path.exists(path):
                evict(path)
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: nothing found
        sys.exit(f"{' '.join(argv)} failed with status {done.returncode}")
    return elapsed


def first_query(home, cold_runs, warm_runs):
    binary = os.path.join(TARGET, "release", "throughline")
    env = dict(os.environ, THROUGHLINE_HOME=home)
    print(f"\nfirst query of a fresh `throughline search --all --limit 3` process, "
          f"database evicted (median of {cold_runs}) against warm (p50 / p95 of {warm_runs}):")
    for query in COLD_QUERIES:
        argv = [binary, "search", "--all", "--limit", "3", query]
        cold = [search_once(argv, env, cold=True) for _ in range(cold_runs)]
        search_once(argv, env, cold=False)  # back in the cache
        warm = sorted(search_once(argv, env, cold=False) for _ in range(warm_runs))
        p95 = warm[min(len(warm) - 1, int(len(warm) * 0.95))]
        print(f"  cold {statistics.median(cold) * 1000:7.1f} ms   warm "
              f"{statistics.median(warm) * 1000:6.1f} / {p95 * 1000:6.1f} ms   "
              f"(cold {statistics.median(cold) / p95:4.1f}x the warm p95)   {query}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=300,
                        help="processes per measure of hook start-up, and of a warm search")
    parser.add_argument("--cold-runs", type=int, default=5,
                        help="searches on an evicted database, each in a fresh process")
    parser.add_argument("--skip-startup", action="store_true")
    args = parser.parse_args()
    # The memory is kept for the first-query measure: in BENCH_DIR when given, else here.
    given = os.environ.get("BENCH_DIR")
    keep = given or tempfile.mkdtemp(prefix="tl-search-bench-")
    # The release profile's fat LTO is for the shipped binary; the library code measured here
    # is the same without it, and builds in minutes instead of a quarter hour (and shares its
    # build with bench/search_live.py).
    env = dict(os.environ, BENCH_TURNS=str(args.turns), BENCH_DIR=keep,
               CARGO_PROFILE_RELEASE_LTO="false", CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16")
    cargo("bench", "-p", "throughline", "--bench", "search", "--profile", "release", env=env)
    first_query(os.path.join(keep, "home"), args.cold_runs, args.runs)
    if not given:
        shutil.rmtree(keep)
    if not args.skip_startup:
        startup(args.runs)


if __name__ == "__main__":
    sys.exit(main())
