//! The net file's format, defined once: the engine reads nets through it and the trainer
//! (`crate::train`) writes them through it, so the two cannot drift apart, and a change of the
//! format (a new version, another shape) is made here and nowhere else. It owns the inputs
//! (the feature index), the quantisation, the header, the hash, the widths a net may have, the
//! size of a file, the output buckets, the range check and the reading and writing of the
//! bytes; the layout is in docs/nets.md.
//!
//! **Output buckets.** A net has one output layer (`W2`, `b2`) per bucket, and a position is
//! evaluated by the row of its bucket, chosen by how many pieces are on the board ([`bucket`]):
//! 1 bucket (every net before version 2) or 8. Version 1 files, which have no bucket field,
//! are read as nets of one bucket.
//!
//! **Input layouts.** A net's inputs are plain ([`feature`]) or horizontally mirrored (a
//! perspective whose own king is on files e-h sees the board mirrored left to right:
//! [`input`], [`Layout`]). Version 3 files say which in bytes 40..44; versions 1 and 2 are
//! plain. A plain net is written as version 2 (its bytes as before), a mirrored one as 3.
//! A third layout, mirrored inputs in [`KING_BUCKETS`] king buckets, gives each perspective
//! one set of 768 inputs per region its own king stands in ([`Layout::king_bucket`]), so its
//! file has 768 × 4 input rows ([`Layout::inputs`]).
//!
//! **One rule for both directions.** [`read`] refuses a file for the first thing wrong with it,
//! saying what; [`write()`] refuses, with the same words, any net [`read`] would refuse, so every
//! file written loads. A net of a width the engine cannot run, or whose integer sums could wrap
//! in the engine's narrow lanes ([`check_range`]), is refused on both sides.
//!
//! **Every byte checked or hashed.** The payload is covered by its FNV-1a hash (bytes 56..64);
//! the header before the hash is compared byte by byte with the one this format writes for the
//! file's width, and the first byte that differs is named. So no byte of a file can change
//! unseen, the reserved zeros included.

use shakmaty::{Color, File, Role, Square};

/// Features per perspective: 2 colours × 6 roles × 64 squares. A net of king buckets has this
/// many inputs per bucket ([`Layout::inputs`]).
pub const INPUTS: usize = 768;
/// The king buckets of [`Layout::MirroredKingBuckets`]: where a perspective's own king stands,
/// seen from its side and mirrored to files a-d ([`Layout::king_bucket`]).
pub const KING_BUCKETS: usize = 4;
/// Quantisation of the first layer (activations clamp at it) and of the output weights.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The file's header size and its first bytes.
pub const HEADER_BYTES: usize = 64;
pub const MAGIC: &[u8; 8] = b"CUTOFFNN";
/// The version written for a net of plain inputs: 2, with the output bucket count in bytes
/// 36..40. A plain net is written as version 2, not 3, so that its bytes (the built-in net's
/// among them) are the ones written before input layouts, and builds before them load it.
pub const VERSION: u32 = 2;
/// The version written for a net of horizontally mirrored inputs ([`Layout::Mirrored`]): 3,
/// with the input layout in bytes 40..44 (0 plain, 1 mirrored). Its hash covers those four
/// bytes before the payload, so that no change of the layout goes unseen.
pub const VERSION_LAYOUT: u32 = 3;
/// The version before output buckets (bytes 36..56 reserved, zero): read as one bucket, so the
/// nets written before (the built-in one among them) load and evaluate as they did.
pub const VERSION_ONE_BUCKET: u32 = 1;
/// Activation code of SCReLU in the header.
pub const SCRELU: u32 = 1;
/// Where the payload's hash sits in the header: the bytes before it are checked one by one,
/// the payload after it through the hash.
const HASH_AT: usize = 56;

