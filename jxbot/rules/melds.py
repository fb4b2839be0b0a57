"""Exposed and concealed melds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .tiles import WHITE, format_tiles, parse_tiles


class MeldKind(StrEnum):
    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 (claimed from a discard)
    ADDED_KONG = "added_kong"  # 补杠 (fourth tile added to an own 碰)
    CONCEALED_KONG = "concealed_kong"  # 暗杠


KONG_KINDS = frozenset({MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG})


@dataclass(frozen=True, slots=True)
class Meld:
    """A set laid down. ``tiles`` are sorted kinds; ``from_seat`` is the seat whose discard was claimed
    (``None`` for a concealed kong); ``claimed`` is the claimed tile (for chows, which one of the three)."""

    kind: MeldKind
    tiles: tuple[int, ...]
    from_seat: int | None = None
    claimed: int | None = None

    def __post_init__(self) -> None:
        n = 3 if self.kind in (MeldKind.CHOW, MeldKind.PUNG) else 4
        if len(self.tiles) != n:
            raise ValueError(f"a {self.kind.value} has {n} tiles, not {len(self.tiles)}")
        ts = tuple(sorted(self.tiles))
        object.__setattr__(self, "tiles", ts)
        if self.kind is MeldKind.CHOW:
            a = ts[0]
            if ts[2] == WHITE and ts[1] < 27:  # caishen: a 白板 playing the 財神's face (RULES B1)
                b = ts[1]
                if b // 9 != a // 9 or not 1 <= b - a <= 2:
                    raise ValueError(f"not a chow: {format_tiles(ts)}")
            elif a >= 27 or a % 9 > 6 or ts != (a, a + 1, a + 2):
                raise ValueError(f"not a chow: {format_tiles(ts)}")
        elif len(set(ts)) != 1:
            raise ValueError(f"not a {self.kind.value}: {format_tiles(ts)}")

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def is_pung_like(self) -> bool:
        """A pung or any kong (counts as a triplet for patterns and 台)."""
        return self.kind is not MeldKind.CHOW

    @property
    def base(self) -> int:
        """First tile kind of the set."""
        return self.tiles[0]

    @classmethod
    def chow(cls, text: str, from_seat: int | None = None, claimed: int | None = None) -> Meld:
        return cls(MeldKind.CHOW, tuple(parse_tiles(text)), from_seat, claimed)

    @classmethod
    def pung(cls, text: str, from_seat: int | None = None) -> Meld:
        ts = tuple(parse_tiles(text))
        return cls(MeldKind.PUNG, ts, from_seat, ts[0] if ts else None)

    @classmethod
    def kong(cls, text: str, from_seat: int | None = None) -> Meld:
        ts = tuple(parse_tiles(text))
        return cls(MeldKind.KONG, ts, from_seat, ts[0] if ts else None)

    @classmethod
    def added_kong(cls, text: str, from_seat: int | None = None) -> Meld:
        ts = tuple(parse_tiles(text))
        return cls(MeldKind.ADDED_KONG, ts, from_seat, ts[0] if ts else None)

    @classmethod
    def concealed_kong(cls, text: str) -> Meld:
        return cls(MeldKind.CONCEALED_KONG, tuple(parse_tiles(text)), None, None)

    def to_json(self) -> dict:
        return {"kind": self.kind.value, "tiles": list(self.tiles), "from_seat": self.from_seat,
                "claimed": self.claimed}

    @classmethod
    def from_json(cls, d: dict) -> Meld:
        return cls(MeldKind(d["kind"]), tuple(d["tiles"]), d.get("from_seat"), d.get("claimed"))

    def __str__(self) -> str:
        return f"{self.kind.value}({format_tiles(self.tiles)})"
