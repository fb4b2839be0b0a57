"""Shared pieces of the jxbot end-to-end scenarios (tests/e2e/test_scenarios.py) and the load test
(bench/e2e_load.py): how the bot is started against the double, a table opened and started the way
players do it, every message version recorded, seeds chosen on the pure engine, and the checks of what
the bot showed against what really happened (the hand's events in the bot's database)."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.double import Channel, DiscordDouble, Guild, Message
from tests.e2e.players import AutoPlayer, Panel, Player, Style, choose, message_text, tile_names
from tests.e2e.recording import on_bot_message

REPO = Path(__file__).resolve().parents[2]
# the bot under test: `jxbot run` (JXBOT_E2E_ARGV overrides it, e.g. to try a patched entry point)
BOT_ARGV = os.environ.get("JXBOT_E2E_ARGV", "-m jxbot.cli run").split()


def fast_env(db: str | os.PathLike[str], **extra: str) -> dict[str, str]:
    """Settings for a quick, deterministic-enough table: one hand, no pause between hands, computer
    players without pacing, edits coalesced at 0.2 s (the 429 scenario sets its own)."""
    env = {
        "JXBOT_DB": str(db),
        "JXBOT_EDIT_INTERVAL": "0.2",
        "JXBOT_NEXT_HAND_SECONDS": "0",
        "JXBOT_MAX_HANDS": "1",
        "JXBOT_COMPUTER_DELAY": "0.02",
        "JXBOT_FEE": "1",
        "LOG_LEVEL": "INFO",
    }
    env.update(extra)
    return env


# ------------------------------------------------------------------------------------------ recording


@dataclass
class Version:
    """One state of a message as a client showed it (after a create or an edit)."""

    message_id: int
    channel_id: int
    public: bool  # in a guild channel and not ephemeral
    dm_user: int | None
    ephemeral_for: int | None
    text: str
    png: bytes | None
    n_attachments: int


class Recorder:
    """Every version of every message the bot posted or edited (the double keeps only the latest)."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.versions: list[Version] = []

        def rec(msg: Message) -> None:
            ch = double.channels.get(msg.channel_id)
            dm_user = ch.recipient.id if ch is not None and ch.type == 1 and ch.recipient else None
            public = ch is not None and ch.type != 1 and msg.ephemeral_for is None
            self.versions.append(Version(msg.id, msg.channel_id, public, dm_user, msg.ephemeral_for,
                                         message_text(msg), msg.image(), len(msg.attachments)))

        on_bot_message(double, rec)

    def public(self) -> list[Version]:
        return [v for v in self.versions if v.public]

    def private(self, user_id: int) -> list[Version]:
        return [v for v in self.versions if v.dm_user == user_id or v.ephemeral_for == user_id]


# ------------------------------------------------------------------------------------------ a table


@dataclass
class World:
    double: DiscordDouble
    guild: Guild
    channel: Channel
    players: list[Player]
    bot: Any  # conftest.BotProcess
    db: Path
    recorder: Recorder
    lobby: Message | None = None
    table_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


async def start_world(double: DiscordDouble, start_bot: Any, tmp: Path, names: Sequence[str], *,
                      env: dict[str, str] | None = None, closed_dms: Sequence[str] = (),
                      locales: dict[str, str] | None = None, wait_ready: bool = True) -> World:
    """A guild with a #mahjong channel, players, and the real bot (``jxbot run``) pointed at the double."""
    recorder = Recorder(double)
    guild = double.add_guild("jxbot e2e", locale="zh-CN")
    channel = double.add_text_channel(guild, "mahjong")
    players = [Player.join(double, n, guild, channel, locale=(locales or {}).get(n, "zh-CN"),
                           dms_open=n not in closed_dms) for n in names]
    db = tmp / "jxbot.sqlite3"
    bot = await start_bot(BOT_ARGV, env={"DEV_GUILD_ID": str(guild.id), **fast_env(db, **(env or {}))})
    try:
        await double.wait_commands(timeout=30)
        await double.wait_ready(timeout=30)
        if wait_ready:  # the bot's on_ready work (resuming tables) runs ~2 s after READY
            await bot.wait_log("ready: every table resumed", timeout=30)  # the readiness gate open
    except TimeoutError:
        raise AssertionError(f"the bot did not come up:\n{bot.tail()}") from None
    return World(double, guild, channel, players, bot, db, recorder)


