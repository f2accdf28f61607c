#!/usr/bin/env python3
"""syzygy_check.py - does a UCI engine keep the tablebase outcome in 3- and 4-piece positions?

Generates random legal positions with two kings plus one or two other pieces (random type and
colour, pawns on ranks 2-7, side to move random, half-move clock 0, no castling/en passant; the
position must not be over and the side not to move must not be in check). The engine searches
each one (`go nodes K` or `go movetime MS`) with SyzygyPath set, and python-chess' independent
prober (`chess.syzygy`, same directory) checks the move played:

    root  = probe_wdl(position)                        -2..2, side to move's view
    after = 2 if the move mates, 0 if it stalemates or leaves insufficient material,
            else -probe_wdl(position after the move)
    with the 50-move rule (Syzygy50MoveRule true, the default) cursed wins (1) and blessed
    losses (-1) count as draws: a win (2) must stay 2, a draw (0, +-1) must not become -2,
    a loss may stay any loss.  With Syzygy50MoveRule=false, 1 counts as a win, -1 as a loss.

It also checks that every `go` gets exactly one `bestmove` (a legal move) within --timeout
seconds (default 10 for nodes, movetime + 1 s for --movetime).  One engine process serves all
positions (`ucinewgame` before each).  Exit code 0 only when no position failed.

    python3 tools/syzygy_check.py --engine target/release/cutoff --tables ../shared/syzygy
    python3 tools/syzygy_check.py --engine /usr/games/stockfish --tables ../shared/syzygy
    python3 tools/syzygy_check.py --engine ... --movetime 50 --positions 200 --seed 7
    python3 tools/syzygy_check.py --engine ... --option Hash=16 --option SyzygyProbeDepth=4

Options: --engine PATH, --tables DIR, --positions N (1000), --seed S (1), --nodes K (20000),
--movetime MS, --timeout SEC, --option NAME=VALUE (repeatable, overrides SyzygyPath too),
--quiet.  Needs python3 and python-chess (`pip install chess`).
"""
import argparse, queue, random, re, shlex, subprocess, sys, threading, time

import chess
import chess.syzygy

PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]


def random_position(rng):
    """A random legal position: 2 kings + 1 (probability 1/4) or 2 other pieces."""
    while True:
        board = chess.Board(None)
        free = list(range(64))
        rng.shuffle(free)
        board.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(1 if rng.random() < 0.25 else 2):
            piece = chess.Piece(rng.choice(PIECES), rng.choice(chess.COLORS))
            ok = [s for s in free if piece.piece_type != chess.PAWN or 1 <= chess.square_rank(s) <= 6]
            sq = rng.choice(ok)
            free.remove(sq)
            board.set_piece_at(sq, piece)
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock, board.fullmove_number = 0, 1
        if board.is_valid() and not board.is_game_over():   # is_valid: side not to move not in check
            return board


def wdl_after(tb, board, move):
    """WDL (-2..2) from the mover's view after `move`."""
    board = board.copy(stack=False)
    board.push(move)
    if board.is_checkmate():
        return 2
    if board.is_stalemate() or board.is_insufficient_material():
        return 0
    return -tb.probe_wdl(board)


