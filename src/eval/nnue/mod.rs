//! The learned evaluation's inference: a (768 → N) × 2 → 1 network over piece-square inputs,
//! quantised to integers, with its first layer kept up to date incrementally as moves are made
//! and taken back (the accumulators, one per ply of the search path).
//!
//! The network, as `cutoff train` writes it (docs/nets.md): each perspective (the side to move,
//! the other) sees 768 features, one per (piece colour relative to it, role, square seen from
//! its side); its accumulator is `b1 + Σ W1[f]` over its active features. The output is
//! `Σ screlu(acc_stm)·W2[..N] + Σ screlu(acc_other)·W2[N..] + b2`, `screlu(x) = clamp(x, 0,
//! 1)²`, times `SCALE` centipawns, with the `W2` and `b2` of the position's output bucket (by
//! its piece count, `format::bucket`; a net of one bucket has one of each). Quantised: W1, b1
//! by `QA` (i16), W2 by `QB` (i16), b2 by `QA·QB` (i32); the integer result is
//! `(Σ clamp(a, 0, QA)·w·clamp(a, 0, QA) / QA + b2) · SCALE / (QA·QB)`.
//!
//! What the engine computes, exactly: accumulators in i16; per term `(c·w2)·c` with the product
//! `c·w2` in i16 and the term in i32; each perspective's sum in i32; the two sums, the division
//! by `QA`, `b2` and the scale in i64; the result kept below the tablebase and mate bands. The
//! loader refuses a net for which any of these could wrap in a position of standard chess (at
//! most 32 pieces; `format::check_range`), so for every net it accepts — the built-in one
//! included — the result equals the trainer's reference pass (`QuantisedNet::evaluate`: i32
//! accumulators, i64 sum) exactly, and no hostile file can make it garbage.
//!
//! The file's bytes, the feature index and the quantisation are defined once, in
//! [`format`](mod@format), which the trainer writes its nets through.
//!
//! Every sum here is in integers, so the AVX2 path and the portable one give the same
//! numbers exactly; which one runs is decided once, at run time, so the plain build runs on
//! any x86-64-v2 CPU and uses AVX2 where there is one.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use shakmaty::{Board, Chess, Color, Position, Role, Square};

use crate::files;
use crate::position::MoveDelta;
use crate::types::{Ply, Score, MAX_PLY};

mod aligned;
use aligned::Aligned;

mod cache;
use cache::RefreshCache;

mod kernels;
#[cfg(test)]
use aligned::is_aligned;
#[cfg(target_arch = "x86_64")]
use kernels::simd;
use kernels::{add_assign, has_avx2, screlu_dots, update_into, Rows, BUILT_IN_HIDDEN};
#[cfg(test)]
use kernels::{portable, screlu_dot};

pub mod format;
use format::Layers;
pub use format::{
    file_bytes, fnv1a, Layout, Shape, HEADER_BYTES, INPUTS, KING_BUCKETS, MAGIC, OUTPUT_BUCKETS,
    QA, QB, SCALE, VERSION,
};

/// A loaded network, shared by every search thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// How its inputs see the board ([`format::input`]): plain, or mirrored left to right for
    /// a perspective whose king is on files e-h, with or without king buckets.
    layout: Layout,
    /// Input-major: the `hidden` weights of input 0, then of input 1, ... (`layout.inputs()`
    /// rows; aligned, so that every row is: the kernels' loads are then never split).
    w1: Aligned,
    b1: Vec<i16>,
    /// Per bucket, the side to move's `hidden` weights, then the other side's (aligned, as
    /// `w1`; each bucket's row, `2·hidden` values, a multiple of 16, starts aligned too).
    w2: Aligned,
    /// One per bucket: their count is the net's bucket count.
    b2: Vec<i32>,
    /// Per count of occupied squares (0 to 64, every count a bitboard can have, so that the
    /// lookup needs no bounds check; a position of standard chess has 2 to 32), its bucket's
    /// output row and bias: the bucket is worked out once per net here, so a node pays one
    /// lookup for it (the same for a net of one bucket, whose every entry is row 0).
    by_pieces: [Output; 65],
    /// The FNV-1a hash of the payload, which names the net.
    hash: u64,
}

