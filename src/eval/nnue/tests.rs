use super::*;
use crate::position::pos;
use crate::rng::Rng;
use shakmaty::CastlingMode;
use shakmaty::Position;

/// A network of seeded random weights in the ranges a trained one has, of one output bucket.
pub(crate) fn random_network(hidden: usize, seed: u64) -> Network {
    random_bucketed_network(hidden, 1, seed)
}

/// A network of seeded random weights with `buckets` output buckets, each its own random row
/// and bias (one bucket draws what [`random_network`] drew before buckets).
pub(crate) fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    random_network_of(Layout::Plain, hidden, buckets, seed)
}

/// [`random_bucketed_network`] with inputs of `layout` (the same weights for plain and
/// mirrored inputs; king buckets draw a row for each of their 4 × 768 inputs).
pub(crate) fn random_network_of(
    layout: Layout,
    hidden: usize,
    buckets: usize,
    seed: u64,
) -> Network {
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

const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/P1k5/K7/8/8/8/6p1/8 b - - 0 1",
];

/// A net file with bytes after its end was refused as "(truncated?)", which sent its reader
/// looking for a cut (issue 80): it is said to be longer than its header says, by how much,
/// from a file and from bytes; a file cut short is still "(truncated?)".
#[test]
fn a_net_file_longer_than_its_header_says_is_not_called_truncated() {
    let bytes = random_network(16, 5).to_bytes();
    let n = bytes.len();
    let mut long = bytes.clone();
    long.extend_from_slice(b"extra");
    let dir = std::env::temp_dir().join(format!("cutoff-nnue-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (long_path, short_path) = (dir.join("long.nnue"), dir.join("short.nnue"));
    std::fs::write(&long_path, &long).unwrap();
    std::fs::write(&short_path, &bytes[..n - 5]).unwrap();
    let from_file = Network::load(&long_path).unwrap_err();
    let cut_file = Network::load(&short_path).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    let long_says = format!(
        "net file of {} bytes, {n} expected by its header (5 bytes past the net's end: the file is \
         longer than its header says)",
        n + 5
    );
    assert!(from_file.ends_with(&long_says), "{from_file}");
    let from_bytes = Network::from_bytes(&long).unwrap_err();
    assert!(
        from_bytes
            .ends_with("(5 bytes past the net's end: the file is longer than its header says)"),
        "{from_bytes}"
    );
    for e in [&from_file, &from_bytes] {
        assert!(!e.contains("truncated"), "{e}");
    }
    let cut_says = format!(
        "net file of {} bytes, {n} expected by its header (truncated?)",
        n - 5
    );
    assert!(cut_file.ends_with(&cut_says), "{cut_file}");
    let cut_bytes = Network::from_bytes(&bytes[..n - 5]).unwrap_err();
    assert!(
        cut_bytes.ends_with("output bucket (truncated?)"),
        "{cut_bytes}"
    );
}

#[test]
fn a_net_file_round_trips_and_damage_is_refused_with_a_reason() {
    let bucketed = random_bucketed_network(32, 8, 1);
    let bytes = bucketed.to_bytes();
    assert_eq!(
        bytes.len(),
        HEADER_BYTES + 2 * 768 * 32 + 2 * 32 + 8 * (4 * 32 + 4)
    );
    assert_eq!(Network::from_bytes(&bytes).unwrap(), bucketed);
    let net = random_network(32, 1);
    let bytes = net.to_bytes();
    assert_eq!(
        bytes.len(),
        HEADER_BYTES + 2 * 768 * 32 + 2 * 32 + 4 * 32 + 4
    );
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let truncated = Network::from_bytes(&bytes[..bytes.len() - 10]).unwrap_err();
    assert!(truncated.contains("truncated"), "{truncated}");
    let mut flipped = bytes.clone();
    flipped[HEADER_BYTES + 100] ^= 1;
    let checksum = Network::from_bytes(&flipped).unwrap_err();
    assert!(checksum.contains("checksum"), "{checksum}");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(Network::from_bytes(&magic).unwrap_err().contains("header"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(Network::from_bytes(&version)
        .unwrap_err()
        .contains("version"));
    let mut width = bytes;
    width[16] = 33;
    assert!(Network::from_bytes(&width).unwrap_err().contains("shape"));
    assert!(Network::from_bytes(b"").is_err());
}

/// The AVX2 kernels give exactly the portable numbers (where the CPU has AVX2).
#[test]
fn simd_kernels_give_the_portable_results() {
    if !has_avx2() {
        crate::testing::skip(
            "simd_kernels_give_the_portable_results",
            crate::testing::Need::Machine,
            "no AVX2 here, the portable kernels only",
        );
        return;
    }
    let mut rng = Rng::new(5);
    // The built-in width (256) with every slice aligned runs the kernels compiled for its
    // length (aligned loads); the other widths, and every slice starting one value past a
    // 32-byte boundary, run the kernels that read the length at run time.
    for round in 0..400 {
        let n = [16, 32, 48, 64, 128, 240, 256, 272][round % 8];
        let shift = (round / 8) % 2;
        let mut draw = |r: i32| (rng.below((2 * r + 1) as usize) as i32 - r) as i16;
        // `n` values starting `shift` past an aligned start.
        let mut buffer = |r: i32| {
            let values: Vec<i16> = (0..shift + n).map(|_| draw(r)).collect();
            Aligned::from_slice(&values)
        };
        let (a, w, v) = (buffer(400), buffer(127), buffer(300));
        let (a, w, v) = (&a[shift..], &w[shift..], &v[shift..]);
        assert_eq!(is_aligned(a.as_ptr()), shift == 0);
        assert_eq!(
            screlu_dot(a, w),
            portable::screlu_dot(a, w),
            "round {round}"
        );
        let (mut x, mut y) = (a.to_vec(), a.to_vec());
        // SAFETY: AVX2 is present (checked above).
        unsafe { simd::fold_row::<false>(&mut x, w) };
        portable::fold_row::<false>(&mut y, w);
        assert_eq!(x, y);
        let (mut back_x, mut back_y) = (x.clone(), x.clone());
        // SAFETY: AVX2 is present (checked above).
        unsafe { simd::fold_row::<true>(&mut back_x, v) };
        portable::fold_row::<true>(&mut back_y, v);
        assert_eq!(back_x, back_y);
        portable::fold_row::<true>(&mut y, w);
        assert_eq!(y, a);
        let mut x_buffer = Aligned::zeroed(shift + n);
        x_buffer[shift..].copy_from_slice(&x);
        let x = &x_buffer[shift..];
        // The fused update with every count of rows a move takes out and puts in: the same
        // lanes as the portable pass, and taking `w` back out of `x` gives `a` again.
        let mut c1_buffer = Aligned::zeroed(shift + n);
        let c1 = &mut c1_buffer[shift..];
        let mut c2 = vec![0; n];
        let shapes: [(Rows, Rows, &str); 3] = [
            (
                [w].into_iter().collect(),
                [v].into_iter().collect(),
                "quiet",
            ),
            (
                [w, v].into_iter().collect(),
                [a].into_iter().collect(),
                "capture",
            ),
            (
                [w, v].into_iter().collect(),
                [a, w].into_iter().collect(),
                "castling",
            ),
        ];
        for (sub, add, shape) in shapes {
            update_into(true, c1, x, &sub, &add);
            portable::update_into(&mut c2, x, &sub, &add);
            assert_eq!(c1, &c2[..], "round {round}: {shape}");
        }
        let mut back = vec![0; n];
        portable::update_into(&mut back, x, &[w], &[]);
        assert_eq!(back, a);
        // Both perspectives' dots at once: at the built-in width, aligned, the paired kernel.
        assert_eq!(
            screlu_dots(a, w, v, w),
            (portable::screlu_dot(a, w), portable::screlu_dot(v, w)),
            "round {round}"
        );
    }
}

/// Walks the perft tree of `p` to `depth` (and a null move at every node), updating `acc`
/// move by move, and checks at every node that its pair equals one built from scratch and
/// evaluates alike; the nodes visited.
fn walk(acc: &mut Accumulators, net: &Network, p: &Chess, ply: Ply, depth: u32) -> u64 {
    let mut fresh = vec![0i16; 2 * net.hidden()];
    net.refresh(p.board(), &mut fresh);
    if acc.pair(ply) != fresh.as_slice() {
        let fen = shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal);
        panic!("the accumulators of {fen} differ from fresh ones");
    }
    assert_eq!(acc.evaluate(ply, p), net.evaluate(p));
    if depth == 0 {
        return 1;
    }
    let mut nodes = 1;
    for m in p.legal_moves() {
        let mut child = p.clone();
        child.play_unchecked(m);
        acc.update(MoveDelta::of(p, &m), ply, child.board());
        nodes += walk(acc, net, &child, ply + 1, depth - 1);
    }
    if let Ok(null) = p.clone().swap_turn() {
        acc.copy_to_child(ply);
        nodes += walk(acc, net, &null, ply + 1, 0);
    }
    nodes
}

/// Updated move by move, the accumulators equal the ones built from scratch at every node
/// of a perft tree (every kind of move: quiet, capture, en passant, castling both ways,
/// promotions with and without capture), and after null moves; at a small width and at the
/// built-in one (whose updates run the aligned kernels compiled for its length).
#[test]
fn incremental_accumulators_equal_fresh_ones_at_every_node() {
    for (hidden, buckets, depth, least) in [
        (32, 1, 3, 100_000),
        (32, OUTPUT_BUCKETS, 2, 4_000),
        (BUILT_IN_HIDDEN, OUTPUT_BUCKETS, 2, 4_000),
    ] {
        let net = Arc::new(random_bucketed_network(hidden, buckets, 2));
        let mut acc = Accumulators::new(Arc::clone(&net));
        let mut visited = 0;
        for fen in FENS {
            let p = pos(fen);
            acc.refresh(&p, 0);
            visited += walk(&mut acc, &net, &p, 0, depth);
        }
        assert!(visited > least, "{hidden}: {visited}");
    }
}

/// A position and its colour-flipped twin (board mirrored top to bottom, colours swapped,
/// the other side to move) evaluate the same: each perspective sees the same features.
#[test]
fn a_colour_flipped_position_evaluates_the_same() {
    let net = random_network(64, 3);
    for fen in FENS {
        let p = pos(fen);
        let mut setup = p.to_setup(shakmaty::EnPassantMode::Legal);
        setup.mirror();
        let twin: Chess = shakmaty::FromSetup::from_setup(setup, CastlingMode::Standard).unwrap();
        assert_eq!(net.evaluate(&p), net.evaluate(&twin), "{fen}");
    }
}

/// The built-in net (a version 2 file of 8 output buckets, the generation 3 recipe) loads,
/// with the checksum of `nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue`, and writes back as
/// the very bytes it was read from.
#[test]
fn the_built_in_net_loads() {
    let net = Network::embedded().expect("the embedded net must load");
    assert_eq!((net.hidden(), net.buckets()), (256, 8));
    assert_eq!(net.hash(), 0x0a4c_f734_e133_7312);
    assert_eq!(u32::from_le_bytes(EMBEDDED[8..12].try_into().unwrap()), 2);
    assert!(
        net.to_bytes() == EMBEDDED,
        "the built-in net does not write back as itself"
    );
}

/// The sixth net (`nets/cutoff-256-m40-l10-d30.nnue`, built in until generation 3, a version
/// 1 file) reads as a net of one bucket: every header byte, checksum and size hold, and it
/// writes back as the version 2 file of the same payload (so the same hash and weights),
/// which reads back as the same net.
#[test]
fn a_version_1_net_reads_as_one_bucket_and_writes_back_as_version_2() {
    let v1: &[u8] = include_bytes!("../../../nets/cutoff-256-m40-l10-d30.nnue");
    let net = Network::from_bytes(v1).expect("the sixth net must load");
    assert_eq!((net.hidden(), net.buckets()), (256, 1));
    assert_eq!(net.hash(), 0xe71b_f14a_f9e1_dcac);
    assert_eq!(u32::from_le_bytes(v1[8..12].try_into().unwrap()), 1);
    let written = net.to_bytes();
    assert!(
        written[HEADER_BYTES..] == v1[HEADER_BYTES..],
        "the sixth net's payload changed"
    );
    // The header differs in the version (1 -> 2) and the bucket count (reserved 0 -> 1) only.
    let changed: Vec<(usize, u8, u8)> = (0..HEADER_BYTES)
        .filter(|&i| written[i] != v1[i])
        .map(|i| (i, v1[i], written[i]))
        .collect();
    assert_eq!(changed, [(8, 1, 2), (36, 0, 1)]);
    assert_eq!(Network::from_bytes(&written).unwrap(), net);
}

/// Positions spread over every piece count, from a seeded game that captures whenever it can.
fn positions_of_every_size() -> Vec<Chess> {
    let mut rng = Rng::new(53);
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut p = Chess::default();
        for _ in 0..300 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.below(3) > 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play_unchecked(m);
            out.push(p.clone());
        }
    }
    out
}

/// A bucketed net evaluates each position through its bucket's row and bias: its value is the
/// value of the one-bucket net made of that bucket's `W2` and `b2`, for positions of every
/// piece count (bucket `(pieces − 2) / 4`), and the buckets' values differ.
#[test]
fn a_bucketed_net_evaluates_each_position_through_its_buckets_output() {
    let hidden = 32;
    let net = random_bucketed_network(hidden, OUTPUT_BUCKETS, 8);
    let (weights, _) = format::read(&net.to_bytes()).unwrap();
    let row = |b: usize| {
        let (w2, b2) = (&weights.w2, &weights.b2);
        Network::from_weights(
            weights.w1.clone(),
            weights.b1.clone(),
            w2[2 * hidden * b..2 * hidden * (b + 1)].to_vec(),
            vec![b2[b]],
        )
    };
    let singles: Vec<Network> = (0..OUTPUT_BUCKETS).map(row).collect();
    let mut seen = [0usize; OUTPUT_BUCKETS];
    let mut differs = 0;
    for p in positions_of_every_size() {
        let pieces = p.board().occupied().count();
        let bucket = (pieces - 2) / 4;
        assert_eq!(format::bucket(pieces as u32, OUTPUT_BUCKETS), bucket);
        seen[bucket] += 1;
        assert_eq!(
            net.evaluate(&p),
            singles[bucket].evaluate(&p),
            "{pieces} pieces"
        );
        differs += usize::from(singles[bucket].evaluate(&p) != singles[0].evaluate(&p));
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "positions per bucket: {seen:?}"
    );
    assert!(differs > seen[1..].iter().sum::<usize>() / 2, "{differs}");
}

/// Positions whose moves take a king across the d/e boundary: standard castling queen side (e
/// to c crosses, e to g does not), king steps e1-d1 and d8-e8, Chess960 castling with the king
/// on d1 (king side to g1 crosses) and on f1 (queen side to c1 crosses), en passant and
/// promotions with kings on either half, with their castling mode.
const CROSSING_FENS: [(&str, CastlingMode); 6] = [
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "r2k3r/ppp1qppp/2n5/3pP3/8/8/PPP2PPP/R2QK2R w KQ d6 0 9",
        CastlingMode::Standard,
    ),
    (
        "1r1k2r1/p1pp1ppp/8/8/8/8/P1PP1PPP/1R1K2R1 w GBgb - 0 1",
        CastlingMode::Chess960,
    ),
    (
        "r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 b AGag - 0 1",
        CastlingMode::Chess960,
    ),
    ("8/P1k5/K7/8/8/8/6p1/8 b - - 0 1", CastlingMode::Standard),
    (
        "4k3/1P6/8/3pP3/8/8/6p1/3K4 w - d6 0 1",
        CastlingMode::Standard,
    ),
];

