//! The checksum every Syzygy table file ends with, computed as the generator's `tbcheck`
//! computes it, so that a table damaged anywhere (not only where the load-time probes look) is
//! found. A file is 64n + 16 bytes: a body of 64n bytes and 16 bytes of checksum, two
//! little-endian 64-bit words. The body is hashed in chunks of 16 MiB, each with CityHashCrc256
//! (CityHash 1.0, by Geoff Pike and Jyrki Alakuijala, with CRC-32C; 32 bytes a chunk), and the
//! concatenated chunk hashes with CityHashCrc128: that pair of words is the checksum.
//!
//! Written here from the algorithm (no crate offers the CRC variants of CityHash 1.0, and
//! the later CityHash 1.1 hashes differently); the test vectors in the tests below were
//! computed with the generator's own C code, and the 70 files of all 3- and 4-piece tables
//! match (`tests/syzygy.rs`).

use std::io::Read;

/// The body is hashed in chunks of this many bytes (the generator's `CHUNK`).
pub(super) const CHUNK: usize = 1 << 24;

/// CityHash's constants: primes between 2^63 and 2^64.
const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;

/// The CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of one byte, for each byte
/// value, and the tables of slicing by 8: `CRC32C[k][b]` is byte `b` followed by `k` zero
/// bytes.
const CRC32C: [[u32; 256]; 8] = crc32c_tables();

const fn crc32c_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let mut crc = b as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0x82f6_3b78
            } else {
                crc >> 1
            };
            bit += 1;
        }
        t[0][b] = crc;
        b += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut b = 0;
        while b < 256 {
            let prev = t[k - 1][b];
            t[k][b] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            b += 1;
        }
        k += 1;
    }
    t
}

/// The CRC-32C update of `crc` by the eight bytes of `v` (little-endian), without the usual
/// inversions: the SSE 4.2 instruction `crc32` where the build has it (x86-64-v2, as
/// `.cargo/config.toml` sets), which hashes some three times faster than the tables.
#[inline]
fn crc32c_u64(crc: u64, v: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.2"))]
    // SAFETY: `_mm_crc32_u64` needs SSE 4.2, and this code is compiled only where the whole
    // build targets it (`target_feature = "sse4.2"`): the compiler may already emit SSE 4.2
    // instructions anywhere in the binary, so this call asks nothing more of the CPU.
    unsafe {
        std::arch::x86_64::_mm_crc32_u64(crc, v)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.2")))]
    {
        crc32c_u64_by_tables(crc, v)
    }
}

/// [`crc32c_u64`] by the tables (slicing by 8), for CPUs without the instruction.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse4.2"),
    allow(dead_code)
)]
fn crc32c_u64_by_tables(crc: u64, v: u64) -> u64 {
    let x = (crc as u32 as u64) ^ v;
    let byte = |i: u32| ((x >> (8 * i)) & 0xff) as usize;
    let crc = CRC32C[7][byte(0)]
        ^ CRC32C[6][byte(1)]
        ^ CRC32C[5][byte(2)]
        ^ CRC32C[4][byte(3)]
        ^ CRC32C[3][byte(4)]
        ^ CRC32C[2][byte(5)]
        ^ CRC32C[1][byte(6)]
        ^ CRC32C[0][byte(7)];
    u64::from(crc)
}

#[inline]
fn fetch64(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"))
}

#[inline]
fn fetch32(s: &[u8], at: usize) -> u64 {
    u64::from(u32::from_le_bytes(
        s[at..at + 4].try_into().expect("4 bytes"),
    ))
}

#[inline]
fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

/// Two words hashed to one (Murmur-inspired; CityHash's `Hash128to64`).
#[inline]
fn hash_len16(low: u64, high: u64) -> u64 {
    const MUL: u64 = 0x9ddf_ea08_eb38_2d69;
    let mut a = (low ^ high).wrapping_mul(MUL);
    a ^= a >> 47;
    let mut b = (high ^ a).wrapping_mul(MUL);
    b ^= b >> 47;
    b.wrapping_mul(MUL)
}

