#!/usr/bin/env python3
"""Statusline benchmark: Claude Code runs `throughline statusline` on every prompt render, so
its cost is measured as a ratio to spawning /bin/true, against a large store.

    bench/statusline.py [--turns 100000] [--runs 500] [--keep]

Builds the CLI as installed (scripts/build-cli), imports synthetic transcripts
(bench/synth.py), then times whole `throughline statusline` processes fed the JSON Claude
Code sends (with and without the client's usage numbers, so the store's fallback is measured
too), interleaved with spawns of /bin/true so the ratio holds on a noisy machine. Prints a
Markdown report.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = None  # set by main(): the CLI as installed
sys.path.insert(0, os.path.join(ROOT, "bench"))
from capture import build_cli, first_transcript, spawn, synthetic_corpus  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--keep", action="store_true", help="keep bench/out for inspection")
    args = ap.parse_args()

    global BIN
    BIN = build_cli()
    out, corpus, home, env = synthetic_corpus("statusline", args.turns)
    subprocess.run([BIN, "import", "--from", corpus, "--json"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    session_id = os.path.basename(first_transcript(corpus))[:-len(".jsonl")]

    payloads = {}
    for name, used in (("client usage", 42), ("store fallback", None)):
        payload = {"session_id": session_id, "transcript_path": "/dev/null", "cwd": "/bench/project-0",
                   "model": {"id": "claude-opus-4-8", "display_name": "Opus"},
                   "context_window": {"context_window_size": 200000, "used_percentage": used,
                                      "current_usage": None}}
        payloads[name] = os.path.join(out, name.replace(" ", "-") + ".json")
        with open(payloads[name], "w") as f:
            json.dump(payload, f)
    shown = subprocess.run([BIN, "statusline"], stdin=open(payloads["store fallback"]), env=env,
                           capture_output=True, text=True, check=True).stdout.strip()

    true_times, rows = [], []
    for name, payload in payloads.items():
        times = []
        for _ in range(args.runs):
            true_times.append(spawn(["/bin/true"], payload, env))
            times.append(spawn([BIN, "statusline"], payload, env))
        rows.append((name, sorted(times)))
    true_median = statistics.median(true_times)
    print(f"## Statusline benchmark ({time.strftime('%Y-%m-%d')}, "
          f"`bench/statusline.py --turns {args.turns} --runs {args.runs}`)\n")
    print(f"Store of {args.turns:,} turns. `/bin/true` median {true_median * 1000:.2f} ms. "
          f"Output: `{shown}`\n")
    print("| payload | median ms | p95 ms | median / `/bin/true` |")
    print("|---|---|---|---|")
    for name, times in rows:
        med = statistics.median(times)
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"| {name} | {med * 1000:.2f} | {p95 * 1000:.2f} | {med / true_median:.1f}× |")
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
