"""Answering an interaction, exactly once: the user's language (:func:`lang_of`), :func:`reply` whether or not
it was acknowledged yet, and the acknowledgement guard (:func:`ack_later`): anything still unanswered after a
while is deferred, so Discord's 3 s never run out, and the guard and the handler never both answer
(:func:`take_response`, :func:`after_guard`; docs/bot.md).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from jxbot.i18n import norm_lang

log = logging.getLogger("jxbot.bot")


def lang_of(interaction: discord.Interaction) -> str:
    """The language to answer this user in (their Discord client locale)."""
    return norm_lang(str(interaction.locale) if interaction.locale else None)


def guild_lang(interaction: discord.Interaction, default: str) -> str:
    """The language of what the bot posts in this server's channels (a table's texts, an event's announcements):
    the server's own (its preferred locale, sent with the interaction), else ``default`` (the bot's)."""
    loc = interaction.guild_locale
    return norm_lang(str(loc)) if loc else default


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kw: Any) -> int | None:
    """Answer an interaction whether or not it has been acknowledged yet. Returns the id of the message
    sent (None when Discord did not say), so a message carrying components can be bound to them."""
    try:
        if take_response(interaction):
            sent = await interaction.response.send_message(content, ephemeral=ephemeral, **kw)
            return getattr(sent, "message_id", None)
    except discord.InteractionResponded:
        pass
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:  # the 2 s guard acknowledged it at the same moment
            raise
    await after_guard(interaction)
    msg = await interaction.followup.send(content or "", ephemeral=ephemeral, **kw)
    return getattr(msg, "id", None)


def take_response(interaction: discord.Interaction) -> bool:
    """True when the caller may send the interaction's first response now: nothing answered it and the
    acknowledgement guard is not deferring it (so the two never both answer: Discord's 40060)."""
    if interaction.response.is_done() or interaction.extras.get("responder") == "guard":
        return False
    interaction.extras["responder"] = "handler"
    return True


async def after_guard(interaction: discord.Interaction) -> None:
    """Wait until a deferral the guard began has reached Discord (followups and original edits need it)."""
    task = interaction.extras.get("ack_guard")
    if interaction.extras.get("responder") == "guard" and task is not None and not task.done():
        await asyncio.shield(task)


ALREADY_ACKNOWLEDGED = 40060  # Discord: "Interaction has already been acknowledged"


ACK_AFTER = 2.0  # seconds: acknowledge anything still unanswered by then (Discord allows 3)
# a button press is normally answered with its result (the updated panel) within ~0.1 s; under load it is
# deferred sooner than a command, and its result then edits the pressed message (a free webhook edit)
BUTTON_ACK_AFTER = 0.6


def ack_later(interaction: discord.Interaction, *, after: float | None = None, update: bool = False) -> asyncio.Task[None]:
    """Make sure ``interaction`` is acknowledged within Discord's 3 s even if its handler is slow: after
    ``after`` seconds, defer it if nothing answered yet (a deferred update for buttons, else an ephemeral
    "thinking…"). Cancel the returned task when the handler is done."""

    wait = ACK_AFTER if after is None else after

    async def run() -> None:
        await asyncio.sleep(wait)
        if interaction.response.is_done() or interaction.extras.get("responder") is not None:
            return  # answered, or its handler is sending the answer right now
        interaction.extras["responder"] = "guard"
        log.warning("interaction %s still unanswered after %.1f s; deferring", interaction.id, wait)
        try:
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except (discord.InteractionResponded, discord.HTTPException):
            pass

    task = asyncio.create_task(run(), name=f"ack-guard:{interaction.id}")
    interaction.extras["ack_guard"] = task
    return task


def cancel_guard(interaction: discord.Interaction) -> None:
    task = interaction.extras.pop("ack_guard", None)
    if task is not None:
        task.cancel()


def connection_closed(exc: BaseException) -> bool:
    """``exc`` (or what caused it) says the HTTP call could not be made because the bot's HTTP session is
    closed or its connection went: aiohttp's ``RuntimeError('Session is closed')``, a connection error."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, RuntimeError) and "Session is closed" in str(e):
            return True
        if isinstance(e, (aiohttp.ClientConnectionError, ConnectionError)):
            return True
        e = getattr(e, "original", None) or e.__cause__ or e.__context__
    return False


async def answer_quietly(interaction: discord.Interaction, key: str) -> None:
    """Tell the presser ``key`` (a catalog text); a closed HTTP session (the bot stopping) is one INFO line."""
    from jxbot.i18n import t

    try:
        await reply(interaction, t(key, lang_of(interaction)))
    except discord.HTTPException:
        pass
    except Exception as exc:
        if not connection_closed(exc):
            raise
        log.info("interaction %s not answered: the bot is stopping (%s)", interaction.id, type(exc).__name__)


class _Refusing429:
    """An ``aiohttp`` request context that raises a 429 as :class:`discord.HTTPException` (with its
    ``retry_after``) instead of handing it to discord.py's webhook adapter, which would sleep it out."""

    def __init__(self, cm: Any) -> None:
        self._cm = cm

    async def __aenter__(self) -> Any:
        resp = await self._cm.__aenter__()
        if resp.status != 429:
            return resp
        try:
            data = await discord.webhook.async_.json_or_text(resp)
        except (ValueError, aiohttp.ClientError):
            data = {}
        await self._cm.__aexit__(None, None, None)
        exc = discord.HTTPException(resp, data)
        retry = data.get("retry_after") if isinstance(data, dict) else None
        exc.retry_after = float(retry if retry is not None else resp.headers.get("Retry-After") or 1.0)  # type: ignore[attr-defined]
        raise exc

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._cm.__aexit__(*exc)


class _Session429:
    def __init__(self, session: Any) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> _Refusing429:
        return _Refusing429(self._session.request(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class _NoWaitAdapter(discord.webhook.async_.AsyncWebhookAdapter):
    """The webhook adapter in use (discord.py's, or a test's stand-in), but a 429 is raised to the caller,
    never slept out inline: every request (the inherited methods all call ``request``) goes to the adapter
    in use through a session that refuses a 429."""

    def __init__(self, inner: Any) -> None:
        super().__init__()
        self._inner = inner

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:
        return await self._inner.request(route, _Session429(session), **kwargs)


class no_inline_429:  # noqa: N801 (a context manager, used as ``with no_inline_429():``)
    """Within it, an interaction token's webhook requests (edit the original response, follow-ups) raise a
    429 at once (``HTTPException``, ``status`` 429, ``retry_after``) instead of discord.py sleeping it out
    (up to five times) inside the request: a panel update through a token holds its seat's lock while it
    is sent, and the player's next press waits for that lock — the caller (the edit coalescer) waits the
    429 out with no lock held and sends the newest state then."""

    def __enter__(self) -> None:
        ctx = discord.webhook.async_.async_context
        self._token = ctx.set(_NoWaitAdapter(ctx.get()))

    def __exit__(self, *exc: Any) -> None:
        discord.webhook.async_.async_context.reset(self._token)