/// The widest layer accepted (a 1024-wide net is already far beyond what 2 cores can use).
pub const MAX_HIDDEN: usize = 1024;
/// Widths come in steps of this: the engine's AVX2 kernels take 16 lanes at a time and have
/// no tail loop.
pub const HIDDEN_STEP: usize = 16;
/// The widths a net may have, in words, for errors and usage messages.
pub const HIDDEN_RULE: &str = "a multiple of 16 from 16 to 1024";

/// The output buckets of a bucketed net: one per four pieces on the board, from 2 to 32.
pub const OUTPUT_BUCKETS: usize = 8;
/// The bucket counts a net may have, in words, for errors and usage messages.
pub const BUCKET_RULE: &str = "1 or 8 (by piece count)";

/// The output bucket of a position with `pieces` on the board (kings included) in a net of
/// `buckets` (1 or 8): `(pieces − 2) / 4`, so 2-5 pieces use bucket 0 and 30-32 bucket 7 (the
/// split akimbo and others use), and a net of one bucket always uses 0. The engine and the
/// trainer both choose the row through this function.
#[inline]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    ((pieces.saturating_sub(2) / 4) as usize).min(buckets - 1)
}

/// Whether a net may have `buckets` output buckets: [`BUCKET_RULE`].
pub fn check_buckets(buckets: usize) -> Result<(), String> {
    if buckets != 1 && buckets != OUTPUT_BUCKETS {
        return Err(format!(
            "{buckets} output buckets: the engine loads {BUCKET_RULE}"
        ));
    }
    Ok(())
}

/// The most pieces a position of standard chess has: the most features active at once in one
/// perspective, which bounds how far an accumulator can move from its bias.
pub const MAX_PIECES: usize = 32;
/// The largest `|W2|` for which `clamp(a, 0, QA) · w2` fits the 16-bit lanes the engine
/// multiplies in (255 · 128 = 32,640); the trainer clips `W2` to ±1.98 · 64, so ±127.
pub const MAX_W2: i32 = i16::MAX as i32 / QA;

/// How a net's inputs see the board: as it stands (the nets before version 3), or mirrored left
/// to right for a perspective whose own king stands on files e-h, so that the net learns one
/// king side instead of two (akimbo measured +17.2 Elo for it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    #[default]
    Plain,
    /// Horizontally mirrored: each perspective's squares flipped file a <-> h while its own
    /// king stands on files e-h.
    Mirrored,
    /// Mirrored as [`Layout::Mirrored`], and a set of 768 inputs for each of [`KING_BUCKETS`]
    /// regions of the perspective's own king ([`Layout::king_bucket`]; akimbo measured +16.7
    /// Elo for king buckets on top of mirroring).
    MirroredKingBuckets,
}

/// The layouts a net file may say, in words, for errors and usage messages.
pub const LAYOUT_RULE: &str =
    "0 (plain), 1 (horizontally mirrored) or 2 (mirrored, 4 king buckets)";

impl Layout {
    /// Every layout, in the order of their codes.
    pub const ALL: [Layout; 3] = [Layout::Plain, Layout::Mirrored, Layout::MirroredKingBuckets];

    /// The value of the header's input layout field.
    pub fn code(self) -> u32 {
        match self {
            Layout::Plain => 0,
            Layout::Mirrored => 1,
            Layout::MirroredKingBuckets => 2,
        }
    }

    /// Inputs per perspective: 768, times [`KING_BUCKETS`] with king buckets.
    pub const fn inputs(self) -> usize {
        match self {
            Layout::MirroredKingBuckets => INPUTS * KING_BUCKETS,
            Layout::Plain | Layout::Mirrored => INPUTS,
        }
    }

    /// Whether a perspective's inputs depend on where its own king stands (mirrored, with or
    /// without king buckets): a king move may then change every input of its side
    /// ([`Layout::view`]).
    pub fn king_relative(self) -> bool {
        self != Layout::Plain
    }

