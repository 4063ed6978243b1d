#!/usr/bin/env python3
"""Codex benchmark: `throughline hook codex` per event kind against /bin/true, and the import
of one large rollout.

    bench/codex.py [--mb 100] [--runs 200] [--keep]

Builds the CLI as installed (scripts/build-cli), writes one Codex 0.171.0-shaped rollout of
about --mb MB (the line shapes of hook-cli/tests/fixtures/codex-0.171.0: user prompt,
exec_command call, its output, answer, token count per turn), imports it three times into
fresh homes (timed: throughput), then times whole hook processes per event kind, each
preceded (untimed) by the lines Codex appends before that event, interleaved with spawns of
/bin/true on the same stdin. Prints a Markdown report.
"""
import argparse
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostbench  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "hook-cli", "tests", "fixtures", "codex-0.171.0")
SESSION = "01a22ba6-a25c-7110-8548-5c0daa3cbefe"


def line(kind, payload, i):
    return json.dumps({"timestamp": f"2026-11-30T08:{i // 60 % 60:02d}:{i % 60:02d}.000Z",
                       "type": kind, "payload": payload}) + "\n"


def turn_lines(i, output_bytes):
    """One Codex turn: what the rollout gains from the prompt to task_complete."""
    turn = f"turn-{i}"
    total = 10_000 * (i + 1)
    usage = {"input_tokens": 10_000, "cached_input_tokens": 8_000, "cache_write_input_tokens": 0,
             "output_tokens": 40, "reasoning_output_tokens": 0, "total_tokens": 10_040}
    output = ("Chunk ID: 65f9aa\nWall time: 0.0100 seconds\nProcess exited with code 0\n"
              "Output:\n" + ("test parser::case ... ok\n" * (output_bytes // 25)))
    return {
        "UserPromptSubmit": [
            line("event_msg", {"type": "task_started", "turn_id": turn}, i),
            line("response_item", {"type": "message", "id": f"msg_u{i}", "role": "user",
                 "content": [{"type": "input_text", "text": f"Turn {i}: run the parser tests and fix what fails."}]}, i),
        ],
        "PostToolUse": [
            line("response_item", {"type": "function_call", "id": f"fc_{i}", "name": "exec_command",
                 "arguments": json.dumps({"cmd": "cargo test -p parser"}), "call_id": f"call_{i}"}, i),
            line("response_item", {"type": "function_call_output", "call_id": f"call_{i}", "output": output}, i),
        ],
        "Stop": [
            line("response_item", {"type": "message", "id": f"msg_a{i}", "role": "assistant",
                 "content": [{"type": "output_text", "text": f"All parser tests pass after turn {i}; the fix is in lexer.rs."}]}, i),
            line("event_msg", {"type": "token_count", "info": {"total_token_usage": dict(usage, total_tokens=total),
                 "last_token_usage": usage, "model_context_window": 258_400}}, i),
            line("event_msg", {"type": "task_complete", "turn_id": turn, "duration_ms": 900}, i),
        ],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--keep", action="store_true", help="keep bench/out/codex for inspection")
    args = ap.parse_args()
    out = os.path.join(ROOT, "bench", "out", "codex")
    shutil.rmtree(out, ignore_errors=True)
    day = os.path.join(out, "sessions", "2026", "11", "30")
    os.makedirs(day)
    rollout = os.path.join(day, f"rollout-2026-11-30T08-51-10-{SESSION}.jsonl")
    with open(os.path.join(FIXTURE, "rollout.jsonl")) as f:
        head = f.readline()  # the real session_meta line
    payloads = {}
    for event, name in [("SessionStart", "05-SessionStart.json"), ("UserPromptSubmit", "06-UserPromptSubmit.json"),
                        ("PostToolUse", "03-PostToolUse.json"), ("Stop", "07-Stop.json")]:
        with open(os.path.join(FIXTURE, "hooks", name)) as f:
            payloads[event] = (dict(json.load(f), cwd="/bench/codex"), name)
    hostbench.run("codex", "Codex", "bench/codex.py", args, rollout, head, lambda i: turn_lines(i, 8_000),
                  os.path.join(out, "sessions"), payloads, out, {"CODEX_HOME": out})


if __name__ == "__main__":
    main()
