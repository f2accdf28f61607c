#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""eval_scale.py - the net's centipawns against the classical evaluation's.

The search's margins (futility, reverse futility, probcut, delta pruning, aspiration windows) were
tuned in the classical evaluation's centipawns; the net was trained to the same scale (its target is
sigmoid(score / K) with the classical search scores), and this measures how well it kept it: the
static evaluations of both on the same positions (every 7th position of `cutoff datagen --dump` of a
chunk, ply >= 16, stored |score| <= 2000; both |eval| <= 1000 for the statistics), read from the
engine's `eval` command. Prints the least-squares slope of net on classical (through the origin),
their mean absolute values and spreads, and their correlation.

    python3 tools/eval_scale.py target/release/cutoff data/selfplay-2266636-s5015.vf 5000
"""
import subprocess, sys, statistics
engine, chunk, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
dump = subprocess.run([engine, "datagen", "--dump", chunk], capture_output=True, text=True).stdout
fens = []
for i, line in enumerate(dump.splitlines()):
    p = [x.strip() for x in line.split("|")]
    if len(p) < 4 or i % 7: continue
    if int(p[3].split()[3]) < 16 or abs(int(p[1])) > 2000: continue
    fens.append(p[0])
    if len(fens) >= n: break
cmds = "".join(f"position fen {f}\neval\n" for f in fens) + "quit\n"
out = subprocess.run([engine], input=cmds, capture_output=True, text=True).stdout
cl = [int(l.split("), ")[1].split()[0]) for l in out.splitlines() if l.startswith("Final evaluation:")]
nt = [int(l.split("), ")[1].split()[0]) for l in out.splitlines() if l.startswith("Net evaluation")]
assert len(cl) == len(nt) == len(fens), (len(cl), len(nt), len(fens))
pairs = [(c, x) for c, x in zip(cl, nt) if abs(c) <= 1000 and abs(x) <= 1000]
slope = sum(c * x for c, x in pairs) / sum(c * c for c, x in pairs)
print(f"{len(fens)} positions, {len(pairs)} with both |eval| <= 1000")
print(f"slope net/classical {slope:.3f}; mean |classical| {statistics.mean(abs(c) for c, _ in pairs):.1f} cp, "
      f"mean |net| {statistics.mean(abs(x) for _, x in pairs):.1f} cp; "
      f"sd classical {statistics.pstdev(c for c, _ in pairs):.1f}, sd net {statistics.pstdev(x for _, x in pairs):.1f}; "
      f"correlation {statistics.correlation([c for c, _ in pairs], [x for _, x in pairs]):.3f}")
