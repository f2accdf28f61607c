#!/usr/bin/env python3
"""Lazy SMP scaling: `cutoff bench DEPTH --threads N --hash MB` for every thread count and table
size, several runs each, then a Markdown table of the medians (docs/tools.md, "Lazy SMP").

Meant for a machine with at least as many idle cores as the largest thread count (the lent
16-core machine: build here, carry the binary). Python 3 standard library only.

    python3 tools/smp_scale.py --engine target/release/cutoff --depth 13 \\
        --threads 1 2 4 8 16 --hash 16 256 --runs 3 --out results.csv

Time to depth is bench's `Time:` line, which includes clearing the table before each of the 50
positions (about 1.5 s in all for 256 MiB on the 2-core machine): compare sizes by nps, and time
to depth within one size.
"""

import argparse
import csv
import re
import statistics
import subprocess
import sys


def bench(engine, depth, threads, hash_mb):
    out = subprocess.run(
        [engine, "bench", str(depth), "--threads", str(threads), "--hash", str(hash_mb)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    time_ms = int(re.search(r"^Time: (\d+) ms", out, re.M).group(1))
    nodes, nps = map(int, re.search(r"^Bench: (\d+) nodes (\d+) nps", out, re.M).groups())
    return time_ms, nodes, nps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 256])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", help="CSV of every run (written as it goes)")
    args = ap.parse_args()

    rows = []
    sink = open(args.out, "w", newline="") if args.out else None
    writer = csv.writer(sink) if sink else None
    if writer:
        writer.writerow(["hash_mb", "threads", "run", "time_ms", "nodes", "nps"])
    # Runs interleave thread counts, so that a drift in the machine's speed spreads over all.
    for hash_mb in args.hash:
        for run in range(1, args.runs + 1):
            for threads in args.threads:
                time_ms, nodes, nps = bench(args.engine, args.depth, threads, hash_mb)
                rows.append((hash_mb, threads, run, time_ms, nodes, nps))
                print(f"hash {hash_mb} threads {threads} run {run}: {time_ms} ms, "
                      f"{nodes} nodes, {nps} nps", file=sys.stderr, flush=True)
                if writer:
                    writer.writerow(rows[-1])
                    sink.flush()

    print(f"| Hash | threads | time to depth {args.depth} (median) | speed-up | nodes (median) "
          f"| nps (median) | nps ratio |")
    print("|---|---|---|---|---|---|---|")
    for hash_mb in args.hash:
        base = None
        for threads in args.threads:
            mine = [r for r in rows if r[0] == hash_mb and r[1] == threads]
            t = statistics.median(r[3] for r in mine)
            n = statistics.median(r[4] for r in mine)
            nps = statistics.median(r[5] for r in mine)
            if base is None:
                base = (t, nps)
            print(f"| {hash_mb} | {threads} | {t:,.0f} ms | {base[0] / t:.2f} | {n:,.0f} "
                  f"| {nps:,.0f} | {nps / base[1]:.2f} |")


if __name__ == "__main__":
    main()