fn hash_len0to16(s: &[u8]) -> u64 {
    let len = s.len();
    if len > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, len - 8);
        return hash_len16(a, b.wrapping_add(len as u64).rotate_right(len as u32)) ^ b;
    }
    if len >= 4 {
        let a = fetch32(s, 0);
        return hash_len16((len as u64).wrapping_add(a << 3), fetch32(s, len - 4));
    }
    if len > 0 {
        let (a, b, c) = (s[0], s[len >> 1], s[len - 1]);
        let y = u32::from(a).wrapping_add(u32::from(b) << 8);
        let z = (len as u32).wrapping_add(u32::from(c) << 2);
        return shift_mix(u64::from(y).wrapping_mul(K2) ^ u64::from(z).wrapping_mul(K3))
            .wrapping_mul(K2);
    }
    K2
}

/// A 16-byte hash of 32 bytes `w x y z` and two seeds: quick and dirty, as CityHash says.
#[inline]
fn weak_hash32(s: &[u8], at: usize, mut a: u64, mut b: u64) -> (u64, u64) {
    let (w, x, y, z) = (
        fetch64(s, at),
        fetch64(s, at + 8),
        fetch64(s, at + 16),
        fetch64(s, at + 24),
    );
    a = a.wrapping_add(w);
    b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// CityHash128's hash of short inputs (under 128 bytes), by CityHash and Murmur.
fn city_murmur(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let len = s.len();
    let (mut a, mut b) = seed;
    let mut c: u64;
    let mut d: u64;
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_len0to16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = hash_len16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = hash_len16(
            b.wrapping_add(len as u64),
            c.wrapping_add(fetch64(s, len - 16)),
        );
        a = a.wrapping_add(d);
        // 16 bytes a round, from the start, while more than 16 bytes begin at the round.
        let mut at = 0;
        while at + 16 < len {
            a ^= shift_mix(fetch64(s, at).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, at + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            at += 16;
        }
    }
    a = hash_len16(a, c);
    b = hash_len16(d, b);
    (a ^ b, hash_len16(b, a))
}

/// One 64-byte round of CityHash's long-input loop over `s[at..at + 64]`.
#[inline]
fn city_round(s: &[u8], at: usize, st: &mut [u64; 3], v: &mut (u64, u64), w: &mut (u64, u64)) {
    let [x, y, z] = st;
    *x = x
        .wrapping_add(*y)
        .wrapping_add(v.0)
        .wrapping_add(fetch64(s, at + 8))
        .rotate_right(37)
        .wrapping_mul(K1);
    *y = y
        .wrapping_add(v.1)
        .wrapping_add(fetch64(s, at + 48))
        .rotate_right(42)
        .wrapping_mul(K1);
    *x ^= w.1;
    *y = y.wrapping_add(v.0).wrapping_add(fetch64(s, at + 40));
    *z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(K1);
    *v = weak_hash32(s, at, v.1.wrapping_mul(K1), x.wrapping_add(w.0));
    *w = weak_hash32(
        s,
        at + 32,
        z.wrapping_add(w.1),
        y.wrapping_add(fetch64(s, at + 16)),
    );
    std::mem::swap(x, z);
}

fn city_hash128_with_seed(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let mut len = s.len();
    if len < 128 {
        return city_murmur(s, seed);
    }
    let (x, y) = seed;
    let z = (len as u64).wrapping_mul(K1);
    let v0 = (y ^ K1)
        .rotate_right(49)
        .wrapping_mul(K1)
        .wrapping_add(fetch64(s, 0));
    let mut v = (
        v0,
        v0.rotate_right(42)
            .wrapping_mul(K1)
            .wrapping_add(fetch64(s, 8)),
    );
    let mut w = (
        y.wrapping_add(z)
            .rotate_right(35)
            .wrapping_mul(K1)
            .wrapping_add(x),
        x.wrapping_add(fetch64(s, 88))
            .rotate_right(53)
            .wrapping_mul(K1),
    );
    let mut st = [x, y, z];
    let mut at = 0;
    while len >= 128 {
        city_round(s, at, &mut st, &mut v, &mut w);
        city_round(s, at + 64, &mut st, &mut v, &mut w);
        at += 128;
        len -= 128;
    }
    let [mut x, mut y, mut z] = st;
    x = x.wrapping_add(v.0.wrapping_add(z).rotate_right(49).wrapping_mul(K0));
    z = z.wrapping_add(w.0.rotate_right(37).wrapping_mul(K0));
    // Up to four 32-byte pieces from the end of the input, last first.
    let mut tail_done = 0;
    while tail_done < len {
        tail_done += 32;
        let piece = at + len - tail_done;
        y = x
            .wrapping_add(y)
            .rotate_right(42)
            .wrapping_mul(K0)
            .wrapping_add(v.1);
        w.0 = w.0.wrapping_add(fetch64(s, piece + 16));
        x = x.wrapping_mul(K0).wrapping_add(w.0);
        z = z.wrapping_add(w.1).wrapping_add(fetch64(s, piece));
        w.1 = w.1.wrapping_add(v.0);
        v = weak_hash32(s, piece, v.0.wrapping_add(z), v.1);
    }
    x = hash_len16(x, v.0);
    y = hash_len16(y.wrapping_add(z), w.0);
    (
        hash_len16(x.wrapping_add(v.1), w.1).wrapping_add(y),
        hash_len16(x.wrapping_add(w.1), y.wrapping_add(v.1)),
    )
}

fn city_hash128(s: &[u8]) -> (u64, u64) {
    let len = s.len();
    if len >= 16 {
        city_hash128_with_seed(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8)))
    } else if len >= 8 {
        let seed = (
            fetch64(s, 0) ^ (len as u64).wrapping_mul(K0),
            fetch64(s, len - 8) ^ K1,
        );
        city_hash128_with_seed(&[], seed)
    } else {
        city_hash128_with_seed(s, (K0, K1))
    }
}

