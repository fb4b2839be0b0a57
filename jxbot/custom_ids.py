"""The buttons' custom ids: ``mj:<verb>[.<arg>]:<table>:<seat|x>:<nonce>`` (:class:`CustomId`, made and parsed
here), and :class:`MjButton`, the one :class:`discord.ui.DynamicItem` whose template matches them all, so a
button keeps working after a restart without any view being re-registered. A press goes to the client's
``dispatch_button`` (:meth:`jxbot.bot.JxBot.dispatch_button`), which picks the handler a cog registered for
the verb.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

_CID_PATTERN = r"mj:(?P<verb>[a-z_]+(?:\.[0-9]{1,2})?):(?P<table>[0-9a-z]{1,16}):(?P<seat>[0-3x]):(?P<nonce>[0-9a-z]{1,16})"
CUSTOM_ID_RE = re.compile(_CID_PATTERN + r"\Z")


@dataclass(frozen=True, slots=True)
class CustomId:
    """``mj:<verb>:<table>:<seat>:<nonce>``; ``verb`` may carry an argument (``discard.5``)."""

    verb: str
    table: str
    seat: int | None  # None: not bound to a seat (lobby buttons)
    nonce: str
    arg: int | None = None

    def __str__(self) -> str:
        verb = self.verb if self.arg is None else f"{self.verb}.{self.arg}"
        seat = "x" if self.seat is None else str(self.seat)
        s = f"mj:{verb}:{self.table}:{seat}:{self.nonce}"
        assert len(s) <= 100
        return s


def make_custom_id(verb: str, table: str, seat: int | None, nonce: int | str, arg: int | None = None) -> str:
    nonce_s = nonce if isinstance(nonce, str) else to_base36(nonce)
    cid = str(CustomId(verb, table, seat, nonce_s, arg))
    if not CUSTOM_ID_RE.match(cid):
        raise ValueError(f"bad custom id parts: {cid!r}")
    return cid


def parse_custom_id(s: str) -> CustomId | None:
    m = CUSTOM_ID_RE.match(s)
    if not m:
        return None
    verb, _, arg = m["verb"].partition(".")
    seat = None if m["seat"] == "x" else int(m["seat"])
    return CustomId(verb, m["table"], seat, m["nonce"], int(arg) if arg else None)


def to_base36(n: int) -> str:
    if n < 0:
        raise ValueError("negative")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


ButtonHandler = Callable[[discord.Interaction, CustomId], Awaitable[None]]


class MjButton(discord.ui.DynamicItem[discord.ui.Button], template=_CID_PATTERN):
    """Every jxbot button. Built from the custom id on each press, so it survives restarts."""

    def __init__(self, cid: CustomId, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=str(cid), disabled=disabled,
                                           emoji=emoji), row=row)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MjButton:
        cid = parse_custom_id(match.group(0))
        if cid is None:  # the template matched but the full id did not (trailing junk)
            raise ValueError(f"bad custom id {match.group(0)!r}")
        return cls(cid)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        dispatch = getattr(interaction.client, "dispatch_button", None)  # JxBot's (jxbot.bot)
        if dispatch is not None:
            await dispatch(interaction, self.cid)


def custom_ids_in(components: Any) -> set[str]:
    """Every custom_id in a message's components (rows, v2 containers and accessories included)."""
    out: set[str] = set()
    for c in components or ():
        cid = getattr(c, "custom_id", None)
        if cid:
            out.add(cid)
        out |= custom_ids_in(getattr(c, "children", None) or getattr(c, "components", None))
        acc = getattr(c, "accessory", None)
        if acc is not None:
            out |= custom_ids_in([acc])
    return out
