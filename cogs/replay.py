"""Replays and the fair deal in Discord: ``/mahjong replay``, ``/mahjong verify``, ``/admin replays``, the
ephemeral replay viewer (⏮ ◀ ▶ ⏭, a seat picker, go to move N) and the Replay / Fair deal buttons.

The viewer keeps its place in its buttons' custom ids (``mj:rp.<b>:<hand>:<seat>:<step>``, the project's
:class:`~jxbot.bot.MjButton` scheme), so it works after a restart with nothing in memory. Every press
checks again who is pressing: the ids choose a step and a seat, never what may be seen. Which concealed
tiles a person sees is the server's ``replay_hands`` setting (``own`` / ``table`` / ``everyone``); a
running hand is never replayed. Pictures come from ``render`` through the same views as live play,
drawn in a worker thread and kept in a small cache per step.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from jxbot.bot import JxBot, ls
from jxbot.custom_ids import CustomId, MjButton, parse_custom_id, to_base36
from jxbot.i18n import register, t
from jxbot.interactions import ack_later, lang_of, reply
from jxbot.replay import reveal_text, verified
from jxbot.replay_store import (
    ReplayUnavailable,
    StoredHand,
    hand_code,
    hand_from_code,
    hand_players,
    load_hand,
    typed_hand_id,
    typed_text,
    verify_stored,
)
from jxbot.shell.binding import bot_message_in, own_ephemeral, refuse
from jxbot.shell.dmtable import dm_hand_of
from jxbot.shell.replay_buttons import web_base
from jxbot.store.models import REPLAY_HANDS
from jxbot.web import links as web_links

log = logging.getLogger("jxbot.cogs.replay")

register({
    "bot.cmd.web.name": {"zh": "网页", "en": "web"},
    "bot.cmd.web.desc": {"zh": "本服务器的网页（排行榜、回放、观战）：开或关",
                         "en": "This server's web pages (leaderboards, replays, live tables): on or off"},
    "bot.opt.web_state.name": {"zh": "开关", "en": "state"},
    "bot.opt.web_state.desc": {"zh": "开或关", "en": "on or off"},
    "bot.choice.web.on": {"zh": "开", "en": "on"},
    "bot.choice.web.off": {"zh": "关", "en": "off"},
    "bot.admin.web": {"zh": "本服务器的网页：{state}", "en": "This server's web pages: {state}"},
    "bot.admin.web_url": {"zh": "网址：{url}", "en": "Address: {url}"},
    "bot.admin.web_no_url": {"zh": "（机器人没有设置 JXBOT_WEB_URL：消息里不带网页链接。）",
                             "en": "(The bot has no JXBOT_WEB_URL: its messages carry no web links.)"},
    "bot.web.link": {"zh": "🌐 网页回放（可分享）：<{url}>", "en": "🌐 On the web (shareable): <{url}>"},
    "bot.web.private_dm": {"zh": "🔑 牌局 `{hand}` 你自己的完整视角（含你的暗牌）：<{url}>\n这是你的私人链接，{days} 天后失效，请勿分享。",
                           "en": "🔑 Your own view of hand `{hand}` (your concealed tiles included): <{url}>\nA private "
                                 "link, valid for {days} days: do not share it."},
    "bot.cmd.replay.name": {"zh": "回放", "en": "replay"},
    "bot.cmd.replay.desc": {"zh": "一步一步回看一手打完的牌", "en": "Step through a finished hand"},
    "bot.cmd.verify.name": {"zh": "验牌", "en": "verify"},
    "bot.cmd.verify.desc": {"zh": "核对一手牌的牌墙与开局前公布的承诺", "en": "Check a hand's wall against the commitment "
                                                                      "published before the deal"},
    "bot.cmd.replays.name": {"zh": "回放设置", "en": "replays"},
    "bot.cmd.replays.desc": {"zh": "回放里谁能看到暗牌", "en": "Who sees the concealed tiles in replays"},
    "bot.opt.hand.name": {"zh": "牌局", "en": "hand"},
    "bot.opt.hand.desc": {"zh": "牌局编号（见 /history 或结算消息）", "en": "The hand's id (in /history and on the result)"},
    "bot.opt.move.name": {"zh": "步", "en": "move"},
    "bot.opt.move.desc": {"zh": "从第几步开始（0 = 发牌）", "en": "Start at this move (0 = the deal)"},
    "bot.opt.seat.name": {"zh": "座位", "en": "seat"},
    "bot.opt.seat.desc": {"zh": "从哪个座位看（0-3，0 = 第一位）", "en": "Whose seat to watch from (0-3)"},
    "bot.opt.who.name": {"zh": "谁能看", "en": "who"},
    "bot.opt.who.desc": {"zh": "谁能在回放里看到暗牌", "en": "Who sees the concealed tiles in replays"},
    "bot.choice.replay_hands.own": {"zh": "每人只看自己的牌", "en": "each player their own seat only"},
    "bot.choice.replay_hands.table": {"zh": "同桌玩家看全部（默认）", "en": "the table's players every seat (default)"},
    "bot.choice.replay_hands.everyone": {"zh": "服务器里所有人看全部", "en": "everyone in the server every seat"},
    "bot.replay.head": {"zh": "**回放** 牌局 `{hand}` · 第 {k}/{n} 步 · {who} 的视角",
                        "en": "**Replay** of hand `{hand}` · move {k}/{n} · {who}'s view"},
    "bot.replay.public_only": {"zh": "（只显示公开的牌）", "en": "(public tiles only)"},
    "bot.replay.unknown": {"zh": "本服务器没有牌局 `{hand}`。", "en": "There is no hand `{hand}` in this server."},
    "bot.replay.running": {"zh": "牌局 `{hand}` 还在进行中，结束后才能回放。",
                           "en": "Hand `{hand}` is still running: it can be replayed once it has ended."},
    "bot.replay.elsewhere": {"zh": "牌局 `{hand}` 的牌墙在同一轮比赛的其他牌桌上可能还在打（复式赛每桌同一牌墙），本轮结束后才能查看。",
                             "en": "Hand `{hand}`'s wall may still be in play at another table of its event's round (a "
                                   "duplicate event deals every table the same walls): it can be viewed once the "
                                   "round is over."},
    "bot.replay.bad_move": {"zh": "请填 0 到 {last} 之间的步数。", "en": "Give a move number from 0 to {last}."},
    "bot.replay.goto": {"zh": "跳到…", "en": "Go to…"},
    "bot.replay.goto_title": {"zh": "跳到第几步", "en": "Go to move"},
    "bot.replay.goto_label": {"zh": "步数（0 = 发牌）", "en": "Move number (0 = the deal)"},
    "bot.replay.no_pictures": {"zh": "（这次画不出图片）", "en": "(the pictures could not be drawn this time)"},
    "bot.fair.running": {"zh": "牌局 `{hand}` 还在进行中。开局前公布的承诺：`{c}`\n牌墙与盐在结算后公布，届时可以核对。",
                         "en": "Hand `{hand}` is still running. The commitment published before the deal: `{c}`\n"
                               "The wall and salt are revealed after the result; check them then."},
    "bot.fair.head": {"zh": "**公平发牌** 牌局 `{hand}`\n承诺（开局前公布）：`{c}`\n盐：`{salt}`",
                      "en": "**Fair deal** of hand `{hand}`\nCommitment (published before the deal): `{c}`\n"
                            "Salt: `{salt}`"},
    "bot.fair.how": {"zh": "核对方法：sha256(牌墙 136 个字节 + 盐) 应等于承诺；附件里有牌墙与命令，也可用 `jxbot verify`。",
                     "en": "How to check: sha256(the wall's 136 bytes + the salt) must equal the commitment; the "
                           "attachment has the wall and the commands, or use `jxbot verify`."},
    "bot.fair.no_reveal": {"zh": "这手牌没有保存牌墙，无法核对。", "en": "This hand has no stored reveal to check."},
    "bot.admin.replays": {"zh": "回放里的暗牌：{who}", "en": "Concealed tiles in replays: {who}"},
})

NAV = ("⏮", "◀", "▶", "⏭")
PICTURE_BYTES = 12 * 1024 * 1024  # rendered steps kept, by size (a step: ~150 KB of table, hand, result)
HAND_CACHE = 16  # loaded hands kept
HAND_TTL = 600.0  # seconds a loaded hand stays without being looked at


def reveal_file(result: dict) -> discord.File | None:
    """The reveal of a finished hand as a small text attachment (after the result only)."""
    rv = result.get("reveal") or {}
    wall, salt, c = rv.get("wall"), rv.get("salt"), rv.get("commitment")
    if not isinstance(wall, list) or not isinstance(salt, str) or not isinstance(c, str):
        return None
    hid = str(result.get("hand_id") or "hand")
    text = reveal_text(hid, wall, salt, c)
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=f"fair-deal-{hand_code(hid) or 'hand'}.txt")


def may_see(setting: str, user_seats: set[int], seat: int) -> bool:
    """May a person who sat at ``user_seats`` of a finished hand see ``seat``'s concealed tiles?"""
    if setting == "everyone":
        return True
    if setting == "own":
        return seat in user_seats
    return bool(user_seats)  # "table": every seat, to everyone who sat at the table