/// With mirrored inputs too, with and without king buckets, updated move by move, the
/// accumulators equal the ones built from scratch at every node: kings crossing the d/e
/// boundary or into another king bucket (a side rebuilt), castling both ways (Chess960's
/// included), en passant, promotions, null moves; at a small width and at the built-in one
/// (its aligned kernels), of one output bucket and of eight.
#[test]
fn incremental_accumulators_of_mirrored_inputs_equal_fresh_ones_at_every_node() {
    for (layout, hidden, buckets, depth, least) in [
        (Layout::Mirrored, 32, 1, 3, 100_000),
        (Layout::Mirrored, BUILT_IN_HIDDEN, OUTPUT_BUCKETS, 2, 3_000),
        (Layout::MirroredKingBuckets, 32, 1, 3, 100_000),
        (
            Layout::MirroredKingBuckets,
            BUILT_IN_HIDDEN,
            OUTPUT_BUCKETS,
            2,
            3_000,
        ),
    ] {
        let net = Arc::new(random_network_of(layout, hidden, buckets, 2));
        let mut acc = Accumulators::new(Arc::clone(&net));
        let mut visited = 0;
        for (fen, mode) in CROSSING_FENS {
            let p = crate::position::read_fen(fen, mode, crate::position::FenPolicy::Strict)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            acc.refresh(&p, 0);
            visited += walk(&mut acc, &net, &p, 0, depth);
        }
        assert!(visited > least, "{hidden}: {visited}");
    }
}

