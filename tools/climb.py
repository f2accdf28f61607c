#!/usr/bin/env python3
"""The climb as a picture: Cutoff's Elo against each other engine, build by build, drawn from
the gauntlet tables of docs/strength.md into docs/climb.svg.

    python3 tools/climb.py            # writes docs/climb.svg, lists the points it drew
    python3 tools/climb.py --check    # parser self-test, the tables against their own figures
                                      # and the logs in docs/games, and docs/climb.svg up to date

Nothing is typed in here: every point is a row of a Markdown table in docs/strength.md that has
a `W-L-D` and an `Elo ± 95 %` column and names another engine (in an `opponent` column or in
the table's header, as the Ethereal clock tables do). A row's build is its `Bench: N` (a
`build` column, "the same" meaning the row above), else the first `Bench: N` of the text
before the table (the paragraph that leads into it, then the headings above it, then the rest
of its section); its date and clock are found the same way. Rows repeated from another table
(the same opponent, W-L-D and Elo) are drawn once; where a table gives the parts of a match
and their pooled row, only the pooled row is drawn. Rows of the strength-limit tables
(`UCI_Elo` settings) count only at full strength. An Elo cell is `+20.5 ± 11.7` or an estimate
with its interval's ends, `−96.2 (−148..−48)`; a build cell may open with the bench alone
(`1484865`), and its date stands for the row's. An opponent named "native" (built with its own
`make`, for the CPU) is a series of its own, apart from the plain `cargo build` of its version
(a row that says "not native").
Matches that the log gives in prose alone are not drawn.

The x axis has one column per build (its `Bench:` node count, `+ net` where the row says the
build ran with `Evaluation net`, and the date of its first gauntlet), in the order they were
played; rows of the same bench played with different binaries (a time manager's shares, the
same tree) share a column. Filled markers: the clock most matches used; hollow: another one.
`--check` also recomputes each row's Elo from its pentanomial (or W-L-D) and compares the
W-L-D with the match log or PGN of its seed in docs/games; it fails on a contradiction and
prints a note for each row that has no log to compare with.
"""
import argparse
import collections
import dataclasses
import datetime
import html
import itertools
import lzma
import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOG = ROOT / "docs" / "strength.md"
GAMES = ROOT / "docs" / "games"
SVG = ROOT / "docs" / "climb.svg"

# The engines a gauntlet row may name, as the log spells them (a version may follow).
ENGINES = ["Glaurung", "Toga II", "Ethereal", "Stockfish", "akimbo", "Reckless", "Carp",
           "Viridithas"]
ENGINE = re.compile(r"\b(" + "|".join(map(re.escape, ENGINES)) + r")\b(?:\s+(\d+(?:\.\d+)*))?",
                    re.IGNORECASE)
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
ISO_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
DAY_MONTH = re.compile(r"\b(\d{1,2})(?:-\d{1,2})? (" + "|".join(MONTHS) + r")\b")
BENCH = re.compile(r"Bench: (\d+)")
CLOCK = re.compile(r"(?<![\d.])(\d+\+\d+(?:\.\d+)?)(?![\d.])")
ELO = re.compile(r"([+\-]?\d+(?:\.\d+)?)\s*±\s*(\d+(?:\.\d+)?)")
# The other form of an Elo cell: the estimate and its 95 % interval's ends, `−96.2 (−148..−48)`.
ELO_RANGE = re.compile(r"([+\-]?\d+(?:\.\d+)?)\s*\(([+\-]?\d+(?:\.\d+)?)\s*\.\.\s*"
                       r"([+\-]?\d+(?:\.\d+)?)\)")
# A build cell that opens with its bench signature alone: `1484865` (before round 4 ...).
LEADING_BENCH = re.compile(r"(\d{6,8})\b")
WLD = re.compile(r"(\d[\d,]*)-(\d[\d,]*)-(\d[\d,]*)")
PENTA = re.compile(r"\[(\d[\d,]*(?:, \d[\d,]*){4})\]")
Z95 = 1.959963984540054


@dataclasses.dataclass
class Block:
    """A piece of the log: a heading (level ≥ 1), a paragraph (level 0) or a table (rows)."""
    line: int
    level: int
    text: str
    rows: list = None


