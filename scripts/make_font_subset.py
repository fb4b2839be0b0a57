#!/usr/bin/env python3
"""Regenerate the font subsets committed in ``render/assets/``.

The renderer never uses system fonts: it ships two small subsets of Noto CJK (SIL OFL 1.1, licence in
``render/assets/OFL.txt``), cut to the characters it can draw:

* ``jx-tile.otf``   Noto Serif CJK SC Bold — the characters on the tile faces (萬 東 發 一…九 …);
* ``jx-ui-bold.otf`` Noto Sans CJK SC Bold — every label in zh and en, ASCII and Latin-1.

The label characters are collected from the i18n catalog (``render.*`` and the rules' ``item.*`` keys,
see ``render/labels.py``), tile and wind names, and ASCII. Run it after changing any label:

    apt-get install fonts-noto-cjk        # provides /usr/share/fonts/opentype/noto/Noto*CJK-*.ttc
    python3 scripts/make_font_subset.py [--src DIR]

The UI font also covers the 3,755 common hanzi of GB 2312 level 1 so that most Chinese player
names draw (a ~800 KB font; a name character outside it is dropped, and an empty name shows
"N号位"). ``--no-names`` cuts the UI font to the labels alone (~40 KB); ``--extra`` adds any other
characters.

The subsets are renamed ("JxbotTile", "JxbotUI"): the OFL asks modified versions not to use the
reserved font names.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "render" / "assets"
SC_INDEX = 2  # Simplified Chinese face inside the Noto CJK collections

FONTS = (
    # (output, source collection, family name, style)
    ("jx-tile.otf", "NotoSerifCJK-Bold.ttc", "JxbotTile", "Bold"),
    ("jx-ui-bold.otf", "NotoSansCJK-Bold.ttc", "JxbotUI", "Bold"),
)


def gb2312_level1() -> str:
    """The 3,755 common hanzi of GB 2312 level 1 (for player names; makes the UI font ~800 KB)."""
    out = []
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                out.append(bytes([hi, lo]).decode("gb2312"))
    return "".join(out)


def label_chars() -> str:
    sys.path.insert(0, str(ROOT))
    from render import labels

    chars = set("".join(labels.all_label_text()))
    # every string of the catalog (bot, table, store, game texts too), so pictures of any message draw
    import importlib

    from jxbot import i18n

    for mod in ("jxbot.rules", "jxbot.botstrings", "jxbot.table.strings", "jxbot.store", "jxbot.game"):
        importlib.import_module(mod)
    for texts in i18n._CATALOG.values():
        chars.update("".join(texts.values()))
    chars.update(chr(c) for c in range(0x20, 0x7F))  # ASCII
    chars.update(chr(c) for c in range(0xA0, 0x100))  # Latin-1 (player names)
    chars.discard("\n")
    return "".join(sorted(chars))


def subset(src: Path, out: Path, text: str, family: str, style: str) -> int:
    from fontTools import subset as ftsubset
    from fontTools.ttLib import TTFont

    font = TTFont(str(src), fontNumber=SC_INDEX, recalcTimestamp=False)
    opts = ftsubset.Options()
    opts.layout_features = ["kern", "palt"] if "UI" in family else []
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    opts.hinting = False
    opts.desubroutinize = False
    opts.notdef_outline = True
    opts.glyph_names = False
    sub = ftsubset.Subsetter(opts)
    sub.populate(text=text)
    sub.subset(font)
    ps_name = f"{family}-{style}"
    full = f"{family} {style}"
    name = font["name"]
    for rec in list(name.names):
        if rec.nameID in (1, 16):
            rec.string = family
        elif rec.nameID == 2 or rec.nameID == 17:
            rec.string = style
        elif rec.nameID == 3:
            rec.string = f"{ps_name};subset of {src.stem} for jxbot"
        elif rec.nameID == 4:
            rec.string = full
        elif rec.nameID == 6:
            rec.string = ps_name
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps_name]
        top = cff.topDictIndex[0]
        for attr, val in (("FullName", full), ("FamilyName", family)):
            if hasattr(top, attr):
                setattr(top, attr, val)
    font.save(str(out))
    return out.stat().st_size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", default="/usr/share/fonts/opentype/noto", help="folder with the Noto CJK .ttc files")
    ap.add_argument("--no-names", dest="names_gb2312", action="store_false",
                    help="leave out the 3,755 common hanzi of GB 2312 level 1 that let most Chinese player "
                         "names draw (UI font ~40 KB instead of ~800 KB)")
    ap.add_argument("--extra", default="", help="extra characters for the UI font (text, or @FILE)")
    args = ap.parse_args(argv)
    src_dir = Path(args.src)
    sys.path.insert(0, str(ROOT))
    from render.labels import TILE_FACE_CHARS

    ui_text = label_chars()
    extra = args.extra
    if extra.startswith("@"):
        extra = Path(extra[1:]).read_text(encoding="utf-8")
    if args.names_gb2312:
        extra += gb2312_level1()
    ui_text = "".join(sorted(set(ui_text + extra) - {"\n", "\r", "\t"}))
    ASSETS.mkdir(parents=True, exist_ok=True)
    for out, src, typeface, style in FONTS:
        path = src_dir / src
        if not path.exists():
            print(f"missing {path}: install fonts-noto-cjk or pass --src", file=sys.stderr)
            return 2
        text = TILE_FACE_CHARS if typeface == "JxbotTile" else ui_text
        size = subset(path, ASSETS / out, text, typeface, style)
        print(f"{out}: {len(set(text))} characters, {size / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