class ReplayCog(commands.Cog):
    def __init__(self, bot: JxBot) -> None:
        self.bot = bot
        self._hands: OrderedDict[str, tuple[float, StoredHand]] = OrderedDict()
        self._pictures: OrderedDict[tuple, list[tuple[str, bytes]]] = OrderedDict()
        self._picture_bytes = 0
        self._private_sent: OrderedDict[tuple[int, str], None] = OrderedDict()  # (user, hand): DM sent once
        bot.register_button("replay", self.on_open)
        bot.register_button("rp", self.on_nav)
        bot.register_button("rps", self.on_nav)
        bot.register_button("rpgo", self.on_goto)
        bot.register_button("fair", self.on_fair)

    # ------------------------------------------------------------------ loading and pictures
    async def stored(self, hand_id: str) -> StoredHand:
        """A settled hand (cached: settled hands never change). ReplayUnavailable if unknown or running."""
        now = time.monotonic()
        hit = self._hands.get(hand_id)
        if hit is not None and now - hit[0] < HAND_TTL:
            self._hands[hand_id] = (now, hit[1])
            self._hands.move_to_end(hand_id)
            return hit[1]
        stored = await load_hand(self.bot.store, hand_id)
        self._hands[hand_id] = (now, stored)
        while len(self._hands) > HAND_CACHE:
            self._hands.popitem(last=False)
        return stored

    async def pictures(self, stored: StoredHand, k: int, seat: int, concealed: bool, lang: str) -> list[tuple[str, bytes]]:
        key = (stored.replay.hand_id, k, seat, concealed, lang)
        hit = self._pictures.get(key)
        if hit is not None:
            self._pictures.move_to_end(key)
            return hit
        rp = stored.replay
        view = rp.view(k, seat, concealed=concealed)
        result = rp.result_view() if k == len(rp) - 1 else None
        files = await asyncio.to_thread(_draw, view, concealed, result, lang)
        if files:
            self._pictures[key] = files
            self._picture_bytes += sum(len(b) for _, b in files)
            while self._picture_bytes > PICTURE_BYTES and len(self._pictures) > 1:
                _, old = self._pictures.popitem(last=False)
                self._picture_bytes -= sum(len(b) for _, b in old)
        return files

    # ------------------------------------------------------------------ who sees what
    async def _hand_for(self, interaction: discord.Interaction, hand_id: str) -> StoredHand | None:
        """The hand if this person may replay it here; otherwise answers why not and returns None."""
        lang = lang_of(interaction)
        if self.bot.store is None:
            await reply(interaction, t("bot.err.no_store", lang))
            return None
        none = discord.AllowedMentions.none()
        shown = hand_id.replace("`", "'")
        hit = self._hands.get(hand_id)
        rec = hit[1].record if hit is not None else await self.bot.store.get_hand(hand_id)
        if interaction.guild_id is None and not await dm_hand_of(self.bot.store, rec, interaction.user.id):
            await reply(interaction, t("bot.err.guild_only", lang))
            return None
        if rec is None or (rec.guild_id != interaction.guild_id  # another server's hand: not even its existence
                           and not await dm_hand_of(self.bot.store, rec, interaction.user.id)):
            await reply(interaction, t("bot.replay.unknown", lang, hand=shown), allowed_mentions=none)
            return None
        try:
            stored = await self.stored(hand_id)
        except ReplayUnavailable as exc:
            key = {"running": "bot.replay.running", "elsewhere": "bot.replay.elsewhere"}.get(exc.code,
                                                                                            "bot.replay.unknown")
            await reply(interaction, t(key, lang, hand=shown), allowed_mentions=none)
            return None
        return stored

    async def setting(self, guild_id: int) -> str:
        try:
            gs = await self.bot.store.get_guild_settings(guild_id)
        except Exception:
            log.exception("reading the settings of guild %s failed", guild_id)
            return "table"
        value = getattr(gs, "replay_hands", "table")
        return value if value in REPLAY_HANDS else "table"

    async def web_base(self, guild_id: int) -> str | None:
        """``JXBOT_WEB_URL`` when the web companion shows this server's pages, else None (docs/web.md)."""
        return await web_base(self.bot, guild_id)

    def _send_private(self, user: discord.User | discord.Member, hand_id: str, seat: int, base: str, lang: str) -> None:
        """A player's own full view of a finished hand: a signed, expiring link, in a DM, once per hand."""
        secret = getattr(getattr(self.bot, "settings", None), "web_secret", None)
        key = (user.id, hand_id)
        if not secret or key in self._private_sent:
            return
        self._private_sent[key] = None
        while len(self._private_sent) > 5000:
            self._private_sent.popitem(last=False)
        url = web_links.full(base, web_links.private_path(secret, hand_id, seat))
        text = t("bot.web.private_dm", lang, hand=hand_id, url=url, days=web_links.PRIVATE_DAYS)

        async def send() -> None:
            try:
                await user.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:  # DMs closed: the link is simply not sent
                log.info("private web link for hand %s not sent to %s: %s", hand_id, user.id, exc)

        task = asyncio.get_running_loop().create_task(send(), name=f"web-private-{hand_id}")
        task.add_done_callback(lambda t_: t_.cancelled() or t_.exception())

    @staticmethod
    def user_seats(stored: StoredHand, user_id: int) -> set[int]:
        return {i for i, uid in enumerate(stored.seats) if uid == user_id}

    # ------------------------------------------------------------------ the viewer
    async def show(self, interaction: discord.Interaction, stored: StoredHand, k: int, seat: int, *,
                   new: bool) -> None:
        lang = lang_of(interaction)
        rp = stored.replay
        k = rp.clamp(k)
        concealed = may_see(await self.setting(stored.record.guild_id), self.user_seats(stored, interaction.user.id),
                            seat)
        files = await self.pictures(stored, k, seat, concealed, lang)
        esc = discord.utils.escape_markdown  # names are players' own text
        head = t("bot.replay.head", lang, hand=rp.hand_id, k=k, n=len(rp) - 1, who=rp.who(seat, lang, esc))
        if not concealed:
            head += " " + t("bot.replay.public_only", lang)
        lines = [head, rp.caption(k, lang, seat=seat, concealed=concealed, escape=esc)]
        if not files:
            lines.append(t("bot.replay.no_pictures", lang))
        base = await self.web_base(stored.record.guild_id)
        if base is not None:  # the same step on the web (a stranger's view: shareable)
            lines.append(t("bot.web.link", lang, url=web_links.full(base, web_links.hand_path(rp.hand_id, k, seat))))
            own = sorted(self.user_seats(stored, interaction.user.id))
            if new and own:
                self._send_private(interaction.user, rp.hand_id, own[0], base, lang)
        content = "\n".join(lines)
        view = self.components(stored, k, seat, lang)
        attachments = [discord.File(io.BytesIO(b), filename=name) for name, b in files]
        none = discord.AllowedMentions.none()
        if new:
            await reply(interaction, content, view=view, files=attachments, allowed_mentions=none)
        elif not interaction.response.is_done():
            await interaction.response.edit_message(content=content, view=view, attachments=attachments,
                                                    allowed_mentions=none)
        else:
            await interaction.edit_original_response(content=content, view=view, attachments=attachments,
                                                     allowed_mentions=none)

    def components(self, stored: StoredHand, k: int, seat: int, lang: str) -> discord.ui.View:
        rp = stored.replay
        code = hand_code(rp.hand_id)
        assert code is not None
        last = len(rp) - 1
        v = discord.ui.View(timeout=None)
        targets = (0, k - 1, k + 1, last)
        for i, (label, to) in enumerate(zip(NAV, targets, strict=True)):
            off = (i < 2 and k == 0) or (i >= 2 and k == last)
            v.add_item(MjButton(CustomId("rp", code, seat, to_base36(max(0, min(last, to))), i), label=label,
                                disabled=off, row=0))
        v.add_item(MjButton(CustomId("rpgo", code, seat, to_base36(k)), label=t("bot.replay.goto", lang), row=0))
        for s in range(4):
            style = discord.ButtonStyle.primary if s == seat else discord.ButtonStyle.secondary
            v.add_item(MjButton(CustomId("rps", code, s, to_base36(k), s), label=rp.who(s, lang)[:80], style=style,
                                row=1))
        return v

    async def open(self, interaction: discord.Interaction, hand_id: str, k: int = 0, seat: int | None = None) -> None:
        hand_id = hand_from_code(hand_id.lower()) or hand_id  # the button form (no dash) is accepted too
        stored = await self._hand_for(interaction, hand_id)
        if stored is None:
            return
        if hand_code(hand_id) is None:  # a hand id the buttons cannot carry (not one of the bot's matches)
            await reply(interaction, t("bot.replay.unknown", lang_of(interaction), hand=hand_id),
                        allowed_mentions=discord.AllowedMentions.none())
            return
        if seat is None:
            own = sorted(self.user_seats(stored, interaction.user.id))
            seat = own[0] if own else 0
        await self.show(interaction, stored, k, seat, new=True)

    async def _opener_bound(self, interaction: discord.Interaction, hand_id: str) -> bool:
        """Replay / Fair deal are on the hand's result (a message of the bot's in the hand's channel) and on
        the presser's own ``/history`` (an ephemeral): taken from those only (jxbot/shell/binding.py)."""
        if own_ephemeral(interaction):
            return True
        store = self.bot.store
        hit = self._hands.get(hand_id)
        rec = hit[1].record if hit is not None else (await store.get_hand(hand_id) if store is not None else None)
        return rec is not None and bot_message_in(interaction, rec.channel_id,
                                                  hit[1].seats if hit is not None else await hand_players(store, rec))

    async def on_open(self, interaction: discord.Interaction, cid: CustomId) -> None:
        hand_id = hand_from_code(cid.table)
        if hand_id is None:
            await reply(interaction, t("bot.err.stale", lang_of(interaction)))
            return
        if not await self._opener_bound(interaction, hand_id):
            await refuse(interaction, cid.verb)
            return
        await self.open(interaction, hand_id)

    async def on_nav(self, interaction: discord.Interaction, cid: CustomId) -> None:
        hand_id = hand_from_code(cid.table)
        if hand_id is None or cid.seat is None:
            await reply(interaction, t("bot.err.stale", lang_of(interaction)))
            return
        if not own_ephemeral(interaction):  # a viewer is the presser's own ephemeral message: it alone is edited
            await refuse(interaction, cid.verb)
            return
        stored = await self._hand_for(interaction, hand_id)
        if stored is None:
            return
        await self.show(interaction, stored, int(cid.nonce, 36), cid.seat, new=False)

    async def on_goto(self, interaction: discord.Interaction, cid: CustomId) -> None:
        lang = lang_of(interaction)
        if hand_from_code(cid.table) is None or cid.seat is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        if not own_ephemeral(interaction):
            await refuse(interaction, cid.verb)
            return
        modal = discord.ui.Modal(title=t("bot.replay.goto_title", lang), timeout=None,
                                 custom_id=str(CustomId("rpgoto", cid.table, cid.seat, cid.nonce)))
        modal.add_item(discord.ui.TextInput(label=t("bot.replay.goto_label", lang), custom_id="move",
                                            default=str(int(cid.nonce, 36)), max_length=4, required=True))
        await interaction.response.send_modal(modal)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The go-to box comes back as a modal submit with the viewer's place in its custom id."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        cid = parse_custom_id(str(data.get("custom_id", "")))
        if cid is None or cid.verb != "rpgoto":
            return
        guard = ack_later(interaction, update=True)  # answered within Discord's 3 s even if drawing is slow
        try:
            await self._goto(interaction, cid, data)
        except Exception:
            log.exception("go-to in the replay of %s failed", cid.table)
            await reply(interaction, t("bot.err.internal", lang_of(interaction)))
        finally:
            guard.cancel()

    async def _goto(self, interaction: discord.Interaction, cid: CustomId, data: dict) -> None:
        lang = lang_of(interaction)
        hand_id = hand_from_code(cid.table)
        if hand_id is None or cid.seat is None:
            await reply(interaction, t("bot.err.stale", lang))
            return
        if interaction.message is not None and not own_ephemeral(interaction):  # the box edits the viewer
            await refuse(interaction, cid.verb)
            return
        stored = await self._hand_for(interaction, hand_id)
        if stored is None:
            return
        value = _field(data.get("components") or [], "move") or ""
        last = len(stored.replay) - 1
        try:
            k = int(value.strip())
        except ValueError:
            k = -1
        if not 0 <= k <= last:
            await reply(interaction, t("bot.replay.bad_move", lang, last=last))
            return
        await self.show(interaction, stored, k, cid.seat, new=interaction.message is None)

    # ------------------------------------------------------------------ the fair deal
    async def fair(self, interaction: discord.Interaction, hand_id: str) -> None:
        lang = lang_of(interaction)
        none = discord.AllowedMentions.none()
        # an event's id: its walls' commitment (docs/tournaments.md)
        from cogs.tournament import event_fair_text

        event_text = await event_fair_text(self.bot.store, typed_text(hand_id).lower(), lang, interaction.guild_id)
        if event_text is not None:
            await reply(interaction, event_text, allowed_mentions=none)
            return
        hand_id = typed_hand_id(hand_id)
        store = self.bot.store
        rec = await store.get_hand(hand_id) if store is not None else None
        # in a DM: a hand of a table played in its players' DMs (a global or duplicate event's), to its players
        mine = interaction.guild_id is None and store is not None and await dm_hand_of(store, rec, interaction.user.id)
        if store is None or (interaction.guild_id is None and not mine):
            await self._hand_for(interaction, hand_id)  # says why
            return
        if rec is None or (rec.guild_id != interaction.guild_id and not mine):
            await reply(interaction, t("bot.replay.unknown", lang, hand=hand_id.replace("`", "'")), allowed_mentions=none)
            return
        if rec.status != "settled":  # the commitment only: the wall is secret until the hand ends
            await reply(interaction, t("bot.fair.running", lang, hand=hand_id, c=rec.commitment), allowed_mentions=none)
            return
        stored = await self._hand_for(interaction, hand_id)
        if stored is None:
            return
        checks = verify_stored(stored)
        reveal = stored.reveal
        if checks is None or reveal is None:
            await reply(interaction, t("bot.fair.no_reveal", lang))
            return
        lines = [t("bot.fair.head", lang, hand=hand_id, c=rec.commitment, salt=reveal.get("salt"))]
        lines += [c.text(lang) for c in checks]
        lines.append(t("bot.fair.how", lang))
        f = reveal_file({"hand_id": hand_id, "reveal": {**reveal, "commitment": rec.commitment}})
        kw: dict[str, Any] = {"files": [f]} if f is not None else {}
        await reply(interaction, "\n".join(lines), allowed_mentions=none, **kw)
        if not verified(checks):
            log.error("hand %s fails its fair-deal check: %s", hand_id, [c.key for c in checks if not c.ok])

    async def on_fair(self, interaction: discord.Interaction, cid: CustomId) -> None:
        hand_id = hand_from_code(cid.table)
        if hand_id is None:
            await reply(interaction, t("bot.err.stale", lang_of(interaction)))
            return
        if not await self._opener_bound(interaction, hand_id):
            await refuse(interaction, cid.verb)
            return
        await self.fair(interaction, hand_id)


