#!/usr/bin/env python3
"""Synthetic Claude Code transcripts shaped like the real ones (one content block per
assistant line, tool results as user lines, system and attachment entries), for benchmarks.

    synth.py OUT_DIR --sessions N --turns T [--output-bytes B] [--seed S]

Writes OUT_DIR/-bench-project-K/<session id>.jsonl. Deterministic for a given seed.
"""
import argparse
import json
import os
import random
import uuid

WORDS = ("parser store hook turn session cache index query ingest render budget token "
         "window layer detail summary offset cursor transcript migration schema").split()


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def tool_output(rng, size):
    lines = []
    total = 0
    while total < size:
        line = f"{rng.randrange(1, 999):4d}\t" + sentence(rng, rng.randrange(4, 14))
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def session_lines(rng, session_id, cwd, turns, output_bytes):
    ts = 1_790_000_000
    parent = None
    msg = 0

    def stamp():
        nonlocal ts
        ts += 1
        return f"2026-09-{(ts // 86400) % 28 + 1:02d}T{(ts // 3600) % 24:02d}:{(ts // 60) % 60:02d}:{ts % 60:02d}.000Z"

    def entry(kind, **fields):
        nonlocal parent
        u = str(uuid.UUID(int=rng.getrandbits(128)))
        e = {"parentUuid": parent, "isSidechain": False, "type": kind, "uuid": u,
             "timestamp": stamp(), "cwd": cwd, "sessionId": session_id, "version": "2.1.197"}
        e.update(fields)
        parent = u
        return json.dumps(e, ensure_ascii=False)

    def assistant(block, stop):
        usage = {"input_tokens": rng.randrange(20_000, 120_000), "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0, "output_tokens": rng.randrange(20, 900)}
        return entry("assistant", message={"id": f"msg_{session_id[:8]}_{msg}", "type": "message",
                     "role": "assistant", "model": "claude-opus-4-8", "content": [block],
                     "stop_reason": stop, "usage": usage})

    for t in range(turns):
        yield entry("user", promptId=str(uuid.UUID(int=rng.getrandbits(128))),
                    message={"role": "user", "content": sentence(rng, rng.randrange(8, 40))})
        msg += 1
        yield assistant({"type": "thinking", "thinking": sentence(rng, 30), "signature": "c2ln"}, "tool_use")
        for k in range(rng.randrange(1, 4)):
            tool_id = f"toolu_{session_id[:8]}_{t}_{k}"
            name = rng.choice(["Read", "Bash", "Grep", "Edit"])
            yield assistant({"type": "text", "text": sentence(rng, 15)}, "tool_use")
            yield assistant({"type": "tool_use", "id": tool_id, "name": name,
                             "input": {"command": f"cat src/{rng.choice(WORDS)}.rs"}}, "tool_use")
            out = tool_output(rng, rng.randrange(output_bytes // 2, output_bytes * 3 // 2))
            yield entry("user", message={"role": "user", "content": [
                {"tool_use_id": tool_id, "type": "tool_result", "content": out, "is_error": False}]},
                # Like the real client, the structured result repeats the whole output.
                toolUseResult={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})
            msg += 1
        yield assistant({"type": "text", "text": sentence(rng, 60)}, "end_turn")
        yield entry("system", subtype="turn_duration", durationMs=rng.randrange(100, 9000))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--output-bytes", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for s in range(args.sessions):
        project = os.path.join(args.out, f"-bench-project-{s % 20}")
        os.makedirs(project, exist_ok=True)
        session_id = str(uuid.UUID(int=rng.getrandbits(128)))
        with open(os.path.join(project, session_id + ".jsonl"), "w") as f:
            for line in session_lines(rng, session_id, f"/bench/project-{s % 20}", args.turns, args.output_bytes):
                f.write(line + "\n")


if __name__ == "__main__":
    main()
