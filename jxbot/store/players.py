"""Players and guild settings."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

import aiosqlite

from jxbot.i18n import norm_lang
from jxbot.store.base import (
    StoreBase,
    _check_id,
    _check_text,
    _dumps,
    _retrying,
)
from jxbot.store.errors import (
    InvalidArgument,
    UnknownPlayer,
)
from jxbot.store.models import (
    GuildSettings,
    Player,
)


class PlayersPart(StoreBase):
    # ------------------------------------------------------------------------- players
    @_retrying
    async def ensure_player(self, user_id: int, name: str, lang: str | None = None) -> Player:
        """Create or refresh a player (display name; the language only when given)."""
        _check_id(user_id, "user id")
        name = _check_text(name, "name", 100)
        lang_n = None if lang is None else norm_lang(lang)
        now = time.time()
        async with self._write() as db:
            await db.execute(
                "INSERT INTO players(user_id, name, lang, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(user_id) DO UPDATE SET name = excluded.name, "
                "lang = COALESCE(excluded.lang, players.lang), updated_at = excluded.updated_at",
                (user_id, name, lang_n, now, now),
            )
            row = await self._one(db, "SELECT user_id, name, lang, created_at FROM players WHERE user_id = ?", (user_id,))
        return Player(*row)

    @_retrying
    async def set_lang(self, user_id: int, lang: str | None) -> Player:
        """Set (or with ``None`` clear) a player's language preference."""
        _check_id(user_id, "user id")
        lang_n = None if lang is None else norm_lang(lang)
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE players SET lang = ?, updated_at = ? WHERE user_id = ?", (lang_n, time.time(), user_id)
            )
            if cur.rowcount == 0:
                raise UnknownPlayer(f"user {user_id}")
            row = await self._one(db, "SELECT user_id, name, lang, created_at FROM players WHERE user_id = ?", (user_id,))
        return Player(*row)

    async def get_player(self, user_id: int) -> Player | None:
        _check_id(user_id, "user id")
        async with self._read() as db:
            row = await self._one(db, "SELECT user_id, name, lang, created_at FROM players WHERE user_id = ?", (user_id,))
        return Player(*row) if row else None

    async def _require_player(self, db: aiosqlite.Connection, user_id: int) -> None:
        if await self._one(db, "SELECT 1 FROM players WHERE user_id = ?", (user_id,)) is None:
            raise UnknownPlayer(f"user {user_id}")

    # ------------------------------------------------------------------------- guild settings
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        _check_id(guild_id, "guild id")
        async with self._read() as db:
            return await self._settings(db, guild_id)

    async def _settings(self, db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        row = await self._one(db, "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return GuildSettings.from_json(guild_id, json.loads(row[0])) if row else GuildSettings(guild_id)

    @_retrying
    async def update_guild_settings(self, guild_id: int, **fields: Any) -> GuildSettings:
        """Change some settings; unknown names or out-of-range values raise ``InvalidArgument``."""
        _check_id(guild_id, "guild id")
        bad = sorted(set(fields) - set(GuildSettings.EDITABLE))
        if bad:
            raise InvalidArgument(f"unknown setting(s): {', '.join(bad)}")
        if "allowed_channels" in fields:
            ch = fields["allowed_channels"]
            if not isinstance(ch, list | tuple | set | frozenset):
                raise InvalidArgument("allowed_channels must be a list of channel ids")
            fields["allowed_channels"] = tuple(sorted(ch))
        async with self._write() as db:
            if self._lock:  # one change at a time per guild (the row may not exist yet: an advisory lock)
                await self._one(db, "SELECT pg_advisory_xact_lock(hashtextextended('settings:' || ?::text, 0))",
                                (str(guild_id),))
            old = await self._settings(db, guild_id)
            explicit = tuple(sorted(set(old.explicit) | set(fields)))
            new = replace(old, explicit=explicit, **fields).validated()
            await db.execute(
                "INSERT INTO guild_settings(guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, _dumps(new.to_json()), time.time()),
            )
        return new
