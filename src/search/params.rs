//! Every number of the search, its move ordering and the time manager, declared once.
//!
//! The tunables are one table, [`TUNABLES`]: each a line with its default, the range it may
//! take and the step an SPSA tuner perturbs it by (as akimbo and Viridithas declare theirs).
//! Read one through its function (`rfp_margin()`): in a normal build the function is a `const
//! fn` returning the default, so the search compiles to constants; built with `--features
//! spsa`, it reads a value that the UCI loop sets (`setoption name rfp_margin value 70`), so
//! that a tuner can play games with perturbed values without rebuilding. Below the table are
//! the fixed numbers: they shape data structures or only their order matters, so there is
//! nothing to tune.
//!
//! Which steps the search takes is not set here but in `search::Steps`, at run time. A
//! selective step's section of the table names the step and its file under `selectivity/`,
//! where its condition and action read these numbers; the table stays one, in one file: it
//! is what `tools/spsa.py` reads and writes back, and what the `spsa` build offers as UCI
//! options, in this order.

/// One tunable number: its name (also the UCI option of the `spsa` build), default, range and
/// SPSA step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

/// Declares every tunable: a reader function per name and the [`TUNABLES`] table.
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal, step $step:literal;)*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "spsa"))]
            #[inline(always)]
            pub const fn $name() -> $ty {
                $default
            }
            $(#[$doc])*
            #[cfg(feature = "spsa")]
            #[inline]
            pub fn $name() -> $ty {
                values::$name.load(std::sync::atomic::Ordering::Relaxed) as $ty
            }
        )*

        /// Every tunable, in declaration order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        }),*];

        /// The current values of the `spsa` build, set through [`set`].
        #[cfg(feature = "spsa")]
        #[allow(non_upper_case_globals)]
        mod values {
            use std::sync::atomic::AtomicI32;
            $(pub static $name: AtomicI32 = AtomicI32::new($default);)*
        }

        /// Sets tunable `name` (the `spsa` build's UCI option) to `value`, within its range.
        #[cfg(feature = "spsa")]
        pub fn set(name: &str, value: i32) -> Result<(), String> {
            let t = TUNABLES
                .iter()
                .find(|t| t.name == name)
                .ok_or_else(|| format!("no tunable named {name}"))?;
            if !(t.min..=t.max).contains(&value) {
                return Err(format!("{name} must be within {}..={}", t.min, t.max));
            }
            match name {
                $(stringify!($name) => values::$name.store(value, std::sync::atomic::Ordering::Relaxed),)*
                _ => unreachable!("every tunable has its value"),
            }
            Ok(())
        }
    };
}