async def open_table(w: World, *, stake: int = 5, seated: Sequence[Player] | None = None,
                     computers: int = 0, start: bool = True, level: str | None = None) -> Message:
    """The first player types /麻将 开桌, the others press 加入 (or type /麻将 加入), the owner adds
    computers and presses 开始 (``level``: the table's computer level, the 级别 option). Returns the lobby message."""
    seated = list(seated if seated is not None else w.players)
    owner = seated[0]
    act = await owner.slash("麻将 开桌", 底分=stake, **({"级别": level} if level else {}))
    await act.settled()
    assert act.ephemeral and "牌桌已开好" in " ".join(act.texts()), act.texts()
    lobby = await owner.wait_message(lambda m: any(b.get("label") == "加入" for b in m.buttons()), w.channel)
    w.lobby = lobby
    m = re.search(r"牌桌 ([0-9a-z]+)", lobby.content)
    assert m, lobby.content
    w.table_id = m.group(1)
    for i, p in enumerate(seated[1:]):
        if i % 2 == 0:
            a = await p.click(lobby, label="加入")
        else:
            a = await p.slash("麻将 加入")
        await a.settled()
        assert any("你坐在" in x for x in a.texts()), (p.name, a.texts())
    for _ in range(computers):
        a = await owner.click(lobby, label="加电脑")
        await a.settled()
    if start:
        a = await owner.click(lobby, label="开始")
        await a.settled()
        assert any("开始" in x for x in a.texts()), a.texts()
    return lobby


async def wait_match_over(w: World, timeout: float = 90.0) -> Message:
    """The channel says the match is over."""
    p = w.players[0]
    try:
        return await p.wait_message(lambda m: "牌局结束" in m.content, w.channel, timeout=timeout)
    except TimeoutError:
        raise AssertionError(f"the match did not end in {timeout}s; bot log:\n{w.bot.tail(80)}") from None


def result_messages(w: World) -> list[Message]:
    return [m for m in w.channel.messages if not m.deleted and m.ephemeral_for is None
            and ("胡了" in m.content or "荒牌" in m.content)]


def payments(result: Message) -> dict[str, tuple[int, int | None]]:
    """``name: +12（余 1011）`` lines of a result message → {name: (delta, balance)}."""
    out: dict[str, tuple[int, int | None]] = {}
    for line in result.content.splitlines():
        m = re.match(r"(.+?)：([+-]\d+)（余 (\d+|—)）", line.strip())
        if m:
            out[m.group(1)] = (int(m.group(2)), None if m.group(3) == "—" else int(m.group(3)))
    return out


# ------------------------------------------------------------------------------------------ the store


