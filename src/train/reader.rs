//! A streaming reader of training positions from any number of chunk files of either format,
//! shuffled without loading the data whole (chunk order shuffled, then a seeded shuffle
//! buffer), for data larger than memory; `train::data` is the in-memory set the trainer
//! learns from today.

use std::collections::VecDeque;
use std::path::PathBuf;

use crate::datagen::chunk::{ChunkError, ChunkReader};
use crate::datagen::positions::{game_positions, Filter, TrainingPosition};
use crate::rng::Rng;

/// How a [`TrainingReader`] reads.
#[derive(Clone, Copy, Debug)]
pub struct ReaderConfig {
    pub filter: Filter,
    /// Positions held to shuffle among; 0 or 1 reads in file order (and keeps the chunks'
    /// order).
    pub shuffle_buffer: usize,
    pub seed: u64,
}

impl Default for ReaderConfig {
    fn default() -> Self {
        ReaderConfig {
            filter: Filter::default(),
            shuffle_buffer: 200_000,
            seed: 1,
        }
    }
}

/// Streams the positions of many chunks that pass a filter, shuffled: the chunks are visited
/// in a seeded random order, and each position comes out of a buffer of `shuffle_buffer`
/// positions at a random place. Memory is the buffer, not the data. Chunks that cannot be
/// read whole give what they hold up to the problem, and the problem is kept in
/// [`TrainingReader::problems`].
pub struct TrainingReader {
    chunks: Vec<PathBuf>,
    next_chunk: usize,
    current: Option<ChunkReader>,
    pending: VecDeque<TrainingPosition>,
    buffer: Vec<TrainingPosition>,
    config: ReaderConfig,
    rng: Rng,
    problems: Vec<ChunkError>,
}

impl TrainingReader {
    pub fn new(mut chunks: Vec<PathBuf>, config: ReaderConfig) -> TrainingReader {
        let mut rng = Rng::for_game(config.seed, u64::MAX);
        if config.shuffle_buffer > 1 {
            for i in (1..chunks.len()).rev() {
                chunks.swap(i, rng.below(i + 1));
            }
        }
        TrainingReader {
            chunks,
            next_chunk: 0,
            current: None,
            pending: VecDeque::new(),
            buffer: Vec::with_capacity(config.shuffle_buffer.min(1 << 20)),
            config,
            rng,
            problems: Vec::new(),
        }
    }

    /// The chunks in the order they are read.
    pub fn chunks(&self) -> &[PathBuf] {
        &self.chunks
    }

    /// Problems met so far: a chunk that could not be opened, a torn or corrupt tail.
    pub fn problems(&self) -> &[ChunkError] {
        &self.problems
    }

    /// The next position passing the filter, in file order.
    fn pull(&mut self) -> Option<TrainingPosition> {
        loop {
            if let Some(p) = self.pending.pop_front() {
                return Some(p);
            }
            let Some(reader) = self.current.as_mut() else {
                let path = self.chunks.get(self.next_chunk)?;
                self.next_chunk += 1;
                match ChunkReader::open(path) {
                    Ok(r) => self.current = Some(r),
                    Err(e) => self.problems.push(e),
                }
                continue;
            };
            match reader.next() {
                Some(Ok(game)) => {
                    let filter = self.config.filter;
                    self.pending
                        .extend(game_positions(&game).filter(|p| filter.passes_position(p)));
                }
                Some(Err(e)) => {
                    self.problems.push(e);
                    self.current = None;
                }
                None => self.current = None,
            }
        }
    }
}

impl Iterator for TrainingReader {
    type Item = TrainingPosition;

    fn next(&mut self) -> Option<TrainingPosition> {
        if self.config.shuffle_buffer <= 1 {
            return self.pull();
        }
        while self.buffer.len() < self.config.shuffle_buffer {
            match self.pull() {
                Some(p) => self.buffer.push(p),
                None => break,
            }
        }
        if self.buffer.is_empty() {
            return None;
        }
        let i = self.rng.below(self.buffer.len());
        Some(self.buffer.swap_remove(i))
    }
}