def _field(components: list, custom_id: str) -> str | None:
    """A text input's value in a modal submit (action rows, or the newer label components)."""
    for c in components:
        if not isinstance(c, dict):
            continue
        if c.get("custom_id") == custom_id and "value" in c:
            return str(c.get("value") or "")
        inner = list(c.get("components") or []) + ([c["component"]] if isinstance(c.get("component"), dict) else [])
        found = _field(inner, custom_id)
        if found is not None:
            return found
    return None


def _draw(view: dict, concealed: bool, result: dict | None, lang: str) -> list[tuple[str, bytes]]:
    """The step's pictures with the live game's renderer: the table as the seat saw it, the seat's own
    hand when its tiles may be shown, and the result at the last step."""
    from jxbot.shell.pictures import render_png

    out: list[tuple[str, bytes]] = []
    png = render_png("table", view, lang)
    if png is None:
        return []
    out.append(("table.png", png))
    if concealed and "hand" in view:
        png = render_png("hand", view, lang)
        if png is not None:
            out.append(("hand.png", png))
    if result is not None:
        png = render_png("result", result, lang)
        if png is not None:
            out.append(("result.png", png))
    return out


# ---------------------------------------------------------------------------------------------- commands
# They live in the /mahjong and /admin groups of the other cogs; setup() adds them there.