async def store_check(db: Path) -> tuple[int, str]:
    """``jxbot store check --db DB`` while the bot runs (exit 0: the books balance); (exit code, output)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "jxbot.cli", "store", "check", "--db", str(db),
                                                cwd=str(db.parent), env=env, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, out.decode(errors="replace")


async def hands_of(db: Path, guild_id: int, user_id: int) -> list[Any]:
    from jxbot.store import Store

    store = await Store.open(str(db), scope=None)
    try:
        return list(reversed(await store.recent_hands(guild_id, user_id, 100)))
    finally:
        await store.close()


async def events_of(db: Path, hand_id: str) -> list[dict]:
    from jxbot.store import Store

    store = await Store.open(str(db), scope=None)
    try:
        return list(await store.hand_events(hand_id))
    finally:
        await store.close()


async def open_hand_ids(db: Path) -> list[str]:
    from jxbot.store import Store

    store = await Store.open(str(db), scope=None)
    try:
        return [h.hand_id for h in await store.open_hands()]
    finally:
        await store.close()


# ------------------------------------------------------------------------------------------ seeds


def simulate(seed: int, styles: Sequence[Style], *, stake: int = 5, fee: int = 1) -> Any:
    """The first hand of a match with ``seed``, four scripted players choosing as :func:`choose` does
    from what their panels show. Returns the ended ``Hand``."""
    from jxbot.game import Match
    from jxbot.game.actions import Action, ActionType

    h = Match(seed, rounds=1, stake=stake, fee=fee, max_hands=1).next_hand()
    steps = 0
    while h.phase != "ended":
        seat = min(h.pending())
        v = h.view(seat)
        tiles, drawn = list(v["hand"]), v["drawn"]
        wild = v["wildcard"] if v["wildcard"] in tiles + [drawn] else None
        ld = v.get("last_discard")
        verb, tile = choose(tiles, drawn, wild, [(a.type.value, a.tile) for a in h.legal_actions(seat)], styles[seat],
                            ld["seat"] if ld else None)
        h.apply(Action(ActionType(verb), seat, tile))
        steps += 1
        assert steps < 2000
    return h


def find_seed(pred: Any, styles: Sequence[Style], hint: int, limit: int = 4000) -> tuple[int, Any]:
    """A seed whose first hand, played by ``styles``, satisfies ``pred(hand)``: ``hint`` when it still
    does (fast), else the first from 0 on (the engine changed)."""
    h = simulate(hint, styles)
    if pred(h):
        return hint, h
    for seed in range(limit):
        h = simulate(seed, styles)
        if pred(h):
            return seed, h
    raise AssertionError("no seed up to {limit} gives the situation")


# ------------------------------------------------------------------------------------------ checks


def check_png(data: bytes | None) -> tuple[int, int]:
    from PIL import Image

    assert data is not None and data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    with Image.open(io.BytesIO(data)) as im:
        im.verify()
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        w, h = im.size
    assert 100 <= w <= 4000 and 50 <= h <= 4000, (w, h)
    return w, h


def hand_states(events: list[dict]) -> list[Any]:
    """The hand after each event (replayed from the store's log)."""
    from jxbot.game import Hand

    return [Hand.replay(events[: k + 1]) for k in range(len(events))]


def panel_matches(panel: Panel, hand: Any, seat: int) -> bool:
    v = hand.view(seat)
    real = sorted(list(v["hand"]) + ([v["drawn"]] if v["drawn"] is not None else []))
    acts = sorted(((a.type.value, a.tile) for a in hand.legal_actions(seat)), key=str)
    shown = sorted(((verb, tile) for verb, tile, _ in panel.actions), key=str)
    return real == panel.all_tiles and acts == shown and (panel.drawn == v["drawn"])


def check_panels(ap: AutoPlayer, seat: int, states: list[Any], *, render_check: bool = True) -> int:
    """Every panel the player acted on showed its real hand and its real choices at that moment, in
    order, and its image is the hand image of that moment (rendered again from the replayed view)."""
    k = 0
    rendered = 0
    for p in ap.seen:
        start = k
        while k < len(states) and not panel_matches(p, states[k], seat):
            k += 1
        assert k < len(states), (f"{ap.player.name} was shown {p.all_tiles} / {p.actions} which never was its "
                                 f"hand with those choices after event {start}")
        check_png(p.png)
        if render_check:
            import render

            expect = render.render_hand(states[k].view(seat), "zh")
            if expect == p.png:
                rendered += 1
    return rendered


def hidden_words(states: list[Any]) -> set[str]:
    """Texts that would reveal concealed tiles: each seat's panel tile line at every moment."""
    from jxbot.rules.tiles import tile_name

    out: set[str] = set()
    for h in states:
        for s in range(4):
            v = h.view(s)
            if h.phase == "ended" and h.result is not None and h.result.winner == s:
                continue  # the winner's hand is public at the end
            tiles = list(v["hand"])
            if len(tiles) >= 4:
                out.add(" ".join(tile_name(x, "zh") for x in tiles[:4]))
    return out


def public_tiles(states: list[Any]) -> set[int]:
    """Every tile kind that was public at some point: discards, melds, the 百搭 and its indicator, the
    winning tile and, at the end, the winner's hand."""
    seen: set[int] = set()
    for h in states:
        pv = h.public_view()
        for key in ("wildcard", "indicator"):
            if pv.get(key) is not None:
                seen.add(pv[key])
        for s in pv["seats"]:
            seen.update(d["tile"] for d in s["discards"])
            for m in s["melds"]:
                seen.update(x for x in m["tiles"] if x is not None)
        if pv.get("pending_kong"):
            seen.add(pv["pending_kong"]["tile"])
    last = states[-1]
    if last.phase == "ended":
        r = last.result_view()
        seen.update(r.get("hand") or [])
        if r.get("win_tile") is not None:
            seen.add(r["win_tile"])
    return seen


TILE_RE = re.compile(r"[1-9](?:万|筒|条)")


def check_no_leak(texts: Sequence[str], states: list[Any]) -> None:
    """No public text names a suited tile that was never public, nor a run of a seat's concealed tiles.
    (Winds and dragons are not checked by name: 东/南/西/北 also name seats and rounds.)"""
    hidden = hidden_words(states)
    public = public_tiles(states)
    names = tile_names()
    for text in texts:
        for hw in hidden:
            assert hw not in text, f"a public message shows concealed tiles {hw!r}: {text!r}"
        for m in TILE_RE.finditer(text):
            assert names[m.group(0)] in public, f"a public message names {m.group(0)}, a tile nobody could see: {text!r}"


async def said(action: Any, timeout: float = 5.0) -> str:
    """Everything the bot told the player in answer to ``action`` (a reply, or the followup after a
    deferred update), once there is something."""
    await action.response(timeout)
    i = action.interaction

    def text() -> str:
        parts = [message_text(m) for m in [i.original, *i.followups] if m is not None and not m.flags & 128]
        return "\n".join(p for p in parts if p)
    try:
        await action.double.wait_for(text, timeout, "the bot's answer")
    except TimeoutError:
        return ""
    return text()


async def gather_players(aps: Sequence[AutoPlayer]) -> None:
    for ap in aps:
        await ap.stop()
    errs = [e for ap in aps for e in ap.errors]
    assert not errs, errs


def wait(seconds: float) -> Any:
    return asyncio.sleep(seconds)
