#!/usr/bin/env python3
"""How fully each engine of a match spends its clock, from match.py's PGN.

match.py writes every move's comment as `score/depth 0.123s` (the time the move took). From a
`--tc base+inc` game the clocks follow: each move takes its time off its side's clock and adds
the increment. Per engine this prints the average time a move, the average over games of the
lowest clock it reached, and its clock after ply 80 (median, games that got that far): the
three numbers issue 38 compares with Ethereal's. A second line per engine counts the instant
answers (under 50 ms: a single legal move, a proven mate) and gives the average of the other
moves, and the clock left when the games ended: an engine that answers forced moves at once
spends less a move on average without keeping more of its clock.

    python3 tools/clock_use.py --tc 10+0.1 games.pgn [more.pgn ...]
"""
import argparse
import collections
import re
import statistics
import sys

import chess.pgn

TIME = re.compile(r"(\d+\.\d+)s")
# A move answered faster than this was not thought about: one legal move, a proven mate.
INSTANT = 0.05


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tc", required=True, help="base+inc in seconds, as given to match.py")
    ap.add_argument("--ply", type=int, default=80, help="report the clock after this ply")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args(argv)
    base, _, inc = args.tc.partition("+")
    base, inc = float(base), float(inc or 0)

    # engine -> its lists
    per = collections.defaultdict(lambda: {"times": [], "lowest": [], "at": [], "end": []})
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                names = {True: game.headers["White"], False: game.headers["Black"]}
                clock = {True: base, False: base}
                lowest = {True: base, False: base}
                at_ply = {}
                board = game.board()
                for ply, node in enumerate(game.mainline(), start=1):
                    side = board.turn
                    board.push(node.move)
                    m = TIME.search(node.comment or "")
                    if node.comment.startswith("book") or not m:
                        continue
                    spent = float(m.group(1))
                    s = per[names[side]]
                    s["times"].append(spent)
                    clock[side] = clock[side] - spent
                    lowest[side] = min(lowest[side], clock[side])
                    clock[side] += inc
                    if ply <= args.ply:
                        at_ply[side] = (ply, clock[side])
                for side in (True, False):
                    s = per[names[side]]
                    s["lowest"].append(lowest[side])
                    s["end"].append(clock[side])
                    if board.ply() >= args.ply and side in at_ply:
                        s["at"].append(at_ply[side][1])
    for name, s in per.items():
        if not s["times"]:
            continue
        at = f"{statistics.median(s['at']):.2f} s in {len(s['at'])} games" if s["at"] else "no game"
        print(f"{name}: {len(s['times'])} moves, {statistics.mean(s['times']):.3f} s a move; "
              f"lowest clock {statistics.mean(s['lowest']):.2f} s on average over "
              f"{len(s['lowest'])} games (least {min(s['lowest']):.3f} s); "
              f"clock after ply {args.ply}: {at}")
        instant = [t for t in s["times"] if t < INSTANT]
        others = [t for t in s["times"] if t >= INSTANT]
        rest = f"{statistics.mean(others):.3f} s a move" if others else "none"
        print(f"{name}: {len(instant)} moves answered in under {INSTANT * 1000:.0f} ms, the "
              f"others {rest}; clock left at the games' end {statistics.mean(s['end']):.2f} s "
              f"on average")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