tunables! {
    // Aspiration windows: from `aspiration_min_depth` on, an iteration starts with a window
    // `aspiration_window` centipawns wide on each side of the previous score, widened by
    // `aspiration_growth_percent` on every fail.
    /// Shallowest iteration with an aspiration window.
    aspiration_min_depth: i32 = 4, 1..=10, step 1;
    /// Half-width of the first window, in centipawns.
    aspiration_window: i32 = 31, 5..=100, step 5;
    /// Growth of the window on a fail, in percent of its width.
    aspiration_growth_percent: i32 = 200, 120..=400, step 20;

    // Step 6, null-move pruning (selectivity/null_move.rs): from `nmp_min_depth` on, a side that
    // could pass and still reach beta at a depth reduced by `nmp_base_reduction + depth /
    // nmp_depth_divisor` is assumed to fail high.
    /// Shallowest depth that tries a null move.
    nmp_min_depth: i32 = 3, 1..=8, step 1;
    /// Plies the null-move search is reduced by at any depth.
    nmp_base_reduction: i32 = 3, 1..=6, step 1;
    /// One more ply of reduction per this many plies of depth.
    nmp_depth_divisor: i32 = 4, 2..=10, step 1;

    // Step 11, late-move reductions (selectivity/reductions.rs): quiet moves from index
    // `lmr_min_move_index` on, at depth `lmr_min_depth` or more, are searched `lmr_base + ln(depth)
    // * ln(move number) / lmr_divisor` plies shallower (both in hundredths), and again at full
    // depth if they beat alpha.
    /// Shallowest depth that reduces.
    lmr_min_depth: i32 = 3, 1..=8, step 1;
    /// Moves before this index are never reduced.
    lmr_min_move_index: usize = 2, 1..=8, step 1;
    /// The reduction's constant part, in hundredths of a ply.
    lmr_base_hundredths: i32 = 94, 0..=200, step 10;
    /// The divisor of its logarithmic part, in hundredths.
    lmr_divisor_hundredths: i32 = 219, 100..=500, step 15;

    // Step 5, reverse futility pruning (selectivity/reverse_futility.rs): at depth `rfp_max_depth`
    // or less, a node whose static evaluation beats beta by `rfp_margin` per ply of depth is
    // assumed to fail high.
    /// Deepest node pruned.
    rfp_max_depth: i32 = 6, 1..=12, step 1;
    /// Margin per ply, in centipawns.
    rfp_margin: i32 = 78, 20..=200, step 8;

    // Step 9, futility pruning (selectivity/futility.rs): at depth `fp_max_depth` or less, quiet
    // moves are skipped when the static evaluation plus `fp_base + fp_margin * depth` still cannot
    // reach alpha.
    /// Deepest node whose quiet moves are pruned.
    fp_max_depth: i32 = 6, 1..=12, step 1;
    /// Margin at depth 0, in centipawns.
    fp_base: i32 = 86, 0..=300, step 10;
    /// Margin per ply, in centipawns.
    fp_margin: i32 = 82, 20..=250, step 8;

    // Step 9, late-move pruning (selectivity/futility.rs): at depth `lmp_max_depth` or less, quiet
    // moves after the first `lmp_base + depth * depth` quiet ones are skipped.
    /// Deepest node pruned.
    lmp_max_depth: i32 = 6, 1..=12, step 1;
    /// Quiet moves always searched, besides `depth * depth`.
    lmp_base: i32 = 4, 0..=12, step 1;

    // Step 11b, history-adjusted LMR (search/selectivity/reductions.rs).
    /// A quiet move's history (butterfly plus continuation) reduces it one ply less per this
    /// much (history-adjusted LMR; more for moves with a bad history).
    lmr_history_divisor: i32 = 245, 32..=4096, step 32;

    // Step 9b, history pruning (selectivity/history_pruning.rs): at depth
    // `history_pruning_max_depth` or less, quiet moves whose history is below
    // `-history_pruning_margin * depth` are skipped.
    /// Deepest node pruned.
    history_pruning_max_depth: i32 = 4, 1..=8, step 1;
    /// Margin per ply, in history units (a cutoff at depth d earns `history_bonus_scale * d * d`).
    history_pruning_margin: i32 = 159, 16..=2048, step 16;

    // Steps 10a and 10c, singular and double extensions (selectivity/extensions.rs): at depth
    // `se_min_depth` or more, the table's move is extended when the node searched without it at
    // half depth stays below the stored score minus `se_margin * depth`.
    /// Shallowest node tested.
    se_min_depth: i32 = 5, 4..=12, step 1;
    /// Margin per ply, in centipawns.
    se_margin: i32 = 2, 1..=8, step 1;
    /// Centipawns further below the singular margin that make a double extension.
    se_double_margin: i32 = 20, 0..=100, step 5;
    /// Most double extensions on one path from the root.
    se_double_max: i32 = 6, 1..=16, step 1;

    // Step 7, probcut (selectivity/probcut.rs): at depth `probcut_min_depth` or more, a capture
    // that beats `beta + probcut_margin` in quiescence and then in a search `PROBCUT_REDUCTION`
    // plies shallower makes the node fail high.
    /// Shallowest node tried.
    probcut_min_depth: i32 = 5, 3..=10, step 1;
    /// Margin above beta, in centipawns.
    probcut_margin: i32 = 200, 50..=500, step 20;

    // Step 9c, SEE pruning (selectivity/see_pruning.rs): at depth `see_pruning_max_depth` or less,
    // a quiet move that loses more than `see_quiet_margin * depth` by static exchange, or a capture
    // that loses more than `see_noisy_margin * depth`, is skipped (akimbo 0.7's margins as the
    // start).
    /// Deepest node pruned.
    see_pruning_max_depth: i32 = 6, 1..=12, step 1;
    /// Centipawns per ply a quiet move may lose by exchange.
    see_quiet_margin: i32 = 50, 10..=200, step 8;
    /// Centipawns per ply a capture may lose by exchange.
    see_noisy_margin: i32 = 90, 10..=300, step 10;

    // Step 3, internal iterative reduction (search/selectivity/iir.rs).
    /// Shallowest node searched one ply shallower for lack of a table move.
    iir_min_depth: i32 = 4, 2..=10, step 1;

    // History: a quiet move that cuts at `depth` earns `history_bonus_scale * depth * depth`
    // (capped at `HISTORY_MAX`); the quiet moves tried before it lose as much.
    /// Bonus per square ply of depth.
    history_bonus_scale: i32 = 14, 2..=64, step 2;

    // Static exchange values, in centipawns (the king's is fixed: it is never exchanged).
    /// A pawn.
    see_pawn: i32 = 100, 50..=200, step 10;
    /// A knight.
    see_knight: i32 = 320, 200..=500, step 20;
    /// A bishop.
    see_bishop: i32 = 330, 200..=500, step 20;
    /// A rook.
    see_rook: i32 = 500, 350..=750, step 25;
    /// A queen.
    see_queen: i32 = 950, 700..=1300, step 40;

    // Correction history (tables/correction.rs; step 4b, with search round 4's 4d and 4e): the
    // tables learn the search's error together; the evaluation takes each table's entry
    // times its weight, in 1/`CORR_WEIGHT_SCALE` (the defaults take each whole, as the
    // steps were measured). Declared for the round's SPSA (issue 77).
    /// The pawn table's weight.
    corr_pawn_weight: i32 = 256, 0..=512, step 24;
    /// The weight of each colour's non-pawn table (step 4d).
    corr_non_pawn_weight: i32 = 256, 0..=512, step 24;
    /// The minor pieces' table's weight (step 4e).
    corr_minor_weight: i32 = 256, 0..=512, step 24;
    /// The major pieces' table's weight (step 4e).
    corr_major_weight: i32 = 256, 0..=512, step 24;
    /// The largest error learnt and the largest entry, in centipawns.
    corr_max_error: i32 = 64, 16..=160, step 8;
    /// The fastest an entry learns, in 1/256 of the way to the error per update (a node at
    /// depth `d` learns at `min(d + 1, corr_rate_cap)`).
    corr_rate_cap: i32 = 16, 4..=48, step 2;

    // Time manager. Set on 27 Nov from 25 / 75 / 55 so that Cutoff spends its clock about as
    // fully as Ethereal 12 does (100 games at 10+0.1 each, docs/strength.md): 0.190 -> 0.236 s a
    // move (Ethereal 0.219-0.242), lowest clock 2.67 -> 0.86 s on average, no time loss. 18
    // moves to go was tried on 27 Nov (0.237 s a move) and taken back: see docs/strength.md.
    // The new-iteration share went from 65 to 80 % later on 27 Nov (Cutoff still 0.218 s a move
    // against Ethereal's 0.225 and twice its reserve; docs/strength.md).
    /// Moves assumed left in the game when the GUI sends no `movestogo`.
    default_moves_to_go: u32 = 20, 10..=60, step 3;
    /// Share of the increment the soft target spends, in percent.
    increment_use_percent: u32 = 100, 25..=100, step 5;
    /// The hard limit is at most this many soft targets...
    hard_limit_soft_multiple: u32 = 4, 2..=8, step 1;
    /// ...and at most this share of the remaining time, in percent.
    hard_limit_max_percent: u32 = 40, 10..=80, step 5;
    /// With `movestogo 1` the whole remainder is ours; keep this share in reserve, in percent.
    last_move_reserve_percent: u32 = 20, 5..=50, step 5;
    /// Do not start another iteration after this share of the soft target is used, in percent
    /// (the next one would take several times longer than the last).
    new_iteration_max_percent: u32 = 80, 30..=90, step 5;
    /// Soft-target scale (percent) after an iteration whose best move just changed...
    tm_unstable_percent: u32 = 140, 100..=250, step 10;
    /// ...and after `tm_stable_iterations` iterations with the same best move.
    tm_stable_percent: u32 = 75, 40..=100, step 5;
    /// Iterations in a row with one best move that count as settled.
    tm_stable_iterations: u32 = 4, 2..=10, step 1;
    /// A score drop of this many centipawns since the last iteration...
    tm_score_drop_cp: i32 = 25, 5..=100, step 5;
    /// ...adds this share to the soft target, in percent.
    tm_score_drop_percent: u32 = 40, 0..=150, step 10;
    /// Soft-target scale (percent) when the best move took every root node...
    tm_node_base_percent: u32 = 50, 20..=100, step 5;
    /// ...plus this much times the share the other moves took (Ethereal: 40 + 200 × share).
    tm_node_doubt_percent: u32 = 200, 50..=400, step 20;
}

