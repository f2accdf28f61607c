#!/usr/bin/env python3
"""tb_conversion.py - can a UCI engine convert won 3- and 4-piece endings into mate?

The engine under test plays the winning side of each position in POSITIONS (all won for the
side to move per the Syzygy tables, DTZ >= 15 plies) against Stockfish 15.1 defending with
the tables, on a real clock (default 2+0.05 s for each side).  Each position is played once
with the tested engine's SyzygyPath set and once without it (default empty).  A game counts as
won only when the tested engine mates; a draw (stalemate, insufficient material, the 50-move
rule by `is_fifty_moves()`, threefold repetition), a loss, a loss on time, an illegal move or a
crash is a failure (an engine silent for its clock + 5 s is killed).  Exit code 0 only when
every game played was won.  Each game prints its result, plies played, the start DTZ and a
margin: the least, over the tested side's moves, of 100 - half-move clock - |DTZ| after the
move, i.e. the plies it kept in hand against the 50-move rule (DTZ may be 1 off; negative: the
tables call the game drawn by the rule from there; "lost": a move gave up the win outright).

    python3 tools/tb_conversion.py --engine target/release/cutoff            # both modes
    python3 tools/tb_conversion.py --engine target/release/cutoff --with     # tables only
    python3 tools/tb_conversion.py --engine target/release/cutoff --without --tc 5+0.1
    python3 tools/tb_conversion.py --engine /usr/games/stockfish --with --only KQvKR,KBNvK
    python3 tools/tb_conversion.py --find KBNvK --side white --samples 5000 --seed 1

Options: --engine CMD (tested), --opponent CMD (defender, default /usr/games/stockfish),
--tables DIR (default ../shared/syzygy, relative to where it runs), --tc BASE+INC, --with / --without (default both),
--only NAME,... , --option NAME=VALUE (tested engine, repeatable), --moves (list the moves
of every game, not only of failed ones).
--find MATERIAL prints the won position of largest DTZ among --samples random ones (how the
FENs below were chosen; `chess.syzygy` probes).  Needs python3 and python-chess.
"""
import argparse, os, random, re, shlex, signal, sys, threading, time

import chess
import chess.engine
import chess.syzygy

# (name, FEN, DTZ in plies by chess.syzygy when frozen); found with --find MATERIAL --seed 1
# --samples 5000 and the side shown (DTZ: the largest found); every one is a win (WDL 2) for the side to move.
POSITIONS = [
    ("KQvK", "8/8/3k4/8/2Q5/8/8/K7 w - - 0 1", 17),       # --side white
    ("KRvK", "8/7k/8/2r5/4K3/8/8/8 b - - 0 1", 31),        # --side black
    ("KQvKR", "3Q4/r7/8/8/8/2k5/8/K7 w - - 0 1", 57),      # --side white
    ("KRvKP", "8/8/8/5K2/8/6P1/7r/1k6 b - - 0 1", 21),     # --side black
    ("KBNvK", "7K/4B3/8/7k/8/8/7N/8 w - - 0 1", 62),       # --side white
    ("KPvK", "8/8/5k2/8/8/2P5/8/3K4 w - - 0 1", 15),       # --side white
    ("KQvKP", "2K5/3P4/8/8/8/8/3q4/6k1 b - - 0 1", 45),    # --side black
    ("KBBvK", "8/8/4K3/2b4b/8/8/8/7k b - - 0 1", 34),      # --side black
    ("KRvKN", "7k/8/8/8/8/8/1R5K/5n2 w - - 0 1", 48),      # --side white
]


def parse_tc(text):
    m = re.fullmatch(r"([\d.]+)(?:\+([\d.]+))?", text.strip())
    if not m or float(m[1]) <= 0:
        raise argparse.ArgumentTypeError(f"bad time control {text!r} (want BASE+INC in seconds)")
    return float(m[1]), float(m[2] or 0)


def random_material(material, side, rng):
    """A random valid, unfinished position of `material` (e.g. KQvKR) with its first side to move."""
    strong, weak = material.upper().split("V")
    while True:
        board, free = chess.Board(None), list(range(64))
        rng.shuffle(free)
        for color, pieces in ((side, strong), (not side, weak)):
            for ch in pieces:
                piece = chess.Piece.from_symbol(ch if color == chess.WHITE else ch.lower())
                sq = next(s for s in free if piece.piece_type != chess.PAWN or 1 <= chess.square_rank(s) <= 6)
                free.remove(sq)
                board.set_piece_at(sq, piece)
        board.turn = side
        if board.is_valid() and not board.is_game_over():
            return board


def find(args):
    tb = chess.syzygy.open_tablebase(args.tables)
    rng, best = random.Random(args.seed), None
    side = chess.WHITE if args.side == "white" else chess.BLACK
    for _ in range(args.samples):
        board = random_material(args.find, side, rng)
        if tb.probe_wdl(board) == 2:
            dtz = tb.probe_dtz(board)
            if best is None or dtz > best[0]:
                best = (dtz, board.fen())
    print(f'    ("{args.find}", "{best[1]}", {best[0]}),' if best else f"no won {args.find} position found")


def ending(board):
    """None while the game goes on, else (winner or None, reason)."""
    if board.is_checkmate():
        return not board.turn, "mate"
    for reason, over in (("stalemate", board.is_stalemate), ("insufficient material", board.is_insufficient_material),
                         ("50-move rule", board.is_fifty_moves), ("threefold repetition", lambda: board.is_repetition(3))):
        if over():
            return None, reason
    return None