    /// The layout of a header's code, if it is one.
    pub fn from_code(code: u32) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Its name, as `cutoff train --inputs` takes it and a trainer's recipe records it.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Plain => "plain",
            Layout::Mirrored => "mirrored",
            Layout::MirroredKingBuckets => "mirrored-kb4",
        }
    }

    /// The layout of a name ([`Layout::name`]), if it is one.
    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// What a perspective whose own king stands on `king` XORs into each feature index: 7 (the
    /// file flipped, the index's low three bits) with mirrored inputs and the king on files
    /// e-h, else 0. A vertical flip keeps the file, so the king's square is the same in either
    /// orientation.
    #[inline]
    pub fn flip(self, king: Square) -> usize {
        if self.king_relative() && king.file() >= File::E {
            7
        } else {
            0
        }
    }

    /// The king bucket of `perspective` whose own king stands on `king` (0 without king
    /// buckets). The king's square is seen from its side (rank 1 is the perspective's back
    /// rank) and mirrored to files a-d: 0 on the back rank's files a-c (a castled king: g1
    /// mirrors to b1), 1 on its file d (the king's own square, e1 or d1), 2 on the second rank,
    /// 3 further up.
    #[inline]
    pub fn king_bucket(self, perspective: Color, king: Square) -> usize {
        if self != Layout::MirroredKingBuckets {
            return 0;
        }
        let rank = if perspective.is_white() {
            u32::from(king.rank())
        } else {
            7 - u32::from(king.rank())
        };
        let file = u32::from(king.file());
        let file = if file >= 4 { 7 - file } else { file };
        match (rank, file) {
            (0, 0..=2) => 0,
            (0, _) => 1,
            (1, _) => 2,
            _ => 3,
        }
    }

    /// How `perspective`, whose own king stands on `king`, sees the board: what it XORs into a
    /// plain feature ([`Layout::flip`]) and what it adds after (its king bucket's first input).
    #[inline]
    pub fn view(self, perspective: Color, king: Square) -> (usize, usize) {
        (
            self.flip(king),
            INPUTS * self.king_bucket(perspective, king),
        )
    }

    /// The views a perspective can have in this layout (flip × king bucket): 1 plain, 2
    /// mirrored, 8 with king buckets.
    pub fn views(self) -> usize {
        match self {
            Layout::Plain => 1,
            Layout::Mirrored => 2,
            Layout::MirroredKingBuckets => 2 * KING_BUCKETS,
        }
    }

    /// Which of [`Layout::views`] `perspective` has with its own king on `king`: two kings'
    /// squares with the same index see every piece the same way.
    #[inline]
    pub fn view_index(self, perspective: Color, king: Square) -> usize {
        usize::from(self.flip(king) != 0) + 2 * self.king_bucket(perspective, king)
    }

    /// The file version that says this layout: 2 for plain inputs, 3 for the others.
    pub fn version(self) -> u32 {
        match self {
            Layout::Plain => VERSION,
            Layout::Mirrored | Layout::MirroredKingBuckets => VERSION_LAYOUT,
        }
    }
}

/// The input index of a `color` `role` on `sq` as `perspective`, whose own king stands on
/// `king`, sees it in a net of `layout`: [`feature`], flipped left to right where the layout
/// says ([`Layout::flip`]), in the set of inputs of the king's bucket ([`Layout::view`]). The
/// one definition of a net's inputs: the engine's accumulators, the trainer's samples (and
/// through them its float net and integer reference) all take their indices from here.
#[inline]
pub fn input(
    layout: Layout,
    perspective: Color,
    king: Square,
    color: Color,
    role: Role,
    sq: Square,
) -> usize {
    let (flip, offset) = layout.view(perspective, king);
    (feature(perspective, color, role, sq) ^ flip) + offset
}

/// The input index of a `color` `role` on `sq` as `perspective` sees it in a net of plain
/// inputs ([`input`] of [`Layout::Plain`]): the perspective's own
/// pieces first, and the board flipped vertically for Black, so that both sides share one
/// transformer: `(color == perspective ? 0 : 384) + (role − 1)·64 + (perspective is White ?
/// sq : sq ^ 56)`.
#[inline]
pub fn feature(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let side = if color == perspective { 0 } else { 384 };
    let sq = if perspective.is_white() {
        usize::from(sq)
    } else {
        usize::from(sq) ^ 56
    };
    side + (role as usize - 1) * 64 + sq
}

