"""Derivation of independent, process-stable seeds from a base seed and labels."""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed determined by `seed` and `labels` alone (stable across processes)."""
    text = ":".join([str(seed), *(str(label) for label in labels)])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
