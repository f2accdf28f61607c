#!/bin/bash
# The clocked proof a net owes before it becomes the default evaluation (issue 30; docs/nets.md):
#   1. nps side by side: the same binary with Evaluation classical and net (tools/nps.py);
#   2. the net against the classical evaluation: 400 games at 10+0.1 (+60 Elo wanted);
#   3. gauntlets with the net: Toga II 3.0 (400 games) and Ethereal 12 (200 games) at 10+0.1.
# And what the net's second generation owes (issue 39):
#   4. the net against the first net, nets/cutoff-256-m15-l10.nnue: 400 games at 10+0.1;
#   5. gauntlets of 200 games at 10+0.1: Ethereal 12 and akimbo 0.6.0;
#   6. Reckless 0.6.0, 200 games (once Ethereal is passed).
# And what the net's third generation owes (issue 53):
#   7. the net against the sixth net, nets/cutoff-256-m40-l10-d30.nnue: 400 games at 10+0.1;
#   8. gauntlets at 10+0.1: akimbo 0.6.0 200 games, Reckless 0.6.0 200, akimbo 0.7.0 100.
# One thread and Hash 16 each, 8moves_v3, concurrency 2 (one game a core on this 2-core
# machine): run it on an otherwise idle machine; 100 games take about half an hour.
#
#   tools/net_proof.sh [ENGINE] [NET] [STEPS]   # default target/release/cutoff, the built-in net, "1 2 3"
#
# Needs python-chess, ../shared/tools/match.py, /usr/games/toga2 and /usr/games/ethereal-chess
# (apt-get install toga2 ethereal-chess), and for steps 5, 6 and 8 akimbo and Reckless built from
# their source as ../shared/tools/rungs.md says (AKIMBO, AKIMBO7 and RECKLESS name other paths).
# GAMES=N plays N games in each match of the steps instead (a stream to pool with another, whose
# SEED=S differs). Each step writes proof-*.log (and .pgn) here.
set -euo pipefail
engine=${1:-target/release/cutoff}
net=${2:-<empty>}
steps=${3:-1 2 3}
root=$(cd "$(dirname "$0")/.." && pwd)
match=${MATCH:-$root/../shared/tools/match.py}
book=${BOOK:-$root/../shared/books/8moves_v3.epd}
akimbo=${AKIMBO:-$root/../rungs/akimbo-0.6.0/target/release/akimbo}
reckless=${RECKLESS:-$root/../rungs/reckless-0.6.0/target/release/reckless}
akimbo7=${AKIMBO7:-$root/../rungs/akimbo-0.7.0/target/release/akimbo}
with_net=(option.Evaluation=net "option.EvalFile=$net" option.Threads=1)
play() { # name, games, seed, then the two --engine argument lists as strings
    local name=$1 games=${GAMES:-$2} seed=${SEED:-$3}
    shift 3
    python3 "$match" "$@" --each option.Hash=16 --tc 10+0.1 --games "$games" \
        --concurrency 2 --book "$book" --seed "$seed" --pgn-out "proof-$name.pgn" >"proof-$name.log" 2>&1
    grep -m1 '^Elo' "proof-$name.log" | sed "s/^/$name: /"
}
for step in $steps; do
    case $step in
    1) python3 "$root/tools/nps.py" --rounds 2 --engine classical="$engine" --engine net="$engine" \
        --option net:Evaluation=net --option "net:EvalFile=$net" | tee proof-nps.log ;;
    2) play net-vs-classical 400 3300 --engine cmd="$engine" name=net "${with_net[@]}" \
        --engine cmd="$engine" name=classical option.Evaluation=classical option.Threads=1 ;;
    3) play net-vs-toga 400 3301 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd=/usr/games/toga2 name=toga2 option.OwnBook=false "option.Number of Threads=1"
       play net-vs-ethereal 200 3302 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd=/usr/games/ethereal-chess name=ethereal option.Threads=1 ;;
    4) play net-vs-first-net 400 3906 --engine cmd="$engine" name=net "${with_net[@]}" \
        --engine cmd="$engine" name=first-net option.Evaluation=net \
        "option.EvalFile=$root/nets/cutoff-256-m15-l10.nnue" option.Threads=1 ;;
    5) play net-vs-ethereal-2 200 3907 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd=/usr/games/ethereal-chess name=ethereal option.Threads=1
       play net-vs-akimbo 200 3908 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd="$akimbo" name=akimbo-0.6.0 option.Threads=1 ;;
    6) play net-vs-reckless 200 3909 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd="$reckless" name=reckless-0.6.0 option.Threads=1 ;;
    7) play net-vs-sixth-net 400 4110 --engine cmd="$engine" name=net "${with_net[@]}" \
        --engine cmd="$engine" name=sixth-net option.Evaluation=net \
        "option.EvalFile=$root/nets/cutoff-256-m40-l10-d30.nnue" option.Threads=1 ;;
    8) play net-vs-akimbo-3 200 4111 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd="$akimbo" name=akimbo-0.6.0 option.Threads=1
       play net-vs-reckless-3 200 4112 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd="$reckless" name=reckless-0.6.0 option.Threads=1
       play net-vs-akimbo-0.7 100 4113 --engine cmd="$engine" name=cutoff-net "${with_net[@]}" \
        --engine cmd="$akimbo7" name=akimbo-0.7.0 option.Threads=1 ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
    esac
done