/// The same piece's index from the other perspective: the colours swap halves and the board
/// flips.
#[inline]
pub fn other_view(index: usize) -> usize {
    ((index + 384) % INPUTS) ^ 56
}

/// The same piece's index on the board mirrored left to right (files a and h swap): the
/// index's low three bits are the file.
#[inline]
pub fn mirrored(index: usize) -> usize {
    index ^ 7
}

/// FNV-1a, 64 bits: the net file's checksum (offset basis `0xcbf29ce484222325`, prime
/// `0x100000001b3`).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_on(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a from the state `h`, over `bytes`: hashing a part, then the next.
fn fnv1a_on(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The hash a `version` file of inputs `layout` stores for `payload`: the payload's FNV-1a,
/// from version 3 on with the layout field's four bytes hashed first.
fn content_hash(version: u32, layout: Layout, payload: &[u8]) -> u64 {
    if version >= VERSION_LAYOUT {
        fnv1a_on(fnv1a(&layout.code().to_le_bytes()), payload)
    } else {
        fnv1a(payload)
    }
}

/// Whether a net may be `hidden` wide: [`HIDDEN_RULE`].
pub fn check_hidden(hidden: usize) -> Result<(), String> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(format!("{hidden} neurons: the engine loads {HIDDEN_RULE}"));
    }
    Ok(())
}

/// Why a net of `inputs` → `hidden` is refused, in the same words when it is read and when
/// it is written.
fn shape_error(inputs: usize, hidden: usize) -> String {
    format!(
        "unsupported net shape {inputs} -> {hidden} (the engine loads {INPUTS} inputs, {} with king buckets, and {HIDDEN_RULE} neurons)",
        Layout::MirroredKingBuckets.inputs()
    )
}

/// What a net file's header promises: its width, its output buckets and its input layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub hidden: usize,
    pub buckets: usize,
    pub layout: Layout,
}

/// The file size of a net of inputs `layout` ([`Layout::inputs`]: 768, or 768 per king
/// bucket) → `hidden` with `buckets` output buckets: the header, `W1`, `b1`, then per bucket
/// `2·hidden` output weights (i16) and a bias (i32).
pub fn file_bytes(layout: Layout, hidden: usize, buckets: usize) -> usize {
    HEADER_BYTES + 2 * layout.inputs() * hidden + 2 * hidden + buckets * (4 * hidden + 4)
}

impl Shape {
    pub fn file_bytes(&self) -> usize {
        file_bytes(self.layout, self.hidden, self.buckets)
    }
}

/// What a net file of `len` bytes, not the `expected` its header says, most likely is, for the
/// end of the error: one too short was cut (a download or a copy that stopped); one too long was
/// not, and "(truncated?)" sent its reader looking for a cut that was never there: it has bytes
/// after the net's end (two files run together, a header of a smaller net).
pub fn size_mismatch(len: u64, expected: u64) -> String {
    if len < expected {
        "(truncated?)".to_string()
    } else {
        format!(
            "({} bytes past the net's end: the file is longer than its header says)",
            len - expected
        )
    }
}

/// The header's u32 fields after the magic, in order from byte 8, of a file of `version` for
/// `shape`: version 1 has no bucket field (its bytes are reserved, zero).
fn fields(version: u32, shape: Shape) -> Vec<(&'static str, u32)> {
    let mut fields = vec![
        ("version", version),
        ("inputs", shape.layout.inputs() as u32),
        ("hidden", shape.hidden as u32),
        ("activation", SCRELU),
        ("QA", QA as u32),
        ("QB", QB as u32),
        ("scale", SCALE as u32),
    ];
    if version >= VERSION {
        fields.push(("output buckets", shape.buckets as u32));
    }
    if version >= VERSION_LAYOUT {
        fields.push(("input layout", shape.layout.code()));
    }
    fields
}

