//! The learned evaluation through the engine: the incremental accumulators equal fresh ones
//! at every node of the perft suite's trees and of searches of the bench positions; `EvalFile`
//! loads a net and refuses a missing, truncated or damaged one, keeping the current net;
//! `Evaluation net` needs a net.

mod common;

use std::fs;
use std::sync::Arc;
use std::time::Duration;

use common::{is_error_report, Engine};
use cutoff::eval::nnue::{Accumulators, Layout, Network, INPUTS, OUTPUT_BUCKETS};
use cutoff::eval::EvaluatorKind;
use cutoff::position::{read_fen, FenPolicy, Game, MoveDelta};
use cutoff::rng::Rng;
use cutoff::search::{Limits, Searcher, Settings};
use shakmaty::{CastlingMode, Chess, Position};

/// A net of seeded random weights in the ranges a trained one has, of one output bucket.
fn random_network(hidden: usize, seed: u64) -> Network {
    random_bucketed_network(hidden, 1, seed)
}

/// A net of seeded random weights with `buckets` output buckets, each its own random row and
/// bias (one bucket draws what `random_network` drew before buckets).
fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    random_network_of(Layout::Plain, hidden, buckets, seed)
}

/// [`random_bucketed_network`] with inputs of `layout` (the same weights for plain and mirrored
/// inputs; king buckets draw a row for each of their 4 × 768 inputs).
fn random_network_of(layout: Layout, hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut draw = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    let w1 = (0..layout.inputs() * hidden)
        .map(|_| draw(-60, 60))
        .collect();
    let b1 = (0..hidden).map(|_| draw(-20, 120)).collect();
    let w2 = (0..buckets * 2 * hidden).map(|_| draw(-126, 126)).collect();
    let b2 = (0..buckets).map(|_| i32::from(draw(-3000, 3000))).collect();
    Network::from_layout_and_weights(layout, w1, b1, w2, b2)
}

fn walk(acc: &mut Accumulators, net: &Network, pos: &Chess, ply: usize, depth: u32) -> u64 {
    assert_eq!(acc.evaluate(ply, pos), net.evaluate(pos));
    if depth == 0 {
        return 1;
    }
    let mut nodes = 1;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        acc.update(MoveDelta::of(pos, &m), ply, child.board());
        nodes += walk(acc, net, &child, ply + 1, depth - 1);
    }
    nodes
}

/// Every node two plies deep from each of the perft suite's positions (castling of every
/// kind, en passant, promotions): the incremental value is the value from scratch, with one
/// output bucket and with eight (captures change the bucket on the way).
#[test]
fn incremental_values_equal_fresh_ones_over_the_perft_suite() {
    for buckets in [1, OUTPUT_BUCKETS] {
        let net = Arc::new(random_bucketed_network(32, buckets, 11));
        let mut acc = Accumulators::new(Arc::clone(&net));
        let suite = include_str!("../epd/perft_standard.epd");
        let mut nodes = 0;
        for line in suite.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap().trim();
            let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
            acc.refresh(&pos, 0);
            nodes += walk(&mut acc, &net, &pos, 0, 2);
        }
        assert!(nodes > 10_000, "{nodes}");
    }
}

/// Searches of the bench positions with a net of 8 output buckets and every evaluation checked
/// against one from scratch (the evaluator panics on a difference), on one thread and on two:
/// a helper's panic is caught so that the search still answers, and comes back in the
/// outcome's `helper_failures`, which must be empty; the main thread's panic is caught too and
/// comes back in `failure`, which must be `None` (else a mismatch there would pass unseen).
/// And with a net of mirrored inputs on one thread (kings crossing the d/e boundary in search),
/// and one of king buckets (kings changing bucket too) on one thread and on two.
#[test]
fn incremental_values_equal_fresh_ones_in_bench_searches() {
    let plain = random_bucketed_network(32, OUTPUT_BUCKETS, 12);
    let mirrored = random_network_of(Layout::Mirrored, 32, OUTPUT_BUCKETS, 12);
    let king_buckets = random_network_of(Layout::MirroredKingBuckets, 32, OUTPUT_BUCKETS, 12);
    for (net, threads) in [
        (&plain, 1),
        (&plain, 2),
        (&mirrored, 1),
        (&king_buckets, 1),
        (&king_buckets, 2),
    ] {
        let net = Arc::new(net.clone());
        let mut searcher = Searcher::new(16);
        searcher.set_network(Arc::clone(&net)).unwrap();
        searcher.set_settings(Settings {
            evaluator: EvaluatorKind::Net,
            verify_net: true,
            ..Settings::default()
        });
        searcher.set_threads(threads).unwrap();
        for pos in cutoff::bench::positions().into_iter().step_by(5) {
            let game = Game::new(pos, CastlingMode::Standard);
            let out = searcher.run(&game, &Limits::depth(5));
            assert_eq!(out.failure, None, "{threads} threads, {}", game.fen());
            assert!(out.best_move.is_some() || game.root.legal_moves().is_empty());
            assert!(
                out.stats.helper_failures.is_empty(),
                "{threads} threads, {}: {:?}",
                game.fen(),
                out.stats.helper_failures
            );
        }
    }
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("cutoff-nnue-{}-{name}", std::process::id()));
    fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn net_line(e: &mut Engine) -> String {
    e.send("eval");
    let lines = e.sync();
    lines
        .into_iter()
        .find(|l| l.starts_with("Net evaluation"))
        .expect("a net line")
}

