"""Issue 26: a zh-CN player reads simplified characters throughout — 财神, 财神头, 财神会, 漂财 — in every
catalog entry (the seed's traditional 財神 belongs in docs only)."""

from __future__ import annotations

import importlib
import pkgutil

import jxbot
import render
from jxbot import i18n

TRADITIONAL = ("財", "會", "頭", "單", "釣")


def _load_all() -> None:
    for pkg in (jxbot, render):
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            try:
                importlib.import_module(m.name)
            except Exception:  # an optional dependency (e.g. a database driver) is missing
                continue


def test_every_zh_catalog_entry_is_simplified() -> None:
    _load_all()
    assert len(i18n._CATALOG) > 300  # the catalogs were all loaded
    bad = {k: v["zh"] for k, v in i18n._CATALOG.items() if any(c in v.get("zh", "") for c in TRADITIONAL)}
    assert bad == {}


def test_caishen_terms_read_simplified() -> None:
    _load_all()
    assert i18n.t("bot.choice.ruleset.caishen", "zh") == "财神"
    assert i18n.t("table.ui.wword.caishen", "zh") == "财神"
    assert "财神" in i18n.t("bot.rules.summary_caishen", "zh")


def test_no_player_text_sends_them_to_a_file_in_the_repository() -> None:
    """A player in Discord or at `jxbot play` has no docs/ folder (pip install ships none): no catalog
    entry, in either language, points there."""
    _load_all()
    bad = {(k, lang): text for k, v in i18n._CATALOG.items() for lang, text in v.items()
           if "docs/" in text or ".md" in text}
    assert bad == {}
