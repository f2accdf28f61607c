#!/usr/bin/env python3
"""docs/cutstats.py BINARY DEPTH: search every `cutoff bench` position to DEPTH over UCI (a new game
and a 16 MB table each) and add up the engine's own `info string stats` lines: nodes, beta cutoffs,
the share of cutoffs made by the first move searched, the effective branching factor and nps.

It talks UCI rather than calling `cutoff bench` so that old builds can be measured the same way.
The effective branching factor is computed here, as the geometric mean over the positions of
nodes^(1/depth), because older builds printed a different `ebf`. Run from the repository root:
    python3 docs/cutstats.py target/release/cutoff 7
"""
import math
import os
import re
import subprocess
import sys

binary, depth = sys.argv[1], int(sys.argv[2])
src = open(os.path.join(os.path.dirname(__file__), '..', 'src', 'bench.rs')).read()
block = src.split('pub const POSITIONS')[1].split('];')[0]
fens = re.findall(r'"([^"]+)"', block)
assert len(fens) == 50, len(fens)
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + '\n'); p.stdin.flush()
send('uci'); send('setoption name Hash value 16')
tot = dict(nodes=0, cut=0, first=0.0, secs=0.0); ebfs = []
for fen in fens:
    send('ucinewgame'); send('position fen ' + fen); send(f'go depth {depth}')
    stats = None
    for line in p.stdout:
        if line.startswith('info string stats'): stats = line
        if line.startswith('bestmove'): break
    kv = dict(re.findall(r'(\w+)=([\d.]+)', stats))
    n = int(kv['nodes']); c = int(kv['cutoffs']); f = float(kv['firstmovecutoffs'])
    tot['nodes'] += n; tot['cut'] += c; tot['first'] += c * f / 100; tot['secs'] += n / max(float(kv['nps']), 1)
    ebfs.append(n ** (1.0 / depth))
send('quit'); p.wait()
geo = math.exp(sum(map(math.log, ebfs)) / len(ebfs)) if ebfs else float('nan')
print(f"{binary} depth {depth}: nodes {tot['nodes']} cutoffs {tot['cut']} first-move {100*tot['first']/max(tot['cut'],1):.1f}% "
      f"ebf(geomean of nodes^(1/d)) {geo:.2f} nps {tot['nodes']/tot['secs']:.0f} search-time {tot['secs']:.1f}s")
