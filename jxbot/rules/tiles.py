"""Tiles and Tenhou-style notation.

A tile kind is an int 0–33: 万 characters 0–8 (``1m``–``9m``), 筒 dots 9–17 (``1p``–``9p``),
条 bamboo 18–26 (``1s``–``9s``), honors 27–33 (``1z``–``7z`` = 东 南 西 北 白 发 中).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

NUM_KINDS = 34
COPIES = 4
WALL_SIZE = NUM_KINDS * COPIES  # 136

MAN, PIN, SOU, HONOR = 0, 1, 2, 3
SUIT_LETTERS = "mpsz"

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)

_ZH_NUM = "一二三四五六七八九"
_ZH_SUIT = ("万", "筒", "条")
_EN_SUIT = ("m", "p", "s")
_ZH_HONOR = ("东", "南", "西", "北", "白", "发", "中")
_EN_HONOR = ("East", "South", "West", "North", "White", "Green", "Red")
WIND_LETTERS = "ESWN"


def suit(t: int) -> int:
    """0 万, 1 筒, 2 条, 3 honors."""
    return t // 9 if t < 27 else HONOR


def rank(t: int) -> int:
    """1–9 for suited tiles, 1–7 for honors."""
    return t % 9 + 1 if t < 27 else t - 26


def is_honor(t: int) -> bool:
    return t >= 27


def is_suited(t: int) -> bool:
    return 0 <= t < 27


def check_tile(t: int) -> int:
    if not isinstance(t, int) or not 0 <= t < NUM_KINDS:
        raise ValueError(f"not a tile kind: {t!r} (tiles are ints 0–33)")
    return t


def parse_tiles(text: str) -> list[int]:
    """Parse ``"123m456p77z"`` into tile kinds, in the order written.

    Raises ``ValueError`` naming the problem and its position.
    """
    if not isinstance(text, str):
        raise ValueError(f"tile notation must be a string, not {type(text).__name__}")
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch.isdigit():
            pending.append((int(ch), pos))
            continue
        letter = ch.lower()
        if letter not in SUIT_LETTERS:
            raise ValueError(f"bad tile notation {text!r}: unexpected {ch!r} at position {pos} "
                             f"(use digits followed by m, p, s or z)")
        if not pending:
            raise ValueError(f"bad tile notation {text!r}: suit letter {ch!r} at position {pos} has no digits before it")
        s = SUIT_LETTERS.index(letter)
        for digit, dpos in pending:
            if s == HONOR:
                if not 1 <= digit <= 7:
                    raise ValueError(f"bad tile notation {text!r}: honor {digit}z at position {dpos} "
                                     f"(honors are 1z–7z)")
                out.append(26 + digit)
            else:
                if digit == 0:
                    raise ValueError(f"bad tile notation {text!r}: 0{letter} at position {dpos} "
                                     f"(no red fives; ranks are 1–9)")
                out.append(s * 9 + digit - 1)
        pending = []
    if pending:
        raise ValueError(f"bad tile notation {text!r}: digits at position {pending[0][1]} have no suit letter after them")
    return out


def parse_tile(text: str) -> int:
    """Parse exactly one tile, e.g. ``"5p"``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise ValueError(f"expected exactly one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def format_tiles(tiles: Iterable[int]) -> str:
    """Format tile kinds in the order given, grouping consecutive tiles of one suit.

    ``parse_tiles(format_tiles(ts)) == list(ts)`` for any list of valid kinds.
    """
    parts: list[str] = []
    cur_suit = -1
    digits: list[str] = []
    for t in tiles:
        check_tile(t)
        s = suit(t)
        if s != cur_suit and digits:
            parts.append("".join(digits) + SUIT_LETTERS[cur_suit])
            digits = []
        cur_suit = s
        digits.append(str(rank(t)))
    if digits:
        parts.append("".join(digits) + SUIT_LETTERS[cur_suit])
    return "".join(parts)


def format_tile(t: int) -> str:
    return format_tiles((t,))


def tile_name(t: int, lang: str = "zh") -> str:
    """Human name: ``5万`` / ``东`` (zh) or ``5m`` / ``East`` (en)."""
    if isinstance(t, int) and 0 <= t < NUM_KINDS and lang in _NAMES:  # the panels name tiles per change
        return _NAMES[lang][t]
    check_tile(t)
    return _tile_name(t, lang)


def _tile_name(t: int, lang: str) -> str:
    if is_honor(t):
        return (_ZH_HONOR if lang.startswith("zh") else _EN_HONOR)[t - 27]
    if lang.startswith("zh"):
        return f"{rank(t)}{_ZH_SUIT[suit(t)]}"
    return f"{rank(t)}{_EN_SUIT[suit(t)]}"


_NAMES = {lang: tuple(_tile_name(t, lang) for t in range(NUM_KINDS)) for lang in ("zh", "en")}


def wind_name(wind: int, lang: str = "zh") -> str:
    """Wind index 0–3 (东南西北) as a name."""
    return tile_name(EAST + wind, lang)


def to_counts(tiles: Iterable[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def from_counts(counts: Sequence[int]) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def sort_hand(tiles: Iterable[int], wildcard: int | None = None) -> list[int]:
    """Sorted for display: tiles of the wildcard kind first, then by kind."""
    return sorted(tiles, key=lambda t: (t != wildcard, t))


def next_in_sequence(t: int) -> int:
    """The kind after ``t`` in indicator order: 9→1 within a suit, 北→东 among winds, 中→白 among dragons."""
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    if t <= NORTH:
        return EAST + (t - EAST + 1) % 4
    return WHITE + (t - WHITE + 1) % 3
