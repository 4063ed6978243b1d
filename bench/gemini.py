#!/usr/bin/env python3
"""Gemini CLI benchmark: `throughline hook gemini` per event kind against /bin/true, and the
import of one large chat file.

    bench/gemini.py [--mb 100] [--runs 200] [--keep]

Builds the CLI as installed (scripts/build-cli), writes one Gemini CLI 0.61.0-shaped chat file
of about --mb MB (the line shapes of hook-cli/tests/fixtures/gemini-cli-0.61.0: the prompt, the
model's message written twice as its shell call runs, the call's 8 KB output as a function
response, the answer, `$set` patches), imports it three times into fresh homes (timed:
throughput), then times whole hook processes per event kind, each preceded (untimed) by the
lines the CLI appends before that event, interleaved with spawns of /bin/true on the same
stdin. Prints a Markdown report.
"""
import argparse
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostbench  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "hook-cli", "tests", "fixtures", "gemini-cli-0.61.0")
CHAT = "session-2026-11-30T08-51-7f206dea.jsonl"


def line(value):
    return json.dumps(value) + "\n"


def turn_lines(i, output_bytes):
    """One Gemini CLI turn with one shell call: what the chat file gains before each hook."""
    at = f"2026-11-30T08:{i // 60 % 60:02d}:{i % 60:02d}.000Z"
    tokens = {"input": 10_000 + i, "output": 40, "cached": 8_000, "thoughts": 12, "tool": 0, "total": 10_052 + i}
    call = f"run_shell_command__run_shell_command_{i}_0"
    output = "<untrusted_context>\nOutput: " + "test parser::case ... ok\n" * (output_bytes // 25) + "</untrusted_context>"
    response = {"functionResponse": {"id": call, "name": "run_shell_command", "response": {"output": output}}}
    model = {"id": f"g{i}", "timestamp": at, "type": "gemini", "content": "",
             "thoughts": [{"subject": "Testing", "description": "Run the parser tests.", "timestamp": at}],
             "tokens": tokens, "model": "gemini-3.1-pro-preview"}
    ran = dict(model, toolCalls=[{"id": call, "name": "run_shell_command", "args": {"command": "cargo test -p parser"},
                                  "result": [response], "status": "success", "timestamp": at}])
    patch = line({"$set": {"lastUpdated": at}})
    return {
        "AfterTool": [
            line({"id": f"u{i}", "timestamp": at, "type": "user",
                  "content": [{"text": f"Turn {i}: run the parser tests and fix what fails."}]}),
            patch, line(model), patch,
        ],
        "AfterAgent": [
            line(ran),
            line({"id": f"r{i}", "timestamp": at, "type": "user", "content": [response]}), patch,
            line({"id": f"a{i}", "timestamp": at, "type": "gemini",
                  "content": f"All parser tests pass after turn {i}; the fix is in lexer.rs.",
                  "thoughts": [], "tokens": tokens, "model": "gemini-3.1-pro-preview"}), patch,
        ],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--keep", action="store_true", help="keep bench/out/gemini for inspection")
    args = ap.parse_args()
    out = os.path.join(ROOT, "bench", "out", "gemini")
    shutil.rmtree(out, ignore_errors=True)
    # `$GEMINI_CLI_HOME/.gemini/tmp`: where Gemini CLI keeps chats, the only place a hook reads.
    chats = os.path.join(out, ".gemini", "tmp", "proj", "chats")
    os.makedirs(chats)
    with open(os.path.join(FIXTURE, "chats", CHAT)) as f:
        head = f.readline() + f.readline()  # the real header and the session context
    payloads = {}
    for event, name in [("SessionStart", "01-SessionStart.json"), ("BeforeAgent", "02-BeforeAgent.json"),
                        ("AfterTool", "tool-04-AfterTool.json"), ("AfterAgent", "03-AfterAgent.json")]:
        with open(os.path.join(FIXTURE, "hooks", name)) as f:
            fields = json.load(f)
        fields.update(session_id="7f206dea-04d3-4e6a-92b8-4d3649748340", cwd="/bench/gemini")
        payloads[event] = (fields, name)
    hostbench.run("gemini", "Gemini CLI", "bench/gemini.py", args, os.path.join(chats, CHAT), head,
                  lambda i: turn_lines(i, 8_000), os.path.join(out, ".gemini", "tmp"), payloads, out,
                  {"GEMINI_CLI_HOME": out})


if __name__ == "__main__":
    main()
