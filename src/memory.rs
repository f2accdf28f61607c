//! How much memory a table may take before it is allocated.
//!
//! On Linux a large `try_reserve` usually succeeds whatever the machine has (overcommit), and
//! the process is killed later, when the pages are touched. So table sizes are checked against
//! the memory the system reports as available (`MemAvailable`, and a cgroup limit when one is
//! set) before anything is freed or allocated: a request that does not fit is refused with a
//! message and the old table stays.
//!
//! An address-space limit (`ulimit -v`, `prlimit --as`, as containers and test harnesses set)
//! is a second bound that free memory does not show: every mapping counts against it, a
//! thread's stack and its allocator arena included, and under it an allocation does fail, so
//! a table that just fits leaves no room for the next search thread (which then cannot start).
//! Tables and threads are checked against what the limit leaves too, keeping room for one
//! search thread beside them.

/// Bytes in a mebibyte: table sizes (`Hash`, `--hash`) are given in these.
pub const MIB: usize = 1 << 20;

/// Stack of every thread the engine starts (the UCI search thread, search helpers, and the
/// workers of `perft`, `epd`, `datagen` and `tune`): a search keeps a move list of about 2 KB
/// per ply, up to `MAX_PLY` plies, plus quiescence. Only what is touched is committed, so the
/// size costs address space, not memory.
pub const THREAD_STACK_BYTES: usize = 64 * MIB;

/// Address space one thread takes beyond the table: its stack, the arena the allocator
/// (glibc) reserves for it on its first allocation (64 MiB on 64-bit systems), and its own
/// tables (a search thread's history, about 1.2 MB). Measured: each helper the engine starts
/// grows its `VmSize` by 132,248 kB.
pub const THREAD_ADDRESS_SPACE_BYTES: usize = THREAD_STACK_BYTES + 68 * MIB;

/// Fraction of the available memory (in percent) a table may take: the rest is left to the
/// system and to whatever else runs beside the engine.
const USABLE_PERCENT: u64 = 90;

/// Megabytes the system can still give (`None` when it cannot tell, off Linux).
pub fn available_mb() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let mut mb = kb / 1024;
    // A cgroup (v2) limit, as in containers, can be far below what the machine has.
    let cgroup = |file: &str| -> Option<u64> {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{file}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    if let (Some(max), Some(current)) = (cgroup("memory.max"), cgroup("memory.current")) {
        mb = mb.min(max.saturating_sub(current) / (1024 * 1024));
    }
    Some(mb)
}

/// Bytes of address space this process may still map under its `RLIMIT_AS` (`None`: no
/// limit, or off Linux, where the process's current size is not read).
pub fn address_space_left() -> Option<u64> {
    let limit = address_space_limit()?;
    // `VmSize` is the address space mapped now, in kB: what the limit is counted against.
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(limit.saturating_sub(kb * 1024))
}

/// The soft `RLIMIT_AS` in bytes (`None`: unlimited).
#[cfg(unix)]
fn address_space_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the limit into the `rlimit` it is given, which is a live,
    // properly aligned local of exactly the type it expects; it keeps no pointer to it.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) };
    // `rlim_t` is `u64` here, narrower on some 32-bit targets.
    #[allow(clippy::unnecessary_cast)]
    let bytes = limit.rlim_cur as u64;
    (got == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(bytes)
}

#[cfg(not(unix))]
fn address_space_limit() -> Option<u64> {
    None
}

/// Whether `bytes` more may be mapped, `freeing` first, with room kept for one search thread
/// beside them. The error names the limit and how much it leaves.
fn check_address_space(what: &str, bytes: u64, freeing: u64) -> Result<(), String> {
    // A smaller table (or fewer threads) never needs more room than the one it replaces.
    if bytes <= freeing {
        return Ok(());
    }
    let Some(left) = address_space_left() else {
        return Ok(());
    };
    let usable = (left + freeing).saturating_sub(THREAD_ADDRESS_SPACE_BYTES as u64);
    if bytes > usable {
        return Err(format!(
            "{what}: the address-space limit (ulimit -v) leaves about {} MB, {} MB of it kept \
             for the search thread",
            (left + freeing) / MIB as u64,
            THREAD_ADDRESS_SPACE_BYTES / MIB
        ));
    }
    Ok(())
}

/// Whether `more` threads (search helpers) may be started: each takes
/// [`THREAD_ADDRESS_SPACE_BYTES`] of an address-space limit, and room for the search thread
/// itself stays. (Free memory is not checked: a thread commits little of what it reserves.)
pub fn check_threads(more: usize) -> Result<(), String> {
    let bytes = (more as u64).saturating_mul(THREAD_ADDRESS_SPACE_BYTES as u64);
    check_address_space(
        &format!(
            "cannot start {more} more threads ({} MB of address space each)",
            THREAD_ADDRESS_SPACE_BYTES / MIB
        ),
        bytes,
        0,
    )
}

/// Whether a table of `mb` MiB may replace one of `replacing_mb` MiB (freed first), by the
/// memory available and by the address-space limit. The error says how much could be had.
pub fn check_table_size(what: &str, mb: usize, replacing_mb: usize) -> Result<(), String> {
    let mib = MIB as u64;
    check_address_space(
        &format!("cannot allocate {mb} MB for the {what}"),
        (mb as u64).saturating_mul(mib),
        (replacing_mb as u64).saturating_mul(mib),
    )?;
    let Some(available) = available_mb() else {
        return Ok(()); // Unknown: the allocation itself will tell.
    };
    let usable = (available + replacing_mb as u64) * USABLE_PERCENT / 100;
    if mb as u64 > usable {
        return Err(format!(
            "cannot allocate {mb} MB for the {what}: about {usable} MB can be had"
        ));
    }
    Ok(())
}

/// Starts loading the cache line holding `value` without waiting for it, so that a read a
/// little later finds it there: the search's tables are read at every node, each line far from
/// the last (the table's slot, the correction entry).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let address: *const T = value;
        // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has (it is part of the
        // x86_64 baseline the compiler targets). A prefetch is only a hint: it never faults
        // and reads nothing into the program, and the pointer comes from a live reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Like [`prefetch`], for a value that may straddle two cache lines (a table slot of 12 bytes
/// does so at 2 of every 16 positions): its first and its last byte's lines are both asked for.
#[inline(always)]
pub fn prefetch_whole<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let first: *const u8 = (value as *const T).cast();
        let last = first.wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
        // SAFETY: as in `prefetch`: SSE is in the x86_64 baseline, and a prefetch is only a
        // hint that never faults. Both addresses lie inside the value the reference points to
        // (`wrapping_add` computes the last byte's address without dereferencing anything).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first.cast());
            _mm_prefetch::<_MM_HINT_T0>(last.cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_larger_than_the_machine_is_refused_and_a_small_one_allowed() {
        if available_mb().is_none() {
            return; // Nothing to check against on this system.
        }
        assert!(check_table_size("hash table", 1, 0).is_ok());
        let err = check_table_size("hash table", usize::MAX / (1 << 20), 16).unwrap_err();
        assert!(err.contains("cannot allocate"), "{err}");
    }
}
