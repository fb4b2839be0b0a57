"""``/mahjong`` commands and the lobby message (Join / Leave / Add computer / Start)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import jxbot.rules.names  # noqa: F401  (registers the item.<code> labels)
from cogs.play import PlayCog
from jxbot import rulesets
from jxbot.ai.strings import LEVEL_NAMES
from jxbot.bot import STOP_EDITS, STOP_TABLES, JxBot, ls, missing_permissions
from jxbot.custom_ids import CustomId
from jxbot.i18n import t
from jxbot.interactions import ALREADY_ACKNOWLEDGED, guild_lang, lang_of, reply
from jxbot.rules.tiles import wind_name
from jxbot.safety import display_name as safe_display_name
from jxbot.safety import fit, ping
from jxbot.shell import arranged, resume, stop
from jxbot.shell.binding import pressed_on, refuse
from jxbot.shell.buttons import lobby_buttons
from jxbot.shell.channels import channel_refusal, is_private
from jxbot.shell.dmtable import channel_of
from jxbot.shell.lobby import LobbyError, Table, TableConfig, TableManager
from jxbot.shell.pictures import rules_png
from jxbot.shell.ranked_ladder import ranked_match
from jxbot.shell.session import Session, StoreSink
from jxbot.shell.texts import lobby_text, score_hand, status_text

log = logging.getLogger("jxbot.cogs.tables")


def serialized(fn: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """A lobby/table handler ``fn(self, interaction, table, …)`` run under the table's lock: one change at a
    time per table (docs/bot.md, "Concurrency and integrity")."""

    @functools.wraps(fn)
    async def run(self: Any, interaction: discord.Interaction, table: Table, *a: Any, **kw: Any) -> None:
        async with self.manager.lock(table.id):
            if self.manager.get(table.id) is not table or table.state == "ended":
                await reply(interaction, t("bot.err.closed", lang_of(interaction)))  # closed while waiting
                return
            table.touched = time.monotonic()  # the idle-lobby timeout counts from here (jxbot/shell/admin_tables.py)
            await fn(self, interaction, table, *a, **kw)

    return run


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge with a private "thinking…" unless already acknowledged (the 2 s guard may have answered
    while the handler waited for its table's lock); the handler then answers with followups either way."""
    if not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.InteractionResponded:
            pass
        except discord.HTTPException as exc:
            if exc.code != ALREADY_ACKNOWLEDGED:  # the guard acknowledged it at the same moment
                raise


def display_name(user: discord.abc.User) -> str:
    """The user's name as the table keeps it (blank or invisible names fall back to an id-based name)."""
    return safe_display_name(user)


def ruleset_choices() -> list[app_commands.Choice[str]]:
    """Every ruleset registered now (its name: bot.choice.ruleset.<name>)."""
    return [app_commands.Choice(name=ls(f"bot.choice.ruleset.{n}"), value=n) for n in rulesets.names()]


# the commands' ruleset choices: every ruleset registered when the cog loads (setup() refreshes this very
# list, which the commands share, so a plug-in registered after this module's import is offered too)
RULESET_CHOICES = ruleset_choices()
LEVEL_CHOICES = [app_commands.Choice(name=ls(f"ai.level.{lv}"), value=lv) for lv in LEVEL_NAMES]


# Two full cycles of the winds: a caishen table then reaches its reseat after the first 版 of four rounds.
# (Without ``rounds`` a table plays its ruleset's match: TableConfig asks the ruleset object.)
MAX_ROUNDS = 8

