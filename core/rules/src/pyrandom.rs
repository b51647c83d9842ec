//! CPython's `random.Random(seed)` for an integer seed, draw for draw: the Mersenne Twister
//! (MT19937) seeded as CPython seeds an int, and the methods the Python engines call
//! (`random`, `getrandbits`, `_randbelow`, `randrange`, `shuffle`, `sample`), each consuming
//! the stream exactly as CPython 3.11+ does.
//!
//! With it the rules reproduce the Python engine's setups and chance draws: a
//! [`PythonRandom`] is a [`Draws`] generator, so the same setup and chance code serves the
//! native stream and this one.

use std::collections::HashSet;

use crate::rng::Draws;

/// Words of the generator's state.
const N: usize = 624;
/// The twist's middle offset.
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A generator equal to CPython's `random.Random(seed)` for an integer seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonRandom {
    state: [u32; N],
    index: usize,
}

impl PythonRandom {
    /// `random.Random(seed)` for a seed in `0..2**64` (for a negative seed `s`, CPython seeds
    /// with `abs(s)`: pass `s.unsigned_abs()`).
    pub fn new(seed: u64) -> Self {
        Self::from_abs_le_bytes(&seed.to_le_bytes())
    }

    /// `random.Random(seed)` for any integer seed, given `abs(seed)` as little-endian bytes.
    ///
    /// CPython seeds an int with `init_by_array` over the 32-bit little-endian words of its
    /// absolute value, without leading zero words (`[0]` for 0).
    pub fn from_abs_le_bytes(bytes: &[u8]) -> Self {
        let mut key: Vec<u32> = bytes
            .chunks(4)
            .map(|chunk| {
                let mut word = [0u8; 4];
                word[..chunk.len()].copy_from_slice(chunk);
                u32::from_le_bytes(word)
            })
            .collect();
        while key.len() > 1 && key.last() == Some(&0) {
            key.pop();
        }
        if key.is_empty() {
            key.push(0);
        }
        Self::from_key(&key)
    }

    /// The generator in the state `random.Random.getstate()` describes: the 624 words and the
    /// position (at most 624); None for a position out of range.
    pub fn from_state(words: [u32; N], index: usize) -> Option<Self> {
        (index <= N).then_some(Self {
            state: words,
            index,
        })
    }

    /// The words and the position, as `random.Random.getstate()` gives them.
    pub fn state(&self) -> ([u32; N], usize) {
        (self.state, self.index)
    }

    /// The generator after MT19937's `init_by_array(key)` (`key` not empty).
    fn from_key(key: &[u32]) -> Self {
        let mut mt = init_genrand(19_650_218);
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        Self {
            state: mt,
            index: N,
        }
    }

