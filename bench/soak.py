#!/usr/bin/env python3
"""Soak: many sessions writing at once, readers and searches beside them, and processes
killed at random moments; then every turn must be stored once and the database whole.

    bench/soak.py [--sessions 8] [--turns 500] [--kills 100] [--bin PATH] [--keep DIR]

Each session is a Claude Code-shaped transcript (bench/synth.py) written turn by turn by a
thread of its own, which runs `throughline hook claude` after each turn's prompt
(UserPromptSubmit), after each tool result (PostToolUse) and at its end (Stop). Beside them one
thread runs `throughline search` over and over and one runs `throughline monitor --once` (the
tray app's gauges: the same read-only store access and gauge code). A killer sends SIGKILL to
a random running hook, search or monitor process every 20-300 ms until it has killed
`--kills` of them. A killed hook leaves its transaction uncommitted; the session's next hook
reads on from the stored cursor. At the end one last Stop per session, then the checks:
each session has exactly its turns (no turn lost, none twice), no message is stored twice,
and `PRAGMA integrity_check` says ok. Prints Markdown; exits 1 when a check fails.
"""
import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import synth  # bench/synth.py: the same transcript lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


class Processes:
    """The running child processes the killer may pick, and what it did to them."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running = {}
        self.killed = {"hook": 0, "search": 0, "monitor": 0}

    def run(self, kind, argv, env, stdin=None):
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with self.lock:
            self.running[proc.pid] = (kind, proc)
        try:
            proc.communicate(stdin)
        finally:
            with self.lock:
                self.running.pop(proc.pid, None)
        return proc.returncode

    def kill_one(self, rng):
        with self.lock:
            if not self.running:
                return False
            pid = rng.choice(list(self.running))
            kind, proc = self.running[pid]
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                return False
            self.killed[kind] += 1
            return True


def turns_of(lines):
    """Groups a session's transcript lines by turn: each begins with the person's prompt."""
    turn = []
    for line in lines:
        entry = json.loads(line)
        if entry["type"] == "user" and "promptId" in entry and turn:
            yield turn
            turn = []
        turn.append((line, entry))
    if turn:
        yield turn


def session(args, n, home, procs, failures):
    rng = random.Random(1000 + n)
    session_id = str(uuid.UUID(int=rng.getrandbits(128)))
    cwd = f"/soak/project-{n % 3}"
    path = os.path.join(home, "projects", "-soak", f"{session_id}.jsonl")
    # `home` is Claude Code's folder here: a hook reads transcripts only under its projects.
    env = dict(os.environ, THROUGHLINE_HOME=os.path.join(home, "store"), CLAUDE_CONFIG_DIR=home)

    def hook(event, **fields):
        payload = {"session_id": session_id, "transcript_path": path, "cwd": cwd,
                   "hook_event_name": event}
        payload.update(fields)
        code = procs.run("hook", [args.bin, "hook", "claude"], env, json.dumps(payload).encode())
        if code not in (0, -signal.SIGKILL):
            failures.append(f"hook {event} of session {n} exited {code}")

    prompts = []
    lines = synth.session_lines(rng, session_id, cwd, args.turns, 1500)
    with open(path, "a") as f:
        for turn in turns_of(lines):
            for line, entry in turn:
                f.write(line + "\n")
                f.flush()
                if entry["type"] == "user" and "promptId" in entry:
                    prompts.append(entry["message"]["content"])
                    hook("UserPromptSubmit", prompt=entry["message"]["content"])
                elif entry["type"] == "user":
                    hook("PostToolUse", tool_name="Bash")
            hook("Stop")
    return session_id, prompts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--turns", type=int, default=500)
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--bin", default=os.path.join(TARGET, "release", "throughline"))
    ap.add_argument("--keep", help="folder to keep the store in (default: a temporary one)")
    args = ap.parse_args()
    home = args.keep or tempfile.mkdtemp(prefix="tl-soak-")
    os.makedirs(os.path.join(home, "projects", "-soak"), exist_ok=True)
    env = dict(os.environ, THROUGHLINE_HOME=os.path.join(home, "store"), CLAUDE_CONFIG_DIR=home)
    procs = Processes()
    failures = []
    done = threading.Event()
    counts = {"search": 0, "monitor": 0}

    def reader(kind, argv):
        while not done.is_set():
            code = procs.run(kind, argv, env)
            counts[kind] += 1
            # A search finding nothing exits 1; a killed one was killed.
            if code not in (0, 1, -signal.SIGKILL):
                failures.append(f"{kind} exited {code}")

    def killer():
        rng = random.Random(7)
        while procs_killed() < args.kills and not done.is_set():
            time.sleep(rng.uniform(0.02, 0.3))
            procs.kill_one(rng)

    def procs_killed():
        return sum(procs.killed.values())

    started = time.monotonic()
    results = [None] * args.sessions

    def run_session(n):
        results[n] = session(args, n, home, procs, failures)

    writers = [threading.Thread(target=run_session, args=(n,)) for n in range(args.sessions)]
    others = [threading.Thread(target=reader, args=("search", [args.bin, "search", "--all", "cursor index"])),
              threading.Thread(target=reader, args=("monitor", [args.bin, "monitor", "--once"])),
              threading.Thread(target=killer)]
    for t in writers + others:
        t.start()
    for t in writers:
        t.join()
    done.set()
    for t in others:
        t.join()
    elapsed = time.monotonic() - started

    # One last hook per session, with nothing killed: what a killed call left is read now.
    for session_id, _ in results:
        path = os.path.join(home, "projects", "-soak", f"{session_id}.jsonl")
        payload = {"session_id": session_id, "transcript_path": path, "cwd": "/soak",
                   "hook_event_name": "Stop"}
        subprocess.run([args.bin, "hook", "claude"], env=env, input=json.dumps(payload).encode(),
                       stdout=subprocess.DEVNULL, check=True)

    db = sqlite3.connect(os.path.join(home, "store", "throughline.db"))
    lost = twice = 0
    for session_id, prompts in results:
        stored = [r[0] for r in db.execute(
            "SELECT m.text FROM messages m JOIN sessions s ON s.id = m.session "
            "WHERE s.session_id = ? AND m.role = 'user' ORDER BY m.id", (session_id,))]
        lost += sum(1 for p in prompts if p not in stored)
        twice += len(stored) - len(set(stored))
        turns = db.execute("SELECT count(*) FROM turns t JOIN sessions s ON s.id = t.session "
                           "WHERE s.session_id = ? AND t.seq > 0", (session_id,)).fetchone()[0]
        if turns != len(prompts):
            failures.append(f"session {session_id[:8]}: {turns} turns stored of {len(prompts)}")
    copies = db.execute("SELECT count(*) FROM (SELECT 1 FROM messages GROUP BY turn, key "
                        "HAVING count(*) > 1)").fetchone()[0]
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    all_turns = db.execute("SELECT count(*) FROM turns WHERE seq > 0").fetchone()[0]

    print(f"| sessions × turns | took | hook calls killed | searches run / killed | "
          f"gauge reads run / killed | turns stored | prompts lost | prompts twice | "
          f"message copies | integrity_check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.sessions} × {args.turns} | {elapsed:.0f} s | {procs.killed['hook']} | "
          f"{counts['search']} / {procs.killed['search']} | {counts['monitor']} / "
          f"{procs.killed['monitor']} | {all_turns} of {args.sessions * args.turns} | {lost} | "
          f"{twice} | {copies} | {integrity} |")
    for f in failures[:10]:
        print(f"- {f}")
    ok = not failures and lost == 0 and twice == 0 and copies == 0 and integrity == "ok"
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