/// Whether a king's move from `from` to `to` crosses the d/e file boundary, which turns its
/// side's mirrored inputs over.
fn crosses_the_middle(from: Square, to: Square) -> bool {
    (from.file() >= shakmaty::File::E) != (to.file() >= shakmaty::File::E)
}

/// The walks above do cross the boundary: among the moves of the crossing positions are king
/// moves and castlings from files a-d to e-h and back, in both castling modes; and king moves
/// into another king bucket that stay on their half, by both colours.
#[test]
fn the_crossing_positions_have_king_moves_across_the_d_e_boundary() {
    let mut crossings = [0usize; 2];
    let mut bucket_changes = [0usize; 2];
    let kb = Layout::MirroredKingBuckets;
    for (fen, mode) in CROSSING_FENS {
        let p = crate::position::read_fen(fen, mode, crate::position::FenPolicy::Strict).unwrap();
        for m in p.legal_moves() {
            let delta = MoveDelta::of(&p, &m);
            if let (Some((king, from)), Some((_, to))) = (delta.removed[0], delta.added[0]) {
                if king.role == Role::King && crosses_the_middle(from, to) {
                    crossings[usize::from(m.is_castle())] += 1;
                }
                if king.role == Role::King
                    && !crosses_the_middle(from, to)
                    && kb.king_bucket(king.color, from) != kb.king_bucket(king.color, to)
                {
                    bucket_changes[usize::from(king.color.is_black())] += 1;
                }
            }
        }
    }
    assert!(crossings.iter().all(|&n| n >= 2), "{crossings:?}");
    assert!(bucket_changes.iter().all(|&n| n >= 2), "{bucket_changes:?}");
}