    /// The next 32-bit output (CPython's `genrand_uint32`).
    pub fn next_word(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Regenerate the whole state (MT19937's twist).
    fn twist(&mut self) {
        let mt = &mut self.state;
        for k in 0..N {
            let y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = self.next_word() >> 5;
        let b = self.next_word() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for `k <= 64` (a larger `k` is taken as 64).
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        match k {
            0 => 0,
            1..=32 => u64::from(self.next_word() >> (32 - k)),
            _ => {
                let low = u64::from(self.next_word());
                let high = u64::from(self.next_word() >> (64 - k.min(64)));
                low | high << 32
            }
        }
    }

    /// `getrandbits(k)` for any `k`: the little-endian 32-bit words of the result, the first
    /// word drawn the least significant (`ceil(k / 32)` words).
    pub fn getrandbits_words(&mut self, k: usize) -> Vec<u32> {
        let mut words = Vec::with_capacity(k.div_ceil(32));
        let mut left = k;
        while left > 0 {
            let word = self.next_word();
            words.push(if left < 32 { word >> (32 - left) } else { word });
            left = left.saturating_sub(32);
        }
        words
    }

    /// `_randbelow(n)`: a uniform integer in `0..n` by rejection over `getrandbits(bit_length(n))`
    /// (0, with no draw, when `n` is 0, where CPython raises).
    pub fn randbelow(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let k = u64::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `_randbelow(n)` for any `n`, given and returned as little-endian 32-bit words (an empty
    /// result, with no draw, when `n` is 0).
    pub fn randbelow_words(&mut self, n: &[u32]) -> Vec<u32> {
        let top = n.iter().rposition(|&w| w != 0);
        let Some(top) = top else {
            return Vec::new();
        };
        let n = &n[..=top];
        let k = top * 32 + (32 - n[top].leading_zeros() as usize);
        loop {
            let r = self.getrandbits_words(k);
            if less_than(&r, n) {
                return r;
            }
        }
    }

    /// `randrange(n)` for `n > 0` (0, with no draw, when `n` is 0, where CPython raises).
    pub fn randrange(&mut self, n: u64) -> u64 {
        self.randbelow(n)
    }

    /// `shuffle(items)`: CPython's Fisher-Yates, from the last item down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `sample(range(n), k)`: `k` distinct integers of `0..n` in selection order (a `k` above
    /// `n` is taken as `n`, where CPython raises).
    ///
    /// As CPython: a pool of `n` items when `n` is at most `setsize` (21, plus
    /// `4 ** ceil(log(3k, 4))` when `k > 5`), else draws of `0..n` redrawn until unseen.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let k = k.min(n);
        if n <= sample_setsize(k) {
            let mut pool: Vec<usize> = (0..n).collect();
            (0..k)
                .map(|i| {
                    let j = self.randbelow((n - i) as u64) as usize;
                    let picked = pool[j];
                    pool[j] = pool[n - i - 1];
                    picked
                })
                .collect()
        } else {
            let mut selected = HashSet::with_capacity(k);
            (0..k)
                .map(|_| loop {
                    let j = self.randbelow(n as u64) as usize;
                    if selected.insert(j) {
                        break j;
                    }
                })
                .collect()
        }
    }
}

impl Draws for PythonRandom {
    fn randrange(&mut self, n: u32) -> u32 {
        self.randbelow(u64::from(n)) as u32
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        PythonRandom::shuffle(self, items);
    }

    fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        PythonRandom::sample(self, n, k)
    }
}

/// MT19937's `init_genrand(seed)`.
fn init_genrand(seed: u32) -> [u32; N] {
    let mut mt = [0u32; N];
    mt[0] = seed;
    for i in 1..N {
        let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
        mt[i] = 1_812_433_253u32.wrapping_mul(prev).wrapping_add(i as u32);
    }
    mt
}

/// The population size up to which `sample` keeps a pool rather than a set of picks
/// (CPython's `setsize`, with its float logarithm).
fn sample_setsize(k: usize) -> usize {
    let mut setsize = 21usize;
    if k > 5 {
        let exponent = ((k as f64 * 3.0).ln() / 4f64.ln()).ceil();
        setsize = setsize.saturating_add(4usize.saturating_pow(exponent as u32));
    }
    setsize
}

/// `a < b` for little-endian words (`b` without leading zero words).
fn less_than(a: &[u32], b: &[u32]) -> bool {
    let top = a.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
    if top != b.len() {
        return top < b.len();
    }
    for i in (0..top).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

#[cfg(test)]
mod tests {
    //! Reference values from CPython (the same under 3.11, 3.12 and 3.13):
    //!
    //! ```python
    //! import random
    //! for seed in (0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1, -5):
    //!     r = random.Random(seed)
    //!     print(seed, [r.getrandbits(32) for _ in range(3)])
    //! r = random.Random(42); print([r.random() for _ in range(3)])
    //! r = random.Random(7); print([hex(r.getrandbits(k)) for k in (1, 31, 32, 33, 64, 100)])
    //! r = random.Random(9); print([r.randrange(n) for n in (1, 2, 3, 7, 52, 1000, 2**40 + 1)])
    //! r = random.Random(11); x = list(range(10)); r.shuffle(x); print(x)
    //! r = random.Random(3)
    //! print(r.sample(range(4), 2), r.sample(range(50), 10), r.sample(range(100), 10))
    //! ```
    use super::*;

    fn words(rng: &mut PythonRandom) -> [u32; 3] {
        [rng.next_word(), rng.next_word(), rng.next_word()]
    }

    #[test]
    fn seeds_as_cpython_seeds_ints() {
        let cases: [(u64, [u32; 3]); 7] = [
            (0, [3_626_764_237, 1_654_615_998, 3_255_389_356]),
            (1, [577_090_037, 2_444_712_010, 3_639_700_191]),
            ((1 << 32) - 1, [2_728_839_433, 2_661_025_012, 872_737_089]),
            (1 << 32, [485_306_839, 1_508_871_100, 1_794_561_286]),
            (1 << 63, [2_377_109_768, 1_691_753_470, 4_039_908_392]),
            (u64::MAX, [93_740_670, 1_068_495_656, 1_452_108_352]),
            (
                (-5i64).unsigned_abs(),
                [2_675_342_405, 1_097_127_993, 3_185_950_873],
            ),
        ];
        for (seed, expected) in cases {
            assert_eq!(words(&mut PythonRandom::new(seed)), expected, "seed {seed}");
        }
    }

    #[test]
    fn any_width_of_seed_bytes_gives_the_same_generator() {
        let short = PythonRandom::from_abs_le_bytes(&[5]);
        let padded = PythonRandom::from_abs_le_bytes(&[5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(short, PythonRandom::new(5));
        assert_eq!(padded, PythonRandom::new(5));
        assert_eq!(PythonRandom::from_abs_le_bytes(&[]), PythonRandom::new(0));
    }

    #[test]
    fn random_is_cpythons_float() {
        let mut rng = PythonRandom::new(42);
        let got = [rng.random(), rng.random(), rng.random()];
        assert_eq!(
            got,
            [
                0.6394267984578837,
                0.025010755222666936,
                0.27502931836911926
            ]
        );
    }

    #[test]
    fn getrandbits_of_every_width() {
        let mut rng = PythonRandom::new(7);
        let got: Vec<u64> = [1, 31, 32, 33, 64]
            .iter()
            .map(|&k| rng.getrandbits(k))
            .collect();
        assert_eq!(
            got,
            [
                0x0,
                0x7953_a6f2,
                0x269e_0d37,
                0x1_6513_270e,
                0x128b_2f33_0c5c_7fd0
            ]
        );
        assert_eq!(
            rng.getrandbits_words(100),
            [0xd23f_0824, 0x892f_902b, 0x1818_e811, 0x5]
        );
    }

    #[test]
    fn randrange_rejects_as_cpython() {
        let mut rng = PythonRandom::new(9);
        let got: Vec<u64> = [1, 2, 3, 7, 52, 1000, (1 << 40) + 1]
            .iter()
            .map(|&n| rng.randrange(n))
            .collect();
        assert_eq!(got, [0, 1, 1, 1, 11, 887, 15_791_063_902]);
    }

    #[test]
    fn randbelow_words_matches_randbelow() {
        let mut a = PythonRandom::new(123);
        let mut b = a.clone();
        for n in [1u64, 2, 3, 5, 1 << 31, (1 << 32) + 7, u64::MAX, 1 << 63] {
            let words = [n as u32, (n >> 32) as u32, 0];
            let got = b.randbelow_words(&words);
            let value = got
                .iter()
                .enumerate()
                .fold(0u64, |v, (i, &w)| v | u64::from(w) << (32 * i));
            assert_eq!(a.randbelow(n), value, "n {n}");
        }
        assert_eq!(a, b);
        assert!(b.randbelow_words(&[0, 0]).is_empty());
        assert_eq!(a, b);
    }

    #[test]
    fn shuffle_is_cpythons() {
        let mut rng = PythonRandom::new(11);
        let mut items: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut items);
        assert_eq!(items, [2, 6, 0, 1, 5, 4, 3, 9, 8, 7]);
    }

    #[test]
    fn sample_takes_cpythons_branch() {
        let mut rng = PythonRandom::new(3);
        assert_eq!(rng.sample(4, 2), [1, 2]);
        // pool: 50 <= 21 + 4**3
        assert_eq!(rng.sample(50, 10), [34, 8, 23, 38, 30, 40, 37, 4, 46, 0]);
        // set: 100 > 85
        assert_eq!(
            rng.sample(100, 10),
            [60, 33, 70, 29, 24, 91, 69, 50, 81, 19]
        );
    }

    #[test]
    fn setsize_is_cpythons() {
        // [21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0) for k in (1, 5, 6, 21, 22, 100)]
        let got: Vec<usize> = [1, 5, 6, 21, 22, 100]
            .iter()
            .map(|&k| sample_setsize(k))
            .collect();
        assert_eq!(got, [21, 21, 85, 85, 277, 1045]);
    }

    #[test]
    fn the_twist_keeps_going() {
        // r = random.Random(5); [r.getrandbits(32) for _ in range(2000)][-3:]
        let mut rng = PythonRandom::new(5);
        let tail: Vec<u32> = (0..2000).map(|_| rng.next_word()).skip(1997).collect();
        assert_eq!(tail, TAIL_OF_SEED_5);
    }

    const TAIL_OF_SEED_5: [u32; 3] = [2_624_240_266, 2_123_333_229, 2_894_893_787];
}
