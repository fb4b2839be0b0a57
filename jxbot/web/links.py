"""The web companion's addresses and its signed private links. Pure (no aiohttp): the bot's cogs build the
links they post with it, the web server checks them.

A player's own view of a finished hand (their concealed tiles at every step) is behind a link signed with
``JXBOT_WEB_SECRET``: ``/h/<hand>/me?seat=S&exp=UNIX&sig=HEX``, where ``sig`` is the HMAC-SHA256 of
``"me|<hand>|<seat>|<exp>"``, compared in constant time; an expired or altered link is refused (403).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from urllib.parse import quote, urlencode

PRIVATE_DAYS = 7  # a private link works this long
HAND_RE = re.compile(r"[0-9A-Za-z_.:-]{1,80}\Z")  # what a hand or table id may look like in an address


def _mac(secret: str, hand_id: str, seat: int, exp: int) -> str:
    msg = f"me|{hand_id}|{seat}|{exp}".encode()
    return hmac.new(secret.encode(), msg, hashlib.sha256).hexdigest()


def sign(secret: str, hand_id: str, seat: int, *, now: float | None = None, days: float = PRIVATE_DAYS) -> dict:
    """The query of a private link: ``{"seat", "exp", "sig"}``."""
    exp = int((time.time() if now is None else now) + days * 86400)
    return {"seat": seat, "exp": exp, "sig": _mac(secret, hand_id, seat, exp)}


def check(secret: str | None, hand_id: str, seat: object, exp: object, sig: object, *,
          now: float | None = None) -> int | None:
    """The seat a private link opens, or None (no secret, a bad or expired signature)."""
    if not secret or not isinstance(sig, str) or len(sig) != 64:
        return None
    try:
        s, e = int(str(seat)), int(str(exp))
    except ValueError:
        return None
    if not 0 <= s < 4 or e < (time.time() if now is None else now):
        return None
    return s if hmac.compare_digest(_mac(secret, hand_id, s, e), sig) else None


def hand_path(hand_id: str, step: int | None = None, seat: int | None = None) -> str:
    q = {k: v for k, v in (("step", step), ("seat", seat)) if v is not None}
    return f"/h/{quote(hand_id, safe='')}" + (f"?{urlencode(q)}" if q else "")


def private_path(secret: str, hand_id: str, seat: int, *, now: float | None = None) -> str:
    return f"/h/{quote(hand_id, safe='')}/me?{urlencode(sign(secret, hand_id, seat, now=now))}"


def table_path(table_id: str) -> str:
    return f"/t/{quote(table_id, safe='')}"


def profile_path(guild_id: int, user_id: int) -> str:
    return f"/g/{guild_id}/p/{user_id}"


def guild_path(guild_id: int) -> str:
    return f"/g/{guild_id}"


def base_for(settings: object, guild_settings: object) -> str | None:
    """``JXBOT_WEB_URL`` when the web companion shows this server's pages (the server opted in with
    ``/admin web on``, or ``JXBOT_WEB_ALL_SERVERS``), else None: the bot's messages then carry no web link."""
    base = getattr(settings, "web_url", None)
    if not base:
        return None
    if getattr(settings, "web_all_servers", False) or getattr(guild_settings, "web", False):
        return str(base)
    return None


def full(base: str | None, path: str) -> str | None:
    """``JXBOT_WEB_URL`` + a path, or None when the bot has no web address."""
    return f"{base.rstrip('/')}{path}" if base else None