@dataclasses.dataclass
class Point:
    """One match of one build against one engine, as a row of the log gives it."""
    line: int
    opponent: str
    bench: str
    variant: str
    date: datetime.date
    clock: str
    games: int
    wld: tuple
    elo: float
    err: float
    penta: tuple
    seeds: tuple
    label: str
    rounding: float
    err_rounding: float

    @property
    def build(self):
        return self.bench + (" + net" if self.variant else "")


def plain(cell):
    """A cell's text without Markdown emphasis and code marks, with ASCII minus signs."""
    return cell.replace("**", "").replace("`", "").replace("−", "-").strip()


def blocks_of(text):
    """The log's headings, paragraphs and tables in order; code blocks are left out."""
    out, para, table, fenced = [], [], [], False

    def flush(i):
        if para:
            out.append(Block(i - len(para), 0, " ".join(para)))
            para.clear()
        if table:
            out.append(Block(i - len(table), 0, table[0], [split_row(r) for r in table]))
            table.clear()

    for i, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            flush(i)
            fenced = not fenced
        elif fenced:
            continue
        elif line.startswith("|"):
            if para:
                flush(i)
            table.append(line)
        elif line.startswith("#"):
            flush(i)
            level = len(line) - len(line.lstrip("#"))
            out.append(Block(i, level, line.lstrip("#").strip()))
        elif not line.strip():
            flush(i)
        else:
            if table:
                flush(i)
            para.append(line.strip())
    flush(len(text.split("\n")) + 1)
    return out