/// With mirrored inputs (with and without king buckets) a position and its left-right mirror
/// (no castling rights: they are no inputs but the mirror would not keep them) evaluate the
/// same, and with plain inputs of the same weights, in general, not.
#[test]
fn a_left_right_mirrored_position_evaluates_the_same_with_mirrored_inputs() {
    let plain = random_network_of(Layout::Plain, 64, OUTPUT_BUCKETS, 3);
    for layout in [Layout::Mirrored, Layout::MirroredKingBuckets] {
        mirrored_twins_evaluate_the_same(&random_network_of(layout, 64, OUTPUT_BUCKETS, 3), &plain);
    }
}

fn mirrored_twins_evaluate_the_same(mirrored: &Network, plain: &Network) {
    let mut plain_differs = 0;
    let positions = positions_of_every_size();
    for p in positions.iter().step_by(20) {
        let mut setup = p.to_setup(shakmaty::EnPassantMode::Legal);
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
        setup.ep_square = None;
        let original: Chess =
            shakmaty::FromSetup::from_setup(setup.clone(), CastlingMode::Chess960).unwrap();
        setup.board.flip_horizontal();
        let twin: Chess = shakmaty::FromSetup::from_setup(setup, CastlingMode::Chess960).unwrap();
        let fen = shakmaty::fen::Fen::from_position(&original, shakmaty::EnPassantMode::Legal);
        assert_eq!(
            mirrored.evaluate(&original),
            mirrored.evaluate(&twin),
            "{fen}"
        );
        plain_differs += usize::from(plain.evaluate(&original) != plain.evaluate(&twin));
    }
    let checked = positions.len().div_ceil(20);
    assert!(
        plain_differs > checked * 9 / 10,
        "{plain_differs} of {checked}"
    );
}

