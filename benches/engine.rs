//! Criterion micro-benchmarks: move generation, perft, evaluation and a fixed-depth search.
//! Each group is kept short (few samples, about a second of measurement) so that
//! `cargo bench` finishes in a few minutes.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use cutoff::bench::positions;
use cutoff::eval::classical::evaluate;
use cutoff::perft::perft;
use cutoff::position::Game;
use cutoff::search::{Limits, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const SAMPLES: usize = 10;
const WARM_UP: Duration = Duration::from_millis(500);
const MEASUREMENT: Duration = Duration::from_secs(2);
/// Depth of the search benchmark, and how many bench positions it searches.
const SEARCH_DEPTH: i32 = 5;
const SEARCH_POSITIONS: usize = 4;

fn kiwipete() -> Chess {
    KIWIPETE
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn movegen(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("legal_moves x50 bench positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
}

fn perft4(c: &mut Criterion) {
    let start = Chess::default();
    let kiwipete = kiwipete();
    c.bench_function("perft 4 startpos", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    c.bench_function("perft 4 kiwipete", |b| {
        b.iter(|| perft(black_box(&kiwipete), 4))
    });
}

fn eval(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("evaluate x50 bench positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p)).0)
                .sum::<i32>()
        })
    });
}

fn search(c: &mut Criterion) {
    let games: Vec<Game> = positions()
        .into_iter()
        .take(SEARCH_POSITIONS)
        .map(|p| Game::new(p, CastlingMode::Standard))
        .collect();
    let mut searcher = Searcher::new(16);
    let limits = Limits::depth(SEARCH_DEPTH);
    c.bench_function("search depth 5 x4 bench positions", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| {
                    searcher.clear();
                    searcher.run(g, &limits).nodes
                })
                .sum::<u64>()
        })
    });
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(SAMPLES)
        .warm_up_time(WARM_UP)
        .measurement_time(MEASUREMENT)
}

criterion_group! {
    name = engine;
    config = config();
    targets = movegen, perft4, eval, search
}
criterion_main!(engine);
