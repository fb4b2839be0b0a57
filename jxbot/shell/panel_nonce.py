"""After a restart: keep the buttons of the panel a player already has when they still fit.

The button nonce of a seat (``Table.nonce_for``) changes whenever what the seat may do changes, and is
saved with the table only at a hand's start and end; a restarted process therefore starts the nonces far
above the saved ones, and every button shown before the restart would go stale, even on a panel whose
actions are still exactly the legal ones (the player's turn, unchanged). So before the resumed table
sends anything, the seat's DM panel is read back (one REST GET per human seat, once per restart): its
buttons give the nonce and the action set it was issued for. ``Table.nonce_for`` reuses that nonce when
the resumed seat's actions are the same set, so a press on the pre-restart copy is taken; any other set
gets a fresh nonce above every earlier one.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from jxbot.custom_ids import parse_custom_id

log = logging.getLogger("jxbot.shell.panel_nonce")

NOT_ACTIONS = ("autowin", "show", "next")  # buttons of a panel that are not a legal action


def panel_actions(components: Any, table_id: str, seat: int) -> tuple[frozenset[str], int] | None:
    """The action set (``jxbot.shell.buttons.action_keys`` form, ``"discard:5"``) and the nonce of a panel's buttons,
    or None when they are not one consistent set of this seat's buttons."""
    keys: set[str] = set()
    nonces: set[str] = set()
    for row in components or ():
        for item in getattr(row, "children", None) or [row]:
            cid = parse_custom_id(str(getattr(item, "custom_id", None) or ""))
            if cid is None or cid.table != table_id or cid.seat != seat:
                continue
            nonces.add(cid.nonce)
            if cid.verb not in NOT_ACTIONS:
                keys.add(f"{cid.verb}:{cid.arg}")
    if len(nonces) != 1 or not keys:
        return None
    try:
        nonce = int(nonces.pop(), 36)
    except ValueError:
        return None
    return frozenset(keys), nonce


async def restore_panel_nonces(bot: Any, table: Any) -> None:
    """Read each human seat's DM panel back and remember its (action set, nonce) in ``table.restored``."""
    for seat, where in list(table.panels.items()):
        occ = table.seats[seat] if 0 <= seat < len(table.seats) else None
        if occ is None or occ.is_computer or table.panel_users.get(seat) != occ.user_id:
            continue
        try:
            msg = await bot.get_partial_messageable(where[0]).fetch_message(where[1])
        except (discord.HTTPException, OSError, TimeoutError) as exc:
            log.info("table %s seat %d: could not read the panel back after the restart: %s", table.id, seat,
                     getattr(exc, "status", type(exc).__name__))
            continue
        found = panel_actions(msg.components, table.id, seat)
        if found is not None:
            table.restored[seat] = found
