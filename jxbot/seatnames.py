"""Computer seats' names (zh-CN and en): kept as a key, put in words in each viewer's language.

A computer seat's name is stored as a key, ``cpu:<level>:<n>`` (``SeatInfo.name``, the views' and results'
``name``), and put in words at display time in the viewer's language: a zh-CN player at an English table
reads 普通电脑 2, not "Normal computer 2" (panels, table and result pictures, texts). Only a computer seat's
name is read as a key (``is_computer``), so a person who calls himself "cpu:hard:1" is shown as just that.
This module imports only the string catalog: the renderer uses it too.
"""

from __future__ import annotations

import re

from jxbot.i18n import register, t

LEVELS = ("easy", "normal", "hard", "expert")

register({
    # a computer seat's name: level first, its number last (电脑 1 → 困难电脑 1)
    "ai.computer.easy": {"zh": "简单电脑 {n}", "en": "Easy computer {n}"},
    "ai.computer.normal": {"zh": "普通电脑 {n}", "en": "Normal computer {n}"},
    "ai.computer.hard": {"zh": "困难电脑 {n}", "en": "Hard computer {n}"},
    "ai.computer.expert": {"zh": "专家电脑 {n}", "en": "Expert computer {n}"},
    "ai.computer.other": {"zh": "电脑 {n}", "en": "Computer {n}"},
})

_KEY = re.compile(r"cpu:([a-z]+):(\w+)")


def computer_name(n: int | str, level: str, lang: str | None) -> str:
    """How a computer seat is named at the table and in the pictures: 困难电脑 1 / Hard computer 1."""
    if level not in LEVELS:
        return t("ai.computer.other", lang, n=n)
    return t(f"ai.computer.{level}", lang, n=n)


def computer_key(n: int | str, level: str) -> str:
    """The stored name of computer seat ``n`` of ``level``: ``cpu:normal:2``."""
    return f"cpu:{level}:{n}"


def display_name(name: object, lang: str | None, is_computer: object = True) -> str:
    """A seat's name as ``lang`` reads it: a computer's key in words (``cpu:hard:1`` → 困难电脑 1 / Hard
    computer 1); any other name as it is."""
    text = "" if name is None else str(name)
    m = _KEY.fullmatch(text) if is_computer else None
    return computer_name(m.group(2), m.group(1), lang) if m else text


def seat_name(entry: dict, lang: str | None) -> str:
    """``display_name`` of a view's seat entry or a result's payment row (``name``, ``is_computer``)."""
    return display_name(entry.get("name"), lang, entry.get("is_computer"))
