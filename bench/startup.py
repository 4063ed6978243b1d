#!/usr/bin/env python3
"""What starting the CLI costs a hook, for two builds: `throughline hook claude` with
THROUGHLINE_GUARD set returns before reading anything, so its time is the process start
alone (loading, relocation, the runtime's start-up) — where a larger binary would show.

    bench/startup.py NEW_BIN BASE_BIN [--runs 1000]

Calls of the two builds and of /bin/true are interleaved, in rotating order, each on an
empty stdin. Reports medians of wall time and of CPU time (user + system, from wait4), and
each build's ratio to /bin/true and NEW to BASE. Prints Markdown.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from capture import spawn  # noqa: E402


def timed(argv, env):
    """Wall and CPU milliseconds of one call (posix_spawn, as capture.py times hooks)."""
    cpu = []
    wall = spawn(argv, os.devnull, env, cpu)
    return wall * 1000, cpu[0] * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("new")
    ap.add_argument("base")
    ap.add_argument("--runs", type=int, default=1000)
    args = ap.parse_args()
    env = dict(os.environ, THROUGHLINE_GUARD="1", THROUGHLINE_HOME="/nonexistent")
    builds = {"new": [args.new, "hook", "claude"], "base": [args.base, "hook", "claude"],
              "/bin/true": ["/bin/true"]}
    samples = {name: ([], []) for name in builds}
    names = list(builds)
    for i in range(args.runs):
        for name in names[i % 3:] + names[:i % 3]:
            wall, cpu = timed(builds[name], env)
            samples[name][0].append(wall)
            samples[name][1].append(cpu)
    med = {name: (statistics.median(w), statistics.median(c)) for name, (w, c) in samples.items()}
    true_wall = med["/bin/true"][0]
    print(f"{args.runs} calls each, interleaved; `/bin/true` median {true_wall:.3f} ms.\n")
    print("| build | size MiB | median ms | CPU ms | median / `/bin/true` |")
    print("|---|---|---|---|---|")
    print(f"| `/bin/true` | - | {true_wall:.3f} | {med['/bin/true'][1]:.3f} | 1.00× |")
    for name in ("base", "new"):
        size = os.path.getsize(builds[name][0]) / 2**20
        wall, cpu = med[name]
        print(f"| {name} | {size:.1f} | {wall:.3f} | {cpu:.3f} | {wall / true_wall:.2f}× |")
    print(f"\nnew / base: median {med['new'][0] / med['base'][0]:.3f}×, "
          f"CPU {med['new'][1] / max(med['base'][1], 1e-9):.3f}×")


if __name__ == "__main__":
    main()
