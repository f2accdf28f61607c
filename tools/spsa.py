#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""spsa.py - tunes the search numbers of `src/search/params.rs` by SPSA self-play.

Simultaneous perturbation stochastic approximation (Spall), with the schedule that Fishtest and
OpenBench use: at iteration k (0-based) of N, every tuned parameter i is moved by
+-c_k,i at once (random signs), a game pair is played between the two builds theta+ and theta-
(one `tune` binary, two processes, different UCI options), and theta moves towards the side that
scored:

    c_k,i = c_i / (k + 1)^gamma                 c_i = step_i * N^gamma   (so c_N-1,i ~ step_i)
    a_k,i = a_i / (A + k + 1)^alpha             a_i = R * step_i^2 * (A + N)^alpha
    theta_i += a_k,i / c_k,i * (W - L of theta+) * sign_i,  clamped to [min_i, max_i]

The table's `step` is the perturbation at the END of the run (OpenBench's c_end) and R its
learning rate there (OpenBench's r_end, a_end / c_end^2); A is 10 % of N.  theta is kept as floats
and rounded to integers only when it is sent to the engine or written back.

The parameter list (name, default, min, max, step) is read from the `tunables!` table of
`src/search/params.rs`; the engine must be the `--features spsa` build, which offers each as a UCI spin
option.  Games are played by `../shared/tools/match.py` (imported, not run as a subprocess:
its engine, book and game code is used directly and the result comes back as numbers).

State (schedule, theta, history) is saved as JSON after every iteration; running the same command
again continues from it.  The random signs and the openings of iteration k derive from the seed
and k, so a resumed run plays what an uninterrupted one would.  See docs/tools.md for the
command lines; `--selftest` checks the update rule, the parsing and the write-back.
"""
from __future__ import annotations

import argparse, asyncio, contextlib, importlib.util, io, json, logging, os, random, re
import shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARAMS_RS = os.path.join(ROOT, "src", "search", "params.rs")
MATCH_PY = os.path.join(ROOT, "..", "shared", "tools", "match.py")
ENGINE = os.path.join(ROOT, "target", "tune", "release", "cutoff")
BOOK = os.path.join(ROOT, "..", "shared", "books", "8moves_v3.epd")

# One line of the table: `name: type = default, min..=max, step S;`
TUNABLE_LINE = re.compile(
    r"^(?P<indent>\s*)(?P<name>[a-z][a-z0-9_]*):\s*(?P<ty>\w+)\s*=\s*(?P<default>-?\d+)"
    r"(?P<mid>\s*,\s*(?P<min>-?\d+)\s*\.\.=\s*(?P<max>-?\d+)\s*,\s*step\s+(?P<step>\d+)\s*;.*)$")


# ------------------------------------------------------------------ params.rs
def _table_lines(text):
    """(line index, match) for every tunable line inside the `tunables! { ... }` invocation."""
    lines = text.split("\n")
    start = next((i for i, l in enumerate(lines) if re.match(r"^tunables!\s*\{", l)), None)
    if start is None:
        raise ValueError("no `tunables! {` invocation found")
    out = []
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("}"):
            return lines, out
        m = TUNABLE_LINE.match(lines[i])
        if m:
            out.append((i, m))
        elif re.search(r"\bstep\s+\d+\s*;", lines[i]):
            raise ValueError(f"line {i + 1}: unreadable tunable: {lines[i].strip()}")
    raise ValueError("the `tunables!` invocation has no closing `}`")


def parse_params(path):
    """Every tunable of params.rs as {name: dict(default, min, max, step)}, in table order."""
    with open(path, encoding="utf-8") as f:
        _, found = _table_lines(f.read())
    params = {}
    for _, m in found:
        p = {k: int(m[k]) for k in ("default", "min", "max", "step")}
        if m["name"] in params:
            raise ValueError(f"tunable {m['name']} is declared twice")
        if not (p["min"] <= p["default"] <= p["max"] and p["step"] > 0):
            raise ValueError(f"tunable {m['name']}: default outside its range or step <= 0")
        params[m["name"]] = p
    if not params:
        raise ValueError(f"no tunables found in {path}")
    return params


def write_back(path, values):
    """Sets the default of each tunable in `values` ({name: number}) to the number rounded and
    clamped to its range; the rest of the file is kept byte for byte.  Returns the new values."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines, found = _table_lines(text)
    by_name = {m["name"]: (i, m) for i, m in found}
    missing = sorted(set(values) - set(by_name))
    if missing:
        raise ValueError(f"not in {path}: {', '.join(missing)}")
    written = {}
    for name, value in values.items():
        i, m = by_name[name]
        v = min(max(round(value), int(m["min"])), int(m["max"]))
        lines[i] = f"{m['indent']}{name}: {m['ty']} = {v}{m['mid']}"
        written[name] = v
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    os.replace(tmp, path)
    return written


def uci_spin_options(engine):
    """{name: (default, min, max)} of the engine's `option name X type spin ...` lines."""
    out = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    opts = {}
    for line in out.splitlines():
        m = re.match(r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)", line)
        if m:
            opts[m[1]] = tuple(int(x) for x in m.groups()[1:])
    return opts


# ------------------------------------------------------------------ the SPSA rule
def new_schedule(params, names, iterations, r_end=0.002, alpha=0.602, gamma=0.101, big_a=None,
                 c_scale=1.0):
    """The schedule of a fresh run: per parameter its range and its constants a and c."""
    big_a = 0.1 * iterations if big_a is None else big_a
    sched = {"iterations": iterations, "alpha": alpha, "gamma": gamma, "A": big_a, "R": r_end,
             "params": {}}
    for n in names:
        p = params[n]
        c_end = p["step"] * c_scale
        sched["params"][n] = dict(p, c=c_end * iterations ** gamma,
                                  a=r_end * c_end ** 2 * (big_a + iterations) ** alpha)
    return sched


def perturbation(sched, theta, k, seed):
    """(theta+, theta-, signs, c_k) of iteration k, theta+- rounded and clamped to the ranges.
    The signs come from (seed, k) alone, so a resumed run draws what an uninterrupted one would."""
    rng = random.Random(f"spsa:{seed}:{k}")
    plus, minus, signs, ck = {}, {}, {}, {}
    for n, p in sched["params"].items():
        signs[n] = rng.choice((-1, 1))
        ck[n] = p["c"] / (k + 1) ** sched["gamma"]
        clamp = lambda x: int(min(max(round(x), p["min"]), p["max"]))
        plus[n], minus[n] = clamp(theta[n] + ck[n] * signs[n]), clamp(theta[n] - ck[n] * signs[n])
    return plus, minus, signs, ck


def update(sched, theta, k, signs, ck, result):
    """theta after iteration k, `result` = wins - losses of theta+ (in games)."""
    new = {}
    for n, p in sched["params"].items():
        ak = p["a"] / (sched["A"] + k + 1) ** sched["alpha"]
        x = theta[n] + ak / ck[n] * result * signs[n]
        new[n] = min(max(x, p["min"]), p["max"])
    return new


# ------------------------------------------------------------------ games (match.py)
def load_match(path):
    spec = importlib.util.spec_from_file_location("match", path)
    if spec is None or not os.path.isfile(path):
        raise SystemExit(f"error: match.py not found at {path} (give --match PATH)")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["match"] = mod            # its dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def match_args(args, plus, minus, seed):
    """match.py's command line for one iteration (parsed by its own parse_args, so its checks
    and defaults apply)."""
    engine = lambda name, vals: (["--engine", f"cmd={args.engine}", f"name={name}"]
                                 + [f"option.{k}={v}" for k, v in vals.items()])
    argv = engine("plus", plus) + engine("minus", minus)
    argv += ["--each"] + [f"option.{kv}" for kv in args.option] if args.option else []
    argv += ["--games", str(2 * args.pairs), "--concurrency", str(args.concurrency),
             "--seed", str(seed)]
    for key in ("nodes", "tc", "depth", "book"):
        if getattr(args, key):
            argv += [f"--{key}", str(getattr(args, key))]
    argv += args.match_arg
    return argv


async def _play(mm, cfg):
    """Plays cfg's pairs with match.py's Match/Player/Book; (W, L, D) of the first engine."""
    book = mm.Book(cfg.book, cfg.book_plies, cfg.seed)
    m, players = mm.Match(cfg, book), []
    try:
        for _ in range(cfg.concurrency):
            players.append([mm.Player(spec, cfg) for spec in cfg.engines])
            for p in players[-1]:
                await p.start()
        m.names = [s.name for s in cfg.engines]
        m.stats = {n: mm.new_stats() for n in m.names}
        m.tasks = [asyncio.create_task(m.worker(pa, pb)) for pa, pb in players]
        for r in await asyncio.gather(*m.tasks, return_exceptions=True):
            if isinstance(r, BaseException):
                raise r
    finally:
        for p in sum(players, []):
            await p.close()
        if m.pgn:
            m.pgn.close()
    return tuple(m.wld)


def play(mm, args, plus, minus, seed):
    cfg = mm.parse_args(match_args(args, plus, minus, seed))
    sink = sys.stderr if args.verbose else io.StringIO()   # match.py's per-pair lines
    with contextlib.redirect_stdout(sink):
        return asyncio.run(_play(mm, cfg))


# ------------------------------------------------------------------ the run
def save_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def fmt_theta(theta):
    return "  ".join(f"{n}={v:.2f}" for n, v in theta.items())


def load_or_start(args):
    if os.path.exists(args.state):
        with open(args.state, encoding="utf-8") as f:
            state = json.load(f)
        names = list(state["schedule"]["params"])
        if args.params and args.params != "all" and args.params.split(",") != names:
            raise SystemExit(f"error: {args.state} tunes {','.join(names)}; remove --params or the state")
        if args.iterations is not None and args.iterations != state["schedule"]["iterations"]:
            print(f"warning: --iterations {args.iterations} ignored: the state's schedule has "
                  f"{state['schedule']['iterations']}", file=sys.stderr)
        print(f"resuming {args.state} at iteration {state['k']}/{state['schedule']['iterations']}",
              file=sys.stderr)
        return state
    if args.write_back is not None:
        raise SystemExit(f"error: no state file {args.state} to write back")
    table = parse_params(args.params_file)
    names = list(table) if args.params in (None, "all") else args.params.split(",")
    unknown = [n for n in names if n not in table]
    if unknown:
        raise SystemExit(f"error: not tunables in {args.params_file}: {', '.join(unknown)}")
    sched = new_schedule(table, names, args.iterations or 1000, args.r_end, args.alpha, args.gamma,
                         args.big_a, args.c_scale)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    return {"schedule": sched, "seed": seed, "k": 0,
            "theta": {n: float(table[n]["default"]) for n in names}, "history": []}


def check_engine(args, names):
    if not os.path.isfile(args.engine):
        raise SystemExit(f"error: engine {args.engine} not found; build it with "
                         "`cargo build --release --features spsa --target-dir target/spsa`")
    opts = uci_spin_options(args.engine)
    missing = [n for n in names if n not in opts]
    if missing:
        raise SystemExit(f"error: {args.engine} has no UCI option {', '.join(missing)} "
                         "(is it the --features spsa build?)")


def run(args):
    state = load_or_start(args)
    sched, names = state["schedule"], list(state["schedule"]["params"])
    if args.write_back is not None:
        written = write_back(args.write_back, state["theta"])
        print(f"wrote {args.write_back} (after {state['k']} iterations): "
              + "  ".join(f"{n}={v}" for n, v in written.items()))
        return 0
    check_engine(args, names)
    mm = load_match(args.match)
    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("chess.engine").setLevel(logging.WARNING if args.verbose else logging.CRITICAL)
    save_state(args.state, state)
    n_iter, played = sched["iterations"], 0
    print(f"SPSA {','.join(names)}: iteration {state['k']}/{n_iter}, seed {state['seed']}, "
          f"{args.pairs} pair(s) per iteration", flush=True)
    print(f"  start  {fmt_theta(state['theta'])}", flush=True)
    while state["k"] < n_iter and (args.run is None or played < args.run):
        k, t0 = state["k"], time.monotonic()
        plus, minus, signs, ck = perturbation(sched, state["theta"], k, state["seed"])
        w, l, d = play(mm, args, plus, minus, state["seed"] * 1_000_003 + k)
        state["theta"] = update(sched, state["theta"], k, signs, ck, w - l)
        state["k"], played = k + 1, played + 1
        state["history"].append({"k": k, "plus": plus, "minus": minus, "wld": [w, l, d],
                                 "theta": state["theta"]})
        save_state(args.state, state)
        print(f"iter {k + 1}/{n_iter}  +{w} -{l} ={d}  {fmt_theta(state['theta'])}  "
              f"({time.monotonic() - t0:.1f}s)", flush=True)
    final = {n: int(min(max(round(v), sched['params'][n]['min']), sched['params'][n]['max']))
             for n, v in state["theta"].items()}
    print(("done" if state["k"] >= n_iter else "paused") + f" at {state['k']}/{n_iter}: "
          + "  ".join(f"{n}={v}" for n, v in final.items()), flush=True)
    return 0


# ------------------------------------------------------------------ self-test
def selftest(args):
    ok = True

    def check(label, cond, detail=""):
        nonlocal ok
        ok &= bool(cond)
        print(f"{'ok  ' if cond else 'FAIL'} {label}{': ' + detail if detail else ''}")

    # 1. The update rule on a noisy quadratic: game pairs whose result depends on how close each
    #    side is to an optimum (logistic in the quadratic loss) must drive theta towards it.
    table = {"x": dict(default=20, min=0, max=200, step=8), "y": dict(default=9, min=1, max=12, step=1)}
    optimum, scale = {"x": 100.0, "y": 4.0}, {"x": 40.0, "y": 3.0}   # scale: loss 1 at this distance
    elo = lambda th: -100 * sum(((th[n] - optimum[n]) / scale[n]) ** 2 for n in th)
    rng, n_iter = random.Random(1), 3000
    sched = new_schedule(table, ["x", "y"], n_iter, r_end=0.01)   # faster than the default 0.002
    theta = {n: float(table[n]["default"]) for n in table}
    for k in range(n_iter):
        plus, minus, signs, ck = perturbation(sched, theta, k, 7)
        p = 1 / (1 + 10 ** ((elo(minus) - elo(plus)) / 400))
        result = sum((rng.random() < p) - (rng.random() < 1 - p) for _ in range(2))   # W-L, 1 pair
        theta = update(sched, theta, k, signs, ck, result)
    for n in table:
        start, end = abs(table[n]["default"] - optimum[n]), abs(theta[n] - optimum[n])
        check(f"SPSA on a noisy quadratic: {n} {table[n]['default']} -> {theta[n]:.1f} "
              f"(optimum {optimum[n]:g})", end < 0.25 * start and end < 0.5 * scale[n])
    plus, minus, _, _ = perturbation(sched, {"x": 199.0, "y": 1.0}, 0, 7)
    check("perturbations stay within the ranges", all(
        table[n]["min"] <= v[n] <= table[n]["max"] for v in (plus, minus) for n in table))
    check("signs depend on seed and iteration only",
          perturbation(sched, theta, 5, 7) == perturbation(sched, theta, 5, 7))

    # 2. params.rs: every line of the table with `step`, read with the declared values.
    params = parse_params(args.params_file)
    with open(args.params_file, encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("tunables! {"):]
    body = body[:body.index("\n}")]
    n_lines = len(re.findall(r"^\s*[a-z0-9_]+:\s*\w+\s*=.*\bstep\s+\d+;", body, re.M))
    check(f"params.rs: {len(params)} tunables parsed", len(params) == n_lines and n_lines > 0,
          f"{n_lines} table lines")
    for n, p in params.items():
        m = re.search(rf"^\s*{n}:\s*\w+\s*=\s*(-?\d+),\s*(-?\d+)\.\.=(-?\d+),\s*step\s+(\d+);", body, re.M)
        if not m or [int(x) for x in m.groups()] != [p["default"], p["min"], p["max"], p["step"]]:
            check(f"params.rs: {n} read as declared", False, str(p))
    if os.path.isfile(args.engine):
        opts = uci_spin_options(args.engine)
        diff = [n for n, p in params.items() if opts.get(n) != (p["default"], p["min"], p["max"])]
        check(f"params.rs matches the spsa build's UCI options ({len(opts)} spin options)", not diff,
              ", ".join(diff))
    else:
        print(f"skip the UCI cross-check: no {args.engine}")

    # 3. Write-back on a temporary copy: only the tuned defaults change, rounded and clamped,
    #    and writing the old values back restores the file byte for byte.
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "params.rs")
        shutil.copyfile(args.params_file, copy)
        first, last = list(params)[0], list(params)[-1]
        new = {first: params[first]["default"] + 0.6, last: params[last]["max"] + 1000.0}
        written = write_back(copy, new)
        after = parse_params(copy)
        check("write-back rounds and clamps", written == {first: params[first]["default"] + 1,
                                                          last: params[last]["max"]}, str(written))
        check("write-back changes only the tuned defaults", all(
            after[n] == (dict(params[n], default=written[n]) if n in written else params[n]) for n in params))
        with open(copy, encoding="utf-8") as f:
            changed = [a for a, b in zip(text.split("\n"), f.read().split("\n")) if a != b]
        check("write-back changes one line per parameter", len(changed) == 2, str(len(changed)))
        write_back(copy, {n: params[n]["default"] for n in written})
        with open(copy, encoding="utf-8") as f:
            check("write-back round-trips byte for byte", f.read() == text)
    print("selftest", "passed" if ok else "FAILED")
    return 0 if ok else 1