def split_row(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def looked_up(blocks, at, pattern):
    """The first match of `pattern` before the table `blocks[at]`: in the paragraph leading
    into it, then in the headings above it (nearest first, up to its `##` section), then in
    the rest of its section (nearest paragraph first). None where the section has none."""
    before = []
    for b in reversed(blocks[:at]):
        before.append(b)
        if 1 <= b.level <= 2:
            break
    lead = next((b for b in before if b.level == 0 and b.rows is None), None)
    headings = [b for b in before if b.level >= 1]
    rest = [b for b in before if b.level == 0 and b.rows is None and b is not lead]
    for b in ([lead] if lead else []) + headings + rest:
        m = pattern.search(plain(b.text))
        if m:
            return m
    return None


def year_before(blocks, at):
    """The year of the last ISO date written before `blocks[at]`, else of the log's first
    one (the log gives most dates as `27 Nov`)."""
    def years(b):
        return [int(y) for y, _, _ in ISO_DATE.findall(
            " ".join(" ".join(r) for r in b.rows) if b.rows else b.text)]
    earlier = [y for b in blocks[:at] for y in years(b)]
    later = [y for b in blocks[at:] for y in years(b)]
    return (earlier[-1:] or later[:1] or [None])[0]


def date_in(text, year):
    m = ISO_DATE.search(text)
    if m:
        return datetime.date(*map(int, m.groups()))
    m = DAY_MONTH.search(text)
    if m and year:
        return datetime.date(year, MONTHS.index(m.group(2)) + 1, int(m.group(1)))
    return None


def opponent_in(text):
    """The engine a cell names, as (engine, version, setting) or None."""
    m = ENGINE.search(text)
    if not m:
        level = re.match(r"level (\d+)\b", text)
        return ("Stockfish", None, f"level {level.group(1)}") if level else None
    engine = next(e for e in ENGINES if e.lower() == m.group(1).lower())
    setting = re.search(r"UCI_Elo=(\d+)", text)
    if setting:
        return engine, m.group(2), f"UCI_Elo {setting.group(1)}"
    # Built with its own `make` (for the CPU it runs on): a stronger engine than the plain
    # `cargo build` of the same version, so a series of its own. "not native" names the plain one.
    native = re.search(r"(?<!\bnot )\bnative\b", text)
    return engine, m.group(2), "native" if native else None


def version_key(version):
    """12.00 and 12 are the same version: trailing zero parts do not count."""
    parts = [int(p) for p in version.split(".")] if version else []
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def column(header, *prefixes):
    for i, h in enumerate(header):
        if any(plain(h).lower().startswith(p) for p in prefixes):
            return i
    return None


def numbers(text):
    return tuple(int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", text))


def points_of(text):
    """Every gauntlet row of the log, as Points in the log's order (opponents named as the
    log spells them; `name_series` joins their spellings)."""
    blocks = blocks_of(text)
    points = []
    for at, b in enumerate(blocks):
        if b.rows and len(b.rows) > 2:
            points.extend(table_points(blocks, at))
    return points


def table_points(blocks, at):
    table = blocks[at]
    header, body = table.rows[0], table.rows[2:]
    col = {name: column(header, *prefixes) for name, prefixes in {
        "wld": ("w-l-d",), "elo": ("elo",), "opponent": ("opponent",),
        "build": ("build", "cutoff build"),
        "date": ("date", "when"), "clock": ("time control",), "games": ("games",),
        "seed": ("seed",), "penta": ("pentanomial",), "setting": ("uci_elo",)}.items()}
    if col["wld"] is None or col["elo"] is None:
        return []
    in_header = opponent_in(" ".join(header))
    if col["opponent"] is None and not in_header:
        return []   # a match between two Cutoff builds
    lead_bench = looked_up(blocks, at, BENCH)
    lead_clock = looked_up(blocks, at, CLOCK)
    year = year_before(blocks, at + 1)
    lead_date = looked_up(blocks, at, DAY_MONTH) or looked_up(blocks, at, ISO_DATE)
    lead_date = lead_date.group(0) if lead_date else ""
    out, previous_build = [], None
    for n, row in enumerate(body):
        def cell(name, row=row):
            return plain(row[col[name]]) if col[name] is not None else ""

        if col["setting"] is not None and "full strength" not in plain(row[0]):
            continue   # a strength-limited Cutoff, not a build
        opponent = opponent_in(cell("opponent")) if col["opponent"] is not None else in_header
        elo, wld = elo_of(cell("elo")), WLD.search(cell("wld"))
        if not opponent or not elo or not wld:
            continue
        build = cell("build")
        if build.lower().startswith("the same") and previous_build:
            build = previous_build
        previous_build = build
        bench = BENCH.search(build) or LEADING_BENCH.match(build) or lead_bench
        if not bench:
            raise SystemExit(f"docs/strength.md:{table.line + 2 + n}: no `Bench:` for this row")
        penta = PENTA.search(cell("penta") or " ".join(map(plain, row)))
        when = date_in(cell("date"), year) or date_in(build, year) or date_in(lead_date, year)
        if not when:
            raise SystemExit(f"docs/strength.md:{table.line + 2 + n}: no date for this row")
        clock = CLOCK.search(cell("clock")) or lead_clock
        seeds = numbers(cell("seed")) if col["seed"] is not None else tuple(
            int(s) for s in re.findall(r"\bseeds? (\d+)", cell("clock") or plain(
                lead_text(blocks, at))))
        games = numbers(cell("games"))[0] if col["games"] is not None else None
        out.append(Point(
            line=table.line + 2 + n, opponent=opponent, bench=bench.group(1),
            variant="net" if "Evaluation net" in build else "", date=when,
            clock=clock.group(1) if clock else "?", games=games, wld=numbers(wld.group(0)),
            elo=elo[0], err=elo[1],
            penta=tuple(int(x.replace(",", "")) for x in penta.group(1).split(", "))
            if penta else None, seeds=seeds, label=plain(row[0]),
            rounding=elo[2], err_rounding=elo[3]))
    return drop_parts(out)


def decimals(number):
    """Half a unit of the last decimal `number` is written with, and a little for the
    recomputation's own rounding."""
    return 0.5 * 10 ** -len(number.partition(".")[2]) + 0.05


def elo_of(text):
    """(Elo, its 95 % half-interval, and how far each may be from a recomputation) of an Elo
    cell, `+20.5 ± 11.7` or `−96.2 (−148..−48)` (the half-interval: half the interval's width);
    None for a cell with neither."""
    m = ELO.search(text)
    if m:
        return float(m.group(1)), float(m.group(2)), decimals(m.group(1)), decimals(m.group(1))
    m = ELO_RANGE.search(text)
    if m:
        low, high = float(m.group(2)), float(m.group(3))
        return (float(m.group(1)), (high - low) / 2, decimals(m.group(1)),
                max(decimals(m.group(2)), decimals(m.group(3))))
    return None


def lead_text(blocks, at):
    lead = next((b for b in reversed(blocks[:at]) if b.level == 0 and b.rows is None), None)
    return lead.text if lead else ""


def drop_parts(points):
    """Where a table gives a match in parts and pooled, keep the pooled row only."""
    by_opponent = collections.defaultdict(list)
    for p in points:
        engine, version, setting = p.opponent
        by_opponent[(engine, version_key(version), setting)].append(p)
    parts = set()
    for group in by_opponent.values():
        for whole in group:
            others = [p for p in group if p is not whole]
            for k in range(2, len(others) + 1):
                for some in itertools.combinations(others, k):
                    if tuple(map(sum, zip(*(p.wld for p in some)))) == whole.wld:
                        parts.update(id(p) for p in some)
    return [p for p in points if id(p) not in parts]


def name_series(points):
    """Joins the spellings of one engine ("Ethereal 12.00", "Ethereal 12", "Ethereal" where
    the log has one version of it) and drops the rows repeated from another table."""
    versions = collections.defaultdict(lambda: collections.defaultdict(set))
    for p in points:
        engine, version, _ = p.opponent
        if version:
            versions[engine][version_key(version)].add(version)
    seen, out = set(), []
    for p in points:
        engine, version, setting = p.opponent
        if not version and len(versions[engine]) == 1:
            version = next(iter(next(iter(versions[engine].values()))))
        if version:
            version = min(versions[engine][version_key(version)], key=lambda v: (len(v), v))
        name = " ".join(x for x in (engine, version, setting) if x)
        key = (name, p.wld, p.elo, p.err)
        if key in seen:
            continue
        seen.add(key)
        out.append(dataclasses.replace(p, opponent=name))
    return out


def read_points(text):
    return name_series(points_of(text))


# ---------------------------------------------------------------- checks

def score_to_elo(s):
    return -400 * math.log10(1 / s - 1)


def elo_interval(outcomes):
    """Elo and its 95 % half-interval from {score: count}: the mean score and its standard
    error, normal approximation (pairs for a pentanomial, games for W-L-D)."""
    n = sum(outcomes.values())
    mu = sum(s * c for s, c in outcomes.items()) / n
    se = math.sqrt(sum(c * (s - mu) ** 2 for s, c in outcomes.items()) / n / n)
    if not 0 < mu < 1:
        return math.copysign(math.inf, mu - 0.5), math.nan
    if not 0 < mu - Z95 * se < mu + Z95 * se < 1:
        return score_to_elo(mu), math.nan
    return score_to_elo(mu), (score_to_elo(mu + Z95 * se) - score_to_elo(mu - Z95 * se)) / 2


def match_logs():
    """{seed: [(file, (W, L, D) of the first-named engine)]} from docs/games: match.py's logs,
    and the PGNs that have no log beside them (Cutoff's side counted from the results)."""
    logs = collections.defaultdict(list)
    for path in sorted(GAMES.glob("*.log")):
        text = path.read_text(encoding="utf-8")
        seed = re.search(r"seed (\d+)", text.split("\n", 1)[0])
        score = re.findall(r"Score of \S+: W (\d+)\s+L (\d+)\s+D (\d+)", text)
        if seed and score:
            logs[int(seed.group(1))].append((path.name, tuple(map(int, score[-1]))))
    for path in sorted(GAMES.glob("*.pgn.xz")):
        seed = re.search(r"-s(\d+)\.pgn", path.name)
        if not seed or (GAMES / path.name.replace(".pgn.xz", ".log")).exists():
            continue
        wld = [0, 0, 0]
        white = None
        for line in lzma.open(path, "rt", encoding="utf-8"):
            if line.startswith("[White "):
                white = line.split('"')[1]
            elif line.startswith("[Result "):
                result = line.split('"')[1]
                cutoff_white = white.lower().startswith("cutoff")
                if result == "1/2-1/2":
                    wld[2] += 1
                elif (result == "1-0") == cutoff_white:
                    wld[0] += 1
                else:
                    wld[1] += 1
        logs[int(seed.group(1))].append((path.name, tuple(wld)))
    return logs


def check_points(points, logs):
    """(failures, notes, how many rows had a log): the rows against their own figures and
    against the logs."""
    failures, notes, compared = [], [], 0
    for p in points:
        where = f"docs/strength.md:{p.line} ({p.build} vs {p.opponent})"
        if p.games is not None and p.games != sum(p.wld):
            failures.append(f"{where}: {p.games} games but W-L-D {'-'.join(map(str, p.wld))}")
        if p.penta:
            if sum(p.penta) * 2 != sum(p.wld):
                failures.append(f"{where}: pentanomial {list(p.penta)} is {sum(p.penta)} pairs "
                                f"for {sum(p.wld)} games")
            elo, err = elo_interval({i / 4: c for i, c in enumerate(p.penta)})
        else:   # the ± of a match scored by pairs differs from the games' own: Elo alone
            elo, err = elo_interval({1: p.wld[0], 0: p.wld[1], 0.5: p.wld[2]})[0], p.err
        if abs(elo - p.elo) > p.rounding or abs(err - p.err) > p.err_rounding:
            failures.append(f"{where}: Elo {p.elo:+g} ± {p.err:g}, but its "
                            f"{'pentanomial' if p.penta else 'W-L-D'} gives {elo:+.1f} ± {err:.1f}")
        compared += check_against_logs(p, where, logs, failures, notes)
    return failures, notes, compared


def check_against_logs(p, where, logs, failures, notes):
    """Whether the row had a log to be compared with (a contradiction goes to failures)."""
    if not p.seeds or not all(s in logs for s in p.seeds):
        missing = [s for s in p.seeds if s not in logs]
        notes.append(f"{where}: no log in docs/games for seed {missing or '(none given)'}")
        return False
    if len(p.seeds) > 1 and all(len(logs[s]) == 1 for s in p.seeds):
        total = tuple(map(sum, zip(*(logs[s][0][1] for s in p.seeds))))
        if total != p.wld:
            failures.append(f"{where}: W-L-D {p.wld}, the logs of seeds {p.seeds} add up to {total}")
        return True
    if len(p.seeds) > 1:
        notes.append(f"{where}: seeds {p.seeds} have several logs each: not compared")
        return False
    candidates = logs[p.seeds[0]]
    if any(wld == p.wld for _, wld in candidates):
        return True
    if len(candidates) == 1:
        failures.append(f"{where}: W-L-D {p.wld}, its log {candidates[0][0]} says "
                        f"{candidates[0][1]}")
        return True
    notes.append(f"{where}: W-L-D {p.wld} is in none of the logs of seed {p.seeds[0]} "
                 f"({', '.join(f'{n}: {w}' for n, w in candidates)}; the seed was replayed)")
    return False


SAMPLE = """# Log
The build of `abc` (`Bench: 111`), 10+0.1, 2026-11-20.

| date | build | opponent | time control | games | W-L-D | Elo ± 95 % |
|---|---|---|---|---|---|---|
| 2026-11-21 | first (`Bench: 123`) | Glaurung 2.2 (Debian) | 5+0.05, seed 7 | 20 (of 40) | 10-5-5 | **+90.3 ± 150.0** |
| 2026-11-22 | the same | itself: `Threads=2` | 5+0.05 | 10 | 5-5-0 | +0.0 ± 1.0 |
| 2026-11-22 | main with `Evaluation net` (`Bench: 123`) | Toga II 3.0 | 10+0.1 | 10 | 5-5-0 | +0.0 ± 100.0 |

## Later (issue 1, 27 Nov)

The clock (`Bench: 456`), 10+0.1, seed 8, 28 Nov:

```sh
# a comment, not a heading
python3 match.py --tc 2+0.02 --seed 9   # `Bench: 999`, 29 Nov
```

| time manager | W-L-D | Elo ± 95 % | Ethereal a move |
|---|---|---|---|
| before | 1-2-3 | −10.0 ± 5.0 | 0.2 s |

| opponent | seed | games | W-L-D | Elo ± 95 % | pentanomial |
|---|---|---|---|---|---|
| Ethereal 12.00, first | 1 | 4 | 2-1-1 | +1.0 ± 2.0 | [0, 1, 0, 1, 0] |
| Ethereal 12 (the run above) | 8 | 6 | 1-2-3 | −10.0 ± 5.0 | |
| Ethereal 12, second | 2 | 4 | 1-1-2 | +3.0 ± 4.0 | [0, 0, 2, 0, 0] |
| **Ethereal 12, both** | 1 + 2 | 8 | 3-2-3 | **+5.0 ± 6.0** | [0, 1, 2, 1, 0] |
| akimbo 0.6.0 | 3 | 2 | 1-1-0 | +0.0 ± 9.0 | [0, 0, 1, 0, 0] |
| akimbo 0.7.0 (built with plain `cargo build`: not native) | 4 | 2 | 2-0-0 | +9.0 ± 9.0 | [0, 0, 0, 0, 1] |

| Cutoff build | opponent | seed | games | W-L-D | Elo ± 95 % |
|---|---|---|---|---|---|
| `1234567` (the day before, 27 Nov) | Reckless 0.7.0, native (built with its own `make`) | 5 | 100 | 13-40-47 | −96.2 (−148..−48) |
| the same | Reckless 0.7.0 | 6 | 100 | 40-13-47 | +96.2 ± 50.0 |
"""


def selftest():
    """The parser on SAMPLE: what it must find, and what it must leave out."""
    pts = read_points(SAMPLE)
    got = [(p.opponent, p.bench, p.variant, str(p.date), p.clock, p.games, p.wld, p.elo, p.err,
            p.seeds) for p in pts]
    want = [
        ("Glaurung 2.2", "123", "", "2026-11-21", "5+0.05", 20, (10, 5, 5), 90.3, 150.0, (7,)),
        ("Toga II 3.0", "123", "net", "2026-11-22", "10+0.1", 10, (5, 5, 0), 0.0, 100.0, ()),
        ("Ethereal 12", "456", "", "2026-11-28", "10+0.1", None, (1, 2, 3), -10.0, 5.0, (8,)),
        ("Ethereal 12", "456", "", "2026-11-28", "10+0.1", 8, (3, 2, 3), 5.0, 6.0, (1, 2)),
        ("akimbo 0.6.0", "456", "", "2026-11-28", "10+0.1", 2, (1, 1, 0), 0.0, 9.0, (3,)),
        ("akimbo 0.7.0", "456", "", "2026-11-28", "10+0.1", 2, (2, 0, 0), 9.0, 9.0, (4,)),
        ("Reckless 0.7.0 native", "1234567", "", "2026-11-27", "10+0.1", 100, (13, 40, 47),
         -96.2, 50.0, (5,)),
        ("Reckless 0.7.0", "1234567", "", "2026-11-27", "10+0.1", 100, (40, 13, 47), 96.2,
         50.0, (6,)),
    ]
    if got != want:
        print("selftest FAILED: the sample's points are")
        for g in got:
            print("   ", g)
        print("  instead of")
        for w in want:
            print("   ", w)
        return False
    return True


# ---------------------------------------------------------------- the picture

# One colour per engine (in ENGINES' order), a darker one for its second version or setting
# and another for its third (a version played both as a plain and as a native build); one
# marker shape per engine, others for the second and the third.
COLOURS = [("#2ca02c", "#156315", "#98c93c"), ("#9467bd", "#5a3a80", "#c49bd9"),
           ("#ff7f0e", "#a85200", "#f5b041"), ("#7f7f7f", "#333333", "#b0b0b0"),
           ("#17becf", "#0a6e78", "#1f5fbf"), ("#8c564b", "#4d2c25", "#c08552"),
           ("#d62728", "#801515", "#f08080"), ("#e377c2", "#9c3d80", "#f4b6de")]
SHAPES = [("diamond", "square", "triangle"), ("triangle", "down", "square"),
          ("down", "triangle", "diamond"), ("square", "circle", "diamond"),
          ("circle", "diamond", "square"), ("square", "triangle", "circle"),
          ("circle", "square", "triangle"), ("diamond", "circle", "square")]
W, H = 1280, 760
LEFT, RIGHT, TOP, BOTTOM = 84, 300, 86, 118


def marker(shape, x, y, r, color, filled):
    fill = color if filled else "white"
    style = f'fill="{fill}" stroke="{color}" stroke-width="2"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" {style}/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" {style}/>'
    corners = {"diamond": [(0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)],
               "triangle": [(0, -1.3), (1.2, 0.9), (-1.2, 0.9)],
               "down": [(0, 1.3), (1.2, -0.9), (-1.2, -0.9)]}[shape]
    pts = " ".join(f"{x + dx * r:.1f},{y + dy * r:.1f}" for dx, dy in corners)
    return f'<polygon points="{pts}" {style}/>'


def text(x, y, s, size=14, anchor="start", weight="normal", color="#222", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{color}"{extra}>{html.escape(s)}</text>')


def builds_in_order(points):
    first = {}
    for p in points:
        key = (p.date, p.line)
        if p.build not in first or key < first[p.build]:
            first[p.build] = key
    return sorted(first, key=first.get), {b: first[b][0] for b in first}


def family(name):
    return next(i for i, e in enumerate(ENGINES) if name.startswith(e))


def series_in_order(points):
    """The opponents, each engine's together, engines and their versions in the order they
    were first played."""
    first = {}
    for p in points:
        first.setdefault(p.opponent, (p.date, p.line))
        first[p.opponent] = min(first[p.opponent], (p.date, p.line))
    engine_first = {}
    for name, when in first.items():
        f = family(name)
        engine_first[f] = min(engine_first.get(f, when), when)
    return sorted(first, key=lambda n: (engine_first[family(n)], first[n]))


def series_style(series):
    style, seen = {}, collections.Counter()
    for name in series:
        f = family(name)
        k = min(seen[f], len(COLOURS[f]) - 1)
        seen[f] += 1
        style[name] = COLOURS[f][k], SHAPES[f][k]
    return style


def svg_of(points):
    builds, dates = builds_in_order(points)
    series = series_in_order(points)
    style = series_style(series)
    clocks = collections.Counter(p.clock for p in points)
    main_clock = clocks.most_common(1)[0][0]
    lo = math.floor(min(p.elo - p.err for p in points) / 100) * 100
    hi = math.ceil(max(p.elo + p.err for p in points) / 100) * 100
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM
    col_w = plot_w / len(builds)
    y_of = lambda elo: TOP + (hi - elo) / (hi - lo) * plot_h

    # Points of one build column spread across it, by series then log order.
    xs = {}
    for i, b in enumerate(builds):
        here = sorted((p for p in points if p.build == b),
                      key=lambda p: (series.index(p.opponent), p.line))
        step = min(14.0, col_w * 0.7 / max(1, len(here) - 1)) if len(here) > 1 else 0
        for k, p in enumerate(here):
            xs[id(p)] = LEFT + (i + 0.5) * col_w + (k - (len(here) - 1) / 2) * step

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           text(LEFT, 34, "Cutoff against other engines, build by build", 22, weight="bold"),
           text(LEFT, 58, f"Elo from Cutoff's side with its 95 % interval: {len(points)} matches, "
                f"{sum(sum(p.wld) for p in points):,} games, from the gauntlet tables of "
                f"docs/strength.md", 14, color="#444")]
    for e in range(lo, hi + 1, 50):
        y = y_of(e)
        major = e % 100 == 0
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
                   f'stroke="{"#000" if e == 0 else "#ddd" if major else "#f0f0f0"}" '
                   f'stroke-width="{1.6 if e == 0 else 1}"/>')
        if major:
            out.append(text(LEFT - 10, y + 5, f"{e:+d}" if e else "0", 14, "end"))
    for i in range(len(builds) + 1):
        x = LEFT + i * col_w
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                   f'stroke="#eee"/>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" '
               f'stroke="#888"/>')
    out.append(text(22, TOP + plot_h / 2, "Elo (Cutoff's side)", 15, "middle",
                    extra=f' transform="rotate(-90 22 {TOP + plot_h / 2:.1f})"'))
    for i, b in enumerate(builds):
        x = LEFT + (i + 0.5) * col_w
        bench, _, variant = b.partition(" + ")
        out.append(text(x, TOP + plot_h + 22, bench, 13, "middle"))
        out.append(text(x, TOP + plot_h + 40, f"{dates[b].day} {MONTHS[dates[b].month - 1]}",
                        13, "middle", color="#555"))
        if variant:
            out.append(text(x, TOP + plot_h + 58, f"+ {variant}", 13, "middle", color="#555"))
    out.append(text(LEFT + plot_w / 2, H - 22, "build: its bench node count (Bench: N) and the "
                    "date of its first match here, in the order played", 15, "middle"))

    for name in series:
        color, shape = style[name]
        mine = sorted((p for p in points if p.opponent == name), key=lambda p: xs[id(p)])
        if len(mine) > 1:
            path = " ".join(f"{xs[id(p)]:.1f},{y_of(p.elo):.1f}" for p in mine)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                       f'stroke-width="1.5" stroke-opacity="0.55"/>')
        for p in mine:
            x, y = xs[id(p)], y_of(p.elo)
            y1, y2 = y_of(p.elo + p.err), y_of(p.elo - p.err)
            tip = (f"{name}: {p.elo:+.1f} ± {p.err:.1f}, {sum(p.wld)} games "
                   f"({'-'.join(map(str, p.wld))}), Bench: {p.bench}"
                   f"{' + net' if p.variant else ''}, {p.clock}, {p.date}; {p.label} "
                   f"(docs/strength.md line {p.line})")
            out.append(f'<g><title>{html.escape(tip)}</title>'
                       f'<line x1="{x:.1f}" y1="{y1:.1f}" x2="{x:.1f}" y2="{y2:.1f}" '
                       f'stroke="{color}" stroke-width="2"/>'
                       f'<line x1="{x - 4:.1f}" y1="{y1:.1f}" x2="{x + 4:.1f}" y2="{y1:.1f}" '
                       f'stroke="{color}" stroke-width="2"/>'
                       f'<line x1="{x - 4:.1f}" y1="{y2:.1f}" x2="{x + 4:.1f}" y2="{y2:.1f}" '
                       f'stroke="{color}" stroke-width="2"/>'
                       + marker(shape, x, y, 5, color, p.clock == main_clock) + "</g>")

    lx, ly = LEFT + plot_w + 24, TOP + 8
    out.append(text(lx, ly + 6, "opponent (matches)", 15, weight="bold"))
    for s_i, name in enumerate(series):
        color, shape = style[name]
        y = ly + 34 + s_i * 26
        out.append(marker(shape, lx + 8, y - 5, 6, color, True))
        count = sum(p.opponent == name for p in points)
        out.append(text(lx + 24, y, f"{name} ({count})", 14))
    y = ly + 34 + len(series) * 26 + 18
    others = sorted((c for c in clocks if c != main_clock), key=lambda c: -clocks[c])
    out.append(marker("circle", lx + 8, y - 5, 6, "#555", True))
    out.append(text(lx + 24, y, f"filled: {main_clock} ({clocks[main_clock]})", 14))
    out.append(marker("circle", lx + 8, y + 21, 6, "#555", False))
    out.append(text(lx + 24, y + 26, "hollow: " + ", ".join(
        f"{c} ({clocks[c]})" for c in others), 14))
    out.append(text(lx, y + 60, "Above 0: Cutoff ahead.", 13, color="#444"))
    out.append(text(lx, y + 80, "One column per bench; points in", 13, color="#444"))
    out.append(text(lx, y + 98, "a column spread apart to be seen.", 13, color="#444"))
    out.append(text(lx, y + 124, "Regenerate:", 13, color="#444"))
    out.append(text(lx, y + 142, "python3 tools/climb.py", 13, color="#444",
                    extra=' font-family="DejaVu Sans Mono, monospace"'))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def listing(points):
    builds, _ = builds_in_order(points)
    rows = []
    for b in builds:
        for p in sorted((p for p in points if p.build == b), key=lambda p: p.line):
            rows.append(f"{p.date}  Bench: {p.build:<16} {p.opponent:<26} {p.clock:<7} "
                        f"{sum(p.wld):>4} games  {'-'.join(map(str, p.wld)):<11} "
                        f"{p.elo:+7.1f} ± {p.err:5.1f}   line {p.line}")
    return "\n".join(rows)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="self-test, check the tables against themselves and docs/games, and "
                         "that docs/climb.svg is what this script draws now; writes nothing")
    args = ap.parse_args(argv)
    points = read_points(LOG.read_text(encoding="utf-8"))
    if not points:
        raise SystemExit("docs/strength.md: no gauntlet rows found")
    picture = svg_of(points)
    if not args.check:
        SVG.write_text(picture, encoding="utf-8")
        print(listing(points))
        print(f"wrote {SVG.relative_to(ROOT)}: {len(points)} matches")
        return 0
    ok = selftest()
    failures, notes, compared = check_points(points, match_logs())
    for n in notes:
        print("note:", n)
    for f in failures:
        print("FAIL:", f)
    if not SVG.exists() or SVG.read_text(encoding="utf-8") != picture:
        failures.append("stale")
        print("FAIL: docs/climb.svg is not what docs/strength.md draws now: run "
              "`python3 tools/climb.py` and commit docs/climb.svg")
    ok = ok and not failures
    print(f"climb check {'passed' if ok else 'FAILED'}: {len(points)} matches, "
          f"{compared} of them checked against their logs in docs/games, "
          f"{len(failures)} failures, {len(notes)} notes")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
