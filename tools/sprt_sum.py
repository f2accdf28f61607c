#!/usr/bin/env python3
"""One SPRT spread over several match.py runs: a clocked SPRT at 8+0.08 plays about 300 games an
hour on two cores, so one that needs 1,000-2,000 games outlives a session. Each session plays a
run of its own with a new `--seed` (new openings) and the same engines, bounds and conditions;
this tool adds the runs' game pairs (pentanomial counts: each pair is independent of the others,
so the sum is the sample one long run would have had) and computes the Elo and the LLR of the
sum with match.py's own statistics, which then decides as the run itself would:

    python3 tools/sprt_sum.py --elo0 0 --elo1 5 run1.log run2.log.xz [--penta 6,64,177,84,7]

A log is match.py's output (plain or .xz); its last `Games N/M: W-L-D ... Penta [...]` line
counts. `--penta LL,LD,DD+WL,WD,WW` adds a run known only by its counts (a table row).
`--check` tests the tool on the logs kept in docs/games and exits.
"""
import argparse
import importlib.util
import lzma
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MATCH = ROOT.parent / "shared" / "tools" / "match.py"
LINE = re.compile(
    r"Games (\d+)/\d+: (\d+)-(\d+)-(\d+) .*Penta \[(\d+), (\d+), (\d+), (\d+), (\d+)\]\s+LLR (-?[\d.]+)"
)


def load_match(path):
    spec = importlib.util.spec_from_file_location("match", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["match"] = module   # its dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def read_log(path):
    """(games, [W, L, D], penta, LLR as printed) of a log's last progress line."""
    path = pathlib.Path(path)
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", errors="replace") as f:
        last = None
        for line in f:
            m = LINE.search(line)
            if m:
                last = m
    if last is None:
        raise SystemExit(f"error: {path}: no 'Games N/M: W-L-D ... Penta [...]' line")
    g = [int(x) for x in last.groups()[:9]]
    return g[0], g[1:4], g[4:9], float(last.group(10))


def parse_penta(text):
    counts = [int(x) for x in text.split(",")]
    if len(counts) != 5 or min(counts) < 0:
        raise SystemExit(f"error: --penta {text}: five counts LL,LD,DD+WL,WD,WW")
    return counts


def summary(match, penta, elo0, elo1):
    elo, err, _ = match.elo_stats(penta)
    llr, verdict = match.Sprt(elo0, elo1).test(penta)
    lo, hi = match.Sprt(elo0, elo1).bounds()
    return elo, err, llr, verdict, (lo, hi)


def add(runs):
    """The runs' pentanomial counts and W-L-D added (W-L-D None if a run gave counts only)."""
    total, wld = [0] * 5, [0, 0, 0]
    for _, _, w_l_d, penta, _ in runs:
        total = [a + b for a, b in zip(total, penta)]
        wld = [a + b for a, b in zip(wld, w_l_d)] if wld and w_l_d else None
    return total, wld


def check(match):
    """The sum of one run is that run (match.py's printed LLR), and the counts add."""
    log = ROOT / "docs" / "games" / "2026-12-02-time-by-move-sprt.log.xz"
    games, wld, penta, printed = read_log(log)
    assert (games, wld, penta) == (676, [140, 118, 418], [6, 64, 177, 84, 7]), (games, wld, penta)
    _, _, llr, _, _ = summary(match, penta, 0, 5)
    assert abs(llr - printed) < 0.006, (llr, printed)
    run = (log, games, wld, penta, printed)
    doubled, wld2 = add([run, run])
    assert doubled == [2 * c for c in penta] and wld2 == [2 * x for x in wld], (doubled, wld2)
    assert add([run, ("--penta", 2, None, [0, 0, 1, 0, 0], None)]) == ([6, 64, 178, 84, 7], None)
    _, _, llr2, _, _ = summary(match, doubled, 0, 5)
    assert abs(llr2 - 2 * llr) < 0.02, (llr2, llr)   # twice the sample, twice the LLR
    print("sprt_sum: check passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="*")
    ap.add_argument("--penta", action="append", default=[], help="LL,LD,DD+WL,WD,WW")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--match", default=str(MATCH), help="match.py (its statistics)")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    match = load_match(args.match)
    if args.check:
        return check(match)
    runs = [(log, *read_log(log)) for log in args.logs]
    for text in args.penta:
        counts = parse_penta(text)
        runs.append((f"--penta {text}", 2 * sum(counts), None, counts, None))
    if not runs:
        raise SystemExit("error: give match.py logs or --penta counts")
    for name, games, w_l_d, penta, _ in runs:
        print(f"{name}: {games} games, penta {penta}" + (f", {w_l_d[0]}-{w_l_d[1]}-{w_l_d[2]}" if w_l_d else ""))
    total, wld = add(runs)
    elo, err, llr, verdict, (lo, hi) = summary(match, total, args.elo0, args.elo1)
    print(
        f"sum: {2 * sum(total)} games"
        + (f", {wld[0]}-{wld[1]}-{wld[2]}" if wld else "")
        + f", Elo {elo:+.1f} +/- {err:.1f}, penta {total}, LLR {llr:.2f} ({lo:.2f}, {hi:.2f})"
        + f" [{args.elo0:g}, {args.elo1:g}]: {verdict or 'go on'}"
    )


if __name__ == "__main__":
    sys.exit(main())
