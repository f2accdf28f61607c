#!/usr/bin/env python3
"""Nodes per second of UCI engines side by side: `go movetime MS` on the same positions,
each engine in turn, one thread, Hash 16. The nps is the engine's own last `info ... nps`.

    python3 tools/nps.py --engine cutoff=target/release/cutoff \
        --engine glaurung=/usr/games/glaurung --engine toga=/usr/games/toga2 --rounds 2

Run it on an idle machine: the engines take turns, so each sees the same load. `--option
NAME:OPTION=VALUE` sends a UCI option to one engine (the same binary with another evaluation):

    python3 tools/nps.py --engine classical=target/release/cutoff \
        --engine net=target/release/cutoff --option net:Evaluation=net
"""
import argparse
import statistics
import subprocess
import sys

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "middlegame1": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "middlegame2": "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
}

THREAD_OPTIONS = ["Threads", "Number of Threads"]


def measure(cmd, fen, movetime, extra=()):
    p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        for line in p.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"{cmd}: no {prefix}")

    send("uci")
    options = until("uciok")
    for o in THREAD_OPTIONS:
        if any(f"name {o} type" in line for line in options):
            send(f"setoption name {o} value 1")
    send("setoption name Hash value 16")
    for name, value in extra:
        send(f"setoption name {name} value {value}")
    if any("name OwnBook" in line for line in options):
        send("setoption name OwnBook value false")
    send("isready")
    until("readyok")
    send("ucinewgame")
    send(f"position fen {fen}")
    send("isready")
    until("readyok")
    send(f"go movetime {movetime}")
    lines = until("bestmove")
    send("quit")
    p.wait(timeout=10)
    nps = depth = None
    for line in lines:
        words = line.split()
        if words[:1] == ["info"]:
            if "nps" in words:
                nps = int(words[words.index("nps") + 1])
            if "depth" in words:
                depth = int(words[words.index("depth") + 1])
    return nps, depth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", required=True, help="name=command")
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="name:Option=Value (repeatable)")
    args = ap.parse_args()
    engines = [e.split("=", 1) for e in args.engine]
    extra = {n: [] for n, _ in engines}
    for o in args.option:
        name, setting = o.split(":", 1)
        if name not in extra or "=" not in setting:
            sys.exit(f"--option {o}: want ENGINE:Option=Value with ENGINE one of {list(extra)}")
        extra[name].append(tuple(setting.split("=", 1)))
    results = {(n, pos): [] for n, _ in engines for pos in POSITIONS}
    for r in range(args.rounds):
        for pos, fen in POSITIONS.items():
            for name, cmd in engines:
                nps, depth = measure(cmd, fen, args.movetime, extra[name])
                results[(name, pos)].append(nps)
                print(f"round {r + 1} {pos:12} {name:10} nps {nps:>9} depth {depth}", file=sys.stderr)
    base = engines[0][0]
    print(f"| position | " + " | ".join(n for n, _ in engines) + " | " +
          " | ".join(f"{base}/{n}" for n, _ in engines[1:]) + " |")
    print("|---" * (2 * len(engines)) + "|")
    ratios = {n: [] for n, _ in engines[1:]}
    for pos in POSITIONS:
        med = {n: statistics.median(results[(n, pos)]) for n, _ in engines}
        row = [f"{med[n] / 1e6:.2f} M" for n, _ in engines]
        for n, _ in engines[1:]:
            ratios[n].append(med[base] / med[n])
        print(f"| {pos} | " + " | ".join(row) + " | " +
              " | ".join(f"{ratios[n][-1]:.2f}" for n, _ in engines[1:]) + " |")
    for n, rs in ratios.items():
        total_base = sum(statistics.median(results[(base, p)]) for p in POSITIONS)
        total_n = sum(statistics.median(results[(n, p)]) for p in POSITIONS)
        print(f"{base}/{n}: mean over positions {total_base / total_n:.3f}x")


if __name__ == "__main__":
    main()
