#!/usr/bin/env python3
"""Capture benchmark: hook call cost per event kind against a large store, ingest
throughput, and store size per MB of transcript.

    bench/capture.py [--turns 100000] [--runs 300] [--keep] [--bin PATH] [--base OTHER_BIN]

Builds the CLI as installed (scripts/build-cli), writes synthetic transcripts
(bench/synth.py), imports them (timed: throughput), then times whole `throughline hook
claude` processes per event kind, each preceded (untimed) by a realistic append to the
session's transcript, interleaved with spawns of /bin/true so the ratio holds on a noisy
machine. Peak memory is the child's max RSS from wait4. Prints a Markdown report.
With --base, every timed call of this build is paired with one of OTHER_BIN on the same store
(each after its own append, in alternating order), and the report adds their ratio.
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
BIN = None  # set by build_cli()


def build_cli():
    """Builds the CLI as it is installed (scripts/build-cli) and returns its path."""
    out = subprocess.run([os.path.join(ROOT, "scripts", "build-cli")], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return out.strip().splitlines()[-1]


def synthetic_corpus(name, turns, output_bytes=None):
    """A fresh bench/out/<name>: synthetic transcripts of `turns` turns, 100 a session
    (bench/synth.py), and an empty home for the store. Returns (out, corpus, home, env)."""
    out = os.path.join(ROOT, "bench", "out", name)
    shutil.rmtree(out, ignore_errors=True)
    corpus, home = os.path.join(out, "projects"), os.path.join(out, "home")
    argv = [sys.executable, os.path.join(ROOT, "bench", "synth.py"), corpus,
            "--sessions", str(max(1, turns // 100)), "--turns", "100"]
    if output_bytes:
        argv += ["--output-bytes", str(output_bytes)]
    subprocess.run(argv, check=True)
    # The corpus is Claude Code's projects folder: a hook reads transcripts only there.
    env = dict(os.environ, THROUGHLINE_HOME=home, CLAUDE_CONFIG_DIR=out)
    env.pop("THROUGHLINE_GUARD", None)
    return out, corpus, home, env


def first_transcript(corpus):
    """The first session of project 0: the one a benchmark keeps sending events for."""
    project = os.path.join(corpus, "-bench-project-0")
    return os.path.join(project, sorted(os.listdir(project))[0])


FIXTURE = os.path.join(ROOT, "hook-cli", "tests", "fixtures", "claude-2.1.197", "hooks")


def spawn(argv, stdin_path, env, cpu=None):
    """Runs argv with stdin from a file; returns seconds. Appends the child's CPU seconds
    (user + system, which other load on the machine disturbs less) to `cpu` if given."""
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, stdin.fileno(), 0),
            (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
        ])
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv} exited with {status}")
    return elapsed


def peak_rss_kib(argv, stdin_path, env):
    """Max RSS of one run, from GNU time (wait4 from Python would count the parent's pages)."""
    report = stdin_path + ".rss"
    spawn(["/usr/bin/time", "-f", "%M", "-o", report] + argv, stdin_path, env)
    with open(report) as f:
        return int(f.read().split()[-1])


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def appended_line(event, session_id, i):
    """What the host would have written to the transcript before this event fires."""
    base = {"parentUuid": None, "isSidechain": False, "uuid": f"bench-{event}-{i}",
            "timestamp": "2026-11-30T10:00:00.000Z", "cwd": "/bench/project-0", "sessionId": session_id}
    if event == "UserPromptSubmit":
        base.update(type="user", message={"role": "user", "content": f"Benchmark prompt {i}: run the tests."})
    elif event == "PreToolUse":
        base.update(type="assistant", message={"id": f"msg_bench_{i}", "role": "assistant", "model": "claude-opus-4-8",
                    "content": [{"type": "tool_use", "id": f"toolu_bench_{i}", "name": "Bash", "input": {"command": "cargo test"}}],
                    "usage": {"input_tokens": 90000, "output_tokens": 40}})
    elif event == "PostToolUse":
        base.update(type="user", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_bench_{i}", "content": "test result: ok. 212 passed\n" * 150}]})
    elif event == "Stop":
        base.update(type="assistant", message={"id": f"msg_bench_stop_{i}", "role": "assistant", "model": "claude-opus-4-8",
                    "content": [{"type": "text", "text": "All 212 tests pass; the parser change is done."}],
                    "usage": {"input_tokens": 91000, "output_tokens": 60}})
    else:
        base.update(type="system", subtype="turn_duration", durationMs=1200)
    return json.dumps(base) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--keep", action="store_true", help="keep bench/out for inspection")
    ap.add_argument("--bin", help="time this build instead of building the CLI (an A/B of two builds)")
    ap.add_argument("--base", help="another build of throughline, timed alternately with this one")
    args = ap.parse_args()

    global BIN
    BIN = args.bin or build_cli()
    out, corpus, home, env = synthetic_corpus("capture", args.turns, output_bytes=800)
    transcript_bytes = dir_bytes(corpus)
    # Ingest alone; the search index is built after, and timed apart.
    start = time.perf_counter()
    subprocess.run([BIN, "import", "--from", corpus, "--no-index", "--json"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    import_s = time.perf_counter() - start
    db_bytes = dir_bytes(home)
    start = time.perf_counter()
    subprocess.run([BIN, "search", "--all", "benchmark"], env=env, stdout=subprocess.DEVNULL)
    index_s = time.perf_counter() - start
    indexed_bytes = dir_bytes(home)
    status = json.loads(subprocess.run([BIN, "status", "--json"], env=env, check=True,
                                       capture_output=True).stdout)

    # One session of the big store keeps receiving events.
    transcript = first_transcript(corpus)
    session_id = os.path.basename(transcript)[:-len(".jsonl")]
    payload_dir = os.path.join(out, "payloads")
    os.makedirs(payload_dir)
    events = {"SessionStart": "01-SessionStart.json", "UserPromptSubmit": "02-UserPromptSubmit.json",
              "PreToolUse": "03-PreToolUse.json", "PostToolUse": "04-PostToolUse.json",
              "Stop": "05-Stop.json", "SessionEnd": "28-SessionEnd.json"}
    payloads = {}
    for event, name in events.items():
        with open(os.path.join(FIXTURE, name)) as f:
            p = json.load(f)
        p.update(session_id=session_id, transcript_path=transcript, cwd="/bench/project-0")
        payloads[event] = os.path.join(payload_dir, name)
        with open(payloads[event], "w") as f:
            json.dump(p, f)

    def timed_call(binary, event, payload, line, cpu):
        with open(transcript, "a") as f:
            f.write(appended_line(event, session_id, line))
        return spawn([binary, "hook", "claude"], payload, env, cpu)

    rows = []
    true_times = []
    for event, payload in payloads.items():
        hook_times, base_times, hook_cpu, base_cpu = [], [], [], []
        for i in range(args.runs):
            true_times.append(spawn(["/bin/true"], payload, env))
            if args.base and i % 2:
                base_times.append(timed_call(args.base, event, payload, 2 * i, base_cpu))
            hook_times.append(timed_call(BIN, event, payload, 2 * i + 1, hook_cpu))
            if args.base and not i % 2:
                base_times.append(timed_call(args.base, event, payload, 2 * i, base_cpu))
        with open(transcript, "a") as f:
            f.write(appended_line(event, session_id, 2 * args.runs))
        paired = (statistics.median(hook_times) / statistics.median(base_times),
                  statistics.median(hook_cpu) / statistics.median(base_cpu)) if args.base else None
        rows.append((event, hook_times, paired,
                     peak_rss_kib([BIN, "hook", "claude"], payload, env)))

    true_median = statistics.median(true_times)
    log = os.path.join(home, "throughline.log")
    problems = open(log).read() if os.path.exists(log) else ""
    base_flag = " --base BASE" if args.base else ""
    print(f"## Capture benchmark ({time.strftime('%Y-%m-%d')}, `bench/capture.py --turns {args.turns} --runs {args.runs}{base_flag}`)\n")
    print(f"Store: {status['store']['turns']:,} turns in {status['store']['sessions']:,} sessions, "
          f"{db_bytes / 2**20:.0f} MiB. `/bin/true` median {true_median * 1000:.2f} ms.\n")
    against_base = " median / base | CPU / base |" if args.base else ""
    print(f"| event | median ms | p95 ms | median / `/bin/true` |{against_base} peak RSS MiB |")
    print("|---|---|---|---|" + ("---|---|" if args.base else "") + "---|")
    for event, times, paired, rss in rows:
        times.sort()
        med = statistics.median(times)
        p95 = times[int(len(times) * 0.95) - 1]
        ratios = f" {paired[0]:.2f}× | {paired[1]:.2f}× |" if paired else ""
        print(f"| {event} | {med * 1000:.2f} | {p95 * 1000:.2f} | {med / true_median:.1f}× |{ratios} {rss / 1024:.1f} |")
    print(f"\nIngest (`import --no-index` of {transcript_bytes / 2**20:.0f} MiB of transcripts): "
          f"{import_s:.1f} s, **{transcript_bytes / 2**20 / import_s:.0f} MiB/s**. Store size: "
          f"{db_bytes / transcript_bytes:.2f} MiB per MiB of transcript.")
    print(f"Search index built by the first search afterwards: {index_s:.1f} s "
          f"({transcript_bytes / 2**20 / index_s:.0f} MiB/s of transcript); with it the store takes "
          f"{indexed_bytes / transcript_bytes:.2f} MiB per MiB of transcript.")
    if problems:
        print(f"\nThe hook logged problems:\n```\n{problems}```")
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
