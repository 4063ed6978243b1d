#!/usr/bin/env python3
"""Ingest A/B: two builds of throughline import the same corpus, runs alternated, so a
change in ingest speed shows as a ratio that holds on a noisy machine.

    bench/ingest_ab.py BASE_BIN NEW_BIN [--corpus DIR] [--runs 6]

Without --corpus, writes one with bench/synth.py (1,000 sessions of 100 turns, ~1 GB).
Each run is `throughline import --from <corpus> --no-index --json` into a fresh home.
Prints a Markdown report: median seconds and MB/s per build, and their ratio.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def import_once(binary, corpus):
    home = tempfile.mkdtemp(prefix="tl-ab-")
    try:
        env = dict(os.environ, THROUGHLINE_HOME=home)
        start = time.perf_counter()
        out = subprocess.run([binary, "import", "--from", corpus, "--no-index", "--json"],
                             env=env, check=True, capture_output=True).stdout
        elapsed = time.perf_counter() - start
        return elapsed, json.loads(out)["bytes_read"]
    finally:
        shutil.rmtree(home)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--corpus")
    ap.add_argument("--runs", type=int, default=6)
    args = ap.parse_args()
    scratch = None
    corpus = args.corpus
    if corpus is None:
        scratch = tempfile.mkdtemp(prefix="tl-ab-corpus-")
        corpus = scratch
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "synth.py"),
                        "--sessions", "1000", "--turns", "100", "--output-bytes", "800",
                        corpus], check=True, stdout=subprocess.DEVNULL)
    try:
        times = {"base": [], "new": []}
        size = 0
        for _ in range(args.runs):
            for name in ("base", "new"):
                elapsed, size = import_once(getattr(args, name), corpus)
                times[name].append(elapsed)
    finally:
        if scratch:
            shutil.rmtree(scratch)
    base, new = (statistics.median(times[n]) for n in ("base", "new"))
    print(f"Corpus: {size / 1e6:,.0f} MB, {args.runs} runs per build, alternated.\n")
    print("| build | median s | MB/s | runs (s) |")
    print("|---|---|---|---|")
    for name, median in (("base", base), ("new", new)):
        runs = ", ".join(f"{t:.2f}" for t in sorted(times[name]))
        print(f"| {name} | {median:.2f} | {size / 1e6 / median:.0f} | {runs} |")
    print(f"\nnew / base throughput: **{base / new:.2f}×**")


if __name__ == "__main__":
    main()