def _cog(interaction: discord.Interaction) -> ReplayCog:
    cog = interaction.client.get_cog("ReplayCog")  # type: ignore[attr-defined]
    assert isinstance(cog, ReplayCog)
    return cog


@app_commands.command(name=ls("bot.cmd.replay.name"), description=ls("bot.cmd.replay.desc"))
@app_commands.rename(hand=ls("bot.opt.hand.name"), move=ls("bot.opt.move.name"), seat=ls("bot.opt.seat.name"))
@app_commands.describe(hand=ls("bot.opt.hand.desc"), move=ls("bot.opt.move.desc"), seat=ls("bot.opt.seat.desc"))
async def replay_command(interaction: discord.Interaction, hand: app_commands.Range[str, 1, 40],
                         move: app_commands.Range[int, 0, 9999] = 0,
                         seat: app_commands.Range[int, 0, 3] | None = None) -> None:
    await _cog(interaction).open(interaction, typed_hand_id(hand), move, seat)


@app_commands.command(name=ls("bot.cmd.verify.name"), description=ls("bot.cmd.verify.desc"))
@app_commands.rename(hand=ls("bot.opt.hand.name"))
@app_commands.describe(hand=ls("bot.opt.hand.desc"))
async def verify_command(interaction: discord.Interaction, hand: app_commands.Range[str, 1, 40]) -> None:
    await _cog(interaction).fair(interaction, typed_text(hand))


