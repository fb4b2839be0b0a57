"""The committed font subsets (never system fonts) and text that stays inside them."""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=4)
def cmap(path: Path = UI_FONT) -> frozenset[str]:
    """Characters the font has a glyph for."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), lazy=True)
    return frozenset(chr(c) for c in font.getBestCmap())


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
