"""The e2e suite's one message recorder: the double keeps only a message's latest state, so whoever needs
every version (tests/e2e/scenario.py's ``Recorder``, tests/e2e/feel.py's ``Timeline``, test_integrity's
``PanelLog``, bench/e2e_load.py through them) hooks the double here and keeps what it needs of each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.e2e.double import DiscordDouble, Message


def on_bot_message(double: DiscordDouble, rec: Callable[[Message], None]) -> None:
    """Call ``rec`` with each state of every message the bot posts or edits, as the double applies it
    (a post by anyone else is not recorded). Hooks stack: each recorder sees every version."""
    post, edit = double.post_message, double.edit_message

    def post_message(*a: Any, **kw: Any) -> Message:
        msg = post(*a, **kw)
        if msg.author.id == double.bot.id:
            rec(msg)
        return msg

    def edit_message(msg: Message, *a: Any, **kw: Any) -> Message:
        out = edit(msg, *a, **kw)
        rec(out)
        return out

    double.post_message = post_message  # type: ignore[method-assign]
    double.edit_message = edit_message  # type: ignore[method-assign]