@app_commands.command(name=ls("bot.cmd.replays.name"), description=ls("bot.cmd.replays.desc"))
@app_commands.rename(who=ls("bot.opt.who.name"))
@app_commands.describe(who=ls("bot.opt.who.desc"))
@app_commands.choices(who=[app_commands.Choice(name=ls(f"bot.choice.replay_hands.{k}"), value=k) for k in REPLAY_HANDS])
async def replays_command(interaction: discord.Interaction, who: str | None = None) -> None:
    lang = lang_of(interaction)
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        raise app_commands.MissingPermissions(["manage_guild"])
    store = interaction.client.store  # type: ignore[attr-defined]
    if store is None:
        await reply(interaction, t("bot.err.no_store", lang))
        return
    gid = interaction.guild_id or 0
    if who is not None:
        await store.update_guild_settings(gid, replay_hands=who)
    gs = await store.get_guild_settings(gid)
    head = t("bot.admin.updated", lang) + "\n" if who is not None else ""
    await reply(interaction, head + t("bot.admin.replays", lang, who=t(f"bot.choice.replay_hands.{gs.replay_hands}", lang)))


@app_commands.command(name=ls("bot.cmd.web.name"), description=ls("bot.cmd.web.desc"))
@app_commands.rename(state=ls("bot.opt.web_state.name"))
@app_commands.describe(state=ls("bot.opt.web_state.desc"))
@app_commands.choices(state=[app_commands.Choice(name=ls(f"bot.choice.web.{k}"), value=k) for k in ("on", "off")])
async def web_command(interaction: discord.Interaction, state: str | None = None) -> None:
    """``/admin web on|off``: the server's pages on the web companion (docs/web.md)."""
    lang = lang_of(interaction)
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        raise app_commands.MissingPermissions(["manage_guild"])
    store = interaction.client.store  # type: ignore[attr-defined]
    if store is None:
        await reply(interaction, t("bot.err.no_store", lang))
        return
    gid = interaction.guild_id or 0
    if state is not None:
        name = interaction.guild.name[:100] if interaction.guild is not None else ""
        await store.update_guild_settings(gid, web=state == "on", web_name=name)
    gs = await store.get_guild_settings(gid)
    lines = [t("bot.admin.updated", lang)] if state is not None else []
    lines.append(t("bot.admin.web", lang, state=t(f"bot.choice.web.{'on' if gs.web else 'off'}", lang)))
    base = getattr(getattr(interaction.client, "settings", None), "web_url", None)
    if base and gs.web:
        lines.append(t("bot.admin.web_url", lang, url=f"<{web_links.full(base, web_links.guild_path(gid))}>"))
    elif not base:
        lines.append(t("bot.admin.web_no_url", lang))
    await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())


def _group(bot: JxBot, cog_name: str) -> app_commands.Group | None:
    cog = bot.get_cog(cog_name)
    group = getattr(cog, "app_command", None) if cog is not None else None
    return group if isinstance(group, app_commands.Group) else None


async def setup(bot: JxBot) -> None:
    await bot.add_cog(ReplayCog(bot))
    mahjong = _group(bot, "TablesCog")
    if mahjong is not None:
        mahjong.add_command(replay_command)
        mahjong.add_command(verify_command)
    admin = _group(bot, "AdminCog")
    if admin is not None:
        admin.add_command(replays_command)
        admin.add_command(web_command)


async def teardown(bot: JxBot) -> None:
    for cog_name, names in (("TablesCog", (replay_command.name, verify_command.name)),
                            ("AdminCog", (replays_command.name, web_command.name))):
        group = _group(bot, cog_name)
        if group is None:
            continue
        for name in names:
            group.remove_command(name)
