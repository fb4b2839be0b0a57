"""Every tournament text in both languages (jxbot/shell/tournament_strings.py): each key has its zh and en, the
English has no Chinese in it and the Chinese is Chinese, and no English text reads "1 rounds" / "1 minutes" with a
count of one (the announcement said "1 rounds · 1 hands a table" with its defaults; the waiting limit's notice
"waited 1 minutes"; the verification "all 1 hands' walls")."""

from __future__ import annotations

import re
import string

import jxbot.shell.tournament_strings  # noqa: F401  (registers the texts)
from jxbot import i18n

CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBERS = {"n", "m", "r", "rounds", "hands", "table", "stake", "at", "start"}
SLIP = re.compile(r"\b1 (round|hand|table|minute|player|point|wall)s\b")


def tour_texts() -> dict[str, dict[str, str]]:
    return {k: v for k, v in i18n._CATALOG.items() if k.startswith("tour.")}


def test_every_tournament_text_is_in_both_languages_unmixed():
    texts = tour_texts()
    assert len(texts) > 60
    for key, by in texts.items():
        assert set(by) == {"zh", "en"}, key
        assert not CJK.search(by["en"]), (key, by["en"])
        assert CJK.search(by["zh"]) or not re.search(r"[A-Za-z]{3,}", by["zh"]), (key, by["zh"])


def test_no_english_text_puts_a_plural_after_a_count_of_one():
    for key, by in tour_texts().items():
        fields = {f for _, f, _, _ in string.Formatter().parse(by["en"]) if f}
        text = i18n.t(key, "en", **{f: 1 if f in NUMBERS else "X" for f in fields})
        assert not SLIP.search(text), (key, text)


def test_the_standings_text_fits_in_one_message_whatever_the_names():
    """25 players whose nicknames are full of markdown (each ``_`` escaped doubles) over 12 rounds: the standings
    text ran past Discord's 2,000 characters, so the end of the event posted no standings and
    ``/tournament standings`` failed. It is cut to whole rows that fit, and says how many are left out (the
    picture shows them all)."""
    from types import SimpleNamespace

    import jxbot.bot  # noqa: F401  (the commands' option names, before the cog's decorators read them)
    import jxbot.botstrings  # noqa: F401
    import jxbot.shell.ranked_strings  # noqa: F401
    from cogs.tournament import standings_text
    from jxbot.events.scoring import Standing

    rows = [Standing(i + 1, i, "_a" * 16, -120.5, [1, 2, 3, 4] * 3, 12) for i in range(30)]
    text = standings_text(SimpleNamespace(name="*" * 60), rows)
    assert len(text) <= 2000, len(text)
    lines = text.splitlines()
    assert lines[1].startswith("1. ") and lines[-1].strip() and "more" in lines[-1], lines[-3:]
    assert all(line.endswith("1 2 3 4 1 2 3 4 1 2 3 4") for line in lines[1:-1])  # whole rows only