/// The header of a `version` file for `shape` whose payload hashes to `hash`: the magic, the
/// fields, zeros up to the hash, the hash.
fn header(version: u32, shape: Shape, hash: u64) -> [u8; HEADER_BYTES] {
    let mut out = [0u8; HEADER_BYTES];
    out[..8].copy_from_slice(MAGIC);
    for (i, (_, value)) in fields(version, shape).into_iter().enumerate() {
        out[8 + 4 * i..12 + 4 * i].copy_from_slice(&value.to_le_bytes());
    }
    out[HASH_AT..].copy_from_slice(&hash.to_le_bytes());
    out
}

/// What header byte `at` (before the hash) of a `version` file holds, for errors.
fn byte_name(version: u32, at: usize) -> &'static str {
    let fields = fields(
        version,
        Shape {
            hidden: 0,
            buckets: 0,
            layout: Layout::Plain,
        },
    );
    match at {
        0..8 => "magic",
        _ if at < 8 + 4 * fields.len() => fields[(at - 8) / 4].0,
        _ => "reserved, zero",
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

/// Where the header's input layout field starts (version 3).
const LAYOUT_AT: usize = 40;

/// The shape a net file's header promises, every header byte before the hash checked: the
/// magic, the version (3, 2 read as plain inputs, or 1 read as one bucket and plain inputs),
/// the shape (768 inputs or 768 per king bucket, [`HIDDEN_RULE`], [`BUCKET_RULE`],
/// [`LAYOUT_RULE`]; the input count must be the layout's, which the comparison with the
/// header this format writes checks), the
/// quantisation, then each byte against the header this format writes for that version (so
/// the reserved bytes must be zero). `bytes` may be the header alone (a loader reads it first
/// to bound the rest).
pub fn read_header(bytes: &[u8]) -> Result<Shape, String> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err("not a Cutoff net file (no CUTOFFNN header)".into());
    }
    let field = |at: usize| u32_at(bytes, at);
    let version = field(8);
    if !(VERSION_ONE_BUCKET..=VERSION_LAYOUT).contains(&version) {
        return Err(format!(
            "net file version {version} (this build reads {VERSION_ONE_BUCKET} to {VERSION_LAYOUT})"
        ));
    }
    let hidden = field(16) as usize;
    let inputs = field(12) as usize;
    let known = Layout::ALL.iter().any(|l| l.inputs() == inputs);
    if !known || check_hidden(hidden).is_err() {
        return Err(shape_error(inputs, hidden));
    }
    let buckets = if version == VERSION_ONE_BUCKET {
        1
    } else {
        field(36) as usize
    };
    check_buckets(buckets)?;
    let layout = if version >= VERSION_LAYOUT {
        let code = field(LAYOUT_AT);
        Layout::from_code(code).ok_or_else(|| {
            format!(
                "header byte {LAYOUT_AT} (input layout) is {code}: this build reads {LAYOUT_RULE}"
            )
        })?
    } else {
        Layout::Plain
    };
    let shape = Shape {
        hidden,
        buckets,
        layout,
    };
    let quantisation = [field(20), field(24), field(28), field(32)];
    if quantisation != [SCRELU, QA as u32, QB as u32, SCALE as u32] {
        return Err(format!(
            "unsupported activation or quantisation {quantisation:?}"
        ));
    }
    let want = header(version, shape, 0);
    if let Some(at) = (0..HASH_AT).find(|&at| bytes[at] != want[at]) {
        return Err(format!(
            "header byte {at} ({}) is {}, the format's is {}",
            byte_name(version, at),
            bytes[at],
            want[at]
        ));
    }
    Ok(shape)
}

