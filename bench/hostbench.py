"""Hook cost on one large transcript, for a host other than Claude Code: whole `throughline hook
<host>` processes per event kind against /bin/true, and the import of the transcript.

Used by bench/codex.py and bench/gemini.py, which say what the host's transcript and payloads
look like.
"""
import json
import os
import shutil
import statistics
import subprocess
import time

from capture import build_cli, peak_rss_kib, spawn  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(host, label, command, args, transcript, head, turn_lines, import_from, payloads, out, host_env):
    """Writes `head` then turns of `turn_lines(i)` (event -> lines, in order) to `transcript`
    up to `args.mb` MB, imports `import_from` three times, then times each hook of `payloads`
    (event -> (payload file's fields, name)) `args.runs` times, each preceded (untimed) by the
    lines the host appends before that event. `host_env` names the host's folder, where a hook
    reads transcripts. Prints a Markdown report."""
    binary = build_cli()
    size, i = 0, 0
    with open(transcript, "w") as f:
        f.write(head)
        while size < args.mb * 10**6:
            for lines in turn_lines(i).values():
                for text in lines:
                    f.write(text)
                    size += len(text)
            i += 1
    turns = i
    transcript_bytes = os.path.getsize(transcript)

    import_times = []
    for n in range(3):
        env = dict(os.environ, THROUGHLINE_HOME=os.path.join(out, f"home-{n}"), **host_env)
        env.pop("THROUGHLINE_GUARD", None)
        start = time.perf_counter()
        subprocess.run([binary, "import", "--host", host, "--from", import_from, "--no-index", "--json"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        import_times.append(time.perf_counter() - start)

    # The hooks go on in the imported session of the first home.
    env = dict(os.environ, THROUGHLINE_HOME=os.path.join(out, "home-0"), **host_env)
    env.pop("THROUGHLINE_GUARD", None)
    files = {}
    for event, (fields, name) in payloads.items():
        files[event] = os.path.join(out, name)
        with open(files[event], "w") as f:
            json.dump(dict(fields, transcript_path=transcript), f)
    true_times, rows = [], []
    hook = [binary, "hook", host]
    last = list(payloads)[-1]
    for event, payload in files.items():
        hook_times = []
        for _ in range(args.runs):
            with open(transcript, "a") as f:
                f.writelines(turn_lines(turns).get(event, []))
            turns += event == last
            true_times.append(spawn(["/bin/true"], payload, env))
            hook_times.append(spawn(hook, payload, env))
        rows.append((event, hook_times, peak_rss_kib(hook, payload, env)))
    log = os.path.join(out, "home-0", "throughline.log")
    problems = open(log).read() if os.path.exists(log) else ""

    true_median = statistics.median(true_times)
    print(f"## {label} ({time.strftime('%Y-%m-%d')}, `{command} --mb {args.mb} --runs {args.runs}`)\n")
    print(f"One transcript of {transcript_bytes / 1e6:.0f} MB ({turns:,} turns by the end). "
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
    print(f"\nImport (`import --host {host} --no-index`, fresh home each run): median {best:.2f} s, "
          f"**{transcript_bytes / 1e6 / best:.0f} MB/s** (runs: {runs} s).")
    if problems:
        print(f"\nLog lines during the run:\n```\n{problems[-2000:]}\n```")
    if not args.keep:
        shutil.rmtree(out)
