"""Scripted players: a Discord client per user, acting through the double as a person would.

A player runs slash commands (by their name or a localized name, with options typed from the synced
command definitions), reads its DM panel (the bot's latest DM: image attachment + buttons), clicks a
button by label or custom_id (on time, late, twice, or on a message it can't normally reach with
``force=True``), fills modals, and reads what it sees: channel messages plus its own ephemerals.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tests.e2e.double import Channel, DiscordDouble, Guild, Interaction, Message, User
from tests.e2e.double import state as st

LOADING = st.LOADING


class Action:
    """What one interaction (a command, a click, a modal submit) led to, as the player sees it."""

    def __init__(self, player: Player, interaction: Interaction) -> None:
        self.player = player
        self.interaction = interaction

    @property
    def double(self) -> DiscordDouble:
        return self.player.double

    async def response(self, timeout: float = 5.0) -> Action:
        """Wait until the bot acknowledged, or until the client gives up as Discord's does: no
        acknowledgement within the ack window (3 s) shows "This interaction failed" (``failed``)."""
        i = self.interaction
        window = self.double.ack_timeout

        def done() -> bool:
            return i.response_type is not None or i.error is not None or time.monotonic() - i.created_at > window
        await self.double.wait_for(done, timeout, f"a response to interaction {i.id}", keys=[("i", i.id)])
        if i.response_type is None and i.error is None:
            i.error = f"no response within {window:g}s"
            self.double.notify()
        return self

    @property
    def failed(self) -> bool:
        """The player saw "This interaction failed": no acknowledgement in time."""
        return self.interaction.response_type is None and self.interaction.error is not None

    async def settled(self, timeout: float = 5.0) -> Action:
        """Wait until any "thinking…" (deferred) message has been filled in."""
        await self.response(timeout)
        i = self.interaction
        await self.double.wait_for(lambda: i.original is None or not i.original.flags & LOADING, timeout,
                                   "the deferred response to be filled", keys=[("i", i.id)])
        return self

    async def followup(self, n: int = 1, timeout: float = 5.0) -> Message:
        i = self.interaction
        await self.double.wait_for(lambda: len(i.followups) >= n, timeout, f"followup #{n}", keys=[("i", i.id)])
        return i.followups[n - 1]

    @property
    def acknowledged(self) -> bool:
        return self.interaction.response_type is not None

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def message(self) -> Message | None:
        """The response message (@original): a reply, a deferred reply, or the updated component message."""
        return self.interaction.original

    @property
    def ephemeral(self) -> bool:
        m = self.interaction.original
        return bool(m is not None and m.ephemeral)

    @property
    def content(self) -> str:
        m = self.interaction.original
        return "" if m is None else m.content

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    @property
    def latency(self) -> float | None:
        return self.interaction.latency

    def texts(self) -> list[str]:
        """Everything the response said: @original and followups (content and embed text)."""
        out: list[str] = []
        for m in [self.interaction.original, *self.interaction.followups]:
            if m is not None:
                out.append(message_text(m))
        return out


def message_text(m: Message) -> str:
    """The text a person reads in a message: content, embed titles/descriptions/fields, v2 text displays."""
    return text_of(m.content, m.embeds, m.components)


def text_of(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """:func:`message_text` of a message's content, embeds and components."""
    parts = [content]
    for e in embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        if e.get("footer"):
            parts.append(e["footer"].get("text") or "")

    def walk(items: list[dict[str, Any]]) -> None:
        for c in items:
            if c.get("type") == 10:
                parts.append(c.get("content") or "")
            if c.get("type") == 2 and c.get("label"):
                parts.append(c["label"])
            if isinstance(c.get("components"), list):
                walk(c["components"])

    walk(components)
    return "\n".join(p for p in parts if p)