/// CityHashCrc256 of `s` (at least 240 bytes) with `seed`: five 64-bit lanes, 40 bytes a
/// step, each lane also folded into a CRC-32C.
fn crc256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let len = s.len();
    let mut r = [0u64; 4];
    let mut a = fetch64(s, 56).wrapping_add(K0);
    let mut b = fetch64(s, 96).wrapping_add(K0);
    let mut c = hash_len16(b, len as u64);
    r[0] = c;
    let mut d = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len as u64);
    r[1] = d;
    let mut e = fetch64(s, 184).wrapping_add(u64::from(seed));
    let mut f = u64::from(seed);
    let (mut g, mut h, mut i, mut j) = (0u64, 0u64, 0u64, 0u64);
    let mut t = c.wrapping_add(d);
    let mut step = |at: usize, mul: u64, z: u32| {
        let old_a = a;
        a = b
            .rotate_right(41 ^ z)
            .wrapping_mul(mul)
            .wrapping_add(fetch64(s, at));
        b = c
            .rotate_right(27 ^ z)
            .wrapping_mul(mul)
            .wrapping_add(fetch64(s, at + 8));
        c = d
            .rotate_right(41 ^ z)
            .wrapping_mul(mul)
            .wrapping_add(fetch64(s, at + 16));
        d = e
            .rotate_right(33 ^ z)
            .wrapping_mul(mul)
            .wrapping_add(fetch64(s, at + 24));
        e = t
            .rotate_right(25 ^ z)
            .wrapping_mul(mul)
            .wrapping_add(fetch64(s, at + 32));
        t = old_a;
        f = crc32c_u64(f, a);
        g = crc32c_u64(g, b);
        h = crc32c_u64(h, c);
        i = crc32c_u64(i, d);
        j = crc32c_u64(j, e);
    };
    // 240 bytes a round, six steps alternating plain and multiplied; then 40 bytes a step,
    // and a last step over the final 40 bytes (overlapping the previous) if any are left.
    let rounds = len / 240;
    let mut at = 0;
    for _ in 0..rounds {
        for _ in 0..3 {
            step(at, 1, 1);
            step(at + 40, K0, 0);
            at += 80;
        }
    }
    while len - at >= 40 {
        step(at, K0, 0);
        at += 40;
    }
    if at < len {
        step(len - 40, K0, 0);
    }
    j = j.wrapping_add(i << 32);
    a = hash_len16(a, j);
    h = h.wrapping_add(g << 32);
    b = b.wrapping_add(h);
    c = hash_len16(c, f).wrapping_add(i);
    d = hash_len16(d, e.wrapping_add(r[0]));
    j = j.wrapping_add(e);
    i = i.wrapping_add(hash_len16(h, t));
    e = hash_len16(a, d).wrapping_add(j);
    f = hash_len16(b, c).wrapping_add(a);
    g = hash_len16(j, i).wrapping_add(c);
    r[0] = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    a = shift_mix(a.wrapping_add(g).wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(b);
    r[1] = r[1].wrapping_add(a).wrapping_add(r[0]);
    a = shift_mix(a.wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(c);
    r[2] = a.wrapping_add(r[1]);
    a = shift_mix(a.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    r[3] = a.wrapping_add(r[2]);
    r
}

/// CityHashCrc256: inputs under 240 bytes are zero-padded to 240, their length in the seed.
fn crc256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        return crc256_long(s, 0);
    }
    let mut buf = [0u8; 240];
    buf[..s.len()].copy_from_slice(s);
    crc256_long(&buf, !(s.len() as u32))
}