#[test]
fn evalfile_loads_a_net_and_keeps_it_when_the_next_file_is_bad() {
    let net = random_network(32, 13);
    let good = temp_file("good.nnue", &net.to_bytes());
    let mut e = Engine::started();
    // The built-in net is there from the start.
    let built_in = format!("{:016x}", Network::embedded().unwrap().hash());
    assert!(net_line(&mut e).contains(&built_in));

    e.send(&format!("setoption name EvalFile value {good}"));
    let lines = e.sync();
    let hash = format!("{:016x}", net.hash());
    assert!(
        lines
            .iter()
            .any(|l| l.contains("loaded") && l.contains(&hash)),
        "{lines:?}"
    );
    e.send("setoption name Evaluation value net");
    assert!(!e.sync().iter().any(|l| is_error_report(l)));
    let r = e.search("position startpos", "go depth 6", Duration::from_secs(30));
    assert_ne!(r.bestmove, "(none)");

    let bytes = net.to_bytes();
    // The files are named for nothing their errors say: the reason must come from the
    // message's own words, which are read with the path taken out.
    let truncated = temp_file("a.nnue", &bytes[..bytes.len() / 2]);
    let mut flipped = bytes.clone();
    flipped[1000] ^= 0x40;
    let damaged = temp_file("b.nnue", &flipped);
    let header = temp_file("c.nnue", b"not a net at all");
    for (path, why) in [
        (truncated.as_str(), "(truncated?)"),
        (damaged.as_str(), "net file checksum"),
        (
            header.as_str(),
            "not a Cutoff net file (no CUTOFFNN header)",
        ),
        ("/no/such/net.nnue", "no such file or directory"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        let reasons: Vec<String> = lines
            .iter()
            .filter(|l| is_error_report(l) && l.contains(path))
            .map(|l| l.replace(path, "<path>"))
            .collect();
        assert!(
            reasons.iter().any(|l| l.contains(why)),
            "{path}: the error must name the file and say {why:?}: {lines:?}"
        );
        assert!(net_line(&mut e).contains(&hash), "the good net must stay");
    }
    let r = e.search(
        "position startpos moves e2e4",
        "go depth 6",
        Duration::from_secs(30),
    );
    assert_ne!(r.bestmove, "(none)");
    // `<empty>` goes back to the built-in net.
    e.send("setoption name EvalFile value <empty>");
    e.sync();
    assert!(net_line(&mut e).contains(&built_in));
    for f in [good, truncated, damaged, header] {
        let _ = fs::remove_file(f);
    }
}

/// `eval` says which evaluation the next search runs: the net by default, the classical one
/// under a strength limit (its levels were calibrated with it) or when chosen.
#[test]
fn eval_says_which_evaluation_the_search_uses() {
    let mut e = Engine::started();
    assert!(net_line(&mut e).ends_with("; the search uses it"));
    e.send("setoption name UCI_LimitStrength value true");
    assert!(net_line(&mut e).ends_with("(UCI_LimitStrength)"));
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Evaluation value classical");
    assert!(net_line(&mut e).ends_with("classical evaluation (Evaluation)"));
}

// ---- Hostile net files: every sum sound, every file bounded (issue 41) ----

/// The bytes of a 768 → `hidden` net of one output bucket with the given weights and a correct
/// checksum, whatever the weights are (`Network::from_weights` refuses what the loader would).
fn net_file(hidden: usize, w1: &[i16], b1: &[i16], w2: &[i16], b2: i32) -> Vec<u8> {
    bucketed_net_file(hidden, w1, b1, w2, &[b2])
}

/// [`net_file`] with `b2.len()` output buckets (`w2` holding each bucket's row in turn).
fn bucketed_net_file(hidden: usize, w1: &[i16], b1: &[i16], w2: &[i16], b2: &[i32]) -> Vec<u8> {
    let mut payload = Vec::new();
    for w in w1.iter().chain(b1).chain(w2) {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    for b in b2 {
        payload.extend_from_slice(&b.to_le_bytes());
    }
    // The header of a real net of that width, then the checksum of this payload.
    let mut bytes = random_network(hidden.min(16), 1).to_bytes()[..64].to_vec();
    bytes[16..20].copy_from_slice(&(hidden as u32).to_le_bytes());
    bytes[36..40].copy_from_slice(&(b2.len() as u32).to_le_bytes());
    bytes[56..64].copy_from_slice(&cutoff::eval::nnue::fnv1a(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    bytes
}

/// The engine's value of `pos` must be the trainer's reference pass (i32 accumulators, i64
/// sum: `QuantisedNet::evaluate`), kept below the bands of proven results.
fn assert_engine_equals_reference(net: &Network, bytes: &[u8], pos: &Chess, what: &str) {
    use cutoff::datagen::GameResult;
    use cutoff::train::data::Sample;
    use cutoff::train::quantised::QuantisedNet;
    let reference = QuantisedNet::from_bytes(bytes).unwrap();
    let sample = Sample::new(pos, 0, GameResult::Draw, reference.weights.layout);
    let want = reference.evaluate(sample.stm_features(), sample.nstm_features());
    let limit = i64::from(cutoff::types::Score::TB_WIN_BOUND.0 - 1);
    assert_eq!(
        i64::from(net.evaluate(pos).0),
        want.clamp(-limit, limit),
        "{what}: engine and reference differ (reference {want})"
    );
}

/// Nets at the very edges the loader accepts evaluate exactly as the trainer's reference: every
/// activation at its clamp with `|W2|` = 128 on 256 neurons sums to 4.26e9 over both halves (the
/// engine's i32 sum wrapped to a negative value before), `b2` at `i32::MAX` and `i32::MIN`, and
/// seeded random nets whose accumulators come close to the i16 limits.
#[test]
fn nets_at_the_edges_the_loader_accepts_evaluate_as_the_trainers_reference() {
    let positions: Vec<Chess> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        "4k3/8/8/8/8/8/8/4K2Q w - - 0 1",
    ]
    .iter()
    .map(|f| read_fen(f, CastlingMode::Standard, FenPolicy::Strict).unwrap())
    .collect();
    let h = 256;
    let flat =
        |w2: i16, b2: i32| net_file(h, &vec![0; INPUTS * h], &vec![300; h], &vec![w2; 2 * h], b2);
    for (w2, b2) in [
        (128, 0),
        (-128, 0),
        (128, i32::MAX),
        (-128, i32::MIN),
        (1, i32::MAX),
    ] {
        let bytes = flat(w2, b2);
        let net = Network::from_bytes(&bytes).expect("at the edge, accepted");
        for pos in &positions {
            assert_engine_equals_reference(&net, &bytes, pos, &format!("w2 {w2}, b2 {b2}"));
        }
    }
    let mut rng = Rng::new(41);
    let mut evaluated = [0; 2];
    for round in 0..12 {
        let h = 32;
        // Rounds 6 to 11 with 8 output buckets, each its own random row and bias.
        let buckets = if round < 6 { 1 } else { OUTPUT_BUCKETS };
        let mut draw = |lo: i32, hi: i32| lo + rng.below((hi - lo + 1) as usize) as i32;
        let w1: Vec<i16> = (0..INPUTS * h).map(|_| draw(-950, 950) as i16).collect();
        let b1: Vec<i16> = (0..h).map(|_| draw(-300, 300) as i16).collect();
        let w2: Vec<i16> = (0..buckets * 2 * h)
            .map(|_| draw(-128, 128) as i16)
            .collect();
        let b2: Vec<i32> = (0..buckets)
            .map(|_| draw(-2_000_000_000, 2_000_000_000))
            .collect();
        let bytes = bucketed_net_file(h, &w1, &b1, &w2, &b2);
        let net = match Network::from_bytes(&bytes) {
            Ok(net) => net,
            Err(e) => {
                assert!(e.contains("accumulator"), "round {round}: {e}");
                continue;
            }
        };
        for pos in &positions {
            assert_engine_equals_reference(&net, &bytes, pos, &format!("round {round}"));
        }
        evaluated[usize::from(buckets > 1)] += 1;
    }
    assert!(
        evaluated.iter().all(|&n| n > 0),
        "nets evaluated: {evaluated:?}"
    );
}

/// Output buckets from hostile files: a bucket count the engine does not run (3), a file whose
/// size is not its bucket count's, a cut bucketed file, a version 1 file (no bucket field)
/// with a bucket count in its reserved bytes, and an unknown version are each refused with the
/// reason, through `EvalFile` too, keeping the net before; a net of 8 buckets loads.
#[test]
fn a_net_file_with_a_bucket_count_the_engine_does_not_run_or_another_size_is_refused() {
    let eight = random_bucketed_network(16, OUTPUT_BUCKETS, 21).to_bytes();
    let one = random_network(16, 21).to_bytes();
    let mut three = eight.clone();
    three[36] = 3;
    let mut eight_claimed = one.clone();
    eight_claimed[36] = 8;
    let cut = eight[..eight.len() - 4].to_vec();
    let mut v1_with_buckets = eight.clone();
    v1_with_buckets[8] = 1;
    let mut v4 = one.clone();
    v4[8] = 4;
    // Version 3 says its input layout in bytes 40..44: 0 plain, 1 mirrored, nothing else.
    let mut layout = one.clone();
    layout[8] = 3;
    layout[40] = 7;
    let cases: [(&str, &[u8], &str, &str); 6] = [
        (
            "three.nnue",
            &three,
            "3 output buckets: the engine loads 1 or 8 (by piece count)",
            "3 output buckets: the engine loads 1 or 8 (by piece count)",
        ),
        (
            "claimed.nnue",
            &eight_claimed,
            "expected for a 768 -> 16 net of 8 output buckets (truncated?)",
            "expected by its header (truncated?)",
        ),
        (
            "cut.nnue",
            &cut,
            "expected for a 768 -> 16 net of 8 output buckets (truncated?)",
            "expected by its header (truncated?)",
        ),
        (
            "v1.nnue",
            &v1_with_buckets,
            "header byte 36 (reserved, zero) is 8, the format's is 0",
            "header byte 36 (reserved, zero) is 8, the format's is 0",
        ),
        (
            "v4.nnue",
            &v4,
            "net file version 4 (this build reads 1 to 3)",
            "net file version 4 (this build reads 1 to 3)",
        ),
        (
            "layout.nnue",
            &layout,
            "header byte 40 (input layout) is 7: this build reads 0 (plain), 1 (horizontally mirrored) or 2 (mirrored, 4 king buckets)",
            "header byte 40 (input layout) is 7: this build reads 0 (plain), 1 (horizontally mirrored) or 2 (mirrored, 4 king buckets)",
        ),
    ];
    let good = temp_file("eight.nnue", &eight);
    let mut e = Engine::started();
    e.send(&format!("setoption name EvalFile value {good}"));
    let lines = e.sync();
    let loaded = format!(
        "loaded the 768x16 net (8 output buckets) {:016x}",
        random_bucketed_network(16, OUTPUT_BUCKETS, 21).hash()
    );
    assert!(lines.iter().any(|l| l.contains(&loaded)), "{lines:?}");
    let before = net_line(&mut e);
    for (name, bytes, read, through_evalfile) in cases {
        let error = Network::from_bytes(bytes).unwrap_err();
        assert!(error.contains(read), "{name}: {error}");
        let path = temp_file(name, bytes);
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| is_error_report(l)
                && l.contains(&path)
                && l.replace(&path, "<path>").contains(through_evalfile)),
            "{name}: {lines:?}"
        );
        assert_eq!(net_line(&mut e), before, "{name}: the net before must stay");
        let _ = fs::remove_file(path);
    }
    let _ = fs::remove_file(good);
}

/// A net whose sums could wrap is refused at load, saying which sum: a checksum-correct file
/// with an output weight of 20,000 evaluated the start position at -52,608,902 cp before.
#[test]
fn a_net_whose_integer_sums_could_wrap_is_refused_with_the_reason() {
    let h = 16;
    let base = random_network(h, 7);
    let bytes = base.to_bytes();
    let words = |from: usize, n: usize| -> Vec<i16> {
        bytes[64 + 2 * from..64 + 2 * (from + n)]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let (w1, b1, w2) = (
        words(0, INPUTS * h),
        words(INPUTS * h, h),
        words(INPUTS * h + h, 2 * h),
    );
    let mut big_w2 = w2.clone();
    big_w2[3] = 20_000;
    let e = Network::from_bytes(&net_file(h, &w1, &b1, &big_w2, 0)).unwrap_err();
    assert!(e.contains("output weight 3 is 20000"), "{e}");
    // Neuron 5 gets 1,100 from every feature: 32 pieces take it past 32,767.
    let mut big_w1 = w1.clone();
    for f in 0..INPUTS {
        big_w1[f * h + 5] = 1_100;
    }
    let e = Network::from_bytes(&net_file(h, &big_w1, &b1, &w2, 0)).unwrap_err();
    assert!(e.contains("neuron 5's accumulator"), "{e}");
    // 1,024 neurons at |W2| = 128 can sum past i32 in one perspective.
    let wide = 1024;
    let e = Network::from_bytes(&net_file(
        wide,
        &vec![0; INPUTS * wide],
        &vec![0; wide],
        &vec![128; 2 * wide],
        0,
    ))
    .unwrap_err();
    assert!(e.contains("output half 0 can sum to"), "{e}");
    // Through the engine: the error names the file, and the net before it stays.
    let extreme = temp_file("extreme.nnue", &net_file(h, &w1, &b1, &big_w2, 0));
    let mut e = Engine::started();
    let before = net_line(&mut e);
    e.send(&format!("setoption name EvalFile value {extreme}"));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| is_error_report(l) && l.contains(&extreme) && l.contains("output weight")),
        "{lines:?}"
    );
    assert_eq!(net_line(&mut e), before, "the net before must stay");
    let _ = fs::remove_file(extreme);
}

