"""The committed font subsets (never system fonts) and text that stays inside them."""

from __future__ import annotations

import functools
import struct
import unicodedata
from pathlib import Path

from PIL import ImageFont

ASSETS = Path(__file__).resolve().parent / "assets"
TILE_FONT = ASSETS / "jx-tile.otf"
UI_FONT = ASSETS / "jx-ui-bold.otf"
MISSING = "?"


@functools.lru_cache(maxsize=64)
def ui(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(UI_FONT), size)


@functools.lru_cache(maxsize=64)
def tile(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(TILE_FONT), size)


# (platform, encoding) subtables in the order fontTools' getBestCmap prefers them: full Unicode first
_CMAP_PREFERENCE = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def read_cmap(data: bytes) -> dict[int, int]:
    """Code point → glyph id of an OpenType/TrueType font's best Unicode ``cmap`` subtable.

    A small reader (formats 4 and 12, all the committed subsets use) so that drawing needs nothing
    beyond Pillow at run time: fontTools is a developer tool (``scripts/make_font_subset.py``).
    Code points mapped to glyph 0 (.notdef) are left out, as the font has no glyph for them.
    """
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_at = None
    for i in range(num_tables):
        tag, _check, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_at = offset
    if cmap_at is None:
        raise ValueError("the font has no cmap table")
    n_sub = struct.unpack_from(">H", data, cmap_at + 2)[0]
    subtables: dict[tuple[int, int], int] = {}
    for i in range(n_sub):
        plat, enc, off = struct.unpack_from(">HHI", data, cmap_at + 4 + 8 * i)
        fmt = struct.unpack_from(">H", data, cmap_at + off)[0]
        if fmt in (4, 12):
            subtables.setdefault((plat, enc), cmap_at + off)
    for key in _CMAP_PREFERENCE:
        if key in subtables:
            return _read_subtable(data, subtables[key])
    raise ValueError("the font has no Unicode cmap subtable of format 4 or 12")


def _read_subtable(data: bytes, at: int) -> dict[int, int]:
    out: dict[int, int] = {}
    fmt = struct.unpack_from(">H", data, at)[0]
    if fmt == 12:
        n_groups = struct.unpack_from(">I", data, at + 12)[0]
        for i in range(n_groups):
            start, end, gid = struct.unpack_from(">III", data, at + 16 + 12 * i)
            for c in range(start, end + 1):
                if gid + c - start:
                    out[c] = gid + c - start
        return out
    seg_x2 = struct.unpack_from(">H", data, at + 6)[0]
    n = seg_x2 // 2
    ends = struct.unpack_from(f">{n}H", data, at + 14)
    starts = struct.unpack_from(f">{n}H", data, at + 16 + seg_x2)
    deltas = struct.unpack_from(f">{n}h", data, at + 16 + 2 * seg_x2)
    ro_at = at + 16 + 3 * seg_x2
    offsets = struct.unpack_from(f">{n}H", data, ro_at)
    for i in range(n):
        for c in range(starts[i], ends[i] + 1):
            if c == 0xFFFF:
                continue
            if offsets[i] == 0:
                gid = (c + deltas[i]) & 0xFFFF
            else:
                addr = ro_at + 2 * i + offsets[i] + 2 * (c - starts[i])
                gid = struct.unpack_from(">H", data, addr)[0]
                if gid:
                    gid = (gid + deltas[i]) & 0xFFFF
            if gid:
                out[c] = gid
    return out


@functools.lru_cache(maxsize=4)
def cmap(path: Path = UI_FONT) -> frozenset[str]:
    """Characters the font has a glyph for."""
    return frozenset(chr(c) for c in read_cmap(Path(path).read_bytes()))


def missing_chars(text: str, path: Path = UI_FONT) -> set[str]:
    have = cmap(path)
    return {c for c in text if c not in have and not c.isspace()}


@functools.lru_cache(maxsize=1024)
def safe_text(text: str) -> str:
    """``text`` with every character the UI font lacks replaced (after trying its NFKC form).

    Player names are arbitrary Unicode; rather than drawing empty boxes we fold what we can
    (full-width letters, ligatures) and show ``?`` for the rest.
    """
    have = cmap(UI_FONT)
    out = []
    for c in text:
        if c in have or c == " ":
            out.append(c)
            continue
        folded = unicodedata.normalize("NFKC", c)
        if folded and all(f in have for f in folded):
            out.append(folded)
        elif unicodedata.category(c)[0] in "CMZ":  # controls, combining marks, odd spaces
            continue
        else:
            out.append(MISSING)
    return "".join(out)


def display_name(name: str | None, fallback: str) -> str:
    """A player's name made drawable. Characters the bundled font lacks are folded (NFKC) or dropped
    ("小林 Kobayashi" shows "Kobayashi" when 小林 is not in the subset); a name with nothing drawable
    left becomes ``fallback`` (e.g. "Seat 2")."""
    raw = (name or "").strip()
    text = " ".join(safe_text(raw).replace(MISSING, " ").split())
    if not text.strip("·.-_ "):
        text = fallback
    return text
