//! Training data at scale: the viriformat game records `cutoff datagen` writes, read back by
//! `--stats`, `--dump`, the converter and the training reader; a torn chunk skipped by name;
//! a run killed with SIGKILL keeping every finished game.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use cutoff::datagen::manifest;
use cutoff::datagen::positions::{game_positions, Filter, TrainingPosition};
use cutoff::datagen::record::decode_all;
use cutoff::datagen::viriformat::{GameReader, ReadErrorKind, ScoredGame};
use cutoff::train::reader::{ReaderConfig, TrainingReader};
use shakmaty::{CastlingMode, EnPassantMode, Position};

const BIN: &str = env!("CARGO_BIN_EXE_cutoff");

/// The 20 games of `selfplay-sample.bin` (1,927 records), converted by
/// `cutoff datagen --convert tests/data/selfplay-sample.bin --out selfplay-sample.vf`.
const SAMPLE_VF: &[u8] = include_bytes!("data/selfplay-sample.vf");
const SAMPLE_BIN: &[u8] = include_bytes!("data/selfplay-sample.bin");

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A fresh folder of its own for a test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cutoff(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn games_of(bytes: &[u8]) -> Vec<ScoredGame> {
    GameReader::new(bytes)
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

#[test]
fn the_committed_viriformat_sample_replays_legally_as_its_forty_byte_records() {
    let games = games_of(SAMPLE_VF);
    assert_eq!(games.len(), 20);
    let records = decode_all(SAMPLE_BIN).unwrap();
    let positions: Vec<TrainingPosition> = games.iter().flat_map(game_positions).collect();
    assert_eq!(positions.len(), 1927);
    assert_eq!(positions.len(), records.len());
    let key = |pos: &shakmaty::Chess| {
        let fen = shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string();
        fen.split(' ').take(5).collect::<Vec<_>>().join(" ")
    };
    for (i, (p, r)) in positions.iter().zip(&records).enumerate() {
        assert_eq!(key(&p.pos), key(&r.position().unwrap()), "position {i}");
        assert_eq!(p.white_score, r.score, "position {i}");
        assert_eq!(p.result.white_score(), r.result, "position {i}");
        assert_eq!(p.pos.is_check(), r.in_check, "position {i}");
        // Both layouts store castling as king takes rook (e1h1).
        let uci = p.best.to_uci(CastlingMode::Chess960).to_string();
        assert_eq!(uci, r.best_move_uci(), "position {i}");
        assert!(p.pos.is_legal(p.best), "position {i}");
    }
    let castles = positions
        .iter()
        .filter(|p| matches!(p.best, shakmaty::Move::Castle { .. }))
        .count();
    assert!(castles > 0, "the sample has castling moves");
    // Every game ends where its last move leaves it: the next game is a new start.
    let mut encoded = Vec::new();
    for g in &games {
        g.encode(&mut encoded);
    }
    assert_eq!(encoded, SAMPLE_VF, "re-encoding gives the same bytes");
}

#[test]
fn the_converter_turns_a_forty_byte_file_into_the_committed_sample() {
    let dir = temp_dir("convert");
    let out = dir.join("sample.vf");
    let output = cutoff(&[
        "datagen",
        "--convert",
        data("selfplay-sample.bin").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        text(&output.stdout).starts_with("converted 20 games, 1927 positions (0 games split)"),
        "{}",
        text(&output.stdout)
    );
    assert_eq!(std::fs::read(&out).unwrap(), SAMPLE_VF);
    let line = manifest::last_entry(&out).unwrap().unwrap();
    assert_eq!((line.games, line.positions), (20, 1927));
    assert_eq!(line.state, "converted");
    // Refuses to overwrite.
    let again = cutoff(&[
        "datagen",
        "--convert",
        data("selfplay-sample.bin").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!again.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `--stats` should count for the games of `bytes`.
fn expected(bytes: &[u8]) -> (u64, u64, u64) {
    let mut games = 0;
    let mut positions = 0;
    let mut pass = 0;
    for g in GameReader::new(bytes).filter_map(Result::ok) {
        games += 1;
        positions += g.moves.len() as u64;
        pass += game_positions(&g)
            .filter(|p| Filter::default().passes_position(p))
            .count() as u64;
    }
    (games, positions, pass)
}

#[test]
fn stats_skips_a_torn_chunk_by_name_and_ends_with_the_summary_line() {
    let dir = temp_dir("stats");
    std::fs::write(dir.join("good.vf"), SAMPLE_VF).unwrap();
    // Cut in the middle of the sixth game.
    let games = games_of(SAMPLE_VF);
    let five: usize = games[..5].iter().map(ScoredGame::encoded_len).sum();
    let cut = five + 32 + 4 * 10 + 2;
    std::fs::write(dir.join("torn.vf"), &SAMPLE_VF[..cut]).unwrap();
    // A 40-byte file with a corrupt record in the middle: the games before it count.
    let mut bin = SAMPLE_BIN.to_vec();
    bin[40 * 300 + 26] = 9;
    std::fs::write(dir.join("broken.bin"), &bin).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a chunk").unwrap();

    let output = cutoff(&["datagen", "--stats", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "{}: torn tail at byte {five}",
            dir.join("torn.vf").display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "{}: corrupt at byte 12000",
            dir.join("broken.bin").display()
        )),
        "{stderr}"
    );
    let (g, p, k) = expected(SAMPLE_VF);
    let (tg, tp, tk) = expected(&SAMPLE_VF[..cut]);
    assert_eq!(tg, 5);
    // The broken 40-byte file: the whole games before record 300 (the game holding it is
    // dropped, its end unknown). Counted from the viriformat sample, whose games are the same
    // games in the same order (the converter's test above), so that the expectation does not
    // come from the 40-byte reader that `--stats` itself uses.
    let (mut bg, mut bp, mut bk) = (0, 0, 0);
    let mut end = 0;
    for game in &games {
        end += game.moves.len();
        if end > 300 {
            break;
        }
        bg += 1;
        bp += game.moves.len() as u64;
        bk += game_positions(game)
            .filter(|p| Filter::default().passes_position(p))
            .count() as u64;
    }
    assert!(bg > 0 && bp < 300, "{bg} games, {bp} positions");
    let stdout = text(&output.stdout);
    let last = stdout.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "{} games, {} positions ({} pass the trainer's default filter)",
            g + tg + bg,
            p + tp + bp,
            k + tk + bk
        )
    );
    assert!(
        stdout.contains("good.vf: 20 games, 1927 positions"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_prints_one_line_per_position_of_a_viriformat_chunk() {
    let output = cutoff(&[
        "datagen",
        "--dump",
        data("selfplay-sample.vf").to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1927);
    let first = decode_all(SAMPLE_BIN).unwrap()[0].clone();
    let fen = shakmaty::fen::Fen::from_position(&first.position().unwrap(), EnPassantMode::Legal);
    assert!(
        lines[0].starts_with(&format!("{fen} | {} | ", first.score)),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains(" | game 0 ply "), "{}", lines[0]);
}

#[test]
fn the_training_reader_shuffles_both_formats_reproducibly_and_loses_nothing() {
    let chunks = vec![data("selfplay-sample.vf"), data("selfplay-sample.bin")];
    let read = |shuffle_buffer: usize, seed: u64| -> Vec<(String, i16)> {
        let config = ReaderConfig {
            filter: Filter::default(),
            shuffle_buffer,
            seed,
        };
        let mut reader = TrainingReader::new(chunks.clone(), config);
        let out: Vec<(String, i16)> = reader
            .by_ref()
            .map(|p| {
                let fen = shakmaty::fen::Fen::from_position(&p.pos, EnPassantMode::Legal);
                (fen.to_string(), p.white_score)
            })
            .collect();
        assert!(reader.problems().is_empty(), "{:?}", reader.problems());
        out
    };
    let in_order = read(0, 1);
    let (_, _, pass) = expected(SAMPLE_VF);
    assert_eq!(in_order.len() as u64, 2 * pass);
    let shuffled = read(500, 7);
    assert_eq!(shuffled, read(500, 7), "same seed, same order");
    assert_ne!(shuffled, in_order);
    assert_ne!(shuffled, read(500, 8));
    let mut a = in_order.clone();
    let mut b = shuffled.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same positions");
}

#[test]
fn an_output_named_neither_vf_nor_bin_is_refused() {
    let dir = temp_dir("names");
    let out = dir.join("games.dat");
    let output = cutoff(&["datagen", "--out", out.to_str().unwrap(), "--games", "1"]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("name the output .vf"),
        "{output:?}"
    );
    let vf = dir.join("games.vf");
    let output = cutoff(&[
        "datagen",
        "--out",
        vf.to_str().unwrap(),
        "--format",
        "bin",
        "--games",
        "1",
    ]);
    assert!(!output.status.success());
    assert!(!vf.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hard node limit below the soft one is a mistake on the command line (exit 2, nothing
/// written); one at the soft limit plays.
#[test]
fn a_hard_node_limit_below_the_soft_one_is_refused() {
    let dir = temp_dir("hard-nodes");
    let out = dir.join("games.vf");
    let run = |hard: &str| {
        cutoff(&[
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "1",
            "--nodes",
            "300",
            "--hard-nodes",
            hard,
        ])
    };
    let refused = run("299");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        text(&refused.stderr).contains("--hard-nodes must be at least --nodes"),
        "{refused:?}"
    );
    assert!(!out.exists());
    let played = run("300");
    assert!(played.status.success(), "{played:?}");
    assert!(out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game in the file, asserting that none is torn or corrupt.
fn whole_games(path: &Path) -> Vec<ScoredGame> {
    let bytes = std::fs::read(path).unwrap();
    let mut games = Vec::new();
    for g in GameReader::new(bytes.as_slice()) {
        match g {
            Ok(g) => games.push(g),
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    games
}

/// Starts an endless datagen run into `out` (150 nodes a move, two threads), for the tests
/// that stop a run.
fn endless_run(out: &Path, seed: &str) -> std::process::Child {
    Command::new(BIN)
        .args(["datagen", "--out", out.to_str().unwrap()])
        .args(["--positions", "100000000", "--nodes", "150", "--seed", seed])
        .args(["--threads", "2", "--check-nodes", "150"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until three whole games are in `out` (a minute at most).
fn wait_for_three_games(out: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let bytes = std::fs::read(out).unwrap_or_default();
        if GameReader::new(bytes.as_slice())
            .filter(Result::is_ok)
            .count()
            >= 3
        {
            return;
        }
        assert!(Instant::now() < deadline, "no game within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The whole games at the head of `path` (a game being written may follow them).
fn whole_games_so_far(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    GameReader::new(bytes.as_slice())
        .take_while(Result::is_ok)
        .count()
}

/// Stops `child` with SIGSTOP (every thread: the games in flight stay in flight), counts the
/// whole games in `out`, sends `signals`, and lets it go on: the signals arrive together at a
/// moment whose games are known. Returns the games counted.
#[cfg(target_os = "linux")]
fn signal_while_stopped(child: &std::process::Child, out: &Path, signals: &[libc::c_int]) -> usize {
    let pid = child.id() as libc::pid_t;
    // SAFETY: `kill` is given the child's own process id and a valid signal number.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
    let tasks = format!("/proc/{pid}/task");
    let deadline = Instant::now() + Duration::from_secs(30);
    // Every thread stopped ('T' in its stat line) before the file is read.
    while !std::fs::read_dir(&tasks).unwrap().all(|t| {
        let stat = std::fs::read_to_string(t.unwrap().path().join("stat")).unwrap_or_default();
        let state = stat.rsplit(") ").next().unwrap_or("").chars().next();
        matches!(state, Some('T' | 't'))
    }) {
        assert!(Instant::now() < deadline, "the child never stopped");
        std::thread::sleep(Duration::from_millis(5));
    }
    let before = whole_games_so_far(out);
    for &signal in signals {
        // SAFETY: as above.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGCONT) }, 0);
    before
}

fn wait_with_deadline(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "{what}: no exit within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SIGTERM or SIGINT (a user's Ctrl-C, a `timeout`, a scheduler) ends a run as a clean finish
/// does: no new game is claimed, the games being played (one a thread, two here) are finished
/// and written, and the final manifest line (state `done`, the counts, the checksum) seals the
/// chunk, with no `--append` by hand. The signal is sent while the run is stopped, so the
/// games in the file at that moment are known: afterwards there are one or two more (the
/// games in flight, finished), never fewer (dropped) nor more (claimed after the signal), and
/// every game index the run claimed is in the file (`next_game` = `games`).
#[cfg(target_os = "linux")]
#[test]
fn sigterm_and_sigint_finish_the_games_in_flight_claim_none_and_seal_the_chunk() {
    for (name, signal) in [("term", libc::SIGTERM), ("int", libc::SIGINT)] {
        let dir = temp_dir(&format!("signal-{name}"));
        let out = dir.join("s.vf");
        let mut child = endless_run(&out, "5");
        wait_for_three_games(&out);
        let before = signal_while_stopped(&child, &out, &[signal]);
        let status = wait_with_deadline(&mut child, name);
        assert!(status.success(), "{name}: {status:?}");
        let games = whole_games(&out);
        assert!(
            games.len() > before && games.len() <= before + 2,
            "{name}: {before} games when the signal came, {} after",
            games.len()
        );
        let line = manifest::last_entry(&out)
            .unwrap()
            .expect("a manifest line");
        assert_eq!(
            (line.state.as_str(), line.games, line.next_game),
            ("done", games.len() as u64, games.len() as u64),
            "{name}: every game claimed is written, and sealed"
        );
        let stats = cutoff(&["datagen", "--stats", out.to_str().unwrap()]);
        assert!(stats.status.success(), "{stats:?}");
        assert!(
            text(&stats.stdout).contains("manifest matches (done)"),
            "{name}: {}",
            text(&stats.stdout)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A second signal ends the run at once (exit status 130), without finishing the games in
/// flight or sealing the chunk: the manifest covers the file as after a kill (its last line a
/// `running` checkpoint), and every game in the file is whole.
#[cfg(target_os = "linux")]
#[test]
fn a_second_signal_ends_the_run_at_once_and_leaves_the_chunk_as_a_kill_does() {
    let dir = temp_dir("signal-twice");
    let out = dir.join("t.vf");
    let mut child = endless_run(&out, "6");
    wait_for_three_games(&out);
    // Two different signals: two of one kind sent while stopped would arrive as one.
    let before = signal_while_stopped(&child, &out, &[libc::SIGTERM, libc::SIGINT]);
    let status = wait_with_deadline(&mut child, "two signals");
    assert_eq!(status.code(), Some(130), "{status:?}");
    let games = whole_games(&out);
    assert!(
        games.len() >= before,
        "{before} before, {} after",
        games.len()
    );
    let line = manifest::last_entry(&out)
        .unwrap()
        .expect("a checkpoint line");
    assert_eq!(line.state, "running", "not sealed");
    assert!(line.next_game >= games.len() as u64);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_killed_with_sigkill_keeps_whole_games_and_append_goes_on_after_it() {
    let dir = temp_dir("kill");
    let out = dir.join("k.vf");
    let mut child = endless_run(&out, "4");
    wait_for_three_games(&out);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let games = whole_games(&out);
    assert!(games.len() >= 3);
    let line = manifest::last_entry(&out)
        .unwrap()
        .expect("a checkpoint line");
    assert_eq!(line.state, "running");
    assert_eq!(
        line.next_game, 256,
        "the first block of indices is reserved"
    );

    // Appending goes on past the reserved indices: its games are new ones.
    let output = cutoff(&[
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--append",
        "--games",
        "1",
        "--nodes",
        "150",
        "--seed",
        "4",
        "--check-nodes",
        "150",
    ]);
    assert!(output.status.success(), "{output:?}");
    let after = whole_games(&out);
    assert_eq!(after.len(), games.len() + 1);
    assert!(!games.contains(after.last().unwrap()));
    let done = manifest::last_entry(&out).unwrap().unwrap();
    assert_eq!(
        (done.state.as_str(), done.next_game, done.games),
        ("done", 257, after.len() as u64)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chunk holds one series: its manifest names the build and evaluation that played it
/// (`Bench: N` of that evaluation), and `--append` with the other evaluation is refused and
/// leaves the chunk as it was; with the same one it goes on.
#[test]
fn append_refuses_to_mix_the_net_and_the_classical_evaluation_in_one_chunk() {
    let dir = temp_dir("series");
    let out = dir.join("c.vf");
    let net = dir.join("n.vf");
    let play = |chunk: &Path, more: &[&str]| {
        let path = chunk.to_str().unwrap();
        let mut args = vec!["datagen", "--out", path, "--games", "1", "--nodes", "150"];
        args.extend_from_slice(&["--seed", "9", "--check-nodes", "150"]);
        args.extend_from_slice(more);
        cutoff(&args)
    };
    let first = play(&out, &["--eval", "classical"]);
    assert!(first.status.success(), "{first:?}");
    let classical = manifest::last_entry(&out).unwrap().unwrap().build;
    let bytes = std::fs::read(&out).unwrap();

    let refused = play(&out, &["--append"]);
    assert!(!refused.status.success());
    let stderr = text(&refused.stderr);
    assert!(
        stderr.contains(&classical) && stderr.contains("start a new chunk"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), bytes, "the chunk was touched");

    let appended = play(&out, &["--append", "--eval", "classical"]);
    assert!(appended.status.success(), "{appended:?}");
    assert_eq!(whole_games(&out).len(), 2);
    assert_eq!(
        manifest::last_entry(&out).unwrap().unwrap().build,
        classical
    );

    let output = play(&net, &[]);
    assert!(output.status.success(), "{output:?}");
    assert_ne!(
        manifest::last_entry(&net).unwrap().unwrap().build,
        classical
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_without_a_book_start_after_random_plies_and_do_not_depend_on_threads() {
    let dir = temp_dir("threads");
    let run = |name: &str, threads: &str| -> Vec<ScoredGame> {
        let out = dir.join(name);
        let output = cutoff(&[
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "3",
            "--nodes",
            "200",
            "--seed",
            "11",
            "--threads",
            threads,
        ]);
        assert!(output.status.success(), "{output:?}");
        let mut games = whole_games(&out);
        games.sort_by_key(|g| {
            let mut b = Vec::new();
            g.encode(&mut b);
            b
        });
        games
    };
    let one = run("one.vf", "1");
    assert_eq!(one.len(), 3);
    for g in &one {
        let ply = cutoff::datagen::positions::game_ply(&g.start);
        assert!((8..=9).contains(&ply), "start ply {ply}");
    }
    assert_eq!(run("two.vf", "2"), one);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_torn_viriformat_file_reads_its_whole_games_then_one_error() {
    let games = games_of(SAMPLE_VF);
    let cut = SAMPLE_VF.len() - 6;
    let read: Vec<_> = GameReader::new(&SAMPLE_VF[..cut]).collect();
    assert_eq!(read.len(), games.len());
    let e = read.last().unwrap().as_ref().unwrap_err();
    assert_eq!(e.kind, ReadErrorKind::Torn);
    assert_eq!(
        e.offset as usize,
        SAMPLE_VF.len() - games.last().unwrap().encoded_len()
    );
}

#[test]
fn stats_names_a_missing_path_as_missing_counts_the_rest_and_exits_non_zero() {
    let dir = temp_dir("missing");
    std::fs::write(dir.join("good.vf"), SAMPLE_VF).unwrap();
    // With a chunk's name and without one: missing comes before the name rule.
    let named = dir.join("gone.vf");
    let unnamed = dir.join("gone");
    let output = cutoff(&[
        "datagen",
        "--stats",
        dir.join("good.vf").to_str().unwrap(),
        named.to_str().unwrap(),
        unnamed.to_str().unwrap(),
    ]);
    assert!(!output.status.success(), "{output:?}");
    let stderr = text(&output.stderr);
    for path in [&named, &unnamed] {
        assert!(
            stderr.contains(&format!("{}: no such file or directory", path.display())),
            "{stderr}"
        );
    }
    assert!(!stderr.contains("must end in"), "{stderr}");
    let (g, p, k) = expected(SAMPLE_VF);
    assert_eq!(
        text(&output.stdout).lines().last().unwrap(),
        format!("{g} games, {p} positions ({k} pass the trainer's default filter)")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_of_only_corrupt_chunks_prints_the_summary_line_and_exits_non_zero() {
    let dir = temp_dir("corrupt");
    // Neither file holds a single whole game: not data.
    let mut vf = SAMPLE_VF[..64].to_vec();
    vf[0..8].copy_from_slice(&u64::MAX.to_le_bytes()); // 64 pieces
    std::fs::write(dir.join("junk.vf"), &vf).unwrap();
    std::fs::write(dir.join("junk.bin"), [0xffu8; 400]).unwrap();
    let output = cutoff(&["datagen", "--stats", dir.to_str().unwrap()]);
    assert!(!output.status.success(), "{output:?}");
    let stderr = text(&output.stderr);
    assert!(stderr.contains("junk.vf: corrupt at byte 0"), "{stderr}");
    assert!(stderr.contains("junk.bin: corrupt at byte 0"), "{stderr}");
    assert!(
        stderr.contains("2 inputs missing, unreadable or not data"),
        "{stderr}"
    );
    assert_eq!(
        text(&output.stdout).lines().last().unwrap(),
        "0 games, 0 positions (0 pass the trainer's default filter)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_of_a_corrupt_or_missing_file_fails_and_leaves_no_output_behind() {
    let dir = temp_dir("convert-corrupt");
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, [0xffu8; 400]).unwrap();
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("missing.bin");
    for (input, expected) in [
        (&corrupt, "corrupt at byte 0"),
        (&empty, "no whole game: not data"),
        (&missing, "no such file or directory"),
    ] {
        let out = dir.join("out.vf");
        let output = cutoff(&[
            "datagen",
            "--convert",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!output.status.success(), "{output:?}");
        assert!(text(&output.stderr).contains(expected), "{output:?}");
        assert!(!out.exists(), "{} left behind", out.display());
        assert!(!manifest::manifest_path(&out).exists(), "a manifest line");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_manifest_records_cutoff_and_its_arguments_not_the_binary_path() {
    let dir = temp_dir("command");
    let out = dir.join("sample.vf");
    let input = data("selfplay-sample.bin");
    let output = cutoff(&[
        "datagen",
        "--convert",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let command = manifest::last_entry(&out).unwrap().unwrap().command;
    assert_eq!(
        command,
        format!(
            "cutoff datagen --convert {} --out {}",
            input.display(),
            out.display()
        )
    );
    assert!(!command.contains(BIN), "{command}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--stats` groups its counts by the build that played each chunk and what searched its
/// games, so the net-searched share of the data can be read off: a chunk's manifest line says
/// (its command's `--eval`, or a net build of before the command named it), a chunk without
/// one names its build in its file name.
#[test]
fn stats_groups_the_counts_by_build_and_by_the_evaluation_that_searched() {
    let dir = temp_dir("groups");
    let (g, p, k) = expected(SAMPLE_VF);
    let line = |file: &str, build: &str, command: &str| manifest::Entry {
        file: file.into(),
        build: build.into(),
        seed: 1,
        first_game: 0,
        next_game: g,
        games: g,
        positions: p,
        // The chunk's own checksum: `--stats` fails on a line that differs from its chunk.
        sha256: cutoff::datagen::sha256::sha256_hex(SAMPLE_VF),
        state: "done".into(),
        command: command.into(),
    };
    let chunks = [
        (
            "selfplay-1950130-s1.vf",
            "Bench: 1950130",
            "cutoff datagen --seed 1",
        ),
        (
            "selfplay-1950130-s2.vf",
            "Bench: 1950130",
            "cutoff datagen --seed 2 --eval net",
        ),
        (
            "selfplay-2266636-s3.vf",
            "Bench: 2266636",
            "cutoff datagen --eval classical",
        ),
    ];
    for (file, build, command) in chunks {
        std::fs::write(dir.join(file), SAMPLE_VF).unwrap();
        manifest::append(&dir.join(file), &line(file, build, command)).unwrap();
    }
    // No manifest line: the build from the name, classical (not a net build).
    std::fs::write(dir.join("selfplay-2911490-s4.vf"), SAMPLE_VF).unwrap();

    let output = cutoff(&["datagen", "--stats", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let n = lines.len();
    for (build, searched, chunks) in [
        ("Bench: 1950130", "net", 2),
        ("Bench: 2266636", "classical", 1),
        ("Bench: 2911490", "classical", 1),
    ] {
        let s = if chunks == 1 { "" } else { "s" };
        let want = format!(
            "{build} ({searched}): {chunks} chunk{s}, {} games, {} positions ({} pass)",
            chunks * g,
            chunks * p,
            chunks * k
        );
        assert!(lines.contains(&want.as_str()), "{want}\n{stdout}");
    }
    assert_eq!(
        lines[n - 2],
        format!(
            "searched by a net: {} positions; by the classical evaluation: {}",
            2 * p,
            2 * p
        )
    );
    assert_eq!(
        lines[n - 1],
        format!(
            "{} games, {} positions ({} pass the trainer's default filter)",
            4 * g,
            4 * p,
            4 * k
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--append` with a hard node limit other than the one the chunk's manifest line names is
/// refused and leaves the chunk as it was (the default changed without a bench change, so the
/// build alone would let two kinds of data into one chunk); with the same one it goes on.
#[test]
fn append_refuses_other_node_limits_than_the_chunks() {
    let dir = temp_dir("limits");
    let out = dir.join("c.vf");
    let play = |more: &[&str]| {
        let mut args = vec!["datagen", "--out", out.to_str().unwrap(), "--games", "1"];
        args.extend_from_slice(&["--nodes", "150", "--seed", "9", "--check-nodes", "150"]);
        args.extend_from_slice(&["--eval", "classical"]);
        args.extend_from_slice(more);
        cutoff(&args)
    };
    let first = play(&[]);
    assert!(first.status.success(), "{first:?}");
    let bytes = std::fs::read(&out).unwrap();
    let refused = play(&["--append", "--hard-nodes", "1200"]);
    assert!(!refused.status.success());
    let stderr = text(&refused.stderr);
    assert!(
        stderr.contains("--nodes 150 --hard-nodes 180") && stderr.contains("give the same limits"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), bytes, "the chunk was touched");
    let appended = play(&["--append", "--hard-nodes", "180"]);
    assert!(appended.status.success(), "{appended:?}");
    assert_eq!(whole_games(&out).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run records the evaluation that searched and the hard node limit in its manifest's
/// command, default or not (the default hard limit at `--nodes 300`: 360).
#[test]
fn a_run_names_its_evaluation_and_hard_limit_in_the_manifest_command() {
    let dir = temp_dir("eval-named");
    for (extra, want) in [
        (None, "--eval net"),
        (Some("classical"), "--eval classical"),
    ] {
        let out = dir.join(format!("e-{}.vf", extra.unwrap_or("default")));
        let mut args = vec![
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "1",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--seed",
            "5",
        ];
        if let Some(e) = extra {
            args.extend(["--eval", e]);
        }
        let output = cutoff(&args);
        assert!(output.status.success(), "{output:?}");
        let command = manifest::last_entry(&out).unwrap().unwrap().command;
        assert_eq!(command.matches("--eval").count(), 1, "{command}");
        assert!(command.contains(want), "{command}");
        assert_eq!(command.matches("--hard-nodes").count(), 1, "{command}");
        assert!(command.contains("--hard-nodes 360"), "{command}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--stats` holds a chunk to its manifest's last line whole: the checksum and the counts. A
/// line whose counts were changed under a right checksum, or whose checksum is wrong, is
/// reported as differing, and the run exits non-zero (a script that checks the status is not
/// told a lying manifest matched).
#[test]
fn stats_fails_on_a_manifest_whose_counts_or_checksum_disagree_with_its_chunk() {
    let dir = temp_dir("stats-manifest-lies");
    let out = dir.join("m.vf");
    let out_str = out.to_str().unwrap();
    let made = cutoff(&[
        "datagen",
        "--out",
        out_str,
        "--games",
        "2",
        "--nodes",
        "100",
        "--threads",
        "1",
        "--seed",
        "11",
    ]);
    assert!(made.status.success(), "{made:?}");
    let stats = cutoff(&["datagen", "--stats", out_str]);
    assert!(stats.status.success(), "{stats:?}");
    assert!(text(&stats.stdout).contains("manifest matches (done)"));
    let manifest_path = dir.join("MANIFEST");
    let honest = std::fs::read_to_string(&manifest_path).unwrap();
    // The last line's fields: file, build, seed, game indices, games, positions, sha256, ...
    let tampered = |field: usize, value: &dyn Fn(&str) -> String| {
        let mut lines: Vec<String> = honest.lines().map(str::to_string).collect();
        let last = lines.last_mut().unwrap();
        let mut fields: Vec<String> = last.split('\t').map(str::to_string).collect();
        fields[field] = value(&fields[field]);
        *last = fields.join("\t");
        lines.join("\n") + "\n"
    };
    for (what, contents) in [
        (
            "one position more, the checksum kept",
            tampered(5, &|p| (p.parse::<u64>().unwrap() + 1).to_string()),
        ),
        ("a wrong checksum", tampered(6, &|_| "0".repeat(64))),
    ] {
        std::fs::write(&manifest_path, contents).unwrap();
        let stats = cutoff(&["datagen", "--stats", out_str]);
        assert!(!stats.status.success(), "{what}: {stats:?}");
        assert!(
            text(&stats.stdout).contains("DIFFERS"),
            "{what}: {}",
            text(&stats.stdout)
        );
        assert!(
            text(&stats.stderr).contains("differ from their manifest"),
            "{what}: {}",
            text(&stats.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts a run into `out` whose first game takes far longer than the test (an opening check
/// search of a billion nodes; the node limits of a move are the chunk's, which `--append`
/// requires), waits for the checkpoint line it writes at its first game, and ends it with
/// `signals` (a SIGKILL, or SIGTERM then SIGINT: the second ends the run at once). The run
/// dies with its game indices reserved and no game written: a run that failed at its start.
#[cfg(target_os = "linux")]
fn run_failing_at_its_start(out: &Path, append: bool, signals: &[libc::c_int]) {
    let manifest = manifest::manifest_path(out);
    let lines = || {
        std::fs::read_to_string(&manifest)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let before = (lines(), std::fs::read(out).unwrap_or_default());
    let mut command = Command::new(BIN);
    command.args(["datagen", "--out", out.to_str().unwrap(), "--games", "5"]);
    command.args(["--nodes", "150", "--seed", "3", "--threads", "1"]);
    command.args(["--check-nodes", "1000000000", "--eval", "classical"]);
    if append {
        command.arg("--append");
    }
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while lines() <= before.0 {
        assert!(Instant::now() < deadline, "no checkpoint line within 60 s");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended by itself"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    for &signal in signals {
        // SAFETY: `kill` is given the child's own process id and a valid signal number.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    }
    let status = wait_with_deadline(&mut child, "a run failing at its start");
    assert!(!status.success(), "{status:?}");
    let line = manifest::last_entry(out).unwrap().unwrap();
    assert_eq!(line.state, "running", "the failed run's checkpoint");
    assert_eq!(
        std::fs::read(out).unwrap_or_default(),
        before.1,
        "the failed run added to the chunk"
    );
}

/// A folder's failed runs do not change what a seed plays: runs that died at their start (a
/// kill, two signals) left `running` lines reserving game indices, and a later run into that
/// chunk (a new one, or `--append` to one with games) took the indices after them, so the same
/// seed played other games than into a clean folder. Indices reserved by runs that added
/// nothing are taken again, and the games are byte for byte those of the clean folder.
#[cfg(target_os = "linux")]
#[test]
fn runs_that_failed_before_their_first_game_do_not_change_the_games_a_seed_plays() {
    let dir = temp_dir("failed-runs");
    let (clean, failed) = (dir.join("clean"), dir.join("failed"));
    std::fs::create_dir_all(&clean).unwrap();
    std::fs::create_dir_all(&failed).unwrap();
    let play = |out: &Path, games: &str, append: bool| {
        let mut args = vec!["datagen", "--out", out.to_str().unwrap(), "--games", games];
        args.extend(["--nodes", "150", "--seed", "3", "--threads", "1"]);
        args.extend(["--check-nodes", "150", "--eval", "classical"]);
        if append {
            args.push("--append");
        }
        let output = cutoff(&args);
        assert!(output.status.success(), "{output:?}");
        std::fs::read(out).unwrap()
    };
    let (clean_chunk, failed_chunk) = (clean.join("c.vf"), failed.join("c.vf"));
    // A new chunk, after a killed run and a run ended by two signals.
    run_failing_at_its_start(&failed_chunk, false, &[libc::SIGKILL]);
    run_failing_at_its_start(&failed_chunk, false, &[libc::SIGTERM, libc::SIGINT]);
    let first = play(&clean_chunk, "2", false);
    assert!(
        play(&failed_chunk, "2", false) == first,
        "a new chunk after failed runs holds other games than in a clean folder"
    );
    // `--append` to a chunk with games, after a killed `--append`.
    run_failing_at_its_start(&failed_chunk, true, &[libc::SIGKILL]);
    let appended = play(&clean_chunk, "1", true);
    assert!(
        play(&failed_chunk, "1", true) == appended,
        "an appended game after a failed --append is another than in a clean folder"
    );
    let line = manifest::last_entry(&failed_chunk).unwrap().unwrap();
    assert_eq!(
        (line.state.as_str(), line.next_game, line.games),
        ("done", 3, 3)
    );
    let stats = cutoff(&["datagen", "--stats", failed_chunk.to_str().unwrap()]);
    assert!(
        text(&stats.stdout).contains("manifest matches (done)"),
        "{stats:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