class TablesCog(commands.GroupCog, group_name=ls("bot.cmd.mahjong.name"),  # type: ignore[call-arg]
                group_description=ls("bot.cmd.mahjong.desc")):
    def __init__(self, bot: JxBot, *, clock: Any = None, computer_delay: float | None = None) -> None:
        self.bot = bot
        self.manager = TableManager()
        self.clock = clock  # a jxbot.table Clock for the runners (tests pass a fake one)
        self.computer_delay = bot.settings.computer_delay if computer_delay is None else computer_delay
        # None: a fresh secret seed per table; JXBOT_TEST_SEED (tests only) fixes it
        self.seed: int | str | None = bot.settings.test_seed
        self._seeds_used = 0
        self._resumed = False
        self._background: set[asyncio.Task[None]] = set()  # DM setups running outside the table locks
        self.manager.on_release = self._release_hold
        bot.hold_start("tables")  # the readiness gate stays closed until on_ready has resumed the tables
        bot.add_stop_hook(self.stop_tables)  # a stop pauses and saves every table (docs/bot.md, "Stopping")
        for verb in ("join", "leave", "addbot", "start"):
            bot.register_button(verb, self.on_lobby_button)
        super().__init__()

    async def table_seed(self) -> int | str | None:
        """The seed of a table about to start: None (a fresh secret one) unless JXBOT_TEST_SEED is set.
        With it (tests only) each table gets its own deterministic stream: the first table this process
        starts plays the seed itself, the k-th ``<seed>/table/<k>``, skipping any whose first hand the
        database already holds (dealt by an earlier process), so two tables never share a hand id."""
        if self.seed is None:
            return None
        from jxbot.game import Match

        store = self.bot.store
        while True:
            k = self._seeds_used
            self._seeds_used += 1  # taken before any await: two starts at once get different streams
            seed: int | str = self.seed if k == 0 else f"{self.seed}/table/{k}"
            if store is None or not hasattr(store, "get_hand"):
                return seed
            if await store.get_hand(Match(seed).next_context().hand_id) is None:
                return seed

    # ------------------------------------------------------------------ store adapters
    async def balance_of(self, guild_id: int, user_id: int) -> int | None:
        store = self.bot.store
        if store is None:
            return None
        return int(await store.balance(guild_id, user_id))

    async def ensure_player(self, guild_id: int, user: discord.abc.User, lang: str) -> str | None:
        """Register the player, give the starting grant once. Returns an error message key or None."""
        store = self.bot.store
        if store is None:
            return None
        await store.ensure_player(user.id, display_name(user), lang)
        await store.grant_starting(guild_id, user.id)
        return None

    async def can_sit(self, guild_id: int, user_id: int, stake: int, lang: str) -> str | None:
        """Enough silver to sit? (The stake's range was checked against this server's effective limits.)"""
        store = self.bot.store
        if store is None:
            return None
        check = await store.can_sit(guild_id, user_id, stake)
        if check.balance >= check.required:
            return None
        return t("bot.err.poor", lang, need=check.required, have=check.balance)

    async def hold_for(self, table: Table, user_id: int, lang: str) -> str | None:
        """Hold the table's minimum balance for a player who just sat (RULES A10). An error text, or None."""
        store = self.bot.store
        if store is None or not hasattr(store, "hold"):
            return None
        if not table.hold:  # the table's minimum: stake × the server's multiplier + the table's fee
            gs = await store.get_guild_settings(table.guild_id)
            table.hold = table.config.stake * int(getattr(gs, "min_balance_multiplier", 10)) + table.config.fee
        try:
            await store.hold(table.guild_id, user_id, table.id, table.hold)
        except Exception as exc:
            if getattr(exc, "code", None) != "insufficient_funds":
                raise
            params = getattr(exc, "params", {})
            return t("bot.err.hold_failed", lang, need=table.hold, have=params.get("balance", 0))
        return None

    def _release_hold(self, table: Table, user_id: int) -> None:
        store = self.bot.store
        if store is not None and hasattr(store, "release_hold"):
            store.release_hold(table.guild_id, user_id, table.id)

    def sink_for(self, session: Session) -> Any:
        if self.bot.store is None:
            return None
        return StoreSink(self.bot.store, session.table, ranked=ranked_match(session.table))  # docs/ranked.md

    async def save(self, table: Table) -> None:
        store = self.bot.store
        if store is None or not hasattr(store, "save_table"):
            return
        runner_state = table.session.runner.state() if table.session and table.session.runner else None
        try:
            await store.save_table(table.id, table.guild_id, table.channel_id, table.config.to_json(),
                                   {"bot_table": table.to_json(), "runner": runner_state})
        except Exception:
            log.exception("saving table %s failed", table.id)

    async def close_table(self, table: Table) -> None:
        """End the table: every seat released (reservations and holds) in one step, then the messages."""
        self.manager.end(table)
        self.schedule_lobby(table)  # the lobby message says the table is closed, its buttons disabled
        co = self.bot.coalescer
        for key in [("lobby", table.id), ("table", table.id)] + [("panel", table.id, s) for s in range(4)]:
            co.retire(key)
        store = self.bot.store
        if store is not None and hasattr(store, "close_table"):
            try:
                await store.close_table(table.id)
            except Exception:
                log.exception("closing table %s in the store failed", table.id)

    async def dm_channel(self, user_id: int) -> discord.DMChannel:
        """The user's DM channel: opened once (a counted request), then discord.py's cache. By id alone, not
        through a fetched user: a ``GET /users/{id}`` was one more counted request per person (issue 28)."""
        return await self.bot.create_dm(discord.Object(id=user_id))

    @property
    def play(self) -> PlayCog:
        cog = self.bot.get_cog("PlayCog")  # (load_extension re-imports the module: no isinstance here)
        assert cog is not None
        return cog  # type: ignore[return-value]

    # ------------------------------------------------------------------ lobby message
    def schedule_lobby(self, table: Table) -> None:
        if table.lobby_message_id is None:
            return

        async def edit() -> None:
            ch = self.bot.get_partial_messageable(table.channel_id)
            await ch.get_partial_message(table.lobby_message_id).edit(  # type: ignore[arg-type]
                content=lobby_text(table), view=lobby_buttons(table),
                allowed_mentions=discord.AllowedMentions.none())

        self.bot.coalescer.submit(("lobby", table.id), edit)

    # ------------------------------------------------------------------ checks
    async def _table_here(self, interaction: discord.Interaction) -> Table | None:
        table = self.manager.in_channel(interaction.channel_id or 0)
        if table is None:
            away = self.manager.away_in_channel(interaction.channel_id or 0)  # restarting (cogs/cluster.py)
            await reply(interaction, t("bot.err.no_table" if away is None else "bot.err.channel_restarting",
                                       lang_of(interaction)))
        return table

    def not_seated_text(self, user_id: int, lang: str) -> str:
        """Why a user has no table here: none, or theirs is restarting (away: cogs/cluster.py)."""
        away = self.manager.away_of(user_id)
        if away is None:
            return t("bot.err.not_seated", lang)
        return t("bot.err.seat_restarting", lang, channel=away.channel_id)

    async def _lobby_error(self, interaction: discord.Interaction, err: LobbyError) -> None:
        await reply(interaction, t(f"bot.err.{err.code}", lang_of(interaction), **err.kw))

    # ------------------------------------------------------------------ commands
    @app_commands.command(name=ls("bot.cmd.create.name"), description=ls("bot.cmd.create.desc"))
    @app_commands.guild_only()
    @app_commands.rename(stake=ls("bot.opt.stake.name"), ruleset=ls("bot.opt.ruleset.name"), rounds=ls("bot.opt.rounds.name"),
                         level=ls("bot.opt.level.name"))
    @app_commands.describe(stake=ls("bot.opt.stake.desc"), ruleset=ls("bot.opt.ruleset.desc"), rounds=ls("bot.opt.rounds.desc"),
                           level=ls("bot.opt.level.desc"))
    @app_commands.choices(ruleset=RULESET_CHOICES, level=LEVEL_CHOICES)
    async def create(self, interaction: discord.Interaction, stake: int | None = None, ruleset: str = "jiaxing",
                     rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
                     level: str | None = None) -> None:
        lang = lang_of(interaction)
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            await reply(interaction, t("bot.err.missing_perms", lang,
                                       perms=", ".join(t(f"bot.perm.{p}", lang) for p in missing)))
            return
        refused = await channel_refusal(self.bot.store, interaction, lang)  # the server's allowed_channels
        if refused:
            await reply(interaction, refused, allowed_mentions=discord.AllowedMentions.none())
            return
        s = self.bot.settings
        gs = await self._guild_settings(interaction.guild_id or 0)
        lo, hi = gs.get("stake_min", s.min_stake), gs.get("stake_max", s.max_stake)
        stake = s.default_stake if stake is None else stake
        stake = min(max(stake, 0), 10**12) if stake is not None else stake
        if not lo <= stake <= hi:
            await reply(interaction, t("bot.err.stake_range", lang, lo=lo, hi=hi))
            return
        stake = int(stake)
        if rulesets.find(ruleset) is None:
            await reply(interaction, t("bot.err.unknown_ruleset", lang, name=ruleset))
            return
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:  # None: the ruleset's match length
            await reply(interaction, t("bot.err.rounds_range", lang, hi=MAX_ROUNDS))
            return
        level = level or gs.get("computer_level", "normal")  # the server default (/admin settings)
        if level not in LEVEL_NAMES:
            await reply(interaction, t("bot.err.unknown_level", lang, name=level))
            return
        user = interaction.user
        try:
            self.manager.check_channel(interaction.channel_id or 0)  # none here, none restarting here
            self.manager.check_free(user.id)
        except LobbyError as err:
            await self._lobby_error(interaction, err)
            return
        await defer(interaction)
        await self.ensure_player(interaction.guild_id or 0, user, lang)
        poor = await self.can_sit(interaction.guild_id or 0, user.id, stake, lang)
        if poor:
            await interaction.followup.send(poor, ephemeral=True)
            return
        config = TableConfig(stake=stake, ruleset=ruleset, rounds=rounds, fee=gs.get("fee", s.fee),
                             claim_window=gs.get("claim_window", s.claim_window),
                             turn_seconds=gs.get("turn_limit", s.turn_seconds), contract_seconds=s.contract_seconds,
                             level=level, private=is_private(interaction.channel))
        try:  # the check (a free channel, the owner seated nowhere) and the seat in one step
            table = self.manager.create(interaction.guild_id or 0, interaction.channel_id or 0, user.id,
                                        display_name(user), config, lang=guild_lang(interaction, s.lang),
                                        owner_lang=lang)
        except LobbyError as err:
            await interaction.followup.send(t(f"bot.err.{err.code}", lang, **err.kw), ephemeral=True)
            return
        async with self.manager.lock(table.id):
            short = await self.hold_for(table, user.id, lang)
            if short:
                self.manager.end(table)
                await interaction.followup.send(short, ephemeral=True)
                return
            await self._post_lobby(interaction, table, lang)

    async def _post_lobby(self, interaction: discord.Interaction, table: Table, lang: str) -> None:
        user = interaction.user
        ch = self.bot.get_partial_messageable(table.channel_id)
        try:
            msg = await ch.send(lobby_text(table), view=lobby_buttons(table),
                                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:  # no lobby message, no table: nobody stays seated at it
            log.warning("posting the lobby of table %s failed: %s", table.id, exc.status)
            self.manager.end(table)
            await interaction.followup.send(t("bot.err.post_failed", lang), ephemeral=True)
            return
        table.lobby_message_id = msg.id
        await interaction.followup.send(t("bot.ok.created", lang), ephemeral=True)
        await self.save(table)
        self.open_dm_later(table, user.id)

    async def _guild_settings(self, guild_id: int) -> dict[str, Any]:
        store = self.bot.store
        if store is None or not hasattr(store, "get_guild_settings"):
            return {}
        gs = await store.get_guild_settings(guild_id)
        if isinstance(gs, dict):
            return gs
        # A value an admin set wins (even one equal to the store's built-in default); otherwise the bot's
        # own settings (JXBOT_* in the environment / .env) are the defaults.
        explicit = getattr(gs, "explicit", None)
        if explicit is None:
            defaults = {f.name: f.default for f in dataclasses.fields(gs)} if dataclasses.is_dataclass(gs) else {}
            explicit = [k for k in defaults if getattr(gs, k, None) != defaults[k]]
        return {k: getattr(gs, k) for k in ("stake_min", "stake_max", "fee", "claim_window", "turn_limit",
                                            "computer_level")
                if hasattr(gs, k) and k in explicit}

    DM_TRIES = 2  # a failed DM setup (discord.py itself retries a 5xx 5 times) is tried this many times

    def open_dm_later(self, table: Table, user_id: int) -> None:
        """:meth:`check_dm` outside the table's lock: a slow or failing DM (discord.py retries a 5xx for
        up to ~25 s) never holds up the table's other presses. It binds the panel only if the player still
        sits there when the DM opens, then saves the table."""

        async def run() -> None:
            await self.check_dm(table, user_id)
            seat = table.seat_of(user_id)
            if seat is not None and table.panel_users.get(seat) == user_id and table.state != "ended":
                await self.save(table)

        task = asyncio.create_task(run(), name=f"dm-setup:{table.id}")
        self._background.add(task)
        task.add_done_callback(self._background_done)

    def _background_done(self, task: asyncio.Task[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("DM setup for table %s failed", task.get_name(), exc_info=task.exception())

    async def check_dm(self, table: Table, user_id: int) -> None:
        """Open the player's DM when they sit: the message becomes their panel. Closed DMs (50007) are told
        in the channel; any other failure is retried and, if it persists, leaves no panel binding (the
        first deal tries again; "Show my hand" always works)."""
        seat = table.seat_of(user_id)
        if seat is None:
            return
        occ = table.seats[seat]
        assert occ is not None
        for attempt in range(self.DM_TRIES):
            try:
                dm = await self.dm_channel(user_id)
                msg = await dm.send(t("bot.panel.title", occ.lang, table=table.id, wind=wind_name(seat, occ.lang))
                                    + "\n" + t("bot.panel.wait", occ.lang))
            except discord.Forbidden as exc:
                if exc.code != 50007:
                    log.warning("DM setup for a player of table %s refused: %s", table.id, exc.code)
                    return
                if table.seats[seat] is occ:
                    occ.dm_ok = False
                ch = channel_of(self.bot, table, self.dm_channel)  # (a DM table: the others' DMs)
                try:
                    await ch.send(t("bot.dm.closed", table.lang, user=user_id), allowed_mentions=ping(user_id))
                except discord.HTTPException:
                    log.warning("could not post the closed-DM notice for table %s", table.id)
                return
            except (TimeoutError, discord.HTTPException, OSError) as exc:
                log.warning("DM setup for a player of table %s failed (try %d): %r", table.id, attempt + 1,
                            getattr(exc, "status", exc))
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            # bind the panel only if this player still holds the seat (they may have left meanwhile)
            if table.seats[seat] is occ and occ.user_id == user_id:
                occ.dm_ok = True
                table.panels[seat] = (msg.channel.id, msg.id)
                table.panel_users[seat] = user_id
            return

    @serialized
    async def do_join(self, interaction: discord.Interaction, table: Table) -> None:
        lang = lang_of(interaction)
        try:  # a quick answer before any await; the binding check is repeated in manager.join
            self.manager.check_free(interaction.user.id, except_table=table.id)
            if table.seat_of(interaction.user.id) is not None:
                raise LobbyError("already_seated")
            if table.state != "lobby":
                raise LobbyError("running")
            if table.filled >= 4:
                raise LobbyError("table_full")
        except LobbyError as err:
            await self._lobby_error(interaction, err)
            return
        await defer(interaction)
        await self.ensure_player(table.guild_id, interaction.user, lang)
        poor = await self.can_sit(table.guild_id, interaction.user.id, table.config.stake, lang)
        if poor:
            await interaction.followup.send(poor, ephemeral=True)
            return
        try:  # check and seat (and reserve the user) in one step
            seat = self.manager.join(table, interaction.user.id, display_name(interaction.user), lang)
        except LobbyError as err:
            await interaction.followup.send(t(f"bot.err.{err.code}", lang, **err.kw), ephemeral=True)
            return
        short = await self.hold_for(table, interaction.user.id, lang)
        if short:
            self.manager.release_seat(table, seat)
            await interaction.followup.send(short, ephemeral=True)
            return
        await interaction.followup.send(t("bot.ok.joined", lang, wind=wind_name(seat, lang)), ephemeral=True)
        self.schedule_lobby(table)
        await self.save(table)
        self.open_dm_later(table, interaction.user.id)

    @serialized
    async def do_leave(self, interaction: discord.Interaction, table: Table) -> None:
        lang = lang_of(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state == "ended":
            await reply(interaction, t("bot.err.not_seated", lang))
            return
        if table.state == "running" and table.session is not None:
            session = table.session
            runner = session.runner
            self.manager.escape(table, interaction.user.id)  # the seat, reservation and panel go at once
            ds = session.seats.pop(seat, None)
            if ds is not None:
                ds.ephemeral = None
            if not table.humans and not table.arranged:  # nobody left to play for: stop after this hand (an
                runner.config.max_hands = runner.hands_played + 1  # event's table plays its hands: results count)
            await defer(interaction)
            await runner.leave(seat)
            # (an event's table: the computer plays on to its end for them, and a points-only one charges nothing)
            key = "bot.ok.escaped" if not table.arranged else \
                "bot.ok.escaped_event_points" if table.arranged.get("points_only") else "bot.ok.escaped_event"
            await interaction.followup.send(t(key, lang), ephemeral=True)
            await self.save(table)
            return
        try:
            self.manager.leave(table, interaction.user.id)
        except LobbyError as err:
            await self._lobby_error(interaction, err)
            return
        if not table.humans:
            await self.close_table(table)
        else:
            self.schedule_lobby(table)
        await reply(interaction, t("bot.ok.left", lang))
        if table.state != "ended":
            await self.save(table)

    @serialized
    async def do_addbot(self, interaction: discord.Interaction, table: Table, level: str | None = None) -> None:
        lang = lang_of(interaction)
        if level is not None and level not in LEVEL_NAMES:
            await reply(interaction, t("bot.err.unknown_level", lang, name=level))
            return
        try:
            self.manager.add_computer(table, interaction.user.id, level)
        except LobbyError as err:
            await self._lobby_error(interaction, err)
            return
        await reply(interaction, t("bot.ok.bot_added", lang))
        self.schedule_lobby(table)
        await self.save(table)

    @serialized
    async def do_start(self, interaction: discord.Interaction, table: Table) -> None:
        lang = lang_of(interaction)
        try:
            import jxbot.game  # noqa: F401
            from jxbot.table import TableRunner  # noqa: F401
        except ImportError:
            await reply(interaction, t("bot.err.no_game", lang))
            return
        try:  # the check and the change to "running" in one step: a second press is refused
            self.manager.start(table, interaction.user.id)
        except LobbyError as err:
            await self._lobby_error(interaction, err)
            return
        await defer(interaction)
        await self.save(table)  # the store knows the table before its first hand
        session = Session(self.bot, self, table)
        session.seed = await self.table_seed()
        session.start()
        self.schedule_lobby(table)
        await interaction.followup.send(t("bot.ok.started", lang), ephemeral=True)

    @app_commands.command(name=ls("bot.cmd.join.name"), description=ls("bot.cmd.join.desc"))
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        table = await self._table_here(interaction)
        if table is not None:
            await self.do_join(interaction, table)

    @app_commands.command(name=ls("bot.cmd.leave.name"), description=ls("bot.cmd.leave.desc"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        table = self.manager.of_user(interaction.user.id)
        if table is None:
            forward = self.bot.command_forwarder  # a table another process runs (a cross-server one, say)
            if forward is not None and await forward(interaction, "leave"):
                return
            await reply(interaction, self.not_seated_text(interaction.user.id, lang_of(interaction)))
            return
        await self.do_leave(interaction, table)

    @app_commands.command(name=ls("bot.cmd.start.name"), description=ls("bot.cmd.start.desc"))
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        table = await self._table_here(interaction)
        if table is not None:
            await self.do_start(interaction, table)

    @app_commands.command(name=ls("bot.cmd.addbot.name"), description=ls("bot.cmd.addbot.desc"))
    @app_commands.guild_only()
    @app_commands.rename(level=ls("bot.opt.level.name"))
    @app_commands.describe(level=ls("bot.opt.level.desc"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        table = await self._table_here(interaction)
        if table is not None:
            await self.do_addbot(interaction, table, level)

    @app_commands.command(name=ls("bot.cmd.kick.name"), description=ls("bot.cmd.kick.desc"))
    @app_commands.guild_only()
    @app_commands.rename(user=ls("bot.opt.user.name"))
    @app_commands.describe(user=ls("bot.opt.user.desc"))
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        table = await self._table_here(interaction)
        if table is None:
            return
        await self.do_kick(interaction, table, user)

    @serialized
    async def do_kick(self, interaction: discord.Interaction, table: Table, user: discord.User) -> None:
        try:
            self.manager.kick(table, interaction.user.id, user.id)
        except LobbyError as err:
            await self._lobby_error(interaction, err)
            return
        await reply(interaction, t("bot.ok.kicked", lang_of(interaction), user=user.id))
        self.schedule_lobby(table)
        await self.save(table)

    @app_commands.command(name=ls("bot.cmd.status.name"), description=ls("bot.cmd.status.desc"))
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        table = await self._table_here(interaction)
        if table is None:
            return
        lang = lang_of(interaction)
        runner = table.session.runner if table.session is not None else None
        view = runner.public_view() if runner is not None else None
        text = lobby_text(table, lang)
        if view is not None:
            text += "\n" + status_text(view, lang)
        await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=ls("bot.cmd.hand.name"), description=ls("bot.cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        table = self.manager.of_user(interaction.user.id)
        if table is None or table.session is None:
            lang = lang_of(interaction)
            await reply(interaction, self.not_seated_text(interaction.user.id, lang) if table is None
                        else t("bot.err.not_running", lang))
            return
        await self.play.show_hand(interaction, table)

    @app_commands.command(name=ls("bot.cmd.autowin.name"), description=ls("bot.cmd.autowin.desc"))
    async def autowin(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction)
        table = self.manager.of_user(interaction.user.id)
        if table is None or table.session is None:
            await reply(interaction, self.not_seated_text(interaction.user.id, lang) if table is None
                        else t("bot.err.not_running", lang))
            return
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        on = await self.play.toggle_autowin(table, seat)
        await reply(interaction, t("bot.ok.autowin_on" if on else "bot.ok.autowin_off", lang))

    @app_commands.command(name=ls("bot.cmd.rules.name"), description=ls("bot.cmd.rules.desc"))
    @app_commands.rename(ruleset=ls("bot.opt.ruleset.name"))
    @app_commands.describe(ruleset=ls("bot.opt.ruleset.desc"))
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, ruleset: str = "jiaxing") -> None:
        lang = lang_of(interaction)
        plugin = rulesets.find(ruleset) or rulesets.get("jiaxing")
        png = await asyncio.to_thread(rules_png, lang, plugin.name)  # the illustrated card, off the event loop
        files = [discord.File(io.BytesIO(png), filename="rules.png")] if png else []
        await reply(interaction, plugin.rules_summary(lang, 1), files=files)

    @app_commands.command(name=ls("bot.cmd.score.name"), description=ls("bot.cmd.score.desc"))
    @app_commands.rename(tiles=ls("bot.opt.tiles.name"), wildcard=ls("bot.opt.wildcard.name"), stake=ls("bot.opt.stake.name"),
                         ruleset=ls("bot.opt.ruleset.name"))
    @app_commands.describe(tiles=ls("bot.opt.tiles.desc"), wildcard=ls("bot.opt.wildcard.desc"), stake=ls("bot.opt.stake.desc"),
                           ruleset=ls("bot.opt.ruleset.desc"))
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def score(self, interaction: discord.Interaction, tiles: str, wildcard: str | None = None,
                    stake: app_commands.Range[int, 1, 1_000_000] = 1, ruleset: str = "jiaxing") -> None:
        await reply(interaction, fit(score_hand(tiles, wildcard, stake, lang_of(interaction), ruleset=ruleset)))

    # ------------------------------------------------------------------ lobby buttons
    async def on_lobby_button(self, interaction: discord.Interaction, cid: CustomId) -> None:
        table = self.manager.get(cid.table)
        lang = lang_of(interaction)
        if table is None or table.lobby_message_id is None or table.state == "ended":
            away = cid.table in self.manager.away  # restarting (cogs/cluster.py): press again once it is back
            await reply(interaction, t("bot.err.channel_restarting" if away else "bot.err.stale", lang))
            return
        if not pressed_on(interaction, table.lobby_message_id):  # only from the table's own lobby message
            await refuse(interaction, cid.verb)
            return
        if cid.verb == "join":
            await self.do_join(interaction, table)
        elif cid.verb == "leave":
            await self.do_leave(interaction, table)
        elif cid.verb == "addbot":
            await self.do_addbot(interaction, table)
        elif cid.verb == "start":
            await self.do_start(interaction, table)

    # ------------------------------------------------------------------ restart
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self._resumed:
            self._resumed = True
            try:
                if self.bot.settings.test_resume_delay:  # tests only: the readiness window held open
                    await asyncio.sleep(self.bot.settings.test_resume_delay)
                n = await self.resume_all()
                if n:
                    log.info("resumed %d tables", n)
            finally:  # the readiness gate opens once every table is back (docs/bot.md)
                self.bot.dispatch("tables_resumed")
                self.bot.start_done("tables")
            # results of arranged tables that ended before a restart and were not yet handed on
            task = asyncio.create_task(self._deliver_pending(), name="arranged-pending")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _deliver_pending(self) -> None:
        n = await arranged.deliver_pending(self.bot)
        if n:
            log.info("handed on %d results of arranged tables", n)

    async def stop_tables(self) -> None:
        """A stop (SIGTERM), once the presses being handled are answered: every running table pauses at its
        next safe point and is saved (jxbot/shell/stop.py); the DM setups under way finish (bounded)."""
        await stop.pause_and_save(self, STOP_TABLES)
        if self._background:
            await asyncio.wait(list(self._background), timeout=STOP_EDITS)

    async def resume_all(self) -> int:
        """Rebuild every running table from the store and tell its channel (jxbot/shell/resume.py). Returns how
        many."""
        return await resume.resume_all(self)


async def setup(bot: JxBot) -> None:
    RULESET_CHOICES[:] = ruleset_choices()
    await bot.add_cog(TablesCog(bot))