/// A net of mirrored inputs is written as a version 3 file (its layout in bytes 40..44, the
/// hash over them and the payload) and reads back as itself; so does a version 3 file of
/// plain inputs, which evaluates as the version 2 file of the same weights. A changed layout
/// byte is refused: an unknown value naming the byte and what this build reads, a known one
/// by the hash.
#[test]
fn a_version_3_net_round_trips_and_an_unknown_input_layout_is_refused() {
    let net = random_network_of(Layout::Mirrored, 32, OUTPUT_BUCKETS, 4);
    let bytes = net.to_bytes();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
    assert_eq!(u32::from_le_bytes(bytes[40..44].try_into().unwrap()), 1);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.layout(), Layout::Mirrored);
    assert!(back
        .describe()
        .ends_with("(8 output buckets, mirrored inputs)"));
    let plain = random_network_of(Layout::Plain, 32, OUTPUT_BUCKETS, 4);
    let v2 = plain.to_bytes();
    assert_eq!(u32::from_le_bytes(v2[8..12].try_into().unwrap()), 2);
    // The same weights as a version 3 file of plain inputs: layout 0, hashed with it.
    let mut v3 = v2.clone();
    v3[8] = 3;
    let payload = &v3[HEADER_BYTES..];
    let hash = format::fnv1a(&[&[0u8; 4][..], payload].concat());
    v3[56..64].copy_from_slice(&hash.to_le_bytes());
    let read = Network::from_bytes(&v3).unwrap();
    assert_eq!(read.layout(), Layout::Plain);
    for p in positions_of_every_size().iter().step_by(50) {
        assert_eq!(read.evaluate(p), plain.evaluate(p));
    }
    let mut unknown = bytes.clone();
    unknown[40] = 3;
    assert_eq!(
        Network::from_bytes(&unknown).unwrap_err(),
        "header byte 40 (input layout) is 3: this build reads 0 (plain), 1 (horizontally mirrored) or 2 (mirrored, 4 king buckets)"
    );
    // Layout 2 (king buckets) with the 768 inputs of the others: the inputs field is wrong.
    let mut short = bytes.clone();
    short[40] = 2;
    let e = Network::from_bytes(&short).unwrap_err();
    assert_eq!(e, "header byte 13 (inputs) is 3, the format's is 12");
    let mut swapped = bytes.clone();
    swapped[40] = 0;
    let e = Network::from_bytes(&swapped).unwrap_err();
    assert!(e.starts_with("net file checksum"), "{e}");
    let mut reserved = bytes;
    reserved[44] = 1;
    let e = Network::from_bytes(&reserved).unwrap_err();
    assert_eq!(e, "header byte 44 (reserved, zero) is 1, the format's is 0");
}

