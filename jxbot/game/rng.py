"""Deterministic, cryptographically strong shuffling and the wall commitment.

A hand's randomness (wall order, dice, salt) comes from a SHA-256 counter-mode generator keyed by the
hand's seed: the same seed always gives the same hand, and the production runner passes a seed from
``secrets`` so nobody can predict it. The commitment published before the deal is
``sha256(bytes(wall) + salt.encode()).hexdigest()`` where ``bytes(wall)`` is the 136 tile kinds
(0–33), one byte each, from the head (index 0) to the tail (index 135).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from jxbot.rules.tiles import COPIES, NUM_KINDS, WALL_SIZE


def seed_bytes(seed: int | str | bytes) -> bytes:
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError(f"a seed is an int, str or bytes, not {type(seed).__name__}")
    return str(seed).encode()


class HashDrbg:
    """SHA-256 in counter mode: ``block_i = sha256(key || i)``; unbiased ``randbelow`` by rejection."""

    __slots__ = ("_key", "_counter", "_buf")

    def __init__(self, seed: int | str | bytes, purpose: str = "jxbot") -> None:
        self._key = hashlib.sha256(purpose.encode() + b"\x00" + seed_bytes(seed)).digest()
        self._counter = 0
        self._buf = b""

    def read(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._buf += hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        k = n.bit_length()
        mask = (1 << k) - 1
        while True:
            r = int.from_bytes(self.read(4), "big") & mask
            if r < n:
                return r

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def full_set() -> list[int]:
    return [k for k in range(NUM_KINDS) for _ in range(COPIES)]


def shuffled_wall(seed: int | str | bytes) -> tuple[list[int], tuple[int, int], str]:
    """(wall, dice, salt) for a seed. Deterministic; unpredictable without the seed."""
    rng = HashDrbg(seed, "jxbot-hand")
    wall = full_set()
    rng.shuffle(wall)
    dice = (1 + rng.randbelow(6), 1 + rng.randbelow(6))
    salt = rng.read(16).hex()
    return wall, dice, salt


def commitment(wall: Sequence[int], salt: str) -> str:
    return hashlib.sha256(bytes(wall) + salt.encode()).hexdigest()


def verify_commitment(wall: Sequence[int], salt: str, published: str) -> bool:
    """True when the revealed wall and salt match the commitment published before the deal."""
    return check_wall(wall) is None and commitment(wall, salt) == published


def check_wall(wall: Sequence[int]) -> str | None:
    """None if ``wall`` is a full 136-tile set (4 of each kind), else what is wrong."""
    if len(wall) != WALL_SIZE:
        return f"a wall has {WALL_SIZE} tiles, not {len(wall)}"
    counts = [0] * NUM_KINDS
    for t in wall:
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < NUM_KINDS:
            return f"not a tile kind: {t!r}"
        counts[t] += 1
    bad = [k for k in range(NUM_KINDS) if counts[k] != COPIES]
    if bad:
        return f"kind {bad[0]} appears {counts[bad[0]]} times, not {COPIES}"
    return None


def derive_id(seed: int | str | bytes, purpose: str = "jxbot-id") -> str:
    """A short public id derived from a seed (does not reveal the seed)."""
    return hashlib.sha256(purpose.encode() + b"\x00" + seed_bytes(seed)).hexdigest()[:12]
