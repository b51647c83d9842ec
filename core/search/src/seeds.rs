//! Derivation of independent, process-stable seeds from a base seed and labels (the twin of
//! `search/seeds.py`; the values differ from Python's, the construction is the same idea).
//!
//! `derive_seed(seed, ["worker", "2"])` hashes the text `"<seed>:worker:2"` (the seed in
//! decimal, the labels joined by `:`) with 64-bit FNV-1a and passes the hash through the
//! SplitMix64 finalizer so that close texts give unrelated seeds. Nothing depends on the
//! process, the platform or the Rust version: the same inputs give the same seed everywhere.
//!
//! The seeds a search uses, from its base seed `s`:
//!
//! | purpose | seed |
//! |---|---|
//! | one tree (a single-worker search) | `s` |
//! | worker `i` of a root-parallel search | `derive_seed(s, ["worker", i])` |
//! | a tree's iteration stream (determinizations, expansion, rollouts) | `derive_seed(tree, ["tree"])` |
//! | a tree's principal-variation world | `derive_seed(tree, ["pv"])` |
//! | the move choice with a temperature | `derive_seed(s, ["choice"])` |
//! | world `k` of the root moves' network values (with a model) | `derive_seed(s, ["net", k])` |

use boardbot_rules::{seeded_rng, SeededRng};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// 64-bit FNV-1a of `bytes`, continuing from `hash`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// The SplitMix64 output function: a bijective mix of all 64 bits.
fn splitmix_finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed determined by `seed` and `labels` alone (stable across processes and machines).
pub fn derive_seed(seed: u64, labels: &[&str]) -> u64 {
    let mut hash = fnv1a(FNV_OFFSET, seed.to_string().as_bytes());
    for label in labels {
        hash = fnv1a(hash, b":");
        hash = fnv1a(hash, label.as_bytes());
    }
    splitmix_finalize(hash)
}

/// The seed of worker `index` of a root-parallel search seeded with `seed`.
pub fn worker_seed(seed: u64, index: usize) -> u64 {
    derive_seed(seed, &["worker", &index.to_string()])
}

/// The generator of one tree's iterations, from the tree's seed.
pub fn tree_rng(tree_seed: u64) -> SeededRng {
    seeded_rng(derive_seed(tree_seed, &["tree"]))
}

/// The generator of one tree's principal-variation world, from the tree's seed.
pub fn pv_rng(tree_seed: u64) -> SeededRng {
    seeded_rng(derive_seed(tree_seed, &["pv"]))
}

/// The generator of the move choice, from the search's base seed.
pub fn choice_rng(seed: u64) -> SeededRng {
    seeded_rng(derive_seed(seed, &["choice"]))
}

/// The generator of world `k` of the root moves' network values (its determinization, then
/// the chance draws after each move), from the search's base seed.
pub fn net_value_world(seed: u64, k: usize) -> SeededRng {
    seeded_rng(derive_seed(seed, &["net", &k.to_string()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn derived_seeds_are_pinned() {
        // The derivation is part of the determinism contract: these values must never change.
        assert_eq!(derive_seed(42, &["choice"]), PINNED[0]);
        assert_eq!(worker_seed(42, 0), PINNED[1]);
        assert_eq!(worker_seed(42, 1), PINNED[2]);
        assert_eq!(derive_seed(0, &[]), PINNED[3]);
    }

    /// Computed independently (a Python script over the same text, FNV-1a and SplitMix64).
    const PINNED: [u64; 4] = [
        5_288_264_818_123_572_713,
        8_723_280_952_941_383_191,
        6_014_572_781_150_177_653,
        10_076_350_285_264_667_026,
    ];

    #[test]
    fn labels_and_seeds_separate_the_streams() {
        let seeds = [
            derive_seed(1, &["tree"]),
            derive_seed(1, &["pv"]),
            derive_seed(2, &["tree"]),
            derive_seed(1, &["worker", "1"]),
            derive_seed(1, &["worker", "2"]),
            derive_seed(1, &["worker1"]),
            derive_seed(1, &[]),
        ];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(worker_seed(9, 3), derive_seed(9, &["worker", "3"]));
    }
}