/// Checks that no sum the engine computes can wrap, for any position of standard chess: each
/// accumulator (`b1` plus at most 32 feature rows, in i16), each product `c · w2` (in i16) and
/// each perspective's sum of `c · w2 · c` (in i32), in every bucket (`w2` is the buckets' rows
/// one after another, `2·hidden` each). Within these bounds the engine's integer
/// pass is exact and equals the trainer's reference (`QuantisedNet::evaluate`: i32
/// accumulators, i64 sum); a net outside them is refused rather than evaluated as garbage.
pub fn check_range(hidden: usize, w1: &[i16], b1: &[i16], w2: &[i16]) -> Result<(), String> {
    if let Some((i, &w)) = w2
        .iter()
        .enumerate()
        .find(|(_, &w)| i32::from(w).abs() > MAX_W2)
    {
        return Err(format!(
            "output weight {i} is {w}, outside the +/-{MAX_W2} the engine's 16-bit products allow"
        ));
    }
    let inputs = w1.len() / hidden.max(1);
    let mut column = vec![0i32; inputs];
    for (j, &bias) in b1.iter().enumerate() {
        for (f, c) in column.iter_mut().enumerate() {
            *c = i32::from(w1[f * hidden + j]);
        }
        column.sort_unstable();
        let low: i32 = column[..MAX_PIECES].iter().filter(|&&w| w < 0).sum();
        let high: i32 = column[inputs - MAX_PIECES..]
            .iter()
            .filter(|&&w| w > 0)
            .sum();
        let (low, high) = (i32::from(bias) + low, i32::from(bias) + high);
        if low < i32::from(i16::MIN) || high > i32::from(i16::MAX) {
            return Err(format!(
                "neuron {j}'s accumulator can reach {low}..{high}, outside the engine's 16 bits"
            ));
        }
    }
    for (i, weights) in w2.chunks(hidden).enumerate() {
        let bound: i64 = weights
            .iter()
            .map(|&w| i64::from(w).abs() * i64::from(QA * QA))
            .sum();
        if bound > i64::from(i32::MAX) {
            return Err(format!(
                "bucket {}'s output half {} can sum to {bound}, beyond the engine's 32-bit sum",
                i / 2,
                i % 2
            ));
        }
    }
    Ok(())
}

/// A net's integer weights, borrowed, and how its inputs see the board: what [`write()`]
/// takes. The width is `b1.len()`, the output buckets `b2.len()`.
#[derive(Clone, Copy, Debug)]
pub struct Layers<'a> {
    pub layout: Layout,
    /// Input-major, `inputs × N` ([`Layout::inputs`]).
    pub w1: &'a [i16],
    pub b1: &'a [i16],
    /// Bucket-major: each bucket's `2N`, the side to move's half first.
    pub w2: &'a [i16],
    /// One per bucket.
    pub b2: &'a [i32],
}

