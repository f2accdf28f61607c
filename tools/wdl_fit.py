#!/usr/bin/env python3
"""Fit Cutoff's win/draw/loss model to its own self-play games (UCI_ShowWDL).

The model is Stockfish's: from the side to move's view, with v the search score in centipawns
and m the material on the board (pawn 1, knight and bishop 3, rook 5, queen 9, clamped to
17..78, divided by 58),

    win  = 1 / (1 + exp((a(m) - v) / b(m)))
    loss = 1 / (1 + exp((a(m) + v) / b(m)))
    draw = 1 - win - loss

with a and b cubic polynomials in m. The eight coefficients are fitted by maximum likelihood
(Adam on the mean negative log-likelihood of each position's game result) on the positions of
`cutoff datagen --dump` (every searched position of each game; mate scores and |v| > 2000 left
out, and the first 16 plies of each game, which are random openings), with one game in ten held
out by game to measure how well the model predicts games it has not seen.

    pip install numpy
    python3 tools/wdl_fit.py --engine target/release/cutoff data ../shared/data/selfplay-2266636-s3001.bin

prints the coefficients as Rust source for src/eval/wdl.rs and the held-out log-loss and Brier
score against a baseline that ignores the score.
"""

import argparse
import subprocess
import sys
import zlib

import numpy as np

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}


def material(fen_board):
    return sum(VALUES.get(c.lower(), 0) for c in fen_board if c.isalpha())


def read(engine, paths, max_per_file):
    """Rows (v for the side to move, m, outcome for the side to move: 1 win, 0 draw, -1 loss,
    held_out) from `cutoff datagen --dump` of each path."""
    rows = []
    for path in paths:
        out = subprocess.run(
            [engine, "datagen", "--dump", path], capture_output=True, text=True, check=True
        ).stdout
        taken = 0
        for line in out.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) < 4:
                continue
            fen, score, result, where = parts[0], int(parts[1]), float(parts[2]), parts[3]
            game, ply = where.split()[1], int(where.split()[3])
            if ply < 16 or abs(score) > 2000:
                continue
            board, turn = fen.split()[0], fen.split()[1]
            sign = 1 if turn == "w" else -1
            outcome = {1.0: 1, 0.5: 0, 0.0: -1}[result] * sign
            held_out = zlib.crc32(f"{path}:{game}".encode()) % 10 == 0
            rows.append((score * sign, material(board), outcome, held_out))
            taken += 1
            if max_per_file and taken >= max_per_file:
                break
        print(f"{path}: {taken} positions", file=sys.stderr)
    return np.array(rows, dtype=np.float64)


def probabilities(coef, v, m):
    a = coef[0] + m * (coef[1] + m * (coef[2] + m * coef[3]))
    b = coef[4] + m * (coef[5] + m * (coef[6] + m * coef[7]))
    b = np.maximum(b, 1.0)
    win = 1.0 / (1.0 + np.exp((a - v) / b))
    loss = 1.0 / (1.0 + np.exp((a + v) / b))
    return win, loss


def nll(coef, v, m, outcome):
    win, loss = probabilities(coef, v, m)
    draw = np.clip(1.0 - win - loss, 1e-6, 1.0)
    p = np.where(outcome > 0, win, np.where(outcome < 0, loss, draw))
    return -np.mean(np.log(np.clip(p, 1e-9, 1.0)))


def fit(v, m, outcome, steps, lr):
    # Start near Stockfish's scale: a draw-ish 200 cp, a slope of 60 cp, flat in material.
    coef = np.array([200.0, 0, 0, 0, 60.0, 0, 0, 0])
    moment, second = np.zeros(8), np.zeros(8)
    eps = 1e-3
    for step in range(1, steps + 1):
        base = nll(coef, v, m, outcome)
        grad = np.zeros(8)
        for i in range(8):
            shifted = coef.copy()
            shifted[i] += eps
            grad[i] = (nll(shifted, v, m, outcome) - base) / eps
        moment = 0.9 * moment + 0.1 * grad
        second = 0.999 * second + 0.001 * grad * grad
        coef -= lr * (moment / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-12)
        if step % 200 == 0:
            print(f"step {step}: nll {base:.5f}", file=sys.stderr)
    return coef


def report(coef, v, m, outcome, name):
    win, loss = probabilities(coef, v, m)
    draw = 1 - win - loss
    target = np.stack([(outcome > 0), (outcome == 0), (outcome < 0)], axis=1).astype(float)
    pred = np.stack([win, draw, loss], axis=1)
    brier = np.mean(np.sum((pred - target) ** 2, axis=1))
    freq = target.mean(axis=0)
    base_nll = -np.mean(np.log(np.sum(target * freq, axis=1)))
    base_brier = np.mean(np.sum((freq - target) ** 2, axis=1))
    print(
        f"{name}: {len(v)} positions, log-loss {nll(coef, v, m, outcome):.4f} "
        f"(score ignored: {base_nll:.4f}), Brier {brier:.4f} (score ignored: {base_brier:.4f})"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--engine", default="target/release/cutoff")
    ap.add_argument("--max-per-file", type=int, default=0)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--lr", type=float, default=2.0)
    ap.add_argument("--baseline", help="a model to measure on the same positions: its eight "
                    "coefficients a0,a1,a2,a3,b0,b1,b2,b3 (e.g. the one src/eval/wdl.rs has now)")
    args = ap.parse_args()
    rows = read(args.engine, args.paths, args.max_per_file)
    v, mat, outcome, held = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3] > 0
    m = np.clip(mat, 17, 78) / 58.0
    coef = fit(v[~held], m[~held], outcome[~held], args.steps, args.lr)
    report(coef, v[~held], m[~held], outcome[~held], "fitted on")
    report(coef, v[held], m[held], outcome[held], "held out")
    if args.baseline:
        base = np.array([float(c) for c in args.baseline.split(",")])
        if base.shape != (8,):
            sys.exit("--baseline needs eight comma-separated coefficients")
        report(base, v[~held], m[~held], outcome[~held], "baseline, fitted-on set")
        report(base, v[held], m[held], outcome[held], "baseline, held-out set")
    print("A: [f64; 4] = [" + ", ".join(f"{c:.3f}" for c in coef[:4]) + "]")
    print("B: [f64; 4] = [" + ", ".join(f"{c:.3f}" for c in coef[4:]) + "]")
    for mm in (30, 58, 78):
        w, l = probabilities(coef, np.array([0.0, 100.0, 200.0]), np.array([mm / 58.0] * 3))
        print(f"material {mm}: W at 0/100/200 cp = {np.round(1000 * w).astype(int).tolist()}, "
              f"L = {np.round(1000 * l).astype(int).tolist()}")


if __name__ == "__main__":
    main()
