use std::path::PathBuf;

use super::data::{load, Sample};
use super::net::{Net, Target, SCALE};
use super::quantised::QuantisedNet;
use super::*;
use crate::datagen::positions::Filter;
use crate::eval::nnue::format::{self, file_bytes, Layout, HEADER_BYTES, MAGIC, OUTPUT_BUCKETS};

/// Real positions: the first `n` the default filter keeps from the committed chunk.
fn sample_positions(n: usize) -> Vec<Sample> {
    samples_of(Layout::Plain, n)
}

/// [`sample_positions`] with their inputs in `layout`.
fn samples_of(layout: Layout, n: usize) -> Vec<Sample> {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/selfplay-2266636-s4001.vf"
    ));
    let loaded = load(&[path], Filter::default(), Some(n), layout);
    let mut all = loaded.train;
    all.extend(loaded.validation);
    assert_eq!(all.len(), n, "the committed chunk holds enough positions");
    all
}

const TARGET: Target = Target {
    k: 130.0,
    lambda: 0.4,
};

fn config(hidden: usize, epochs: usize, batch: usize, lr: f64) -> TrainConfig {
    TrainConfig {
        hidden,
        buckets: 1,
        epochs,
        batch,
        lr,
        lr_end: None,
        weight_decay: 0.01,
        target: TARGET,
        lambda_end: None,
        seed: 7,
    }
}

fn train_in_pool(threads: usize, samples: &[Sample], config: &TrainConfig) -> TrainState {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut state = TrainState::new(config.hidden, config.buckets, config.seed);
        while state.epoch < config.epochs {
            train_epoch(&mut state, samples, &[], config, |_| {}).unwrap();
        }
        state
    })
}

/// Up to `per` positions of each output bucket among the committed chunk's first 20,000.
fn positions_per_bucket(per: usize) -> Vec<Sample> {
    let mut taken = [0usize; OUTPUT_BUCKETS];
    let mut out = Vec::new();
    for s in sample_positions(20_000) {
        let bucket = format::bucket(s.pieces(), OUTPUT_BUCKETS);
        if taken[bucket] < per {
            taken[bucket] += 1;
            out.push(s);
        }
    }
    out
}

/// The analytic gradient is the finite differences' on every parameter the samples touch, for
/// a net of one output bucket and one of eight; in the bucketed net each sample's gradient goes
/// to its own bucket's output layer only (the buckets no sample is in get exactly 0).
#[test]
fn the_gradient_matches_finite_differences() {
    for buckets in [1, OUTPUT_BUCKETS] {
        let samples = if buckets == 1 {
            sample_positions(12)
        } else {
            positions_per_bucket(3)
        };
        let mut net = Net::new(8, buckets, 3);
        // Biases and larger weights put most accumulators inside SCReLU's curved part (0, 1),
        // where every term of the gradient is exercised.
        let b1 = net.b1_range();
        for b in &mut net.params[b1] {
            *b = 0.45;
        }
        for w in net.w2_mut() {
            *w *= 8.0;
        }
        let b2 = net.b2_range();
        for b in &mut net.params[b2] {
            *b = 0.05;
        }
        let mut grad = vec![0.0f32; net.params.len()];
        net.loss_and_gradient(samples.iter().copied(), TARGET, Some(&mut grad));
        // Every parameter a sample touches: the rows of its features, the biases, the output
        // layers of the samples' buckets.
        let mut checked: Vec<usize> = samples[0]
            .stm_features()
            .chain(samples[0].nstm_features())
            .flat_map(|f| f * 8..(f + 1) * 8)
            .collect();
        checked.extend(net.b1_range());
        let used: Vec<usize> = (0..buckets)
            .filter(|&b| samples.iter().any(|s| net.bucket(s) == b))
            .collect();
        for b in 0..buckets {
            let row = net.w2_range().start + b * 16..net.w2_range().start + (b + 1) * 16;
            let bias = net.b2_range().start + b;
            if used.contains(&b) {
                checked.extend(row);
                checked.push(bias);
            } else {
                let untouched = row.chain([bias]).all(|i| grad[i] == 0.0);
                assert!(untouched, "bucket {b} has no sample but has a gradient");
            }
        }
        if buckets > 1 {
            assert!(used.len() >= 4, "buckets with samples: {used:?}");
        }
        let eps = 1e-3f32;
        let mut nonzero = 0;
        for &i in &checked {
            let mut plus = net.clone();
            plus.params[i] += eps;
            let mut minus = net.clone();
            minus.params[i] -= eps;
            let numeric = (plus.loss_and_gradient(samples.iter().copied(), TARGET, None)
                - minus.loss_and_gradient(samples.iter().copied(), TARGET, None))
                / (2.0 * f64::from(eps));
            let analytic = f64::from(grad[i]);
            assert!(
                (numeric - analytic).abs() <= 2e-4 + 0.02 * numeric.abs(),
                "{buckets} buckets, parameter {i}: analytic {analytic}, finite differences {numeric}"
            );
            if analytic.abs() > 1e-3 {
                nonzero += 1;
            }
        }
        assert!(
            nonzero * 2 > checked.len(),
            "only {nonzero} of {} gradients were far from zero: the check would prove little",
            checked.len()
        );
    }
}