def open_engine(cmd, options):
    eng = chess.engine.SimpleEngine.popen_uci(shlex.split(cmd), timeout=30)
    eng.configure(options)
    return eng


def play_game(tested, defender, tb, fen, tc, game_id):
    """Returns (won, reason, plies, tested engine's tbhits, margin (None: win thrown away), SAN moves)."""
    board = chess.Board(fen)
    hero, clock, plies, hits, san = board.turn, {chess.WHITE: tc[0], chess.BLACK: tc[0]}, 0, 0, []
    margin = 100
    while (end := ending(board)) is None:
        mover = board.turn
        eng = tested if mover == hero else defender
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=tc[1], black_inc=tc[1])
        pid = eng.protocol.transport.get_pid()           # a watchdog kills an engine that hangs
        hung = []
        watchdog = threading.Timer(clock[mover] + 5, lambda: (hung.append(1), os.kill(pid, signal.SIGKILL)))
        t0 = time.monotonic()
        watchdog.start()
        try:
            res = eng.play(board, limit, game=game_id, info=chess.engine.INFO_BASIC)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            why = "hung, killed after its clock + 5 s" if hung else e
            return False, f"{'tested engine' if mover == hero else 'defender'} failed: {why}", plies, hits, margin, san
        finally:
            watchdog.cancel()
        clock[mover] -= time.monotonic() - t0
        if mover == hero:
            hits += res.info.get("tbhits", 0)
        who = "tested engine" if mover == hero else "defender"
        if clock[mover] < 0:
            return False, f"{who} lost on time", plies, hits, margin, san
        clock[mover] += tc[1]
        if res.move is None or res.move not in board.legal_moves:
            return False, f"{who} played illegal move {res.move}", plies, hits, margin, san
        san.append(board.san(res.move))
        board.push(res.move)
        plies += 1
        if mover == hero and margin is not None and not board.is_game_over():
            dtz = tb.probe_dtz(board)                       # the defender's view: < 0 while lost
            margin = min(margin, 100 - board.halfmove_clock + dtz) if dtz < 0 else None
    winner, reason = end
    if winner is None:
        return False, f"draw ({reason})", plies, hits, margin, san
    return winner == hero, "mate" if winner == hero else "lost (mated)", plies, hits, margin, san


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="tested engine command (plays the winning side)")
    ap.add_argument("--opponent", default="/usr/games/stockfish", help="defending engine (with tables)")
    ap.add_argument("--tables", default="../shared/syzygy", help="Syzygy directory (also SyzygyPath of both engines; a relative one is read from the directory the tool runs in)")
    ap.add_argument("--tc", type=parse_tc, default="2+0.05", help="BASE+INC seconds per side")
    ap.add_argument("--with", dest="with_tb", action="store_true", help="only with tables")
    ap.add_argument("--without", action="store_true", help="only without tables")
    ap.add_argument("--only", help="comma-separated position names")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--moves", action="store_true", help="print every game's moves (default: failed games')")
    ap.add_argument("--find", metavar="MATERIAL", help="search a won position, e.g. KBNvK")
    ap.add_argument("--side", choices=("white", "black"), default="white")
    ap.add_argument("--samples", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.find:
        return find(args)
    if not args.engine:
        ap.error("--engine is required")

    tb = chess.syzygy.open_tablebase(args.tables)
    names = args.only.split(",") if args.only else [p[0] for p in POSITIONS]
    unknown = set(names) - {p[0] for p in POSITIONS}
    if unknown:
        ap.error(f"unknown positions: {', '.join(sorted(unknown))}")
    chosen = [p for p in POSITIONS if p[0] in names]
    for name, fen, _ in chosen:
        if tb.probe_wdl(chess.Board(fen)) != 2:
            sys.exit(f"error: {name} {fen} is not won for the side to move by these tables")
    modes = [m for m, on in (("with", args.with_tb), ("without", args.without)) if on] or ["with", "without"]
    if any("=" not in item for item in args.option):
        ap.error("--option needs NAME=VALUE")
    extra = dict(item.split("=", 1) for item in args.option)

    t_start, results = time.monotonic(), {m: [] for m in modes}
    defender = open_engine(args.opponent, {"SyzygyPath": args.tables})
    for mode in modes:
        options = dict(extra, SyzygyPath=args.tables) if mode == "with" else dict(extra)
        tested = open_engine(args.engine, options)         # one tested process per mode, fresh options
        for name, fen, dtz in chosen:
            won, reason, plies, hits, margin, san = play_game(tested, defender, tb, fen, args.tc, object())
            results[mode].append(won)
            print(f"{mode:>7} tables  {name:<6} {'won ' if won else 'FAIL'} {reason:<32} plies {plies:>3}  "
                  f"start DTZ {dtz:>2}  margin {'lost' if margin is None else margin:>4}  tbhits {hits:>7}  {fen}",
                  flush=True)
            if args.moves or not won:
                print(f"        moves: {' '.join(san)}", flush=True)
            if "failed:" in reason:                          # a crashed or stuck engine: restart it
                if reason.startswith("tested"):
                    tested.close()
                    tested = open_engine(args.engine, options)
                else:
                    defender.close()
                    defender = open_engine(args.opponent, {"SyzygyPath": args.tables})
        tested.quit()
    defender.quit()
    summary = "; ".join(f"{m} tables: {sum(r)}/{len(r)} won" for m, r in results.items())
    print(f"{summary}  (tc {args.tc[0]:g}+{args.tc[1]:g}, {time.monotonic() - t_start:.0f} s)")
    return 0 if all(all(r) for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