/// Where a bucket's output weights start in `Network::w2`, and its bias.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Output {
    /// `2·hidden·bucket`, with `bucket < buckets`: the row `row..row + 2·hidden` lies inside
    /// `w2`, which holds `buckets · 2·hidden` weights (`output` relies on it).
    row: usize,
    bias: i64,
}

/// [`Network::by_pieces`] of a net `hidden` wide with these biases, one per bucket.
fn outputs(hidden: usize, b2: &[i32]) -> [Output; 65] {
    std::array::from_fn(|pieces| {
        let bucket = format::bucket(pieces as u32, b2.len());
        Output {
            row: 2 * hidden * bucket,
            bias: i64::from(b2[bucket]),
        }
    })
}

impl Network {
    /// Reads a net file through the one net format ([`format::read`]): every header byte,
    /// the size, the checksum, then that the engine's integer arithmetic cannot wrap on it
    /// ([`format::check_range`]). Any mismatch is an error that says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let (weights, hash) = format::read(bytes)?;
        Ok(Network {
            by_pieces: outputs(weights.hidden(), &weights.b2),
            hidden: weights.hidden(),
            layout: weights.layout,
            w1: Aligned::from_slice(&weights.w1),
            b1: weights.b1,
            w2: Aligned::from_slice(&weights.w2),
            b2: weights.b2,
            hash,
        })
    }

    /// Reads the net file `path` through the one rule for files (`crate::files`: a regular
    /// file, never a pipe or a device) and no further than its header says the file is: a
    /// file of another size is refused before its payload is read. Errors name the path.
    pub fn load(path: &Path) -> Result<Network, String> {
        let named = |e: String| format!("{}: {e}", path.display());
        let (file, len) = files::open_regular(path)?;
        let mut bytes = Vec::with_capacity(HEADER_BYTES);
        let mut reader = file.take(HEADER_BYTES as u64);
        reader
            .read_to_end(&mut bytes)
            .map_err(|e| named(files::reason(&e)))?;
        let expected = format::read_header(&bytes).map_err(named)?.file_bytes();
        if len != expected as u64 {
            return Err(named(format!(
                "net file of {len} bytes, {expected} expected by its header {}",
                format::size_mismatch(len, expected as u64)
            )));
        }
        // One byte more than promised is read if the file grew since: the size check refuses it.
        reader.set_limit((expected - HEADER_BYTES + 1) as u64);
        reader
            .read_to_end(&mut bytes)
            .map_err(|e| named(files::reason(&e)))?;
        Network::from_bytes(&bytes).map_err(named)
    }

    /// The weights as the format's writer takes them.
    fn layers(&self) -> Layers<'_> {
        Layers {
            layout: self.layout,
            w1: &self.w1,
            b1: &self.b1,
            w2: &self.w2,
            b2: &self.b2,
        }
    }

    /// The file bytes of this network (the inverse of [`Network::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        // A `Network` is made only from weights the format accepts (`from_bytes`,
        // `from_weights`), so its writer has nothing to refuse.
        format::write(self.layers()).expect("a loaded net is one the format accepts")
    }

    /// A network of plain inputs and the given weights (tests, and tools that build one), of
    /// `b2.len()` output buckets (`w2` holding each bucket's `2·hidden` in turn); panics on
    /// weights the format would refuse (a width or bucket count it does not take, sums that
    /// could wrap).
    pub fn from_weights(w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: Vec<i32>) -> Network {
        Network::from_layout_and_weights(Layout::Plain, w1, b1, w2, b2)
    }

    /// [`Network::from_weights`] with inputs of `layout`.
    pub fn from_layout_and_weights(
        layout: Layout,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Network {
        let layers = Layers {
            layout,
            w1: &w1,
            b1: &b1,
            w2: &w2,
            b2: &b2,
        };
        if let Err(e) = layers.check() {
            panic!("Network::from_weights: {e}");
        }
        let hash = layers.hash();
        Network {
            by_pieces: outputs(b1.len(), &b2),
            hidden: b1.len(),
            layout,
            w1: Aligned::from_slice(&w1),
            b1,
            w2: Aligned::from_slice(&w2),
            b2,
            hash,
        }
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets: 1, or [`OUTPUT_BUCKETS`] by piece count.
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// How its inputs see the board.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The net's shape in words, for the lines that say which net is loaded: `768x256 net`,
    /// `768x256 net (8 output buckets)`, `768x256 net (8 output buckets, mirrored inputs)`.
    pub fn describe(&self) -> String {
        let mut notes = Vec::new();
        if self.buckets() > 1 {
            notes.push(format!("{} output buckets", self.buckets()));
        }
        match self.layout {
            Layout::Plain => {}
            Layout::Mirrored => notes.push("mirrored inputs".to_string()),
            Layout::MirroredKingBuckets => {
                notes.push(format!("mirrored inputs, {KING_BUCKETS} king buckets"))
            }
        }
        let inputs = self.layout.inputs();
        match notes.is_empty() {
            true => format!("{inputs}x{} net", self.hidden),
            false => format!("{inputs}x{} net ({})", self.hidden, notes.join(", ")),
        }
    }

    /// The FNV-1a hash of the weights, printed to say which net is loaded.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    fn feature_weights(&self, feature: usize) -> &[i16] {
        &self.w1[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The value of `pos` for the side to move, evaluated from scratch (the reference the
    /// incremental accumulators are tested against).
    pub fn evaluate(&self, pos: &Chess) -> Score {
        let mut acc = Aligned::zeroed(2 * self.hidden);
        self.refresh(pos.board(), &mut acc);
        self.output(&acc, pos)
    }

    /// Both perspectives' accumulators of `board`, White's first.
    fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let (white, black) = acc.split_at_mut(self.hidden);
        self.refresh_perspective(board, Color::White, white);
        self.refresh_perspective(board, Color::Black, black);
    }

    /// The accumulator of `board` as `perspective` sees it (`hidden` values).
    fn refresh_perspective(&self, board: &Board, perspective: Color, acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
        let king = own_king(board, perspective);
        for (sq, piece) in board.clone() {
            let f = format::input(self.layout, perspective, king, piece.color, piece.role, sq);
            add_assign(acc, self.feature_weights(f));
        }
    }

    /// The output of `pos` from both its accumulators (White's first), in centipawns: for its
    /// side to move, through its bucket's row (by its piece count).
    #[inline]
    fn output(&self, acc: &[i16], pos: &Chess) -> Score {
        let n = self.hidden;
        let (white, black) = acc.split_at(n);
        let (us, them) = match pos.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let out = self.by_pieces[pos.board().occupied().count()];
        // SAFETY: every entry of `by_pieces` was made by `outputs` from this net's width and
        // biases: `row` is `2·n·bucket` with `bucket < buckets` (`format::bucket`), and `w2`
        // holds `buckets · 2·n` weights (the format refuses any other length before a
        // `Network` is made), so `row + 2·n <= w2.len()`.
        let row = unsafe { self.w2.get_unchecked(out.row..out.row + 2 * n) };
        let (w_us, w_them) = row.split_at(n);
        // Each perspective's sum fits i32 (`format::check_range`); their sum, the bias and the scale
        // are taken in i64 as the trainer's reference pass does, then kept below the bands of
        // proven results.
        let (ours, theirs) = screlu_dots(us, w_us, them, w_them);
        let sum = i64::from(ours) + i64::from(theirs);
        let value = (sum / i64::from(QA) + out.bias) * i64::from(SCALE) / i64::from(QA * QB);
        let limit = i64::from(Score::TB_WIN_BOUND.0 - 1);
        Score(value.clamp(-limit, limit) as i32)
    }
}

/// The square of `perspective`'s king on `board`, which its mirrored inputs are oriented by
/// (a1, where the board has none: no position of standard chess, and then no flip).
#[inline]
fn own_king(board: &Board, perspective: Color) -> Square {
    board.king_of(perspective).unwrap_or(Square::A1)
}

/// The side whose king `delta` takes to another view of the board in a net of `layout`
/// (across the d/e boundary, or into another king bucket; a king move, or castling:
/// Chess960's king may cross too), which then sees every piece anew; `MoveDelta` lists a
/// moving king first.
#[inline]
fn turned_side(layout: Layout, delta: &MoveDelta) -> Option<Color> {
    match (delta.removed[0], delta.added[0]) {
        (Some((from, a)), Some((to, b)))
            if from.role == Role::King
                && to.role == Role::King
                && layout.view_index(from.color, a) != layout.view_index(from.color, b) =>
        {
            Some(from.color)
        }
        _ => None,
    }
}

/// The feature of a `color` `role` on `sq` as White sees it and as Black sees it, in a net of
/// plain inputs.
#[inline]
fn features(color: Color, role: Role, sq: Square) -> (usize, usize) {
    (
        format::feature(Color::White, color, role, sq),
        format::feature(Color::Black, color, role, sq),
    )
}

/// One search thread's accumulators: a pair (White's, Black's) per ply of the path, so that
/// taking a move back costs nothing and a null move is a copy.
#[derive(Clone, Debug)]
pub struct Accumulators {
    net: Arc<Network>,
    /// The net's inputs are mirrored (with or without king buckets): a move's rows are taken
    /// with each king's view, and a king that changes its view (crosses the d/e boundary,
    /// changes bucket) rebuilds its side's accumulator (decided once, here; one predictable
    /// branch per move for a plain net).
    mirrored: bool,
    /// Whether the AVX2 kernel updates them: decided once, here, not per move.
    simd: bool,
    /// AVX2 and a net of the built-in width: a move's rows go straight to the kernel compiled
    /// for that width, both perspectives in one call (`update_fixed`), with none of the
    /// general path's row lists and alignment checks, which cost as much as the kernel (and,
    /// collected from iterators for mirrored inputs, four times as much: 2 Dec).
    fixed: bool,
    /// `MAX_PLY + 2` pairs of `2 · hidden` values, ply-major (aligned, as the weights).
    stack: Aligned,
    /// Where a king changing its view rebuilds its side's accumulator from (mirrored inputs
    /// only; see `cache.rs`).
    cache: RefreshCache,
}

impl Accumulators {
    pub fn new(net: Arc<Network>) -> Accumulators {
        let stack = Aligned::zeroed((MAX_PLY + 2) * 2 * net.hidden);
        let simd = has_avx2();
        let mirrored = net.layout.king_relative();
        Accumulators {
            fixed: simd && net.hidden == BUILT_IN_HIDDEN,
            mirrored,
            cache: RefreshCache::new(&net.b1, net.layout.views()),
            net,
            simd,
            stack,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn pair(&self, ply: Ply) -> &[i16] {
        let n = 2 * self.net.hidden;
        &self.stack[ply * n..(ply + 1) * n]
    }

    /// The pairs at `ply` and `ply + 1` of `stack` (pairs of `n` values), to update the
    /// second from the first.
    fn parent_and_child(stack: &mut [i16], n: usize, ply: Ply) -> (&[i16], &mut [i16]) {
        let (parent, child) = stack[ply * n..(ply + 2) * n].split_at_mut(n);
        (parent, child)
    }

    /// Builds the accumulators of `pos` at `ply` from scratch (the root).
    pub fn refresh(&mut self, pos: &Chess, ply: Ply) {
        let n = 2 * self.net.hidden;
        self.net
            .refresh(pos.board(), &mut self.stack[ply * n..(ply + 1) * n]);
    }

    /// The value of `pos`, the position at `ply`, for its side to move (its piece count picks
    /// the output bucket).
    #[inline]
    pub fn evaluate(&self, ply: Ply, pos: &Chess) -> Score {
        self.net.output(self.pair(ply), pos)
    }

    /// The accumulators at `ply + 1` after a null move at `ply`: the same pieces.
    #[inline]
    pub fn copy_to_child(&mut self, ply: Ply) {
        let n = 2 * self.net.hidden;
        let (parent, child) = Self::parent_and_child(&mut self.stack, n, ply);
        child.copy_from_slice(parent);
    }

    /// The accumulators at `ply + 1` after a move at `ply` whose `delta` (worked out once at
    /// the move door, as the key reads it) says which pieces left a square, taken out, and
    /// which arrived, put in (a capture, en passant, castling, a promotion each touch their own
    /// squares); `child` is the board after the move (read only by a net of mirrored inputs).
    #[inline]
    pub fn update(&mut self, delta: MoveDelta, ply: Ply, child: &Board) {
        #[cfg(target_arch = "x86_64")]
        if self.fixed {
            let done = if self.mirrored {
                self.update_fixed_mirrored(delta, ply, child)
            } else {
                self.update_fixed::<false>(delta, ply, child)
            };
            if done {
                return;
            }
        }
        if self.mirrored {
            self.update_mirrored(delta, ply, child);
            return;
        }
        let net = &*self.net;
        let hidden = net.hidden;
        let (mut white_sub, mut black_sub, mut white_add, mut black_add) =
            (Rows::new(), Rows::new(), Rows::new(), Rows::new());
        for (piece, sq) in delta.removed() {
            let (fw, fb) = features(piece.color, piece.role, sq);
            white_sub.push(net.feature_weights(fw));
            black_sub.push(net.feature_weights(fb));
        }
        for (piece, sq) in delta.added() {
            let (fw, fb) = features(piece.color, piece.role, sq);
            white_add.push(net.feature_weights(fw));
            black_add.push(net.feature_weights(fb));
        }
        let (parent_acc, child_acc) = Self::parent_and_child(&mut self.stack, 2 * hidden, ply);
        let (parent_white, parent_black) = parent_acc.split_at(hidden);
        let (child_white, child_black) = child_acc.split_at_mut(hidden);
        update_into(self.simd, child_white, parent_white, &white_sub, &white_add);
        update_into(self.simd, child_black, parent_black, &black_sub, &black_add);
    }

    /// [`Accumulators::update`] for a net of mirrored inputs: each perspective's rows taken
    /// with its own king's view on the `child` board; a perspective whose king the move takes
    /// to another view (across the d/e boundary or into another king bucket: a king move, or
    /// castling) sees every piece anew, so its accumulator is rebuilt from `child`, the
    /// other's updated.
    fn update_mirrored(&mut self, delta: MoveDelta, ply: Ply, child: &Board) {
        let net = &*self.net;
        let hidden = net.hidden;
        let turned = turned_side(net.layout, &delta);
        let (parent_acc, child_acc) = Self::parent_and_child(&mut self.stack, 2 * hidden, ply);
        let (parent_white, parent_black) = parent_acc.split_at(hidden);
        let (child_white, child_black) = child_acc.split_at_mut(hidden);
        for (perspective, parent, acc) in [
            (Color::White, parent_white, child_white),
            (Color::Black, parent_black, child_black),
        ] {
            if turned == Some(perspective) {
                let king = own_king(child, perspective);
                let row = |color, role, sq| {
                    net.feature_weights(format::input(
                        net.layout,
                        perspective,
                        king,
                        color,
                        role,
                        sq,
                    ))
                };
                let view = net.layout.view_index(perspective, king);
                self.cache.refresh(child, perspective, view, row, acc);
                continue;
            }
            let king = own_king(child, perspective);
            let row = |(piece, sq): (shakmaty::Piece, Square)| {
                let f = format::input(net.layout, perspective, king, piece.color, piece.role, sq);
                net.feature_weights(f)
            };
            let sub: Rows = delta.removed().map(row).collect();
            let add: Rows = delta.added().map(row).collect();
            update_into(self.simd, acc, parent, &sub, &add);
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Accumulators {
    /// `update_fixed` of mirrored inputs, kept out of line so that the plain path's code
    /// stays as it was (inlined, its registers spilled for the other: +0.35 % of the
    /// instructions of a plain net's search, callgrind, 2 Dec).
    #[inline(never)]
    fn update_fixed_mirrored(&mut self, delta: MoveDelta, ply: Ply, after: &Board) -> bool {
        self.update_fixed::<true>(delta, ply, after)
    }

    /// [`Accumulators::update`] where `fixed` holds: the move's rows of both perspectives
    /// handed to the kernel compiled for the built-in width, one call per move; `MIRRORED`
    /// (the net's layout, as a constant so that the plain path computes no flip) takes each
    /// perspective's rows with its king's view on the board `after` the move. `false`, with nothing
    /// written, for a delta of another shape (a piece put on an empty board's square: none in
    /// standard chess), which the general path then takes. A king that changes its view
    /// (mirrored) has its side's half, updated with the wrong view, rebuilt after.
    #[inline]
    fn update_fixed<const MIRRORED: bool>(
        &mut self,
        delta: MoveDelta,
        ply: Ply,
        after: &Board,
    ) -> bool {
        const N: usize = BUILT_IN_HIDDEN;
        let layout = self.net.layout;
        let turned = if MIRRORED {
            turned_side(layout, &delta)
        } else {
            None
        };
        let ((flip_white, base_white), (flip_black, base_black)) = if MIRRORED {
            (
                layout.view(Color::White, own_king(after, Color::White)),
                layout.view(Color::Black, own_king(after, Color::Black)),
            )
        } else {
            ((0, 0), (0, 0))
        };
        // The rows sliced with the width known when compiling (shifts, not multiplications).
        let w1: &[i16] = &self.net.w1;
        let row = |feature: usize| &w1[feature * N..(feature + 1) * N];
        // A piece's row as White sees it and as Black does (`format::input`: the plain
        // feature, flipped by the perspective's king, in its king bucket's inputs).
        let rows = |(piece, sq): (shakmaty::Piece, Square)| {
            let (fw, fb) = features(piece.color, piece.role, sq);
            (
                row((fw ^ flip_white) + base_white),
                row((fb ^ flip_black) + base_black),
            )
        };
        let (parent, child) = Self::parent_and_child(&mut self.stack, 2 * N, ply);
        // SAFETY: `fixed` is true only where `has_avx2()` said so and the net is `N` wide
        // (`Accumulators::new`). Every row is one feature's `N` weights, `feature_weights`
        // sliced from `w1` (bounds-checked here), and starts `feature · N` values, a multiple of
        // 32 bytes, past `w1`'s aligned start; `parent` and `child` are the `2N` values of
        // the pairs at `ply` and `ply + 1`, `2N · ply` values past the aligned start of
        // `stack` (bounds-checked by `parent_and_child`). So every slice is as long as the
        // kernel reads and starts on a 32-byte boundary, as its aligned loads need.
        unsafe {
            match (delta.removed, delta.added) {
                ([Some(s), None], [Some(a), None]) => {
                    let ((sw, sb), (aw, ab)) = (rows(s), rows(a));
                    simd::update_pair::<1, 1, N>(child, parent, ([sw], [aw]), ([sb], [ab]));
                }
                ([Some(s), Some(t)], [Some(a), None]) => {
                    let ((sw, sb), (tw, tb), (aw, ab)) = (rows(s), rows(t), rows(a));
                    let (white, black) = (([sw, tw], [aw]), ([sb, tb], [ab]));
                    simd::update_pair::<2, 1, N>(child, parent, white, black);
                }
                ([Some(s), Some(t)], [Some(a), Some(b)]) => {
                    let ((sw, sb), (tw, tb)) = (rows(s), rows(t));
                    let ((aw, ab), (bw, bb)) = (rows(a), rows(b));
                    let (white, black) = (([sw, tw], [aw, bw]), ([sb, tb], [ab, bb]));
                    simd::update_pair::<2, 2, N>(child, parent, white, black);
                }
                _ => return false,
            }
        }
        if let Some(side) = turned {
            let pair = &mut self.stack[(ply + 1) * 2 * N..(ply + 2) * 2 * N];
            let (white, black) = pair.split_at_mut(N);
            let half = if side == Color::White { white } else { black };
            let (net, king) = (&*self.net, own_king(after, side));
            let row = |color, role, sq| {
                net.feature_weights(format::input(net.layout, side, king, color, role, sq))
            };
            let view = layout.view_index(side, king);
            self.cache.refresh(after, side, view, row, half);
        }
        true
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// The net built into the binary: `nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue` (402,016
/// bytes, 8 output buckets), generation 3's final net: trained for 40 epochs on 60.0 M
/// positions of Cutoff's own games, 49.5 M of them searched by the nets before it, with λ
/// rising from 0.1 to 0.3 and the learning rate falling to 5e-6; it beat the interim net
/// (`-d47`) by +31.0 ± 13.5 at 20k nodes and the sixth net (`-m40-l10-d30`) on the clock
/// (docs/nets.md), and is the default evaluation; `setoption name Evaluation value classical`
/// plays without it.
static EMBEDDED: &[u8] = include_bytes!("../../../nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue");

impl Network {
    /// The net built into the binary, read once (its weights copied out of the binary's bytes
    /// into the network's own vectors); `None` only if those bytes fail the checks, which a
    /// test rules out.
    pub fn embedded() -> Option<Arc<Network>> {
        use std::sync::OnceLock;
        static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(EMBEDDED).ok().map(Arc::new))
            .clone()
    }
}