/// Every byte of a net file is checked or hashed: bytes 36..56 (reserved, zero) were neither,
/// so a file with one of them set loaded as if whole. Now the header is compared byte by byte
/// with the format's, and the first byte that differs is named, at load and through `EvalFile`.
#[test]
fn a_net_whose_header_differs_from_the_formats_is_refused_with_the_byte_named() {
    let bytes = random_network(16, 9).to_bytes();
    // Version 2's reserved bytes are 40..56 (36..40 hold the bucket count).
    for at in [40, 45, 55] {
        let mut changed = bytes.clone();
        changed[at] = 1;
        let e = Network::from_bytes(&changed).unwrap_err();
        assert!(
            e.contains(&format!("header byte {at} (reserved, zero) is 1")),
            "{e}"
        );
    }
    let mut changed = bytes.clone();
    changed[40] = 0x80;
    let path = temp_file("reserved.nnue", &changed);
    let mut e = Engine::started();
    let before = net_line(&mut e);
    e.send(&format!("setoption name EvalFile value {path}"));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| is_error_report(l) && l.contains(&path) && l.contains("header byte 40")),
        "{lines:?}"
    );
    assert_eq!(net_line(&mut e), before, "the net before must stay");
    let _ = fs::remove_file(path);
}

/// `EvalFile` on a device, a named pipe, a folder or a file larger than its header says is
/// refused at once, before it is read, naming the path; the engine runs under a 2 GiB address
/// space limit, so reading `/dev/zero` without bound (which grew it past 16 GB before) fails
/// this test by the engine dying rather than by taking the machine's memory.
#[cfg(unix)]
#[test]
fn evalfile_refuses_devices_pipes_folders_and_oversize_files_unread() {
    let dir = std::env::temp_dir().join(format!("cutoff-nnue-{}-hostile", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("folder.nnue")).unwrap();
    let pipe = dir.join("pipe.nnue");
    let c = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // A good header promising 256 neurons, then 100 MB (sparse: no disk is used).
    let oversize = dir.join("oversize.nnue");
    let embedded = Network::embedded().unwrap().to_bytes();
    fs::write(&oversize, &embedded[..64]).unwrap();
    // Not "(truncated?)": nothing was cut from it (issue 80).
    let too_long = format!(
        "expected by its header ({} bytes past the net's end: the file is longer than its \
         header says)",
        (100 << 20) - embedded.len()
    );
    fs::File::options()
        .write(true)
        .open(&oversize)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let mut e = Engine::with_memory_limit(2 << 30);
    e.handshake();
    let before = net_line(&mut e);
    let cases = [
        (
            "/dev/zero".to_string(),
            "a character device, not a regular file",
        ),
        (
            pipe.display().to_string(),
            "a named pipe, not a regular file",
        ),
        (dir.join("folder.nnue").display().to_string(), "a directory"),
        (oversize.display().to_string(), too_long.as_str()),
        (
            dir.join("missing.nnue").display().to_string(),
            "no such file or directory",
        ),
    ];
    for (path, why) in cases {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        assert!(
            lines
                .iter()
                .any(|l| is_error_report(l) && l.contains(&path) && l.contains(why)),
            "{path}: {lines:?}"
        );
        assert_eq!(net_line(&mut e), before, "{path}: the net before must stay");
    }
    let r = e.search("position startpos", "go depth 5", Duration::from_secs(30));
    assert_ne!(r.bestmove, "(none)");
    let _ = fs::remove_dir_all(&dir);
}
