#!/usr/bin/env python3
"""Live work beside bulk work: how long hook calls take, and how many searches fail, while
`throughline import` stores a large backlog and while the first search after it indexes it.

    bench/search_live.py [--sessions 200] [--turns 100] [--output-bytes 4000] [--keep DIR]

A corpus of Claude Code-shaped transcripts (bench/synth.py) is imported into fresh homes
(release build): by `import --no-index` (storing only), by `import` (which indexes at the
end), and by `import --no-index` followed by a first search that indexes the whole backlog. Beside each,
one thread appends a prompt to a live session's transcript and runs
`throughline hook claude` (UserPromptSubmit) on it, over and over, and another runs
`throughline search` over and over. Reported: hook latency (median, p99, max) beside the
bulk work and on the idle store afterwards (the reference, same run), hooks that logged a
failure or lost their prompt, and searches that failed (goal: none).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BIN = os.path.join(TARGET, "release", "throughline")


class Live:
    """A session that goes on: each call appends a prompt and runs the hook on it."""

    def __init__(self, folder, home):
        # Claude Code's folder of this session: a hook reads transcripts only there.
        self.client = os.path.join(folder, "claude")
        projects = os.path.join(self.client, "projects", "-live-project")
        os.makedirs(projects, exist_ok=True)
        self.transcript = os.path.join(projects, "live-session.jsonl")
        self.home = home
        self.parent = None
        self.prompts = []

    def prompt(self):
        n = len(self.prompts)
        text = f"livefact{n:05d} keeps the cache warm"
        uuid = f"live-{n}"
        entry = {"type": "user", "uuid": uuid, "parentUuid": self.parent,
                 "sessionId": "live-session", "cwd": "/live/project", "promptId": f"lp{n}",
                 "timestamp": "2026-11-30T10:00:00.000Z",
                 "message": {"role": "user", "content": text}}
        with open(self.transcript, "a") as f:
            f.write(json.dumps(entry) + "\n")
        self.parent = uuid
        payload = json.dumps({"session_id": "live-session", "transcript_path": self.transcript,
                              "cwd": "/live/project", "hook_event_name": "UserPromptSubmit",
                              "prompt": text}).encode()
        start = time.perf_counter()
        subprocess.run([BIN, "hook", "claude"], input=payload,
                       env=dict(env(self.home), CLAUDE_CONFIG_DIR=self.client),
                       stdout=subprocess.DEVNULL, check=True)
        elapsed = time.perf_counter() - start
        self.prompts.append(text)
        return elapsed


def env(home):
    return dict(os.environ, THROUGHLINE_HOME=home)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def beside(bulk_argv, home, live):
    """Hooks and searches until the bulk command exits: (hook times, searches, failed)."""
    bulk = subprocess.Popen(bulk_argv, env=env(home), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    done = threading.Event()
    searches = {"run": 0, "failed": 0, "errors": []}

    def search_loop():
        while not done.is_set():
            out = subprocess.run([BIN, "search", "--all", "livefact"], env=env(home),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            searches["run"] += 1
            if out.returncode not in (0, 1) or out.stderr:
                searches["failed"] += 1
                searches["errors"].append(out.stderr.decode(errors="replace").strip())

    thread = threading.Thread(target=search_loop)
    thread.start()
    times = []
    while bulk.poll() is None:
        times.append(live.prompt())
    done.set()
    thread.join()
    _, err = bulk.communicate()
    if bulk.returncode != 0:
        sys.exit(f"{' '.join(bulk_argv)} failed: {err.decode(errors='replace')}")
    return times, searches


def lost_hooks(home, live):
    log = os.path.join(home, "throughline.log")
    logged = open(log).read().splitlines() if os.path.exists(log) else []
    # Scoped to the session: all of it is ranked, however many prompts match.
    out = subprocess.run([BIN, "search", "--session", "live-session", "--json", "--limit",
                          "100000", "livefact"],
                         env=env(home), capture_output=True, check=True)
    stored = {h["excerpts"][0]["text"] for h in json.loads(out.stdout) if h["role"] == "user"}
    return logged, [p for p in live.prompts if p not in stored]


def report(label, times, idle, searches, logged, lost):
    ms = lambda s: f"{s * 1000:7.1f} ms"
    print(f"\n{label}: {len(times)} hook calls, {searches['run']} searches beside it")
    print(f"  hook median {ms(statistics.median(times))}  p99 {ms(percentile(times, 0.99))}"
          f"  max {ms(max(times))}")
    print(f"  idle store  {ms(statistics.median(idle))}  p99 {ms(percentile(idle, 0.99))}"
          f"  (reference, same run)")
    print(f"  p99 beside / idle p99: {percentile(times, 0.99) / percentile(idle, 0.99):.1f}x")
    print(f"  hooks that logged a failure: {len(logged)}; prompts lost: {len(lost)}")
    print(f"  failed searches: {searches['failed']}")
    for e in sorted(set(searches["errors"]))[:3]:
        print(f"    {e}")
    for line in logged[:3]:
        print(f"    log: {line}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--output-bytes", type=int, default=4000)
    parser.add_argument("--keep", help="keep the corpus and homes in this folder")
    args = parser.parse_args()
    # Fat LTO is for the shipped binary; what is measured here is waiting for locks, the same
    # without it, and the build takes minutes instead of a quarter hour.
    build_env = dict(os.environ, CARGO_PROFILE_RELEASE_LTO="false",
                     CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16")
    subprocess.run(["cargo", "build", "--release", "-p", "throughline"], cwd=ROOT,
                   check=True, env=build_env)
    work = args.keep or tempfile.mkdtemp(prefix="tl-search-live-")
    corpus = os.path.join(work, "corpus")
    if not os.path.isdir(corpus):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "synth.py"), corpus,
                        "--sessions", str(args.sessions), "--turns", str(args.turns),
                        "--output-bytes", str(args.output_bytes)], check=True)
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(corpus) for f in fs)
    print(f"corpus: {args.sessions} transcripts, {size / 1e6:.0f} MB")

    for label, bulk in (
        ("import --no-index (storing only)", ["import", "--json", "--no-index", "--from", corpus]),
        ("import (storing, then indexing)", ["import", "--json", "--from", corpus]),
        ("first search after import --no-index", ["search", "--all", "parser store"]),
    ):
        home = os.path.join(work, "".join(c if c.isalnum() else "-" for c in label) + "-home")
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(home + "-live", ignore_errors=True)
        live = Live(home + "-live", home)
        live.prompt()
        if bulk[0] == "search":
            subprocess.run([BIN, "import", "--json", "--no-index", "--from", corpus],
                           env=env(home), stdout=subprocess.DEVNULL, check=True)
        started = time.perf_counter()
        times, searches = beside([BIN, *bulk], home, live)
        took = time.perf_counter() - started
        idle = [live.prompt() for _ in range(max(50, len(times)))]
        logged, lost = lost_hooks(home, live)
        report(f"{label}, {took:.1f} s", times, idle, searches, logged, lost)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
