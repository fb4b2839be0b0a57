"""Every component bound to its message (docs/bot.md, "Component binding").

A press carries a custom id and the message it was pressed on. Discord only lets a client press a
component that is on the message, but the bot does not rest on that: its own ``on_interaction`` fallback
even dispatches an ``mj:`` id that is no longer on the message (a panel that moved on), so a forged or
replayed id could otherwise act from any message, and a handler that answers by editing the pressed
message (a panel, a replay viewer) would write into someone else's message. So each handler takes a
press only from the message the bot sent that component on, and answers any other with the polite stale
answer, changing nothing.

What "the message" is, per component (the handlers use these helpers):

- lobby buttons: ``Table.lobby_message_id`` (saved with the table);
- a seat's panel buttons: that user's panel messages at the table (``Table.is_panel``: the saved DM
  panel, plus the DM and ephemeral panels this process sent);
- Show my hand and Watch: the table's table messages; Next: the result message it was posted on;
- a watcher's Refresh: the presser's own ephemeral view (docs/watch.md);
- replay viewer buttons (and its go-to box): an ephemeral message Discord made in answer to the same
  user, never a message anyone else sees;
- Replay / Fair deal: a message of the bot's in the hand's own channel (the result; a DM table's: a player's
  own DM), or the presser's own ephemeral (``/history``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from jxbot.i18n import t
from jxbot.interactions import lang_of, reply
from jxbot.shell.dmtable import is_dm_key

log = logging.getLogger("jxbot.jxbot.shell.binding")


def pressed_id(interaction: discord.Interaction) -> int | None:
    """The id of the message the component was pressed on (None: no message, which binds to nothing)."""
    msg = interaction.message
    return msg.id if msg is not None else None


def pressed_on(interaction: discord.Interaction, *ids: int | None) -> bool:
    """The press came from one of the messages ``ids``."""
    mid = pressed_id(interaction)
    return mid is not None and any(i is not None and i == mid for i in ids)


def own_ephemeral(interaction: discord.Interaction) -> bool:
    """The pressed message is an ephemeral one the bot sent in answer to this same user: only they see
    it, and it is theirs to change."""
    msg = interaction.message
    if msg is None or not msg.flags.ephemeral:
        return False
    meta = getattr(msg, "interaction_metadata", None)
    user = getattr(meta, "user", None)
    return user is not None and interaction.user is not None and user.id == interaction.user.id


def bot_message_in(interaction: discord.Interaction, channel_id: int, players: Iterable[int | None] = ()) -> bool:
    """The pressed message is a public message of the bot's in channel ``channel_id`` — or, for a DM table's hand
    (``channel_id`` a DM table's key, jxbot/shell/dmtable.py), a message of the bot's in the DM of one of the
    hand's ``players`` (its result went to each player's DM), pressed by that player."""
    msg = interaction.message
    me = interaction.client.user
    if msg is None or msg.flags.ephemeral or me is None or msg.author.id != me.id:
        return False
    if is_dm_key(channel_id):
        user = interaction.user
        return interaction.guild_id is None and user is not None and user.id in set(players)
    return msg.channel.id == channel_id


async def refuse(interaction: discord.Interaction, what: str) -> None:
    """A component pressed on a message it was not sent on: the stale answer, nothing else."""
    user = interaction.user.id if interaction.user is not None else None
    log.info("refused a %s press by user %s on message %s: not the message it was sent on", what, user,
             pressed_id(interaction))
    await reply(interaction, t("bot.err.stale", lang_of(interaction)))
