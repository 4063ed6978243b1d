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
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from capture import build_cli, peak_rss_kib, spawn  # noqa: E402

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
    binary = build_cli()
    out = os.path.join(ROOT, "bench", "out", "codex")
    shutil.rmtree(out, ignore_errors=True)
    day = os.path.join(out, "sessions", "2026", "11", "30")
    os.makedirs(day)
    rollout = os.path.join(day, f"rollout-2026-11-30T08-51-10-{SESSION}.jsonl")
    with open(os.path.join(FIXTURE, "rollout.jsonl")) as f:
        head = f.readline()  # the real session_meta line
    size, i = 0, 0
    with open(rollout, "w") as f:
        f.write(head)
        while size < args.mb * 10**6:
            for lines in turn_lines(i, 8_000).values():
                for text in lines:
                    f.write(text)
                    size += len(text)
            i += 1
    turns = i
    rollout_bytes = os.path.getsize(rollout)

    import_times = []
    for run in range(3):
        home = os.path.join(out, f"home-{run}")
        env = dict(os.environ, THROUGHLINE_HOME=home)
        env.pop("THROUGHLINE_GUARD", None)
        start = time.perf_counter()
        subprocess.run([binary, "import", "--host", "codex", "--from", os.path.join(out, "sessions"),
                        "--no-index", "--json"], check=True, env=env, stdout=subprocess.DEVNULL)
        import_times.append(time.perf_counter() - start)

    # The hooks go on in the imported session of the first home.
    env = dict(os.environ, THROUGHLINE_HOME=os.path.join(out, "home-0"))
    env.pop("THROUGHLINE_GUARD", None)
    payloads = {}
    for event, name in [("SessionStart", "05-SessionStart.json"), ("UserPromptSubmit", "06-UserPromptSubmit.json"),
                        ("PostToolUse", "03-PostToolUse.json"), ("Stop", "07-Stop.json")]:
        with open(os.path.join(FIXTURE, "hooks", name)) as f:
            p = json.load(f)
        p.update(transcript_path=rollout, cwd="/bench/codex")
        payloads[event] = os.path.join(out, name)
        with open(payloads[event], "w") as f:
            json.dump(p, f)
    true_times, rows = [], []
    for event, payload in payloads.items():
        hook_times = []
        for _ in range(args.runs):
            with open(rollout, "a") as f:
                f.writelines(turn_lines(turns, 8_000).get(event, []))
            turns += event == "Stop"
            true_times.append(spawn(["/bin/true"], payload, env))
            hook_times.append(spawn([binary, "hook", "codex"], payload, env))
        rows.append((event, hook_times, peak_rss_kib([binary, "hook", "codex"], payload, env)))
    log = os.path.join(out, "home-0", "throughline.log")
    problems = open(log).read() if os.path.exists(log) else ""

    true_median = statistics.median(true_times)
    print(f"## Codex ({time.strftime('%Y-%m-%d')}, `bench/codex.py --mb {args.mb} --runs {args.runs}`)\n")
    print(f"One rollout of {rollout_bytes / 1e6:.0f} MB ({turns:,} turns by the end). "
          f"`/bin/true` median {true_median * 1000:.2f} ms.\n")
    print("| event | median ms | p95 ms | median / `/bin/true` | peak RSS MiB |")
    print("|---|---|---|---|---|")
    for event, times, rss in rows:
        times.sort()
        med = statistics.median(times)
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"| {event} | {med * 1000:.2f} | {p95 * 1000:.2f} | {med / true_median:.1f}× | {rss / 1024:.1f} |")
    runs = ", ".join(f"{t:.2f}" for t in sorted(import_times))
    best = statistics.median(import_times)
    print(f"\nImport (`import --host codex --no-index`, fresh home each run): median {best:.2f} s, "
          f"**{rollout_bytes / 1e6 / best:.0f} MB/s** (runs: {runs} s).")
    if problems:
        print(f"\nLog lines during the run:\n```\n{problems[-2000:]}\n```")
    if not args.keep:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