impl Layers<'_> {
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    pub fn shape(&self) -> Shape {
        Shape {
            hidden: self.hidden(),
            buckets: self.buckets(),
            layout: self.layout,
        }
    }

    /// Everything [`read`] would refuse in a file of these weights: the width, the bucket
    /// count, the lengths of the layers and the range check.
    pub fn check(&self) -> Result<(), String> {
        let (hidden, buckets) = (self.hidden(), self.buckets());
        let inputs = self.layout.inputs();
        check_hidden(hidden).map_err(|_| shape_error(inputs, hidden))?;
        check_buckets(buckets)?;
        if self.w1.len() != inputs * hidden || self.w2.len() != buckets * 2 * hidden {
            return Err(format!(
                "layers of {}, {}, {} and {} weights do not make a {inputs} -> {hidden} net of {buckets} output buckets",
                self.w1.len(),
                hidden,
                self.w2.len(),
                buckets
            ));
        }
        check_range(hidden, self.w1, self.b1, self.w2)
    }

    /// The payload: `W1`, `b1`, `W2` as i16, `b2` as i32, little-endian.
    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.shape().file_bytes() - HEADER_BYTES);
        for w in self.w1.iter().chain(self.b1).chain(self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The hash its file stores, which names the net: the FNV-1a of the payload (with the
    /// layout field before it in a version 3 file).
    pub fn hash(&self) -> u64 {
        content_hash(self.layout.version(), self.layout, &self.payload())
    }
}

/// The file bytes of `net`, or the reason [`read`] would refuse them (nothing is written):
/// version [`VERSION`] for plain inputs (the bytes written before input layouts), version
/// [`VERSION_LAYOUT`] for mirrored ones.
pub fn write(net: Layers) -> Result<Vec<u8>, String> {
    net.check()?;
    let payload = net.payload();
    let version = net.layout.version();
    let hash = content_hash(version, net.layout, &payload);
    let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
    out.extend_from_slice(&header(version, net.shape(), hash));
    out.extend_from_slice(&payload);
    Ok(out)
}

/// A net's integer weights, owned, and its input layout: the layer table of every net of this
/// format, as [`read`] returns it and as the trainer's quantised net holds it
/// (`train::quantised`). The width is `b1.len()`, the output buckets `b2.len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub layout: Layout,
    /// Input-major, `inputs × N` ([`Layout::inputs`]).
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// Bucket-major: each bucket's `2N`, the side to move's half first.
    pub w2: Vec<i16>,
    /// One per bucket.
    pub b2: Vec<i32>,
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// Reads a net file, checking everything: the header byte by byte ([`read_header`]), the size,
/// the hash of the payload, then that the engine's integer arithmetic cannot wrap on it
/// ([`check_range`]). Any mismatch is an error that says what is wrong. The weights come with
/// the hash that names the net (its payload's, as the header stores it).
pub fn read(bytes: &[u8]) -> Result<(Weights, u64), String> {
    let shape = read_header(bytes)?;
    let Shape {
        hidden,
        buckets,
        layout,
    } = shape;
    let expected = shape.file_bytes();
    if bytes.len() != expected {
        return Err(format!(
            "net file of {} bytes, {expected} expected for a {} -> {hidden} net of {buckets} output bucket{} {}",
            bytes.len(),
            layout.inputs(),
            if buckets == 1 { "" } else { "s" },
            size_mismatch(bytes.len() as u64, expected as u64)
        ));
    }
    let payload = &bytes[HEADER_BYTES..];
    let version = u32_at(bytes, 8);
    let hash = content_hash(version, layout, payload);
    let stored = u64::from_le_bytes(bytes[HASH_AT..HEADER_BYTES].try_into().expect("8 bytes"));
    if hash != stored {
        return Err(format!(
            "net file checksum {stored:016x}, its contents hash to {hash:016x}"
        ));
    }
    let (w1, rest) = payload.split_at(2 * layout.inputs() * hidden);
    let (b1, rest) = rest.split_at(2 * hidden);
    let (w2, b2) = rest.split_at(buckets * 4 * hidden);
    let (w1, b1, w2) = (i16s(w1), i16s(b1), i16s(w2));
    check_range(hidden, &w1, &b1, &w2)?;
    let b2 = b2
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok((
        Weights {
            layout,
            w1,
            b1,
            w2,
            b2,
        },
        hash,
    ))
}

impl Weights {
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The weights borrowed, as [`write()`] takes them.
    pub fn layers(&self) -> Layers<'_> {
        Layers {
            layout: self.layout,
            w1: &self.w1,
            b1: &self.b1,
            w2: &self.w2,
            b2: &self.b2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_indices_follow_the_spec_for_both_perspectives() {
        let (white, black) = (Color::White, Color::Black);
        assert_eq!(feature(white, white, Role::Pawn, Square::E2), 12);
        assert_eq!(feature(black, white, Role::Pawn, Square::E2), 384 + 52);
        assert_eq!(
            feature(white, black, Role::King, Square::E8),
            384 + 5 * 64 + 60
        );
        assert_eq!(feature(black, black, Role::King, Square::E8), 5 * 64 + 4);
        for perspective in [white, black] {
            for (color, role) in [(white, Role::Pawn), (black, Role::King)] {
                for sq in Square::ALL {
                    let f = feature(perspective, color, role, sq);
                    assert!(f < INPUTS);
                    assert_eq!(other_view(f), feature(!perspective, color, role, sq));
                    assert_eq!(
                        mirrored(f),
                        feature(perspective, color, role, sq.flip_horizontal())
                    );
                }
            }
        }
    }

    /// Mirrored inputs flip a perspective's squares left to right exactly while its own king
    /// stands on files e-h (the king's square as either side sees it: the file is the same),
    /// and plain inputs are [`feature`] whatever the king.
    #[test]
    fn mirrored_inputs_flip_the_files_while_the_own_king_is_on_files_e_to_h() {
        let (white, black) = (Color::White, Color::Black);
        assert_eq!(
            input(
                Layout::Mirrored,
                white,
                Square::G1,
                white,
                Role::Pawn,
                Square::F2
            ),
            feature(white, white, Role::Pawn, Square::C2)
        );
        assert_eq!(
            input(
                Layout::Mirrored,
                black,
                Square::E8,
                white,
                Role::Knight,
                Square::B1
            ),
            feature(black, white, Role::Knight, Square::G1)
        );
        assert_eq!(
            input(
                Layout::Mirrored,
                black,
                Square::D8,
                white,
                Role::Knight,
                Square::B1
            ),
            feature(black, white, Role::Knight, Square::B1)
        );
        for perspective in [white, black] {
            for king in Square::ALL {
                for sq in Square::ALL {
                    let plain = feature(perspective, black, Role::Queen, sq);
                    assert_eq!(
                        input(Layout::Plain, perspective, king, black, Role::Queen, sq),
                        plain
                    );
                    let on_e_to_h = king.file() >= File::E;
                    let want = if on_e_to_h {
                        feature(perspective, black, Role::Queen, sq.flip_horizontal())
                    } else {
                        plain
                    };
                    let got = input(Layout::Mirrored, perspective, king, black, Role::Queen, sq);
                    assert_eq!(got, want, "{perspective:?} king {king} piece {sq}");
                }
            }
        }
        for layout in Layout::ALL {
            assert_eq!(Layout::from_code(layout.code()), Some(layout));
            assert_eq!(Layout::from_name(layout.name()), Some(layout));
        }
        assert_eq!(Layout::from_code(3), None);
    }

    /// King buckets: 0 on the back rank's files a-c and f-h (mirrored), 1 on d or e of it, 2 on
    /// the second rank, 3 above; seen from each side's own back rank; the inputs of bucket b
    /// are the mirrored inputs moved up by 768 · b, so every index is below 4 · 768.
    #[test]
    fn king_buckets_split_the_back_rank_the_second_rank_and_the_rest() {
        let kb = Layout::MirroredKingBuckets;
        let (white, black) = (Color::White, Color::Black);
        for (king, want) in [
            (Square::G1, 0),
            (Square::A1, 0),
            (Square::C1, 0),
            (Square::F1, 0),
            (Square::E1, 1),
            (Square::D1, 1),
            (Square::H2, 2),
            (Square::E3, 3),
            (Square::A8, 3),
        ] {
            assert_eq!(kb.king_bucket(white, king), want, "white {king}");
            assert_eq!(
                kb.king_bucket(black, king.flip_vertical()),
                want,
                "black {king}"
            );
            assert_eq!(Layout::Mirrored.king_bucket(white, king), 0);
        }
        for perspective in [white, black] {
            for king in Square::ALL {
                let bucket = kb.king_bucket(perspective, king);
                for sq in Square::ALL {
                    let got = input(kb, perspective, king, black, Role::Rook, sq);
                    let mirrored =
                        input(Layout::Mirrored, perspective, king, black, Role::Rook, sq);
                    assert_eq!(got, mirrored + INPUTS * bucket);
                    assert!(got < kb.inputs());
                }
                let view = kb.view_index(perspective, king);
                assert_eq!(view % 2, usize::from(king.file() >= File::E));
                assert_eq!(view / 2, bucket);
                assert!(view < kb.views());
            }
        }
    }
}
