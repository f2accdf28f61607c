#!/bin/bash
# Calibration games of the strength limit (issue 32; docs/strength.md, "Strength limit"):
# Cutoff at UCI_Elo E against Stockfish 15.1 at Skill Level k, 200 games at 5+0.05, one
# thread each, Hash 16, concurrency 2, 8moves_v3 openings. Run on an otherwise idle machine:
# the levels from 2000 up are bound by the clock as well as by their node budget.
#
#   tools/strength_calibration.sh [ENGINE] [GAMES]     # default target/release/cutoff, 200
#
# Needs python-chess (`pip install chess`), /usr/games/stockfish (Debian's 15.1) and
# ../shared/tools/match.py. Each point writes cal-E-sfK.log and .pgn in the current folder.
set -euo pipefail
engine=${1:-target/release/cutoff}
games=${2:-200}
root=$(cd "$(dirname "$0")/.." && pwd)
match=${MATCH:-$root/../shared/tools/match.py}
book=${BOOK:-$root/../shared/books/8moves_v3.epd}
# UCI_Elo, the Stockfish level whose Elo (Stockfish 16's refit) is nearest to it, and the
# opening seed of the recorded run (the 2500 row was played as 2400 of the rows before it,
# with the same budget and weakness).
for point in "2600 8 322600" "2500 6 322400" "2000 4 322000" "1500 2 321500"; do
    set -- $point
    python3 "$match" \
        --engine cmd="$engine" name="cutoff-$1" option.UCI_LimitStrength=true option.UCI_Elo="$1" \
        --engine cmd=/usr/games/stockfish name="sf-skill$2" "option.Skill Level=$2" \
        --each option.Hash=16 option.Threads=1 --tc 5+0.05 --games "$games" --concurrency 2 \
        --book "$book" --seed "$3" --pgn-out "cal-$1-sf$2.pgn" >"cal-$1-sf$2.log" 2>&1
    grep -m1 '^Elo' "cal-$1-sf$2.log" | sed "s/^/UCI_Elo $1 vs Skill Level $2: /"
done