class Player:
    """One user at the keyboard."""

    def __init__(self, double: DiscordDouble, user: User, guild: Guild | None = None,
                 channel: Channel | None = None) -> None:
        self.double = double
        self.user = user
        self.guild = guild or next(iter(double.guilds.values()), None)
        self.channel = channel or (next((c for c in self.guild.channels.values() if c.type == 0), None)
                                   if self.guild else None)

    @classmethod
    def join(cls, double: DiscordDouble, name: str, guild: Guild, channel: Channel | None = None, *,
             locale: str = "zh-CN", dms_open: bool = True) -> Player:
        return cls(double, double.add_user(name, guild=guild, locale=locale, dms_open=dms_open), guild, channel)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    def __repr__(self) -> str:
        return f"<Player {self.name}>"

    # ------------------------------------------------------------------ seeing
    def dm(self) -> Channel | None:
        return self.double.dm_by_user.get(self.user.id)

    def dm_channel(self) -> Channel:
        """The player's DM with the bot (opened if needed), e.g. to run a command there."""
        return self.double.dm_channel(self.user)

    def dm_messages(self) -> list[Message]:
        ch = self.dm()
        return [] if ch is None else ch.visible_messages(self.user.id)

    def _dm_newest_first(self) -> Iterable[Message]:
        ch = self.dm()
        return () if ch is None else reversed(ch.messages)

    def dm_panel(self) -> Message | None:
        """The bot's latest DM that carries an image or buttons."""
        bot = self.double.bot.id
        for m in self._dm_newest_first():
            if not m.deleted and m.author.id == bot and (m.attachments or m.components):
                return m
        return None

    async def wait_dm(self, predicate: Callable[[Message], bool] | None = None, *, after: Message | None = None,
                      timeout: float = 5.0) -> Message:
        """The latest bot DM (newer than ``after``, if given) that satisfies ``predicate``."""
        bot = self.double.bot.id

        def find() -> Message | None:
            for m in self._dm_newest_first():
                if after is not None and m.id <= after.id:
                    break
                if not m.deleted and m.author.id == bot and (predicate is None or predicate(m)):
                    return m
            return None
        return await self.double.wait_for(find, timeout, f"a DM to {self.name}", keys=[("user", self.user.id)])

    async def wait_edited(self, message: Message, since: int | None = None, timeout: float = 5.0) -> Message:
        """Wait until ``message`` was edited after edit number ``since`` (default: its count now)."""
        base = message.edit_count if since is None else since
        return await self.double.wait_for(lambda: message if message.edit_count > base else None, timeout,
                                          f"an edit of message {message.id}", keys=[("ch", message.channel_id)])

    def channel_messages(self, channel: Channel | None = None) -> list[Message]:
        """What this player sees in a channel: public messages and its own ephemerals."""
        ch = channel or self.channel
        assert ch is not None
        return ch.visible_messages(self.user.id)

    def ephemerals(self, channel: Channel | None = None) -> list[Message]:
        chans = [channel] if channel else list(self.double.channels.values())
        return [m for c in chans for m in c.messages if m.ephemeral_for == self.user.id and not m.deleted]

    async def wait_message(self, predicate: Callable[[Message], bool], channel: Channel | None = None, *,
                           timeout: float = 5.0) -> Message:
        ch = channel or self.channel
        assert ch is not None

        def find() -> Message | None:
            return next((m for m in reversed(ch.visible_messages(self.user.id)) if predicate(m)), None)
        return await self.double.wait_for(find, timeout, f"a message in #{ch.name} for {self.name}",
                                          keys=[("ch", ch.id)])

    def can_see(self, m: Message) -> bool:
        if m.deleted:
            return False
        if m.ephemeral_for is not None:
            return m.ephemeral_for == self.user.id
        ch = self.double.channels[m.channel_id]
        if ch.type == 1:
            return ch.recipient is not None and ch.recipient.id == self.user.id
        g = self.double.guild_of(ch)
        return g is not None and self.user.id in g.members and bool(g.permissions_in(ch, self.user.id) & st.VIEW_CHANNEL)

    # ------------------------------------------------------------------ acting
    async def slash(self, command: str, *, channel: Channel | None = None, wait: bool = True, timeout: float = 5.0,
                    **options: Any) -> Action:
        """Run ``/command [subcommand] option=value…`` as typed in the client. Names may be localized."""
        ch = channel or self.channel
        assert ch is not None, "no channel to type the command in"
        guild = self.double.guild_of(ch)
        words = command.strip().lstrip("/").split()
        cmds = self.double.commands_for(guild)
        cmd = _find_named(list(cmds.values()), words[0], self.user.locale)
        if cmd is None:
            raise LookupError(f"/{words[0]} is not a registered command here (have: {sorted(cmds)})")
        if guild is None and (cmd.get("dm_permission") is False or 1 not in (cmd.get("contexts") or [0, 1, 2])):
            raise LookupError(f"/{cmd['name']} is not offered in DMs")
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        data["options"] = self._options(cmd.get("options") or [], words[1:], options, resolved, guild)
        if resolved:
            data["resolved"] = resolved
        action = Action(self, self.double.create_interaction(2, self.user, ch, data))
        return await action.response(timeout) if wait else action

    def _options(self, defs: list[dict[str, Any]], words: list[str], values: dict[str, Any],
                 resolved: dict[str, dict[str, Any]], guild: Guild | None) -> list[dict[str, Any]]:
        subs = [d for d in defs if d.get("type") in (1, 2)]
        if subs:
            if not words:
                raise ValueError(f"a subcommand is required: {[d['name'] for d in subs]}")
            sub = _find_named(subs, words[0], self.user.locale)
            if sub is None:
                raise LookupError(f"unknown subcommand {words[0]!r}: {[d['name'] for d in subs]}")
            inner = self._options(sub.get("options") or [], words[1:], values, resolved, guild)
            return [{"type": sub["type"], "name": sub["name"], "options": inner}]
        out: list[dict[str, Any]] = []
        left = dict(values)
        for d in defs:
            key = next((k for k in (d["name"], *(d.get("name_localizations") or {}).values()) if k in left), None)
            if key is None:
                if d.get("required"):
                    raise ValueError(f"option {d['name']!r} is required")
                continue
            raw = left.pop(key)
            out.append({"type": d["type"], "name": d["name"], "value": self._option_value(d, raw, resolved, guild)})
        if left:
            raise ValueError(f"unknown options {sorted(left)}")
        return out

    def _option_value(self, d: dict[str, Any], raw: Any, resolved: dict[str, dict[str, Any]],
                      guild: Guild | None) -> Any:
        t = d["type"]
        if t == 3:
            value: Any = str(raw)
        elif t == 4:
            value = int(raw)
        elif t == 5:
            value = bool(raw)
        elif t == 10:
            value = float(raw)
        elif t in (6, 9):
            user = raw.user if isinstance(raw, Player) else raw if isinstance(raw, User) else self.double.users[int(raw)]
            resolved.setdefault("users", {})[str(user.id)] = user.to_json()
            if guild is not None and user.id in guild.members:
                m = guild.members[user.id].to_json()
                m.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = m
            return str(user.id)
        elif t == 7:
            ch = raw if isinstance(raw, Channel) else self.double.channels[int(raw)]
            resolved.setdefault("channels", {})[str(ch.id)] = {**ch.to_json(), "permissions": "0"}
            return str(ch.id)
        elif t == 8:
            assert guild is not None
            role = guild.roles[int(raw)]
            resolved.setdefault("roles", {})[str(role.id)] = role.to_json()
            return str(role.id)
        else:
            value = raw
        choices = d.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"{value!r} is not a choice of {d['name']!r}")
        return value

    def find_component(self, message: Message, *, label: str | None = None, custom_id: str | None = None,
                       index: int | None = None) -> dict[str, Any]:
        comps = message.buttons()
        for i, c in enumerate(comps):
            if (custom_id is not None and c.get("custom_id") == custom_id) or (label is not None and c.get("label") == label) \
                    or (index is not None and i == index):
                return c
        raise LookupError(f"no component label={label!r} custom_id={custom_id!r} index={index!r}; "
                          f"have {[(c.get('label'), c.get('custom_id')) for c in comps]}")

    async def click(self, message: Message | None = None, *, label: str | None = None, custom_id: str | None = None,
                    index: int | None = None, values: list[str] | None = None, force: bool = False,
                    wait: bool = True, timeout: float = 5.0) -> Action:
        """Press a button (or pick ``values`` in a select) on ``message`` (default: the DM panel).

        A real client only lets you click enabled components on messages you can see; ``force=True``
        sends the click anyway (a stale client or a forged custom_id), so the bot's own checks are tested.
        """
        msg = message or self.dm_panel()
        if msg is None:
            raise LookupError(f"{self.name} has no panel to click")
        comp = self.find_component(msg, label=label, custom_id=custom_id, index=index)
        if not force:
            if not self.can_see(msg):
                raise PermissionError(f"{self.name} cannot see message {msg.id}")
            if comp.get("disabled"):
                raise PermissionError(f"{comp.get('label') or comp.get('custom_id')!r} is disabled")
        ctype = comp.get("type", 2)
        if ctype == 2 and comp.get("style") == 5:
            raise ValueError("a link button opens a URL; the bot never hears of it")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        if ctype != 2:
            data["values"] = list(values or [])
        ch = self.double.channels[msg.channel_id]
        action = Action(self, self.double.create_interaction(3, self.user, ch, data, message=msg))
        return await action.response(timeout) if wait else action

    async def click_stale(self, message: Message, custom_id: str, *, wait: bool = True, timeout: float = 5.0) -> Action:
        """Press a button the player saw earlier on ``message`` that the bot has since replaced (a client
        that has not redrawn yet, or a click landing after the window closed)."""
        ch = self.double.channels[message.channel_id]
        data = {"custom_id": custom_id, "component_type": 2}
        action = Action(self, self.double.create_interaction(3, self.user, ch, data, message=message))
        return await action.response(timeout) if wait else action

    async def double_click(self, message: Message | None = None, **how: Any) -> tuple[Action, Action]:
        """Two clicks on the same component, as fast as a twitchy finger (both dispatched before either is answered)."""
        a = await self.click(message, wait=False, **how)
        b = await self.click(message, wait=False, **how)
        await asyncio.gather(a.response(), b.response())
        return a, b

    async def submit_modal(self, shown: Action, values: dict[str, str], *, wait: bool = True,
                           timeout: float = 5.0) -> Action:
        """Fill the modal the bot showed in answer to ``shown`` and press Submit."""
        modal = shown.modal
        if modal is None:
            raise LookupError("the bot showed no modal")

        def answer(c: dict[str, Any]) -> dict[str, Any]:
            return {"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], c.get("value", ""))}

        rows: list[dict[str, Any]] = []
        for c in modal.get("components", []):
            if c.get("type") == 1:
                rows.append({"type": 1, "components": [answer(x) for x in c.get("components", []) if x.get("type") == 4]})
            elif c.get("type") == 18 and isinstance(c.get("component"), dict):
                rows.append({"type": 18, "component": answer(c["component"])})
        data = {"custom_id": modal["custom_id"], "components": rows}
        src = shown.interaction
        action = Action(self, self.double.create_interaction(5, self.user, src.channel, data, message=src.message))
        return await action.response(timeout) if wait else action


def _find_named(defs: list[dict[str, Any]], word: str, locale: str) -> dict[str, Any] | None:
    for d in defs:
        if d["name"] == word:
            return d
    for d in defs:
        locs = d.get("name_localizations") or {}
        if locs.get(locale) == word or word in locs.values():
            return d
    return None


# ---------------------------------------------------------------------------------------------------------
# jxbot's DM panel, as a player reads it, and a scripted way of playing it (e2e scenarios and the load test)

_TILE_NAMES: dict[str, int] | None = None


def tile_names() -> dict[str, int]:
    """Every tile name a panel may show (zh and en) → tile kind 0–33."""
    global _TILE_NAMES
    if _TILE_NAMES is None:
        from jxbot.rules.tiles import tile_name

        _TILE_NAMES = {tile_name(k, lang): k for lang in ("zh", "en") for k in range(34)}
    return _TILE_NAMES


class Panel:
    """A jxbot hand panel (a DM or an ephemeral): the hand in the text, the buttons' actions, the image.

    Line 2 of the text lists the concealed tiles (``★`` marks the 百搭) and ``+ X``, the drawn tile;
    each button's custom_id is ``mj:<verb>[.<tile>]:<table>:<seat>:<nonce>``.
    """

    def __init__(self, message: Message) -> None:
        self.message = message
        self.text = message.content
        self.png = message.image()
        self.tiles: list[int] = []
        self.drawn: int | None = None
        self.wildcard: int | None = None
        lines = self.text.splitlines()
        names = tile_names()
        if len(lines) >= 2:
            hand_part, _, drawn_part = lines[1].partition("+")
            for word in hand_part.split():
                k = names.get(word.lstrip("★"))
                if k is not None:
                    self.tiles.append(k)
                    if word.startswith("★"):
                        self.wildcard = k
            word = drawn_part.strip()
            if word and (k := names.get(word.lstrip("★"))) is not None:
                self.drawn = k
                if word.startswith("★"):
                    self.wildcard = k
        self.actions: list[tuple[str, int | None, str]] = []  # (verb, tile, custom_id)
        self.table = self.seat = self.nonce = None
        for b in message.buttons():
            cid = b.get("custom_id") or ""
            parts = cid.split(":")
            if len(parts) != 5 or parts[0] != "mj" or b.get("disabled"):
                continue
            verb, _, arg = parts[1].partition(".")
            self.table, self.seat, self.nonce = parts[2], parts[3], parts[4]
            if verb != "autowin":
                self.actions.append((verb, int(arg) if arg else None, cid))

    @property
    def all_tiles(self) -> list[int]:
        return sorted(self.tiles + ([self.drawn] if self.drawn is not None else []))

    @property
    def key(self) -> tuple[int, str | None, str | None]:
        return (self.message.id, self.seat, self.nonce)

    def custom_id(self, verb: str, tile: int | None = None) -> str:
        for v, a, cid in self.actions:
            if v == verb and (tile is None or a == tile):
                return cid
        raise LookupError(f"no {verb} {tile} on the panel: {self.actions}")


@dataclass
class Style:
    """How a scripted player plays. ``claim``: "pass" or "greedy" (碰/杠/吃 whenever offered);
    ``claim_from``: only claim discards of these seats (None: any); ``contract``: "persist" | "give_up";
    ``kong``: declare 暗杠/补杠; ``win``: declare 胡/自摸."""

    claim: str = "pass"
    claim_from: frozenset[int] | None = None
    contract: str = "persist"
    kong: bool = True
    win: bool = True


def choose(tiles: list[int], drawn: int | None, wildcard: int | None, actions: list[tuple[str, int | None]],
           style: Style, discarder: int | None = None) -> tuple[str, int | None]:
    """A deterministic choice from what a panel shows (the e2e tests replay it on the pure engine to pick
    seeds where a situation arises). ``wildcard`` is known only when one is in the hand."""
    verbs = {v for v, _ in actions}
    if style.win:
        for v in ("tsumo", "hu"):
            if v in verbs:
                return v, None
    if "give_up" in verbs or "persist" in verbs:
        return (style.contract if style.contract in verbs else next(iter(sorted(verbs)))), None
    if "pass" in verbs:
        if style.claim == "greedy" and (style.claim_from is None or discarder in style.claim_from):
            for v in ("gang", "peng", "chi"):
                opts = sorted(a for w, a in actions if w == v)
                if opts:
                    return v, opts[0]
        return "pass", None
    if style.kong:
        for v in ("angang", "bugang"):
            opts = sorted(a for w, a in actions if w == v and a is not None)
            if opts:
                return v, opts[0]
    hand = tiles + ([drawn] if drawn is not None else [])
    choices = sorted({a for v, a in actions if v == "discard" and a is not None})
    if not choices:
        return actions[0][0], actions[0][1]

    def keep(k: int) -> tuple[int, int]:
        if k == wildcard:
            return (100, k)
        same = hand.count(k) - 1
        if k >= 27:
            near = 0
        else:
            near = sum(1 for x in hand if x != k and x < 27 and x // 9 == k // 9 and abs(x - k) <= 2)
        return (3 * same + near, -k)
    return "discard", min(choices, key=keep)


class AutoPlayer:
    """Plays a :class:`Player`'s panel until stopped: on each new set of buttons it picks an action with
    :func:`choose` and clicks it. Records every panel it acted on (``seen``) and every click (``clicks``)."""

    def __init__(self, player: Player, style: Style | None = None, *, think: float = 0.0,
                 think_on: frozenset[str] | None = None,
                 discarder_of: Callable[[Panel], int | None] | None = None) -> None:
        self.player = player
        self.style = style or Style()
        self.think = think
        self.think_on = think_on  # think only before these choices (None: before every click)
        self.discarder_of = discarder_of or _discarder_from_text
        self.seen: list[Panel] = []
        self.clicks: list[tuple[Panel, str, int | None, Action]] = []
        self.errors: list[str] = []
        self._done: set[tuple[int, str | None, str | None]] = set()
        # each message's Panel, read once per version: message id -> (edit count, components, Panel or None)
        self._panels: dict[int, tuple[int, object, Panel | None]] = {}
        self.paused = False
        self.stopping = False
        self.task: asyncio.Task[None] | None = None

    def panel(self) -> Panel | None:
        """The newest panel with live buttons the player can see (DM, or an ephemeral one)."""
        best: tuple[float, Message] | None = None
        # the three newest DMs with components: a short reply below the panel (an ephemeral "try again" to a
        # press, which a DM shows as a message) does not hide it, as it does not from a person
        cands = list(itertools.islice((m for m in self.player._dm_newest_first() if m.components), 3))
        ch = self.player.channel  # an ephemeral panel (DMs closed) sits in the table's channel
        if ch is not None:
            me = self.player.user.id
            cands += [m for m in itertools.islice(reversed(ch.messages), 60) if m.ephemeral_for == me]
        for m in cands:
            if m.deleted or self._read(m) is None:
                continue
            when = m.edit_times[-1] if m.edit_times else m.created_at
            if best is None or when > best[0]:
                best = (when, m)
        return None if best is None else self._read(best[1])

    def _read(self, m: Message) -> Panel | None:
        """``m`` as a Panel if it carries jxbot's buttons (read once per version of the message)."""
        got = self._panels.get(m.id)
        if got is not None and got[0] == m.edit_count and got[1] is m.components:
            return got[2]
        p = Panel(m) if any((b.get("custom_id") or "").startswith("mj:") for b in m.buttons()) else None
        self._panels[m.id] = (m.edit_count, m.components, p)
        return p

    def _ready(self) -> Panel | bool | None:
        if self.stopping:
            return True
        if self.paused:
            return None
        p = self.panel()
        if p is None or not p.actions or p.key in self._done:
            return None
        return p

    async def step(self, timeout: float = 30.0) -> tuple[Panel, str, int | None, Action]:
        """Wait for buttons to act on, act once."""
        # woken only by changes to the messages this player alone sees (its DMs and ephemerals), stop()
        p = await self.player.double.wait_for(self._ready, timeout, f"{self.player.name}'s turn",
                                              keys=[("user", self.player.user.id)])
        if not isinstance(p, Panel):
            raise asyncio.CancelledError
        self._done.add(p.key)
        self.seen.append(p)
        if self.think and (self.think_on is None or self.think_on & {v for v, _, _ in p.actions}):
            await asyncio.sleep(self.think)
        verb, tile = choose(p.tiles, p.drawn, p.wildcard, [(v, a) for v, a, _ in p.actions], self.style,
                            self.discarder_of(p))
        act = await self.player.click(p.message, custom_id=p.custom_id(verb, tile))
        rec = (p, verb, tile, act)
        self.clicks.append(rec)
        if act.failed:
            self.errors.append(f"{self.player.name}: {verb} {tile} failed: {act.interaction.error}")
        return rec

    async def run(self) -> None:
        while not self.stopping:
            try:
                await self.step(timeout=3600)
            except LookupError as exc:  # the panel changed between reading and clicking
                self.errors.append(f"{self.player.name}: {exc}")

    def start(self) -> AutoPlayer:
        self.task = asyncio.create_task(self.run(), name=f"autoplayer:{self.player.name}")
        return self

    async def stop(self) -> None:
        self.stopping = True
        self.player.double.notify()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.task), 10)
            if not self.task.done():
                self.task.cancel()
            self.task = None


def _discarder_from_text(p: Panel) -> int | None:
    return None
