#!/usr/bin/env python3
"""CPU cost of two builds side by side: user + system seconds (from wait4) of one
`import --no-index` each, then of whole `throughline hook claude` calls on a payload,
alternated, each build on its own store, and of `/bin/true` and `--version` for reference.
CPU time, unlike wall time, holds on a machine other work keeps busy.

    bench/cpu_ab.py BASE_BIN NEW_BIN CORPUS PAYLOAD [--runs 150]

CORPUS is a projects folder (e.g. bench/out/capture/projects from `bench/capture.py --keep`),
PAYLOAD a hook payload whose transcript is in it (bench/out/capture/payloads/...).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile


def cpu(argv, env, stdin=b""):
    """CPU seconds and minor page faults of one process."""
    p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    p.stdin.write(stdin)
    p.stdin.close()
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, ru.ru_minflt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("corpus")
    ap.add_argument("payload")
    ap.add_argument("--runs", type=int, default=150)
    args = ap.parse_args()
    payload = open(args.payload, "rb").read()
    scratch = tempfile.mkdtemp()
    builds = {"base": args.base, "new": args.new}
    envs = {}
    for name, binary in builds.items():
        # CORPUS is Claude Code's projects folder: a hook reads transcripts only there.
        env = dict(os.environ, THROUGHLINE_HOME=os.path.join(scratch, name),
                   CLAUDE_CONFIG_DIR=os.path.dirname(os.path.abspath(args.corpus)))
        env.pop("THROUGHLINE_GUARD", None)
        seconds, _ = cpu([binary, "import", "--from", args.corpus, "--no-index", "--json"], env)
        print(f"import {name}: {seconds:.2f} CPU s")
        envs[name] = env
    hooks = {name: [] for name in builds}
    starts = {name: [] for name in builds}
    true = []
    for i in range(args.runs):
        order = list(builds) if i % 2 == 0 else list(builds)[::-1]
        for name in order:
            hooks[name].append(cpu([builds[name], "hook", "claude"], envs[name], payload))
            starts[name].append(cpu([builds[name], "--version"], envs[name]))
        true.append(cpu(["/bin/true"], os.environ))
    median = lambda xs, i: statistics.median(x[i] for x in xs)
    ref = median(true, 0)
    print(f"/bin/true: {ref * 1000:.2f} ms CPU")
    for name in builds:
        h, s = hooks[name], starts[name]
        print(f"{name}: hook {median(h, 0) * 1000:.2f} ms CPU ({median(h, 0) / ref:.1f}x /bin/true), "
              f"{median(h, 1):.0f} faults; --version {median(s, 0) * 1000:.2f} ms, {median(s, 1):.0f} faults")
    shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
