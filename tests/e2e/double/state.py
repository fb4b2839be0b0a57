"""The world a Discord client would show: users, guilds, roles, channels, messages, interactions.

Plain dataclasses; JSON shapes follow Discord API v10 (what discord.py 2.x parses).
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import struct
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# permission bits (https://discord.com/developers/docs/topics/permissions)
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS

# message flags
EPHEMERAL = 1 << 6
LOADING = 1 << 7

_seq = itertools.count(1)


def snowflake() -> int:
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_seq) & 0x3FFFFF)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


@dataclass
class User:
    id: int
    username: str
    locale: str = "zh-CN"
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id), "username": self.username, "global_name": self.global_name or self.username,
            "discriminator": "0", "avatar": None, "public_flags": 0, "flags": 0,
        }
        if self.bot:
            d["bot"] = True
        return d


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "color": 0, "colors": {"primary_color": 0},
            "hoist": False, "icon": None, "unicode_emoji": None, "position": self.position,
            "permissions": str(self.permissions), "managed": self.managed, "mentionable": False, "flags": 0,
        }


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    content_type: str | None
    url: str
    description: str | None = None

    def __post_init__(self) -> None:
        self.dims = png_size(self.data)

    @property
    def size(self) -> int:
        return len(self.data)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id), "filename": self.filename, "size": self.size, "url": self.url,
            "proxy_url": self.url, "content_type": self.content_type,
        }
        if self.description:
            d["description"] = self.description
        if self.dims is not None:
            d["width"], d["height"] = self.dims
        return d


@dataclass
class Message:
    id: int
    channel_id: int
    author: User
    content: str = ""
    guild_id: int | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    ephemeral_for: int | None = None  # user id that alone sees this message
    deleted: bool = False
    edit_count: int = 0
    edit_times: list[float] = field(default_factory=list)
    rest_edits: list[tuple[float, tuple[str, ...]]] = field(default_factory=list)  # (time, custom ids) per PATCH
    created_at: float = field(default_factory=time.monotonic)
    type: int = 0
    allowed_mentions: dict[str, Any] | None = None  # as sent (None: not given, Discord's default: all parse)

    def pinged_users(self) -> set[int]:
        """The users Discord would notify for this message's ``<@id>`` mentions, under its allowed_mentions."""
        named = {int(x) for x in re.findall(r"<@!?(\d+)>", self.content)}
        am = self.allowed_mentions
        if am is None or "users" in (am.get("parse") or []):
            return named
        return named & {int(u) for u in am.get("users") or []}

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "components":  # a new set of components: buttons() flattens them again
            object.__setattr__(self, "_buttons", None)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    def buttons(self) -> list[dict[str, Any]]:
        """Every button (type 2) and select (3, 5–8) in the message, flattened, in display order (kept
        until ``components`` is replaced, as every post and edit does: the players read it all the time)."""
        cached: list[dict[str, Any]] | None = self.__dict__.get("_buttons")
        if cached is None:
            cached = self._flatten()
            object.__setattr__(self, "_buttons", cached)
        return list(cached)

    def _flatten(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for c in items:
                if c.get("type") in (2, 3, 5, 6, 7, 8):
                    out.append(c)
                for key in ("components",):
                    if isinstance(c.get(key), list):
                        walk(c[key])
                if isinstance(c.get("accessory"), dict):
                    walk([c["accessory"]])

        walk(self.components)
        return out

    def image(self) -> bytes | None:
        for a in self.attachments:
            if a.dims is not None or (a.content_type or "").startswith("image/"):
                return a.data
        return None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": self.type,
            "content": self.content, "author": self.author.to_json(), "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [a.to_json() for a in self.attachments],
            "embeds": self.embeds, "components": self.components, "pinned": False, "flags": self.flags,
        }
        if self.guild_id is not None:
            d["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            d["webhook_id"] = str(self.webhook_id)
            d["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            d["interaction_metadata"] = self.interaction_metadata
        return d


@dataclass
class Channel:
    id: int
    type: int  # 0 text, 1 DM, 11 public thread, 12 private thread
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient: User | None = None  # DM
    messages: list[Message] = field(default_factory=list)
    owner_id: int | None = None  # threads

    def visible_messages(self, viewer: int | None) -> list[Message]:
        return [m for m in self.messages if not m.deleted and (m.ephemeral_for is None or m.ephemeral_for == viewer)]

    def last_message_id(self) -> str | None:
        public = [m for m in self.messages if m.ephemeral_for is None and not m.deleted]
        return str(public[-1].id) if public else None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": str(self.id), "type": self.type, "last_message_id": self.last_message_id(), "flags": 0}
        if self.type == 1:
            assert self.recipient is not None
            d["recipients"] = [self.recipient.to_json()]
            return d
        d.update({
            "guild_id": str(self.guild_id), "name": self.name, "position": self.position,
            "permission_overwrites": [o.to_json() for o in self.overwrites],
            "parent_id": str(self.parent_id) if self.parent_id else None, "nsfw": False,
            "rate_limit_per_user": 0,
        })
        if self.type == 0:
            d["topic"] = None
        if self.type in (11, 12):
            d["owner_id"] = str(self.owner_id) if self.owner_id else None
            d["thread_metadata"] = {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                    "archive_timestamp": iso_now()}
            d["message_count"] = len(self.messages)
            d["member_count"] = 1
        return d


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user.to_json(), "roles": [str(r) for r in self.roles], "joined_at": self.joined_at,
            "nick": None, "avatar": None, "deaf": False, "mute": False, "flags": 0, "pending": False,
            "premium_since": None, "communication_disabled_until": None,
        }


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "zh-CN"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        member = self.members.get(user_id)
        if member is not None:
            for rid in member.roles:
                if rid in self.roles:
                    perms |= self.roles[rid].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Discord's algorithm: base, then @everyone overwrite, role overwrites, member overwrite."""
        perms = self.base_permissions(user_id)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        if channel.type in (11, 12) and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id]
        ows = {(o.type, o.id): o for o in channel.overwrites}
        if (ev := ows.get((0, self.id))) is not None:
            perms = (perms & ~ev.deny) | ev.allow
        member = self.members.get(user_id)
        allow = deny = 0
        for rid in member.roles if member else []:
            if (o := ows.get((0, rid))) is not None:
                allow |= o.allow
                deny |= o.deny
        perms = (perms & ~deny) | allow
        if (mo := ows.get((1, user_id))) is not None:
            perms = (perms & ~mo.deny) | mo.allow
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [r.to_json() for r in self.roles.values()], "emojis": [], "stickers": [], "features": [],
            "mfa_level": 0, "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None, "banner": None,
            "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": self.locale,
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "max_members": 500000,
        }

    def create_json(self, member_ids: list[int] | None) -> dict[str, Any]:
        d = self.to_json()
        d.update({
            "joined_at": iso_now(), "large": False, "unavailable": False, "member_count": len(self.members),
            "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "members": [m.to_json() for uid, m in self.members.items() if member_ids is None or uid in member_ids],
            "channels": [c.to_json() for c in self.channels.values() if c.type not in (11, 12)],
            "threads": [c.to_json() for c in self.channels.values() if c.type in (11, 12)],
        })
        return d


@dataclass
class Interaction:
    """One dispatched INTERACTION_CREATE and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 5 modal submit
    user: User
    channel: Channel
    guild: Guild | None
    payload: dict[str, Any]
    message: Message | None = None  # the message a component sits on
    expired_uses: int = 0  # requests on its webhook routes after its token expired (invalid requests)
    created_at: float = field(default_factory=time.monotonic)
    sent_at: float | None = None  # written to the bot's websocket
    acked_at: float | None = None  # the callback arrived
    shown_at: float | None = None  # the answer the user sees arrived (a response with content, or after a defer its edit)
    response_type: int | None = None
    original: Message | None = None  # the @original message, once there is one
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    error: str | None = None  # why the double refused the bot's callback, if it did

    @property
    def latency(self) -> float | None:
        """Click → the bot's callback, in seconds."""
        return None if self.acked_at is None else self.acked_at - self.created_at

    @property
    def shown_latency(self) -> float | None:
        """Click → what the user sees as the answer (after a deferral: its webhook edit or follow-up)."""
        return None if self.shown_at is None else self.shown_at - self.created_at
