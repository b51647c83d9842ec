//! Seeded randomness: the crate's standard generator and the few draws the rules need.
//!
//! Nothing in the rules draws randomness on its own: every random choice takes an explicit
//! generator, so a seed reproduces a game, a determinization or a search exactly.
//!
//! Setups and chance steps draw through [`Draws`], which two streams implement: every
//! [`RngCore`] generator (the native stream, [`SeededRng`]) with the draws below, and
//! [`PythonRandom`](crate::pyrandom::PythonRandom) with CPython's, so one rules code gives
//! either the native engine's games or exactly the Python engine's.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator used for seeded setups, playouts and tests (small, fast, reproducible).
pub type SeededRng = Xoshiro256PlusPlus;

/// A generator seeded from `seed` (the same seed gives the same stream on every machine).
pub fn seeded_rng(seed: u64) -> SeededRng {
    SeededRng::seed_from_u64(seed)
}

/// The draws of setups and chance steps, named after the Python engine's calls.
pub trait Draws {
    /// A uniform integer in `0..n` (Python's `randrange(n)`); 0 when `n` is 0.
    fn randrange(&mut self, n: u32) -> u32;

    /// Shuffle `items` in place uniformly (Python's `shuffle`).
    fn shuffle<T>(&mut self, items: &mut [T]);

    /// `k` distinct integers of `0..n` in the order drawn (Python's `sample(range(n), k)`); at
    /// most `n`.
    fn sample(&mut self, n: usize, k: usize) -> Vec<usize>;
}

/// The native stream: [`below`], [`shuffle`], and a sample drawn item by item from a pool.
impl<R: RngCore + ?Sized> Draws for R {
    fn randrange(&mut self, n: u32) -> u32 {
        below(self, n)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        shuffle(self, items);
    }

    fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut pool: Vec<usize> = (0..n).collect();
        (0..k.min(n))
            .map(|_| pool.remove(below(self, pool.len() as u32) as usize))
            .collect()
    }
}

/// A uniform integer in `0..n` (Lemire's unbiased multiply-shift); 0 when `n` is 0.
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let range = u64::from(n);
    let mut product = u64::from(rng.next_u32()) * range;
    let mut low = product as u32;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            product = u64::from(rng.next_u32()) * range;
            low = product as u32;
        }
    }
    (product >> 32) as u32
}

/// Shuffle `items` in place uniformly (Fisher-Yates).
pub fn shuffle<T, R: RngCore + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, (i + 1) as u32) as usize;
        items.swap(i, j);
    }
}

/// An index drawn with probability proportional to `weights` (non-negative, not all zero).
pub fn weighted_index<R: RngCore + ?Sized>(rng: &mut R, weights: &[f64]) -> usize {
    let total: f64 = weights.iter().sum();
    let unit = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let mut r = unit * total;
    for (i, w) in weights.iter().enumerate() {
        if r < *w {
            return i;
        }
        r -= w;
    }
    weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = seeded_rng(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = below(&mut rng, 7) as usize;
            seen[v] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
        assert_eq!(below(&mut rng, 0), 0);
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn the_same_seed_gives_the_same_stream() {
        let mut a = seeded_rng(42);
        let mut b = seeded_rng(42);
        let mut xs = [1, 2, 3, 4, 5, 6, 7, 8];
        let mut ys = xs;
        shuffle(&mut a, &mut xs);
        shuffle(&mut b, &mut ys);
        assert_eq!(xs, ys);
        let mut sorted = xs;
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn the_native_sample_draws_from_a_shrinking_pool() {
        for seed in 0..200 {
            let mut a = seeded_rng(seed);
            let mut b = seeded_rng(seed);
            let first = below(&mut b, 4) as usize;
            let second = below(&mut b, 3) as usize;
            let expected = [first, second + usize::from(second >= first)];
            assert_eq!(a.sample(4, 2), expected);
            assert_eq!(a, b);
        }
        assert_eq!(seeded_rng(1).sample(3, 5).len(), 3);
    }

    #[test]
    fn weighted_index_never_picks_a_zero_weight() {
        let mut rng = seeded_rng(3);
        for _ in 0..1000 {
            let i = weighted_index(&mut rng, &[0.0, 2.0, 0.0, 1.0]);
            assert!(i == 1 || i == 3);
        }
    }
}