/// A net of king buckets is written as a version 3 file of layout 2 with 4 × 768 input rows
/// (its size the format's `file_bytes`), reads back as itself and says so; and a position
/// whose two kings stand in the same bucket (each from its own side) evaluates as the mirrored
/// net made of that bucket's rows alone: both kings castled (bucket 0), both on their second
/// rank (2), both in the middle of the board (3).
#[test]
fn a_king_bucket_net_round_trips_with_its_four_sets_of_inputs() {
    let hidden = 32;
    let net = random_network_of(Layout::MirroredKingBuckets, hidden, OUTPUT_BUCKETS, 6);
    let bytes = net.to_bytes();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 3072);
    assert_eq!(u32::from_le_bytes(bytes[40..44].try_into().unwrap()), 2);
    assert_eq!(
        bytes.len(),
        file_bytes(Layout::MirroredKingBuckets, hidden, OUTPUT_BUCKETS)
    );
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(
        back.describe(),
        "3072x32 net (8 output buckets, mirrored inputs, 4 king buckets)"
    );
    let rows = INPUTS * hidden;
    let bucket_net = |bucket: usize| {
        Network::from_layout_and_weights(
            Layout::Mirrored,
            net.w1[bucket * rows..(bucket + 1) * rows].to_vec(),
            net.b1.clone(),
            net.w2.to_vec(),
            net.b2.clone(),
        )
    };
    for (fen, bucket) in [
        ("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", 0),
        ("8/2p2pk1/8/8/8/8/1K3PP1/8 b - - 0 1", 2),
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", 3),
    ] {
        let p = pos(fen);
        assert_eq!(net.evaluate(&p), bucket_net(bucket).evaluate(&p), "{fen}");
        let other = bucket_net((bucket + 1) % KING_BUCKETS);
        assert_ne!(net.evaluate(&p), other.evaluate(&p), "{fen}");
    }
}