#[test]
fn a_seed_gives_the_same_net_on_one_or_two_threads() {
    let samples = sample_positions(6000);
    // Batches of 2500 make three slices, one of them short.
    let config = config(16, 2, 2500, 0.01);
    let one = train_in_pool(1, &samples, &config);
    let two = train_in_pool(2, &samples, &config);
    assert_eq!(one.step, 6);
    assert_ne!(
        one.net,
        Net::new(16, 1, config.seed),
        "training moved the net"
    );
    assert_eq!(
        QuantisedNet::from_float(&one.net).to_bytes().unwrap(),
        QuantisedNet::from_float(&two.net).to_bytes().unwrap()
    );
    assert_eq!(one, two, "float weights and optimizer state, bit for bit");
}

/// With a learning rate falling to `--lr-end` and λ rising (`--lambda-end`), over three
/// epochs resumed after the first: both schedules depend on the step and the epoch alone; and
/// with 8 output buckets, which the checkpoint keeps.
#[test]
fn a_resumed_run_ends_where_an_unbroken_one_does() {
    let samples = sample_positions(3000);
    let config = TrainConfig {
        lr_end: Some(1e-5),
        lambda_end: Some(0.9),
        buckets: OUTPUT_BUCKETS,
        ..config(16, 3, 1000, 0.01)
    };
    let unbroken = train_in_pool(2, &samples, &config);
    let dir = std::env::temp_dir().join(format!("cutoff-train-resume-{}", std::process::id()));
    let mut first = TrainState::new(16, OUTPUT_BUCKETS, config.seed);
    train_epoch(&mut first, &samples, &[], &config, |_| {}).unwrap();
    checkpoint::save(&dir, &first, TARGET.k, "").unwrap();
    let checkpoint::Checkpoint {
        state: mut resumed,
        k,
        ..
    } = checkpoint::load(&checkpoint::latest(&dir).unwrap().unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(k, TARGET.k);
    assert_eq!(resumed, first);
    while resumed.epoch < config.epochs {
        train_epoch(&mut resumed, &samples, &[], &config, |_| {}).unwrap();
    }
    assert_eq!(resumed, unbroken);
}

#[test]
fn the_net_file_has_the_documented_layout_and_reads_back() {
    let bucketed = QuantisedNet::from_float(&Net::new(16, OUTPUT_BUCKETS, 5));
    let bytes = bucketed.to_bytes().unwrap();
    assert_eq!(bytes.len(), file_bytes(Layout::Plain, 16, 8));
    assert_eq!(bytes.len(), 64 + 2 * 768 * 16 + 2 * 16 + 8 * (4 * 16 + 4));
    assert_eq!(bytes[36..40], 8u32.to_le_bytes());
    assert_eq!(QuantisedNet::from_bytes(&bytes).unwrap(), bucketed);
    // The last bucket's bias is the file's last four bytes.
    let last = i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
    assert_eq!(last, bucketed.weights.b2[7]);
    let net = Net::new(16, 1, 5);
    let q = QuantisedNet::from_float(&net);
    let bytes = q.to_bytes().unwrap();
    assert_eq!(bytes.len(), file_bytes(Layout::Plain, 16, 1));
    assert_eq!(bytes.len(), 64 + 2 * 768 * 16 + 2 * 16 + 4 * 16 + 4);
    assert_eq!(&bytes[..8], MAGIC);
    let field = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!(
        [
            field(8),
            field(12),
            field(16),
            field(20),
            field(24),
            field(28),
            field(32),
            field(36)
        ],
        [2, 768, 16, 1, 255, 64, 400, 1]
    );
    assert!(bytes[40..56].iter().all(|&b| b == 0));
    // The first weight is W1[0][0] * 255, rounded.
    let w = i16::from_le_bytes([bytes[HEADER_BYTES], bytes[HEADER_BYTES + 1]]);
    assert_eq!(w, (net.w1()[0] * 255.0).round() as i16);
    assert_eq!(QuantisedNet::from_bytes(&bytes).unwrap(), q);
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    assert!(QuantisedNet::from_bytes(&damaged).is_err());
    assert!(QuantisedNet::from_bytes(&bytes[..bytes.len() - 2]).is_err());
}

/// What the engine's loader would refuse, the trainer's writer refuses when it writes, with
/// the loader's reason, and writes nothing: a width the engine does not run, and weights whose
/// integer sums could wrap in its lanes. Both were written before and failed only in the engine.
#[test]
fn the_writer_refuses_a_net_the_engine_would_refuse_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-writer-{}", std::process::id()));
    let out = dir.join("net.nnue");
    let mut big_w2 = QuantisedNet::from_float(&Net::new(16, 1, 5));
    big_w2.weights.w2[3] = 20_000;
    let mut big_w1 = QuantisedNet::from_float(&Net::new(16, 1, 5));
    for f in 0..768 {
        big_w1.weights.w1[f * 16 + 5] = 1_100;
    }
    let mut three_buckets = QuantisedNet::from_float(&Net::new(16, 1, 5));
    three_buckets.weights.w2 = three_buckets.weights.w2.repeat(3);
    three_buckets.weights.b2 = vec![0; 3];
    for (q, reason) in [
        (
            QuantisedNet::from_float(&Net::new(17, 1, 5)),
            "unsupported net shape 768 -> 17",
        ),
        (
            three_buckets,
            "3 output buckets: the engine loads 1 or 8 (by piece count)",
        ),
        (big_w2, "output weight 3 is 20000"),
        (big_w1, "neuron 5's accumulator can reach"),
    ] {
        let e = quantised::write_net(&out, &q).unwrap_err();
        assert!(e.contains(reason), "{e}");
        assert!(!out.exists(), "{reason}: written");
    }
    quantised::write_net(&out, &QuantisedNet::from_float(&Net::new(16, 1, 5))).unwrap();
    assert!(crate::eval::Network::load(&out).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint resumes a run that writes nets of its width: one of a width the engine does not
/// load is refused when read, naming the rule, as `--hidden` refuses it.
#[test]
fn a_checkpoint_of_a_width_the_engine_cannot_load_is_refused() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-ckpt-width-{}", std::process::id()));
    let path = checkpoint::save(&dir, &TrainState::new(17, 1, 1), 130.0, "").unwrap();
    let loaded = checkpoint::load(&path).map(|c| c.state.net.hidden);
    std::fs::remove_dir_all(&dir).unwrap();
    let e = loaded.expect_err("a checkpoint of 17 neurons loaded");
    assert!(
        e.contains("17 neurons") && e.contains("a multiple of 16 from 16 to 1024"),
        "{e}"
    );
}

/// For a net of one output bucket and one of eight (trained, so that the buckets' rows
/// differ), on positions of every bucket the chunk has.
/// A version 4 checkpoint's bytes with its checksum made again for them (the last 8 bytes), so
/// that a change made on purpose reaches the checks after the checksum.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let sum = format::fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A checkpoint keeps its output buckets and its recipe (version 4); one written before the
/// checksum (version 3) loads, marked as not checksummed; before the recipe (version 2) without
/// one, and before buckets (version 1, no bucket field) as a net of one bucket; one claiming 3
/// buckets is refused naming the rule.
#[test]
fn a_checkpoint_keeps_its_buckets_and_recipe_and_older_ones_still_load() {
    let dir =
        std::env::temp_dir().join(format!("cutoff-train-ckpt-buckets-{}", std::process::id()));
    let state = TrainState::new(16, OUTPUT_BUCKETS, 4);
    let recipe = "--epochs 3\n--lr-end 0.00001\n";
    let path = checkpoint::save(&dir, &state, 130.0, recipe).unwrap();
    let loaded = checkpoint::load(&path).unwrap();
    assert_eq!(loaded.state, state);
    assert_eq!(loaded.recipe.as_deref(), Some(recipe));
    assert!(loaded.checksummed());
    // The same one-bucket state without a recipe (bytes 40..44: its length, 0), and the
    // versions before: 3 without the checksum, 2 without the length too, 1 without the bucket
    // field (36..40) too.
    let one = TrainState::new(16, 1, 4);
    let bytes = std::fs::read(checkpoint::save(&dir, &one, 130.0, "").unwrap()).unwrap();
    assert_eq!(bytes[8..12], 4u32.to_le_bytes());
    assert_eq!(bytes[36..40], 1u32.to_le_bytes());
    assert_eq!(bytes[40..44], 0u32.to_le_bytes());
    let floats = &bytes[44..bytes.len() - 8];
    let older = |version: u32, header: usize| {
        let mut old = bytes[..header].to_vec();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        old.extend_from_slice(floats);
        let path = dir.join(format!("v{version}.ckpt"));
        std::fs::write(&path, &old).unwrap();
        checkpoint::load(&path)
    };
    let (v3, v2, v1) = (older(3, 44), older(2, 40), older(1, 36));
    let three = resealed({
        let mut three = bytes.clone();
        three[36..40].copy_from_slice(&3u32.to_le_bytes());
        three
    });
    let three_path = dir.join("three.ckpt");
    std::fs::write(&three_path, &three).unwrap();
    let refused = checkpoint::load(&three_path).map(|_| ());
    std::fs::remove_dir_all(&dir).unwrap();
    let unrecorded = |version: u32, recipe: Option<&str>| checkpoint::Checkpoint {
        state: one.clone(),
        k: 130.0,
        recipe: recipe.map(str::to_string),
        version,
    };
    let v3 = v3.unwrap();
    assert_eq!(v3, unrecorded(3, Some("")));
    assert!(!v3.checksummed());
    assert_eq!(v2.unwrap(), unrecorded(2, None));
    assert_eq!(v1.unwrap(), unrecorded(1, None));
    let e = refused.unwrap_err();
    assert!(
        e.contains("a net of 3 output buckets: the engine loads 1 or 8 (by piece count)"),
        "{e}"
    );
}

/// A checkpoint of a net of king buckets (four times the input rows) loads back as itself,
/// its layout told by its size; one cut by a row's worth of floats is refused as cut.
#[test]
fn a_checkpoint_of_king_buckets_loads_with_its_four_sets_of_input_rows() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-ckpt-kb-{}", std::process::id()));
    let state = TrainState::of_layout(Layout::MirroredKingBuckets, 16, OUTPUT_BUCKETS, 4);
    assert_eq!(state.net.w1().len(), 4 * 768 * 16);
    let path = checkpoint::save(&dir, &state, 130.0, "--inputs mirrored-kb4\n").unwrap();
    let loaded = checkpoint::load(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let cut = resealed({
        let mut cut = bytes[..bytes.len() - 8].to_vec();
        cut.truncate(cut.len() - 12 * 16);
        cut.extend_from_slice(&[0; 8]);
        cut
    });
    let cut_path = dir.join("cut.ckpt");
    std::fs::write(&cut_path, &cut).unwrap();
    let refused = checkpoint::load(&cut_path).map(|_| ());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(loaded.state, state);
    assert_eq!(loaded.state.net.layout, Layout::MirroredKingBuckets);
    let e = refused.unwrap_err();
    assert!(e.contains("cut or damaged (wrong size)"), "{e}");
}

/// A recipe that does not fit its length, or is not text, is a damaged checkpoint: refused
/// with the reason, not read as floats (its checksum made again, so that the parse sees it).
#[test]
fn a_checkpoint_whose_recipe_is_cut_or_not_text_is_refused() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-ckpt-recipe-{}", std::process::id()));
    let bytes = std::fs::read(
        checkpoint::save(&dir, &TrainState::new(16, 1, 4), 130.0, "--seed 7\n").unwrap(),
    )
    .unwrap();
    let mut long = bytes.clone();
    long[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut not_text = bytes.clone();
    not_text[44] = 0xff;
    let mut results = Vec::new();
    for (name, damaged) in [("long", long), ("not-text", not_text)] {
        let path = dir.join(format!("{name}.ckpt"));
        std::fs::write(&path, resealed(damaged)).unwrap();
        results.push(checkpoint::load(&path).map(|_| ()).unwrap_err());
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        results[0].contains("cut or damaged (wrong size)"),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("its recipe is not text"),
        "{}",
        results[1]
    );
}

/// A checkpoint is checked before a run goes on from it: any byte changed, or the file cut
/// or grown by a byte, fails its checksum; a weight, a moment or `K` that is no finite number,
/// or a second moment below 0, is refused naming it, whatever the version (a run resumed from
/// a NaN trained a net of zeros; a flipped byte was taken without a word).
#[test]
fn a_checkpoint_with_a_changed_byte_or_a_number_that_is_no_number_is_refused() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-ckpt-check-{}", std::process::id()));
    let state = TrainState::new(16, 1, 4);
    let bytes =
        std::fs::read(checkpoint::save(&dir, &state, 130.0, "--seed 4\n").unwrap()).unwrap();
    let load = |name: &str, bytes: &[u8]| {
        let path = dir.join(format!("{name}.ckpt"));
        std::fs::write(&path, bytes).unwrap();
        checkpoint::load(&path).map(|_| ())
    };
    let mut failures = Vec::new();
    for i in [
        12,
        28,
        44,
        60,
        bytes.len() / 2,
        bytes.len() - 9,
        bytes.len() - 1,
    ] {
        for bit in [0x01u8, 0x80] {
            let mut changed = bytes.clone();
            changed[i] ^= bit;
            match load("flipped", &changed) {
                Err(e) if e.contains("damaged: its checksum") => {}
                other => failures.push(format!("byte {i} ^ {bit:#x}: {other:?}")),
            }
        }
    }
    let cut = load("cut", &bytes[..bytes.len() - 1]).unwrap_err();
    let grown = load("grown", &[&bytes[..], &[0]].concat()).unwrap_err();
    for e in [cut, grown] {
        assert!(e.contains("damaged: its checksum"), "{e}");
    }
    let p = state.net.params.len();
    let float_at = |i: usize| 44 + 9 + 4 * i;
    let with = |offset: usize, value: &[u8]| {
        let mut b = bytes.clone();
        b[offset..offset + value.len()].copy_from_slice(value);
        resealed(b)
    };
    for (what, changed, expected) in [
        ("K NaN", with(28, &f64::NAN.to_le_bytes()), "K is NaN"),
        ("K 0", with(28, &0f64.to_le_bytes()), "K is 0"),
        (
            "weight NaN",
            with(float_at(5), &f32::NAN.to_le_bytes()),
            "weight 5 is NaN",
        ),
        (
            "m inf",
            with(float_at(p + 2), &f32::INFINITY.to_le_bytes()),
            "first moment 2 is inf",
        ),
        (
            "v negative",
            with(float_at(2 * p + 3), &(-1f32).to_le_bytes()),
            "second moment 3 is -1",
        ),
    ] {
        match load("numbers", &changed) {
            Err(e) if e.contains(expected) && e.contains("damaged") => {}
            other => failures.push(format!("{what}: {other:?}")),
        }
    }
    // Version 3 (no checksum) has its numbers checked too.
    let mut v3 = bytes[..bytes.len() - 8].to_vec();
    v3[8..12].copy_from_slice(&3u32.to_le_bytes());
    v3[float_at(7)..float_at(7) + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    match load("v3", &v3) {
        Err(e) if e.contains("weight 7 is NaN") => {}
        other => failures.push(format!("version 3 with a NaN: {other:?}")),
    }
    assert!(load("good", &bytes).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_integer_forward_pass_is_the_float_one_on_the_rounded_weights() {
    let samples = sample_positions(20_000);
    let checked = positions_per_bucket(400);
    for buckets in [1, OUTPUT_BUCKETS] {
        let config = TrainConfig {
            buckets,
            ..config(32, 4, 2048, 0.01)
        };
        let state = train_in_pool(2, &samples, &config);
        let bytes = QuantisedNet::from_float(&state.net).to_bytes().unwrap();
        let q = QuantisedNet::from_bytes(&bytes).unwrap();
        assert_eq!(q.buckets(), buckets);
        let rounded = q.to_float();
        let (mut worst, mut spread) = (0.0f32, 0.0f32);
        for s in &checked {
            let float = rounded.forward(s) * SCALE;
            let int = q.evaluate(s.stm_features(), s.nstm_features()) as f32;
            // The integer pass truncates twice: `sum / QA` (under 400 / (QA·QB) = 0.025 cp)
            // and the final division (under 1 cp); f32 adds a little.
            worst = worst.max((float - int).abs());
            spread += float.abs() / checked.len() as f32;
        }
        assert!(
            spread > 50.0,
            "the trained net's evaluations are too small ({spread} cp on average) to test with"
        );
        assert!(worst < 1.05, "{buckets} buckets: worst {worst} cp");
    }
}

/// The quantised bucketed net is the engine's: `QuantisedNet::evaluate` (the trainer's
/// reference) and the engine's `Network::evaluate` give the same centipawns on the positions
/// of every bucket, and a bucket's row is the one the float net trained.
#[test]
fn a_bucketed_net_evaluates_alike_in_the_trainer_and_the_engine() {
    let samples = sample_positions(20_000);
    let config = TrainConfig {
        buckets: OUTPUT_BUCKETS,
        ..config(32, 2, 2048, 0.01)
    };
    let state = train_in_pool(2, &samples, &config);
    let q = quantised::quantise_centred(&state.net, &samples);
    let engine = crate::eval::Network::from_bytes(&q.to_bytes().unwrap()).unwrap();
    assert_eq!(engine.buckets(), OUTPUT_BUCKETS);
    // 32, 30, 20, 14, 12, 7, 4 and 3 pieces: buckets 7, 7, 4, 3, 2, 1, 0, 0.
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "r4rk1/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R4RK1 b - - 0 20",
        "r5k1/pp3ppp/8/8/8/8/PP3PPP/R5K1 w - - 0 30",
        "6k1/pp3ppp/8/8/8/8/PP3PPP/6K1 b - - 0 30",
        "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 40",
        "8/8/4k3/8/2p5/8/3K4/8 b - - 0 50",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ];
    let mut buckets = Vec::new();
    for fen in fens {
        let pos = crate::position::pos(fen);
        let s = Sample::new(&pos, 0, crate::datagen::GameResult::Draw, Layout::Plain);
        buckets.push(state.net.bucket(&s));
        let reference = q.evaluate(s.stm_features(), s.nstm_features());
        assert_eq!(i64::from(engine.evaluate(&pos).0), reference, "{fen}");
    }
    assert_eq!(buckets, [7, 7, 4, 3, 2, 1, 0, 0]);
}

#[test]
fn the_quantised_net_evaluates_within_a_few_centipawns_of_the_float_net() {
    let samples = sample_positions(20_000);
    let state = train_in_pool(2, &samples, &config(32, 4, 2048, 0.01));
    let q = QuantisedNet::from_float(&state.net);
    let error = quantised::rounding_error(&state.net, &q, &samples[..2000]);
    // Rounding W2 to 1/64 is most of it: a few cp on evaluations of about 280 cp here.
    assert!(error.mean_abs < 5.0 && error.worst < 20.0, "{error:?}");
}

#[test]
fn centring_moves_only_the_output_bias_and_takes_the_shared_rounding_offset_out() {
    let samples = sample_positions(20_000);
    let state = train_in_pool(2, &samples, &config(32, 4, 2048, 0.01));
    assert_centring_removes_the_offset(&rounding_down(&state.net), &samples);
}

/// Centring a net of 8 output buckets moves each bucket's `b2` by its own positions' offset:
/// on the calibration positions of every bucket the offset is gone.
#[test]
fn centring_moves_each_buckets_bias_by_its_own_offset() {
    let samples = sample_positions(20_000);
    let config = TrainConfig {
        buckets: OUTPUT_BUCKETS,
        ..config(32, 4, 2048, 0.01)
    };
    let net = rounding_down(&train_in_pool(2, &samples, &config).net);
    assert_centring_removes_the_offset(&net, &samples);
    let (plain, centred) = (
        QuantisedNet::from_float(&net),
        quantised::quantise_centred(&net, &samples[..10_000]),
    );
    let mut centred_buckets = 0;
    for bucket in 0..OUTPUT_BUCKETS {
        let own: Vec<Sample> = samples[..10_000]
            .iter()
            .filter(|s| net.bucket(s) == bucket)
            .copied()
            .collect();
        if own.len() < 200 {
            continue;
        }
        centred_buckets += 1;
        let before = quantised::rounding_error(&net, &plain, &own);
        let after = quantised::rounding_error(&net, &centred, &own);
        assert!(before.mean > 3.0, "bucket {bucket}: {before:?}");
        assert!(after.mean.abs() < 1.0, "bucket {bucket}: {after:?}");
    }
    assert!(
        centred_buckets >= 3,
        "{centred_buckets} buckets with positions"
    );
}

/// `net` with every `W2` a third of a step above a multiple of 1/64, so that rounding takes
/// each down: the shared offset centring removes.
fn rounding_down(net: &Net) -> Net {
    let mut net = net.clone();
    for w in net.w2_mut() {
        *w = (*w * 64.0).floor() / 64.0 + 1.0 / 192.0;
    }
    net
}

/// `net` (its `W2` set to round down, as a shared offset does), centred on half of `samples`:
/// only the `b2`s move, and the shared offset is gone on the calibration positions and mostly
/// on the others.
fn assert_centring_removes_the_offset(net: &Net, samples: &[Sample]) {
    let (calibration, held_out) = samples.split_at(10_000);
    let plain = QuantisedNet::from_float(net);
    let centred = quantised::quantise_centred(net, calibration);
    assert_eq!(
        (
            &centred.weights.w1,
            &centred.weights.b1,
            &centred.weights.w2
        ),
        (&plain.weights.w1, &plain.weights.b1, &plain.weights.w2)
    );
    let before = quantised::rounding_error(net, &plain, &held_out[..2000]);
    let after = quantised::rounding_error(net, &centred, &held_out[..2000]);
    assert!(before.mean > 3.0, "the offset to remove: {before:?}");
    // On the positions it was measured on, the offset is gone (to the truncation of the
    // integer pass); on others, what varies with how many neurons a position lights is left.
    let on_calibration = quantised::rounding_error(net, &centred, calibration);
    assert!(on_calibration.mean.abs() < 1.0, "{on_calibration:?}");
    assert!(
        after.mean.abs() < before.mean / 4.0,
        "{before:?} -> {after:?}"
    );
    assert!(after.mean_abs < before.mean_abs, "{before:?} -> {after:?}");
    assert_eq!(quantised::quantise_centred(net, &[]), plain);
}

#[test]
fn k_is_fitted_to_where_the_scores_predict_the_results_best() {
    let samples = sample_positions(5000);
    let k = fit_k(&samples);
    for other in [k * 0.8, k * 1.25] {
        assert!(score_error(&samples, k) < score_error(&samples, other));
    }
    assert!((30.0..1000.0).contains(&k), "{k}");
}

#[test]
fn the_learning_rate_falls_along_a_cosine_to_a_tenth() {
    let share = config(16, 1, 1, 0.001).final_lr_share();
    assert_eq!(learning_rate(0.001, share, 0, 100), 0.001);
    assert!((learning_rate(0.001, share, 50, 100) - 0.00055).abs() < 1e-12);
    assert!((learning_rate(0.001, share, 100, 100) - 0.0001).abs() < 1e-12);
}

/// Without `--lr-end` the schedule is the one every net before the flag was trained on, bit
/// for bit: `lr · (0.1 + 0.9 · cosine)` as it was written then.
#[test]
fn without_lr_end_the_schedule_is_the_old_one_bit_for_bit() {
    for lr in [0.001, 0.003, 0.0007] {
        let share = config(16, 1, 1, lr).final_lr_share();
        let total = 95_920;
        for step in (0..=total).step_by(7) {
            let progress = (step as f64 / total as f64).min(1.0);
            let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
            let old = lr * (0.1 + (1.0 - 0.1) * cosine);
            assert_eq!(
                learning_rate(lr, share, step, total).to_bits(),
                old.to_bits(),
                "lr {lr}, step {step}"
            );
        }
    }
}

/// `--lr-end` is where the cosine ends: the rate after the last step is it, and the last
/// step's own (the epoch report's) is within `sin²(π / (2·total))` of the fall above it.
#[test]
fn the_learning_rate_falls_to_lr_end_by_the_last_step() {
    let samples = sample_positions(3000);
    let config = TrainConfig {
        lr_end: Some(2e-6),
        ..config(16, 2, 300, 0.002)
    };
    let total = steps_per_epoch(samples.len(), config.batch) * 2;
    let share = config.final_lr_share();
    let end = learning_rate(config.lr, share, total, total);
    assert!((end - 2e-6).abs() <= 1e-15 * 2e-6, "{end}");
    assert!(learning_rate(config.lr, share, total / 2, total) > 0.0009);
    let mut state = TrainState::new(16, 1, config.seed);
    train_epoch(&mut state, &samples, &[], &config, |_| {}).unwrap();
    let last = train_epoch(&mut state, &samples, &[], &config, |_| {}).unwrap();
    assert_eq!(state.step, total);
    let slack = (config.lr - 2e-6) * (std::f64::consts::PI / (2 * total) as f64).sin().powi(2);
    assert!(
        last.lr >= 2e-6 && last.lr - 2e-6 <= slack * (1.0 + 1e-9),
        "the last step's rate {} against --lr-end 2e-6 (slack {slack})",
        last.lr
    );
}

/// `--lambda-end`: λ is `--lambda` in the first epoch and `--lambda-end` in the last, in equal
/// steps between, and the epoch is trained on it: an epoch of the rising run is the same epoch
/// trained with λ flat at that epoch's value. Without it, λ is flat.
#[test]
fn lambda_rises_from_the_first_epoch_to_the_last_and_each_epoch_trains_on_its_own() {
    let rising = TrainConfig {
        lambda_end: Some(0.9),
        ..config(16, 5, 1000, 0.01)
    };
    let lambdas: Vec<f64> = (0..5).map(|e| rising.target_at(e).lambda).collect();
    for (got, want) in lambdas.iter().zip([0.4, 0.525, 0.65, 0.775, 0.9]) {
        assert!((got - want).abs() < 1e-12, "{lambdas:?}");
    }
    let flat = config(16, 5, 1000, 0.01);
    assert!((0..5).all(|e| flat.target_at(e) == TARGET));
    let samples = sample_positions(2000);
    let mut state = TrainState::new(16, 1, rising.seed);
    let reports: Vec<EpochReport> = (0..3)
        .map(|_| train_epoch(&mut state, &samples, &[], &rising, |_| {}).unwrap())
        .collect();
    assert_eq!(reports[0].lambda, lambdas[0]);
    assert_eq!(reports[2].lambda, lambdas[2]);
    // The third epoch again, from the state after the second, with λ flat at its value.
    let mut again = TrainState::new(16, 1, rising.seed);
    for _ in 0..2 {
        train_epoch(&mut again, &samples, &[], &rising, |_| {}).unwrap();
    }
    let at_third = TrainConfig {
        target: rising.target_at(2),
        lambda_end: None,
        ..rising
    };
    train_epoch(&mut again, &samples, &[], &at_third, |_| {}).unwrap();
    assert_eq!(again, state);
}

/// Where λ rises, an epoch's validation loss is also measured against the last epoch's target,
/// the one yardstick of the whole run (its own target moves with λ): it differs from the
/// epoch's own loss before the last epoch and is that loss in the last. Where λ is flat, the
/// two are one.
#[test]
fn each_epoch_is_also_measured_against_the_last_epochs_target() {
    let samples = sample_positions(2400);
    let (train, validation) = samples.split_at(2000);
    let rising = TrainConfig {
        lambda_end: Some(0.9),
        ..config(16, 3, 1000, 0.01)
    };
    let flat = config(16, 3, 1000, 0.01);
    for (run, rises) in [(rising, true), (flat, false)] {
        let mut state = TrainState::new(16, 1, run.seed);
        for epoch in 0..3 {
            let report = train_epoch(&mut state, train, validation, &run, |_| {}).unwrap();
            let at_end = loss(&state.net, validation, run.target_at(2));
            assert_eq!(report.validation_loss_at_end, Some(at_end), "epoch {epoch}");
            if rises && epoch < 2 {
                assert_ne!(report.validation_loss, report.validation_loss_at_end);
            } else {
                assert_eq!(report.validation_loss, report.validation_loss_at_end);
            }
        }
    }
}

#[test]
fn a_k_fitted_on_few_positions_or_at_its_bound_is_warned_about() {
    assert_eq!(k_fit_warning(4_000_000, 129.7), None);
    let few = k_fit_warning(2_000, 129.7).unwrap();
    assert!(few.contains("only 2000 training positions"), "{few}");
    let bound = k_fit_warning(4_000_000, K_RANGE.0 + K_TOLERANCE).unwrap();
    assert!(bound.contains("end of its search range"), "{bound}");
    assert!(k_fit_warning(4_000_000, K_RANGE.1).is_some());
}

#[test]
fn the_avx512_and_avx2_copies_of_the_gradient_give_the_portable_bits() {
    let samples = sample_positions(3000);
    // A trained net (accumulators on both sides of SCReLU's kinks), at the built-in width and
    // at one that leaves a tail after every full vector.
    for hidden in [256, 40] {
        let net = train_in_pool(2, &samples, &config(hidden, 1, 1024, 0.01)).net;
        let run = |f: &dyn Fn(&mut [f32]) -> f64| {
            let mut grad = vec![0.0f32; net.params.len()];
            let loss = f(&mut grad);
            (
                loss.to_bits(),
                grad.iter().map(|g| g.to_bits()).collect::<Vec<_>>(),
            )
        };
        let portable =
            run(&|g| net.loss_and_gradient_portable(samples.iter().copied(), TARGET, Some(g)));
        assert!(portable.1.iter().filter(|&&g| g != 0).count() > net.params.len() / 10);
        assert_eq!(
            run(&|g| net.loss_and_gradient(samples.iter().copied(), TARGET, Some(g))),
            portable
        );
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F, checked just above.
                let wide = run(&|g| unsafe {
                    net.loss_and_gradient_avx512(samples.iter().copied(), TARGET, Some(g))
                });
                assert_eq!(wide, portable, "AVX-512, {hidden} neurons");
            } else {
                crate::testing::skip(
                    "the_avx512_and_avx2_copies_of_the_gradient_give_the_portable_bits",
                    crate::testing::Need::Machine,
                    &format!("no AVX-512F here: that copy is not checked ({hidden} neurons)"),
                );
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just above.
                let wide = run(&|g| unsafe {
                    net.loss_and_gradient_avx2(samples.iter().copied(), TARGET, Some(g))
                });
                assert_eq!(wide, portable, "AVX2, {hidden} neurons");
            } else {
                crate::testing::skip(
                    "the_avx512_and_avx2_copies_of_the_gradient_give_the_portable_bits",
                    crate::testing::Need::Machine,
                    &format!("no AVX2 here: that copy is not checked ({hidden} neurons)"),
                );
            }
        }
    }
}