# ------------------------------------------------------------------ command line
def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="SPSA tuner for the tunables! table of src/search/params.rs (self-play via match.py).",
        epilog="example: spsa.py --params rfp_margin,fp_margin --iterations 2000 --nodes 20000 "
               "--concurrency 2 --state spsa-state.json;  then: spsa.py --state spsa-state.json --write-back")
    add = ap.add_argument
    add("--params", help="comma-separated tunables to tune, or 'all' (default: all)")
    add("--iterations", type=int, help="total iterations N of the schedule (default 1000; a resumed "
        "run keeps its own)")
    add("--run", type=int, help="play at most this many iterations now, then stop (resumable)")
    add("--pairs", type=int, default=1, help="game pairs per iteration (default 1)")
    add("--state", default="spsa-state.json", help="JSON state file, resumed if it exists")
    add("--seed", type=int, help="seed of the signs and openings (default: random, saved in the state)")
    add("--r-end", type=float, default=0.002, help="learning rate R = a_end / c_end^2 (default 0.002)")
    add("--c-scale", type=float, default=1.0, help="c_end = step * this (default 1)")
    add("--alpha", type=float, default=0.602, help="decay of a_k (default 0.602)")
    add("--gamma", type=float, default=0.101, help="decay of c_k (default 0.101)")
    add("--A", dest="big_a", type=float, help="stability constant A (default 0.1 * iterations)")
    add("--engine", default=ENGINE, help="the --features spsa binary (default target/spsa/release/cutoff)")
    add("--option", action="append", default=[], metavar="NAME=VALUE",
        help="UCI option for both sides, e.g. Hash=16 (repeatable)")
    add("--nodes", type=int, help="node limit per move")
    add("--tc", help="clock [moves/]base[+inc] seconds, e.g. 8+0.08")
    add("--depth", type=int, help="depth limit per move")
    add("--book", default=BOOK, help="opening book (default ../shared/books/8moves_v3.epd)")
    add("--concurrency", type=int, default=1, help="games at once (default 1)")
    add("--match", default=MATCH_PY, help="path of match.py (default ../shared/tools/match.py)")
    add("--match-arg", action="append", default=[], metavar="ARG",
        help="extra match.py argument, e.g. --match-arg=--maxmoves --match-arg=200 (repeatable)")
    add("--params-file", default=PARAMS_RS, help="the params.rs to read (default src/search/params.rs)")
    add("--write-back", nargs="?", const=PARAMS_RS, metavar="PATH",
        help="write the state's theta as the defaults of PATH (default src/search/params.rs); plays no games")
    add("-v", "--verbose", action="store_true", help="show match.py's per-pair lines")
    add("--selftest", action="store_true", help="check the update rule, parsing and write-back")
    args = ap.parse_args(argv)
    if not args.selftest and args.write_back is None and not (args.nodes or args.tc or args.depth):
        ap.error("give --nodes, --tc or --depth")
    if args.iterations is not None and args.iterations < 1:
        ap.error("--iterations must be >= 1")
    if args.pairs < 1 or args.pairs < 1 or args.concurrency < 1 or (args.run is not None and args.run < 0):
        ap.error("--pairs and --concurrency must be >= 1, --run >= 0")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.selftest:
        return selftest(args)
    try:
        return run(args)
    except KeyboardInterrupt:
        print("interrupted; the state holds the last finished iteration", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