/// CityHashCrc128: CityHash128 up to 900 bytes, the last two words of CityHashCrc256 beyond.
fn crc128(s: &[u8]) -> (u64, u64) {
    if s.len() <= 900 {
        city_hash128(s)
    } else {
        let r = crc256(s);
        (r[2], r[3])
    }
}

/// Hashes a table body chunk by chunk, as the generator does.
#[derive(Default)]
struct BodyHash {
    /// CityHashCrc256 of each chunk so far, 32 bytes each.
    chunks: Vec<u8>,
}

impl BodyHash {
    /// Adds the next chunk ([`CHUNK`] bytes; the last may be shorter).
    fn add(&mut self, chunk: &[u8]) {
        for word in crc256(chunk) {
            self.chunks.extend_from_slice(&word.to_le_bytes());
        }
    }

    /// The checksum as the file stores it: two little-endian words.
    fn finish(&self) -> [u8; 16] {
        let (lo, hi) = crc128(&self.chunks);
        let mut sum = [0; 16];
        sum[..8].copy_from_slice(&lo.to_le_bytes());
        sum[8..].copy_from_slice(&hi.to_le_bytes());
        sum
    }
}

/// The size rule of a table file with its checksum: 64n + 16 bytes.
fn check_size(len: u64) -> Result<(), String> {
    if len % 64 == 16 {
        Ok(())
    } else {
        Err(format!(
            "{len} bytes, not the size of a table (64n + 16 bytes: a body and its checksum)"
        ))
    }
}

const MISMATCH: &str = "checksum mismatch: the embedded checksum (the generator's, which \
                        tbcheck verifies) does not match the contents; the file is damaged";

/// Checks the checksum of a whole table file held in memory.
#[cfg(test)]
fn check_bytes(file: &[u8]) -> Result<(), String> {
    check_size(file.len() as u64)?;
    let (body, stored) = file.split_at(file.len() - 16);
    let mut hash = BodyHash::default();
    body.chunks(CHUNK).for_each(|chunk| hash.add(chunk));
    if hash.finish() == stored {
        Ok(())
    } else {
        Err(MISMATCH.into())
    }
}