/// A net and a checkpoint are written through a temporary file of their own: a file beside them
/// named as `with_extension("tmp")` would name it (`net.tmp`, `epoch-001.tmp`) is left alone.
#[test]
fn writing_a_net_or_a_checkpoint_leaves_a_file_named_like_a_temporary_one_alone() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-tmp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("net.nnue");
    let ckpt = checkpoint::save(&dir, &TrainState::new(16, 1, 1), 130.0, "").unwrap();
    let beside = [dir.join("net.tmp"), ckpt.with_extension("tmp")];
    for path in &beside {
        std::fs::write(path, b"keep").unwrap();
    }
    quantised::write_net(&out, &QuantisedNet::from_float(&Net::new(16, 1, 5))).unwrap();
    let again = checkpoint::save(&dir, &TrainState::new(16, 1, 1), 130.0, "").unwrap();
    assert_eq!(again, ckpt);
    for path in &beside {
        assert_eq!(std::fs::read(path).unwrap(), b"keep", "{}", path.display());
    }
    assert!(crate::eval::Network::load(&out).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run whose loss stops being a number stops: a learning rate of NaN (or one so large that the
/// weights overflow) gave every later batch a NaN loss, and the epoch ended with a report of a
/// NaN loss and weights of NaN, which quantise to a net of zeros. Now the epoch is an error
/// naming where it diverged, and is not counted.
#[test]
fn an_epoch_whose_loss_or_weights_turn_non_finite_is_an_error_not_a_report() {
    let samples = sample_positions(1000);
    for lr in [f64::NAN, f64::INFINITY, 1e30] {
        let config = config(16, 1, 100, lr);
        let mut state = TrainState::new(16, 1, config.seed);
        let e = train_epoch(&mut state, &samples, &samples[..100], &config, |_| {}).unwrap_err();
        assert!(
            e.starts_with("epoch 1, batch ") && e.contains("the run has diverged"),
            "lr {lr}: {e}"
        );
        assert_eq!(state.epoch, 0, "lr {lr}: the diverged epoch was counted");
    }
    // A target that is no number (a K of NaN, as from a damaged checkpoint) at the first batch.
    let config = TrainConfig {
        target: Target {
            k: f64::NAN,
            ..TARGET
        },
        ..config(16, 1, 100, 0.001)
    };
    let mut state = TrainState::new(16, 1, config.seed);
    let e = train_epoch(&mut state, &samples, &[], &config, |_| {}).unwrap_err();
    assert!(e.starts_with("epoch 1, batch 1: the loss is NaN"), "{e}");
}

/// A trained net of mirrored inputs (with and without king buckets) is the engine's too:
/// written as a version 3 file that the engine reads in its layout, its
/// `QuantisedNet::evaluate` (the trainer's reference, on the samples' features) and the
/// engine's `Network::evaluate` give the same centipawns, with the kings on either half and on
/// different halves, in the same and in different king buckets, and a position and its
/// left-right mirror get the same value.
#[test]
fn a_mirrored_net_evaluates_alike_in_the_trainer_and_the_engine() {
    for layout in [Layout::Mirrored, Layout::MirroredKingBuckets] {
        mirrored_net_evaluates_alike_in_the_trainer_and_the_engine(layout);
    }
}

fn mirrored_net_evaluates_alike_in_the_trainer_and_the_engine(layout: Layout) {
    let samples = samples_of(layout, 20_000);
    let config = TrainConfig {
        buckets: OUTPUT_BUCKETS,
        ..config(32, 2, 2048, 0.01)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let state = pool.install(|| {
        let mut state = TrainState::of_layout(layout, config.hidden, config.buckets, config.seed);
        while state.epoch < config.epochs {
            train_epoch(&mut state, &samples, &[], &config, |_| {}).unwrap();
        }
        state
    });
    let q = quantised::quantise_centred(&state.net, &samples);
    let bytes = q.to_bytes().unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
    let engine = crate::eval::Network::from_bytes(&bytes).unwrap();
    assert_eq!(engine.layout(), layout);
    let fens = [
        // Both kings on e-h, both on a-d, White's on a-d and Black's on e-h, and the reverse.
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2Q1RK1 w - - 0 8",
        "2kr3r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/2KR3R b - - 0 12",
        "r4rk1/pp3ppp/2n5/3p4/3P4/2N5/PPP2PPP/2KR3R w - - 0 20",
        "2kr3r/ppp2ppp/8/8/8/8/PP3PPP/R5K1 b - - 0 30",
        "8/5pk1/6p1/8/8/6P1/1K3P2/3R4 w - - 0 40",
        "8/8/4k3/8/2p5/8/3K4/8 b - - 0 50",
        // King buckets: White's on its second rank, Black's on its back rank's file d.
        "3k4/8/8/8/8/8/4K3/8 w - - 0 60",
    ];
    for fen in fens {
        let pos = crate::position::pos(fen);
        let s = Sample::new(&pos, 0, crate::datagen::GameResult::Draw, layout);
        let reference = q.evaluate(s.stm_features(), s.nstm_features());
        assert_eq!(i64::from(engine.evaluate(&pos).0), reference, "{fen}");
        let mut setup = shakmaty::Position::to_setup(&pos, shakmaty::EnPassantMode::Legal);
        setup.board.flip_horizontal();
        let twin: shakmaty::Chess =
            shakmaty::FromSetup::from_setup(setup, shakmaty::CastlingMode::Chess960).unwrap();
        let t = Sample::new(&twin, 0, crate::datagen::GameResult::Draw, layout);
        assert_eq!(q.evaluate(t.stm_features(), t.nstm_features()), reference);
        assert_eq!(engine.evaluate(&twin), engine.evaluate(&pos), "{fen}");
    }
}

/// A recipe recorded before `--inputs` was (every checkpoint of an earlier build) reads as
/// plain inputs: a plain run resumes from it, a mirrored one is refused naming the setting.
#[test]
fn a_recipe_recorded_before_inputs_reads_as_plain_inputs() {
    let before = "--epochs 2\nmirrored true\n";
    let plain = "--epochs 2\nmirrored true\n--inputs plain\n";
    let mirrored = "--epochs 2\nmirrored false\n--inputs mirrored\n";
    assert!(recipe::differences(before, plain).is_empty());
    assert_eq!(
        recipe::differences(before, mirrored),
        [
            "mirrored: true there, false here",
            "--inputs: plain there, mirrored here"
        ]
    );
    assert_eq!(
        recipe::differences(mirrored, plain),
        [
            "mirrored: false there, true here",
            "--inputs: mirrored there, plain here"
        ]
    );
}

/// `--resume` goes on from the checkpoint of the most epochs, read as a number: past epoch
/// 9999 the names grow a digit (`epoch-10000.ckpt`), which sorts before `epoch-9999.ckpt` by
/// name; a name whose number is no number (`epoch-x.ckpt`, `epoch-.ckpt`) is no checkpoint.
#[test]
fn the_latest_checkpoint_is_the_one_of_the_most_epochs_past_four_digits_too() {
    let dir = std::env::temp_dir().join(format!("cutoff-train-latest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(checkpoint::latest(&dir).unwrap(), None);
    for name in [
        "epoch-x.ckpt",
        "epoch-.ckpt",
        "epoch-0007.ckpt",
        "epoch-9999.ckpt",
    ] {
        std::fs::write(dir.join(name), b"").unwrap();
    }
    let latest = || checkpoint::latest(&dir).unwrap().unwrap();
    assert_eq!(latest(), dir.join("epoch-9999.ckpt"));
    std::fs::write(dir.join("epoch-10000.ckpt"), b"").unwrap();
    assert_eq!(latest(), dir.join("epoch-10000.ckpt"));
    std::fs::remove_dir_all(&dir).unwrap();
}
