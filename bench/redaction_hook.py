#!/usr/bin/env python3
"""What redaction costs a hook: the Stop hook of one build storing a turn of ordinary text,
and the same hook storing a turn of the same size whose text names tokens and passwords on
nearly every line and holds a secret every 8 lines (the redaction test's clean corpus with
secrets between its lines), alternated run by run, with `/bin/true` beside them. Each run
appends one new turn (a tool output of about 4 KiB and an answer) before the hook, so every
hook has new text to redact.

    bench/redaction_hook.py BIN [--runs 200]

CPU seconds (user + system, from wait4) hold better than wall time on a busy machine; the
ratios are what to read.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from capture import FIXTURE, ROOT, spawn  # noqa: E402
from synth import tool_output  # noqa: E402

CLEAN = os.path.join(ROOT, "hook-cli", "tests", "fixtures", "redaction", "clean.txt")

# Made up, in the shapes the redactor knows; the same few come back, as a pasted `.env` does.
SECRETS = [
    ("STRIPE_SECRET_KEY={}", "sk_" + "live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("db:\n  password: {}", "hunter2-Xy9"),
    ("curl -H 'x-api-key: {}' https://api.example.com", "7f3kQ9zLm2pX"),
    ("the password is {}", "S3cr3t!Pass"),
    ("mysql -u root -p{} app", "hunter2"),
    ("GET /callback?code={}&state=af0 HTTP/1.1", "4a7Fq9ZkPm2x"),
]


def named_text(size, start):
    """About `size` bytes of the clean corpus from line `start`, a secret every 8 lines."""
    lines = [l for l in open(CLEAN).read().splitlines() if l.strip() and not l.startswith("#")]
    out, total, i = [], 0, start
    while total < size:
        line = lines[i % len(lines)]
        if i % 8 == 0:
            shape, value = SECRETS[i // 8 % len(SECRETS)]
            line += "\n" + shape.format(value)
        out.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(out)


class Session:
    """A home of its own with one Claude Code transcript that keeps getting turns."""

    def __init__(self, scratch, name):
        self.root = os.path.join(scratch, name)
        self.home = os.path.join(self.root, "home")
        project = os.path.join(self.root, "projects", "-bench-project")
        os.makedirs(project)
        os.makedirs(self.home)
        self.session_id = str(uuid.uuid5(uuid.NAMESPACE_URL, name))
        self.transcript = os.path.join(project, self.session_id + ".jsonl")
        open(self.transcript, "w").close()
        self.env = dict(os.environ, THROUGHLINE_HOME=self.home, CLAUDE_CONFIG_DIR=self.root)
        self.env.pop("THROUGHLINE_GUARD", None)
        with open(os.path.join(FIXTURE, "05-Stop.json")) as f:
            payload = json.load(f)
        payload.update(session_id=self.session_id, transcript_path=self.transcript,
                       cwd="/bench/project")
        self.payload = os.path.join(self.root, "stop.json")
        with open(self.payload, "w") as f:
            json.dump(payload, f)

    def append_turn(self, i, output):
        base = {"parentUuid": None, "isSidechain": False, "timestamp": "2026-12-06T10:00:00.000Z",
                "cwd": "/bench/project", "sessionId": self.session_id}
        lines = [
            dict(base, uuid=f"u{i}", type="user", promptId=f"p{i}",
                 message={"role": "user", "content": f"Step {i}: read the config and check it."}),
            dict(base, uuid=f"c{i}", type="assistant", message={
                "id": f"msg_c{i}", "role": "assistant", "model": "claude-opus-4-8",
                "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "Bash",
                             "input": {"command": "cat config/settings.env"}}],
                "usage": {"input_tokens": 90000, "output_tokens": 40}}),
            dict(base, uuid=f"r{i}", type="user", message={"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": output}]}),
            dict(base, uuid=f"a{i}", type="assistant", message={
                "id": f"msg_a{i}", "role": "assistant", "model": "claude-opus-4-8",
                "content": [{"type": "text", "text": "The settings are read once at start-up."}],
                "usage": {"input_tokens": 91000, "output_tokens": 60}}),
        ]
        with open(self.transcript, "a") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")

    def hook(self, binary, cpu):
        spawn([binary, "hook", "claude"], self.payload, self.env, cpu)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--bytes", type=int, default=4096, help="size of each turn's tool output")
    args = ap.parse_args()
    rng = random.Random(7)
    scratch = tempfile.mkdtemp()
    try:
        ordinary, named = Session(scratch, "ordi"), Session(scratch, "name")
        cpu = {"ordinary": [], "named": [], "true": []}
        warmup = 5
        for i in range(warmup + args.runs):
            plain_cpu, named_cpu, true_cpu = ([], [], []) if i < warmup else (
                cpu["ordinary"], cpu["named"], cpu["true"])
            ordinary.append_turn(i, tool_output(rng, args.bytes))
            named.append_turn(i, named_text(args.bytes, 40 * i))
            order = [(ordinary, plain_cpu), (named, named_cpu)]
            for session, into in order if i % 2 else reversed(order):
                session.hook(args.bin, into)
            spawn(["/bin/true"], ordinary.payload, ordinary.env, true_cpu)
        stored = {}
        for name, session in (("ordinary", ordinary), ("named", named)):
            log = os.path.join(session.home, "throughline.log")
            if os.path.exists(log) and open(log).read().strip():
                sys.exit(f"the {name} hook logged:\n{open(log).read()}")
            files = [os.path.join(session.home, f) for f in os.listdir(session.home)
                     if f.startswith("throughline.db")]
            data = b"".join(open(f, "rb").read() for f in files)
            stored[name] = data.count(b"[REDACTED:")
            for _, value in SECRETS:
                if value.encode() in data:
                    sys.exit(f"the {name} store holds {value!r}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    med = {k: statistics.median(v) * 1e3 for k, v in cpu.items()}
    print(f"| hook storing a turn of {args.bytes} B | CPU ms (median of {args.runs}) "
          "| ratio to ordinary | ratio to `/bin/true` |")
    print("|---|---|---|---|")
    print(f"| `/bin/true` | {med['true']:.2f} | | 1.0x |")
    print(f"| ordinary text | {med['ordinary']:.2f} | 1.00x | {med['ordinary'] / med['true']:.1f}x |")
    print(f"| names tokens and passwords, a secret every 8 lines | {med['named']:.2f} "
          f"| {med['named'] / med['ordinary']:.2f}x | {med['named'] / med['true']:.1f}x |")
    print(f"\nPlaceholders in the stores' files: ordinary {stored['ordinary']}, "
          f"named {stored['named']}.")


if __name__ == "__main__":
    main()