/// Checks the checksum of a table file of `len` bytes read from `file`, a chunk at a time
/// (at most [`CHUNK`] bytes in memory, whatever the file's size), asking `stop` before each
/// chunk: a check stopped is an error.
pub(super) fn check_file(
    file: &mut impl Read,
    len: u64,
    stop: &dyn Fn() -> bool,
) -> Result<(), String> {
    check_size(len)?;
    let reason = |e: std::io::Error| crate::files::reason(&e);
    let mut buf = Vec::new();
    let mut hash = BodyHash::default();
    let mut left = len - 16;
    while left > 0 {
        if stop() {
            return Err("not checked: stopped".into());
        }
        let n = left.min(CHUNK as u64) as usize;
        buf.resize(n, 0);
        file.read_exact(&mut buf).map_err(reason)?;
        hash.add(&buf);
        left -= n as u64;
    }
    let mut stored = [0; 16];
    file.read_exact(&mut stored).map_err(reason)?;
    if hash.finish() == stored {
        Ok(())
    } else {
        Err(MISMATCH.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes `i * 7 + i / 251` (mod 256): no period a bug could hide in.
    fn bytes(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn crc32c_of_the_standard_check_string() {
        // CRC-32C("123456789") = 0xE3069283 with the usual inversions around the raw update.
        let v = u64::from_le_bytes(*b"12345678");
        for update in [crc32c_u64, crc32c_u64_by_tables] {
            let mut crc = update(0xffff_ffff, v) as u32;
            crc = (crc >> 8) ^ CRC32C[0][((crc ^ u32::from(b'9')) & 0xff) as usize];
            assert_eq!(!crc, 0xe306_9283);
        }
    }

    /// A body followed by its checksum passes, whole or read a chunk at a time; any byte
    /// changed, body or checksum, fails, and so does a size no table has.
    #[test]
    fn a_file_passes_with_its_checksum_and_fails_with_any_byte_changed() {
        let mut file = bytes(5 * 64);
        let mut hash = BodyHash::default();
        hash.add(&file);
        file.extend(hash.finish());
        assert_eq!(check_bytes(&file), Ok(()));
        assert_eq!(
            check_file(&mut &file[..], file.len() as u64, &|| false),
            Ok(())
        );
        for at in [0, 200, file.len() - 16, file.len() - 1] {
            let mut bad = file.clone();
            bad[at] ^= 1;
            assert!(
                check_bytes(&bad).unwrap_err().contains("checksum mismatch"),
                "{at}"
            );
            let read = check_file(&mut &bad[..], bad.len() as u64, &|| false);
            assert!(read.unwrap_err().contains("checksum mismatch"), "{at}");
        }
        let short = &file[..file.len() - 64];
        assert!(check_bytes(short)
            .unwrap_err()
            .contains("checksum mismatch"));
        let odd = check_bytes(&file[..file.len() - 1]).unwrap_err();
        assert!(odd.contains("335 bytes, not the size of a table"), "{odd}");
    }

    /// The instruction and the tables agree on every byte position. A build without SSE 4.2
    /// computes both by the tables, which would compare them with themselves and pass saying
    /// nothing: it skips loudly instead (`Need::Machine`, a failure under `CUTOFF_REQUIRE`).
    #[test]
    fn crc32c_by_instruction_and_by_tables_agree() {
        if !cfg!(all(target_arch = "x86_64", target_feature = "sse4.2")) {
            crate::testing::skip(
                "crc32c_by_instruction_and_by_tables_agree",
                crate::testing::Need::Machine,
                "built without SSE 4.2: no crc32 instruction to compare the tables with",
            );
            return;
        }
        let mut rng = crate::rng::Rng::new(56);
        for _ in 0..10_000 {
            let (crc, v) = (rng.next_u64() >> 32, rng.next_u64());
            assert_eq!(crc32c_u64(crc, v), crc32c_u64_by_tables(crc, v));
        }
    }

    /// Vectors from the generator's own code (its city-c.c with its software CRC, compiled
    /// with a driver printing `CityHashCrc256(bytes(len))` and `CityHashCrc128(bytes(len))`):
    /// every branch of both, short and long, with and without tails.
    const CRC256_VECTORS: [(usize, [u64; 4]); 11] = [
        (
            0,
            [
                0x889f555a0f5b2dc0,
                0x7767800902c8a8ce,
                0xbcd2a808f4cb4a44,
                0xe9024dba8f94f2f3,
            ],
        ),
        (
            1,
            [
                0x1d08f40748bbd632,
                0xd91df64fee1ca120,
                0x370b7511ccf20515,
                0xa652edb0a18514ec,
            ],
        ),
        (
            100,
            [
                0xe046c47b6a035522,
                0xb3ee8fc7de826c7b,
                0xfc09302f76c068c4,
                0x9e004825e620299c,
            ],
        ),
        (
            239,
            [
                0xb9fa2dc4f72365b4,
                0xb9f4cfa063497b22,
                0xcddcd190ac2349de,
                0x38db1fd7181ffe70,
            ],
        ),
        (
            240,
            [
                0x394edd9cf3bd798c,
                0xaf2084962f893d62,
                0xb1601cd16481d066,
                0xe09e41232e25c60a,
            ],
        ),
        (
            256,
            [
                0x9d71638fa10ccf98,
                0xe307647ec7db5f13,
                0x4906f20a7c7f8de1,
                0x4ec7b9c9aa0a9cb0,
            ],
        ),
        (
            279,
            [
                0xd9fb8b9b5393be92,
                0xaf4ba6ee922e6a47,
                0x1beae499dafdccc7,
                0x82e536af3d6e7d50,
            ],
        ),
        (
            280,
            [
                0x2d28772f9d4f1924,
                0x8abd283db76db5d0,
                0x116e74201c46d881,
                0x81e30e59c0f7a106,
            ],
        ),
        (
            481,
            [
                0xe484ea4fa921dd5b,
                0x3ac9418a285bc00c,
                0x6e47b555dbe9721c,
                0xb6b2e7668da2b647,
            ],
        ),
        (
            1000,
            [
                0x449d4f0e74d020e3,
                0xf0a86a763b439ce0,
                0x085ecb72f566325f,
                0x40cc75f7e33413a0,
            ],
        ),
        (
            4096,
            [
                0xef7727df49bf46ff,
                0xc3908dfd0d40fece,
                0xa4403915fa590f33,
                0xf8c08b0e137650c6,
            ],
        ),
    ];

    /// As [`CRC256_VECTORS`], of CityHashCrc128.
    const CRC128_VECTORS: [(usize, (u64, u64)); 14] = [
        (0, (0x3df09dfc64c09a2b, 0x3cb540c392e51e29)),
        (7, (0x2ac1cb1e79a3033e, 0x1a511db9333e0d88)),
        (15, (0xa710a80537cf2d8d, 0xe533a7496f95ee85)),
        (16, (0x83ec0fac4964837b, 0xd275575faba34852)),
        (32, (0xfc63f6c038692042, 0x1150d302127410d7)),
        (100, (0x50a18d69ec80c550, 0xc8c048b8c5d1e364)),
        (127, (0x92014b33a50c9fa1, 0x90fe7c076ed61607)),
        (128, (0x7742777150cd6e44, 0x35eeafd9d16b93d8)),
        (129, (0xa480ba9e41335b65, 0x5d528dcc4c7e3fef)),
        (200, (0xece0409ed96b2b96, 0xa912bf1c731c6bff)),
        (300, (0x9d7440672b30b7db, 0x5e0bc18765d4a770)),
        (900, (0x19ac4dec205e3bf1, 0x4e4f1a38ea852336)),
        (901, (0x28d6ec6cc3cab6da, 0x2eec64a2b3d640e6)),
        (5000, (0x190947a9b9bdd1ff, 0x4f3f4ae2fa5515ba)),
    ];

    #[test]
    fn city_hash_crc_matches_the_generators_vectors() {
        for (len, want) in CRC256_VECTORS {
            assert_eq!(crc256(&bytes(len)), want, "CityHashCrc256 of {len} bytes");
        }
        for (len, want) in CRC128_VECTORS {
            assert_eq!(crc128(&bytes(len)), want, "CityHashCrc128 of {len} bytes");
        }
    }
}
