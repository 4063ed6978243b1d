#!/usr/bin/env python3
"""Handoff benchmark: what the memory adds to the first prompt of the next session, and
what /clear keeps.

    bench/handoff.py [--turns 100000] [--runs 300] [--client 2.1.332|2.1.197] [--keep] [--sizes]

Latency: builds the CLI as installed (scripts/build-cli), writes synthetic transcripts
(bench/synth.py) and imports them, then times whole `throughline hook claude` processes
against that store:

* SessionStart(source=clear) that links to the session a SessionEnd(reason=clear) ended,
  and injects its memory, against SessionStart(source=startup) of a new session, which
  injects nothing. With `--client 2.1.332` (the default) the pair shares no prompt id, as
  that release sends it: this process registers itself as the Claude Code process the hooks
  run under (`$CLAUDE_CONFIG_DIR/sessions/<pid>.json`), which is what links them; with
  `--client 2.1.197` both carry the same prompt id;
* a new session started while a handoff (`/tl`) waits: its SessionStart(source=startup)
  injects the memory's first part, against one with no handoff waiting, and its first
  UserPromptSubmit takes the handoff and injects the second part, against one with no
  handoff waiting (decision 0144).

Each pair is interleaved run by run (with /bin/true) so the difference holds on a noisy
machine. Every timed injection is checked in the injection log afterwards.

--sizes also runs `cargo bench --bench handoff_sizes` (hook-cli/benches/handoff_sizes.rs: the real Claude Code CLI through
/clear on 30- and 50-turn sessions: characters before and after, facts kept).
Prints Markdown.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid

import capture  # bench/capture.py: the same timed spawn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = None  # set by latency(): the CLI as installed
PROJECT = "/bench/project-0"


def spawn(argv, payload, env, scratch):
    """Runs argv with `payload` (a dict) on stdin; returns seconds."""
    path = os.path.join(scratch, "payload.json")
    with open(path, "w") as f:
        json.dump(payload, f)
    return capture.spawn(argv, path, env)


def event(name, session_id, scratch, **fields):
    """A hook payload as Claude Code sends it; a new session has no transcript yet."""
    p = {"session_id": session_id, "cwd": PROJECT, "hook_event_name": name,
         "transcript_path": os.path.join(scratch, f"{session_id}.jsonl")}
    p.update(fields)
    return p


def stats(times):
    times = sorted(times)
    return statistics.median(times) * 1000, times[int(len(times) * 0.95) - 1] * 1000


def cli(args, env):
    return subprocess.run([BIN] + args, env=env, check=True, capture_output=True, text=True).stdout


def latency(args):
    global BIN
    BIN = capture.build_cli()
    out, corpus, home, env = capture.synthetic_corpus("handoff", args.turns, output_bytes=800)
    # New sessions' transcripts (not written yet) where Claude Code keeps them: a hook reads
    # and names only transcripts there.
    scratch = os.path.join(out, "projects", "-bench-new-sessions")
    os.makedirs(scratch)
    subprocess.run([BIN, "import", "--from", corpus, "--json"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    status = json.loads(cli(["status", "--json"], env))

    # The session that is cleared (and handed over) again and again: 100 turns of project 0.
    transcript = capture.first_transcript(corpus)
    old = os.path.basename(transcript)[:-len(".jsonl")]

    # The hooks' parent, this process, is the Claude Code window they run in.
    # The corpus (out/projects) is this folder's projects: a hook reads transcripts only there.
    config_dir = out
    os.makedirs(os.path.join(config_dir, "sessions"))
    with open(os.path.join(config_dir, "sessions", f"{os.getpid()}.json"), "w") as f:
        json.dump({"pid": os.getpid(), "sessionId": old, "version": args.client}, f)
    env = dict(env, CLAUDE_CONFIG_DIR=config_dir)
    start_has_prompt_id = args.client == "2.1.197"

    rows = {k: [] for k in ("true", "clear", "startup", "offered", "take", "plain", "end")}
    for i in range(args.runs):
        prompt_id = f"bench-clear-{i}"
        end = event("SessionEnd", old, scratch, reason="clear", prompt_id=prompt_id)
        end["transcript_path"] = transcript
        rows["end"].append(spawn([BIN, "hook", "claude"], end, env, scratch))
        rows["true"].append(spawn(["/bin/true"], {}, env, scratch))
        clear = event("SessionStart", str(uuid.uuid4()), scratch, source="clear")
        if start_has_prompt_id:
            clear["prompt_id"] = prompt_id
        rows["clear"].append(spawn([BIN, "hook", "claude"], clear, env, scratch))
        rows["startup"].append(spawn([BIN, "hook", "claude"], event(
            "SessionStart", str(uuid.uuid4()), scratch, source="startup", prompt_id=f"bench-start-{i}"),
            env, scratch))
        # /tl in the old session, then a new one starts and its first prompt takes it.
        subprocess.run([BIN, "handoff", "--session", old, "--json"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        taker = str(uuid.uuid4())
        rows["offered"].append(spawn([BIN, "hook", "claude"], event(
            "SessionStart", taker, scratch, source="startup", prompt_id=f"bench-offered-{i}"),
            env, scratch))
        rows["take"].append(spawn([BIN, "hook", "claude"], event(
            "UserPromptSubmit", taker, scratch, prompt="Carry on.",
            prompt_id=f"bench-take-{i}"), env, scratch))
        rows["plain"].append(spawn([BIN, "hook", "claude"], event(
            "UserPromptSubmit", str(uuid.uuid4()), scratch, prompt="Carry on.",
            prompt_id=f"bench-plain-{i}"), env, scratch))

    log = json.loads(cli(["injections", "--all", "--json", "--limit", str(4 * args.runs)], env))
    by_trigger = {t: sum(1 for i in log if i["trigger"] == t) for t in ("clear", "handoff")}
    # A /clear's second part waits for a prompt this benchmark never sends; a handoff's is
    # given by the prompt that takes it.
    if by_trigger != {"clear": args.runs, "handoff": 2 * args.runs}:
        sys.exit(f"expected {args.runs} /clear and {2 * args.runs} handoff injections, "
                 f"got {by_trigger}")
    sizes = sorted(i["size"] for i in log)
    problems_path = os.path.join(home, "throughline.log")
    problems = open(problems_path).read() if os.path.exists(problems_path) else ""

    print(f"Store: {status['store']['turns']:,} turns in {status['store']['sessions']:,} sessions; "
          f"the memory comes from a 100-turn session ({statistics.median(sizes):.0f} UTF-16 units "
          f"median). {args.runs} runs each, interleaved.\n")
    print("| hook call (whole process) | median ms | p95 ms |")
    print("|---|---|---|")
    names = [("true", "`/bin/true` (spawn cost)"),
             ("startup", "SessionStart(startup), no handoff waiting: injects nothing"),
             ("clear", "SessionStart(clear), links and injects the memory's first part"),
             ("offered", "SessionStart(startup), a `/tl` handoff waiting: injects its first part"),
             ("plain", "first UserPromptSubmit, no handoff waiting"),
             ("take", "first UserPromptSubmit after that start: takes the handoff, injects part 2"),
             ("end", "SessionEnd(clear), records the pair")]
    med = {}
    for key, label in names:
        med[key], p95 = stats(rows[key])
        print(f"| {label} | {med[key]:.2f} | {p95:.2f} |")
    print(f"\nAdded by the injection: **{med['clear'] - med['startup']:.2f} ms** after `/clear`, "
          f"**{med['offered'] - med['startup']:.2f} ms** at the start of a chat a `/tl` handoff "
          f"waits for and **{med['take'] - med['plain']:.2f} ms** at its first prompt (medians).")
    if problems:
        print(f"\nThe hook logged problems:\n```\n{problems}```")
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--client", choices=["2.1.332", "2.1.197"], default="2.1.332",
                    help="the release whose /clear payloads the hooks get")
    ap.add_argument("--keep", action="store_true", help="keep bench/out/handoff for inspection")
    ap.add_argument("--sizes", action="store_true", help="also measure /clear with the real client")
    args = ap.parse_args()
    print(f"## Handoff benchmark ({time.strftime('%Y-%m-%d')}, `bench/handoff.py --turns {args.turns} "
          f"--runs {args.runs} --client {args.client}{' --sizes' if args.sizes else ''}`)\n")
    latency(args)
    if args.sizes:
        print()
        sys.stdout.flush()
        subprocess.run(["cargo", "bench", "-q", "-p", "throughline", "--bench", "handoff_sizes"],
                       cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