// ---- Fixed numbers: not tuned, because they size data structures or only their order counts.

/// Nodes between two looks at the clock and the stop flag.
pub const POLL_INTERVAL_NODES: u64 = 1024;

/// Lazy SMP: helper thread `i` (1 and up) skips the iterations at the depths `d` for which
/// `(d + HELPER_SKIP_PHASE[j]) / HELPER_SKIP_SIZE[j]` is odd, `j = (i - 1) % 20`, so that the
/// helpers spread over neighbouring depths (Stockfish 8's tables): the first two take turns,
/// later ones skip pairs, triples, fours.
pub const HELPER_SKIP_SIZE: [i32; 20] =
    [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
pub const HELPER_SKIP_PHASE: [i32; 20] =
    [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// The scale of the correction tables' weights (`corr_*_weight`): a weight of this much takes
/// a table's entry whole.
pub const CORR_WEIGHT_SCALE: i32 = 256;

/// Default of the `Move Overhead` option, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 20;

/// Move ordering: sort keys, highest first.
pub const ORDER_TT_MOVE: i32 = 1 << 30;
pub const ORDER_GOOD_CAPTURE: i32 = 1 << 28;
pub const ORDER_FIRST_KILLER: i32 = 1 << 27;
pub const ORDER_SECOND_KILLER: i32 = (1 << 27) - 1;
/// Captures that lose material by static exchange go after every quiet move.
pub const ORDER_BAD_CAPTURE: i32 = -(1 << 20);
/// History scores stay within +-`HISTORY_MAX` (so they always sort below killers).
pub const HISTORY_MAX: i32 = 16_384;
/// MVV-LVA's piece values, pawn to king (only their order matters).
pub const MVV_LVA_VALUES: [i32; 6] = [1, 3, 3, 5, 9, 20];
/// The king's static exchange value: more than everything else on the board.
pub const SEE_KING: i32 = 20_000;
/// Quiet moves a node remembers having tried, to punish their history when another cuts.
pub const QUIETS_REMEMBERED: usize = 64;
/// A tablebase result goes to the table this many plies deeper than the node (as Stockfish
/// stores it): it is exact, as good as a far deeper search.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_default_lies_in_its_range_and_steps_fit_it() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0 && t.step <= t.max - t.min, "{t:?}");
        }
    }

    #[test]
    fn tunable_names_are_unique_uci_option_names() {
        let mut names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "two tunables share a name");
        for n in names {
            assert!(n
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'));
        }
    }

    #[test]
    fn readers_return_the_table_defaults() {
        // Spot checks that the table and the readers come from one declaration.
        let default = |name: &str| TUNABLES.iter().find(|t| t.name == name).unwrap().default;
        assert_eq!(rfp_margin(), default("rfp_margin"));
        assert_eq!(lmr_min_move_index() as i32, default("lmr_min_move_index"));
        assert_eq!(default_moves_to_go() as i32, default("default_moves_to_go"));
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn the_tune_build_sets_a_value_within_its_range_only() {
        assert!(set("nmp_depth_divisor", 11).is_err());
        assert!(set("no_such_thing", 1).is_err());
        set("nmp_depth_divisor", 5).unwrap();
        assert_eq!(nmp_depth_divisor(), 5);
        set("nmp_depth_divisor", 4).unwrap();
    }
}
