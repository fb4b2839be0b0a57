"""What a plain ``pip install .`` needs to draw every picture: nothing beyond [project] dependencies.

The CI proves it for real in a fresh venv (``.ci/run`` → ``scripts/smoke_install.py``); these tests keep
the class of bug out of the dev install too: a picture path that imports a dev-only package fails here.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from render.fonts import TILE_FONT, UI_FONT, read_cmap

REPO = Path(__file__).resolve().parents[2]
DEV_ONLY = ("fontTools", "pytest", "hypothesis", "mahjong", "mypy", "ruff", "_pytest")


def test_our_cmap_reader_agrees_with_fonttools_on_the_committed_fonts():
    from fontTools.ttLib import TTFont

    for path in (UI_FONT, TILE_FONT):
        font = TTFont(str(path))
        want = {c: font.getGlyphID(name) for c, name in font.getBestCmap().items()}
        assert read_cmap(path.read_bytes()) == want, path.name


def test_cmap_reader_handles_a_full_unicode_format_12_table():
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    fb = FontBuilder(1000, isTTF=True)
    names = [".notdef", "a", "grin"]
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord("a"): "a", 0x1F600: "grin"})  # beyond the BMP: fontTools writes format 12
    pen = TTGlyphPen(None)
    fb.setupGlyf({n: pen.glyph() for n in names})
    fb.setupHorizontalMetrics({n: (500, 0) for n in names})
    fb.setupHorizontalHeader()
    fb.setupOS2()
    fb.setupPost()
    import io

    buf = io.BytesIO()
    fb.save(buf)
    assert read_cmap(buf.getvalue()) == {ord("a"): 1, 0x1F600: 2}


def test_dev_only_packages_are_not_project_dependencies_and_pictures_do_without_them():
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    assert not any(d.lower().startswith(("fonttools", "pytest", "hypothesis", "mahjong")) for d in deps)
    # every picture the bot sends, drawn in a process where the dev-only packages cannot be imported
    code = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {DEV_ONLY!r}:
            raise ImportError('dev-only package imported at run time: ' + name)
sys.meta_path.insert(0, Block())
sys.argv = ['smoke', '--pictures-only']
import runpy
runpy.run_path({str(REPO / 'scripts' / 'smoke_install.py')!r}, run_name='__main__')
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pictures ok" in proc.stdout


def test_version_prints_the_installed_version(capsys):
    import pytest

    from jxbot.cli import main

    want = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"jxbot {want}"
