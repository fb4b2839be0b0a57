"""``jxbot render``: write the sample pictures (README screenshots) or render a saved view.

    jxbot render --demo DIR [--lang zh|en|both]
    jxbot render --view VIEW.json --kind hand|table|result -o OUT.png [--lang zh|en]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="write sample hand/table/result/tile-sheet PNGs, or render a view file")
    p.add_argument("--demo", metavar="DIR", help="write hand, table, result, drawn-hand result, tile sheet, widest hands and rules card PNGs here")
    p.add_argument("--lang", default="zh", choices=("zh", "en", "both"), help="label language (default zh)")
    p.add_argument("--phone", action="store_true",
                   help="with --demo: also write phone-hand/table/result/hand-full/hand-kongs/rules PNGs, 550 px wide as Discord shows them on a phone")
    p.add_argument("--view", metavar="FILE", help="a view as JSON (docs/views.md) to render")
    p.add_argument("--kind", choices=("hand", "table", "result"), help="what --view is")
    p.add_argument("-o", "--out", metavar="PNG", help="output file for --view")


PHONE_WIDTH = 550  # Discord's picture width on a phone


def phone_copy(png: bytes) -> bytes:
    """``png`` scaled to the width Discord shows it at on a phone (what a reviewer should look at)."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    if img.width > PHONE_WIDTH:
        img = img.resize((PHONE_WIDTH, round(img.height * PHONE_WIDTH / img.width)), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.quantize(256).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def _demo(out: Path, langs: list[str], phone: bool = False) -> list[Path]:
    from render import demo, render_hand, render_result, render_rules, render_table, render_tile_sheet

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in langs:
        sfx = "" if len(langs) == 1 else f"-{lang}"
        for name, data in (
            ("hand", render_hand(demo.seat_view(), lang)),
            ("table", render_table(demo.table_view(), lang)),
            ("result", render_result(demo.result_view(), lang)),
            ("result-drawn", render_result(demo.result_view(drawn_game=True), lang)),
            ("tiles", render_tile_sheet(lang)),
            # the widest hand a game can produce (13 tiles and the drawn one) and one with four kongs, drawn for a phone
            ("hand-full", render_hand(demo.widest_seat_views()["full"], lang)),
            ("hand-kongs", render_hand(demo.widest_seat_views()["kongs"], lang)),
            ("rules", render_rules(lang)),
        ):
            path = out / f"{name}{sfx}.png"
            path.write_bytes(data)
            written.append(path)
            if phone and name in ("hand", "table", "result", "hand-full", "hand-kongs", "rules"):
                path = out / f"phone-{name}{sfx}.png"
                path.write_bytes(phone_copy(data))
                written.append(path)
    return written


def run(args: argparse.Namespace) -> int:
    langs = ["zh", "en"] if args.lang == "both" else [args.lang]
    if args.demo:
        try:
            written = _demo(Path(args.demo), langs, getattr(args, "phone", False))
        except OSError as exc:  # a file in the way of the folder, no permission, a full disk
            print(f"jxbot render: cannot write {exc.filename or args.demo} ({exc.strerror or type(exc).__name__})",
                  file=sys.stderr)
            return 2
        for path in written:
            print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
        return 0
    if args.view:
        if not args.kind or not args.out:
            print("jxbot render: --view needs --kind (hand, table or result) and -o OUT.png", file=sys.stderr)
            return 2
        try:
            view = json.loads(Path(args.view).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"jxbot render: cannot read the view {args.view}: {exc}", file=sys.stderr)
            return 2
        import render

        fn = {"hand": render.render_hand, "table": render.render_table, "result": render.render_result}[args.kind]
        try:
            data = fn(view, langs[0])
        except (KeyError, TypeError, ValueError) as exc:
            print(f"jxbot render: this is not a {args.kind} view ({exc!r}); see docs/views.md", file=sys.stderr)
            return 2
        try:
            Path(args.out).write_bytes(data)
        except OSError as exc:
            print(f"jxbot render: cannot write {args.out} ({exc.strerror or type(exc).__name__})", file=sys.stderr)
            return 2
        print(f"wrote {args.out} ({len(data) // 1024} KB)")
        return 0
    print("jxbot render: give --demo DIR, or --view FILE --kind KIND -o OUT.png (see jxbot render -h)",
          file=sys.stderr)
    return 2