class Engine:
    """A bare UCI connection (subprocess + reader thread), so that stray or missing
    `bestmove` lines are seen, not hidden by a library."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)                                  # end of file: the engine exited

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def read_until(self, prefix, timeout):
        """Lines up to and including the first starting with `prefix`; (lines, found)."""
        got, deadline = [], time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return got, False
            if line is None:
                self.lines.put(None)
                return got, False
            got.append(line)
            if line.split()[:1] == [prefix]:
                return got, True

    def close(self):
        self.send("quit")
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_engine(cmd, options, quiet):
    eng = Engine(cmd)
    eng.send("uci")
    lines, ok = eng.read_until("uciok", 15)
    if not ok:
        sys.exit(f"error: {cmd} did not answer uci with uciok")
    declared = {m[1].strip().lower() for m in (re.match(r"option name (.*?) type ", l) for l in lines) if m}
    for name, value in options.items():
        if name.lower() not in declared:
            sys.exit(f"error: engine does not declare option {name!r}")
        eng.send(f"setoption name {name} value {value}")
    eng.send("isready")
    lines, ok = eng.read_until("readyok", 60)
    if not ok:
        sys.exit("error: engine did not answer isready after setting options")
    if not quiet:
        for line in lines:
            if line.startswith("info string"):
                print(f"engine: {line}")
    return eng


def search(eng, board, go, timeout):
    """One search: returns (bestmove text or None, problems, tbhits, seconds)."""
    problems = []
    eng.send("ucinewgame")
    eng.send(f"position fen {board.fen()}")
    eng.send("isready")
    lines, ok = eng.read_until("readyok", 30)
    if not ok:
        return None, ["no readyok before go"], 0, 0.0
    if any(l.startswith("bestmove") for l in lines):
        problems.append("bestmove without go")
    t0 = time.monotonic()
    eng.send(go)
    lines, ok = eng.read_until("bestmove", timeout)
    secs = time.monotonic() - t0
    if not ok:
        eng.send("stop")
        more, ok = eng.read_until("bestmove", 2)
        lines += more
        problems.append(f"no bestmove within {timeout:g} s" + (" (came after stop)" if ok else ""))
    hits = [int(m[1]) for m in (re.search(r"\btbhits (\d+)", l) for l in lines) if m]
    best = lines[-1].split()[1] if ok and len(lines[-1].split()) > 1 else None
    if ok:                                 # a second bestmove would arrive before readyok
        eng.send("isready")
        more, ready = eng.read_until("readyok", 10)
        extra = sum(l.startswith("bestmove") for l in more)
        if extra:
            problems.append(f"{extra + 1} bestmoves for one go")
        if not ready:
            problems.append("no readyok after bestmove")
    return best, problems, max(hits, default=0), secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="engine command")
    ap.add_argument("--tables", default="../shared/syzygy", help="Syzygy directory (also the engine's SyzygyPath; a relative one is read from the directory the tool runs in)")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--movetime", type=int, help="ms per move instead of --nodes")
    ap.add_argument("--timeout", type=float, help="seconds allowed per go (default 10, or movetime + 1)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()

    options = {"SyzygyPath": args.tables}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--option needs NAME=VALUE, got {item!r}")
        options = {k: v for k, v in options.items() if k.lower() != name.strip().lower()}
        options[name.strip()] = value.strip()
    rule50 = next((v for k, v in options.items() if k.lower() == "syzygy50moverule"), "true").lower() != "false"
    outcome = (lambda w: {2: 1, -2: -1}.get(w, 0)) if rule50 else (lambda w: (w > 0) - (w < 0))
    go = f"go movetime {args.movetime}" if args.movetime else f"go nodes {args.nodes}"
    timeout = args.timeout or (args.movetime / 1000 + 1 if args.movetime else 10.0)

    tb = chess.syzygy.open_tablebase(args.tables)
    rng = random.Random(args.seed)
    positions = [random_position(rng) for _ in range(args.positions)]
    roots = [tb.probe_wdl(b) for b in positions]

    t_start = time.monotonic()
    eng = start_engine(args.engine, options, args.quiet)
    failures, kept, with_hits, slowest = [], 0, 0, 0.0
    for i, (board, root) in enumerate(zip(positions, roots), 1):
        best, problems, hits, secs = search(eng, board, go, timeout)
        slowest, with_hits = max(slowest, secs), with_hits + (hits > 0)
        got, move = None, None
        try:
            move = chess.Move.from_uci(best) if best else None
        except ValueError:
            pass
        if best and (move is None or move not in board.legal_moves):
            problems.append(f"illegal move {best}")
        elif move:
            got = wdl_after(tb, board, move)
            if outcome(got) < outcome(root):
                problems.append("outcome lost")
        if problems:
            failures.append((board.fen(), best, root, got, "; ".join(problems)))
        else:
            kept += 1
        if eng.proc.poll() is not None or any("no bestmove" in p or "readyok" in p for p in problems):
            eng.proc.kill()                                   # dead or stuck: start afresh
            eng = start_engine(args.engine, options, True)
        if not args.quiet and (i % 100 == 0 or i == len(positions)):
            print(f"{i}/{len(positions)}: {len(failures)} failed, {time.monotonic() - t_start:.0f} s", flush=True)
    eng.close()

    elapsed = time.monotonic() - t_start
    dist = ", ".join(f"{w:+d}: {roots.count(w)}" for w in (2, 1, 0, -1, -2))
    print(f"engine: {args.engine}; {go}; 50-move rule {'on' if rule50 else 'off'}; seed {args.seed}")
    print(f"root WDL counts ({dist}); searches reporting tbhits > 0: {with_hits}/{len(positions)}; "
          f"slowest go {slowest:.2f} s; run time {elapsed:.0f} s")
    print(f"checked {len(positions)} positions: {kept} kept the outcome, {len(failures)} failed")
    for fen, best, root, got, why in failures:
        print(f"FAIL {fen} | move {best} | expected {root:+d} got {'-' if got is None else f'{got:+d}'} | {why}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
