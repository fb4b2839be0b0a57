"""Point discord.py at another Discord API (the local test double) by settings, not by patching code.

``configure(api_base)`` is called once by the bot at start with the ``DISCORD_API_BASE`` setting:

* ``None`` or ``""``: nothing changes, discord.py talks to the real Discord.
* ``"http://127.0.0.1:8765/api/v10"``: every REST call (``discord.http.Route``, which the interaction
  and webhook adapters share) goes there, and the gateway defaults to the same host
  (``ws://127.0.0.1:8765/``), which is where the double answers ``GET /gateway/bot``.
  ``DISCORD_GATEWAY_URL`` in the environment overrides the derived gateway.

A non-sharded ``discord.Client`` never asks ``/gateway/bot``; it connects to
``DiscordWebSocket.DEFAULT_GATEWAY`` and afterwards follows READY's ``resume_gateway_url``. A bot that
wants the API's own answer can ``await use_gateway_from_api(client)`` in ``setup_hook``.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

__all__ = ["configure", "derive_gateway", "use_gateway_from_api"]


def derive_gateway(api_base: str) -> str:
    """``http://h:p/api/v10`` → ``ws://h:p/`` (``https`` → ``wss``)."""
    parts = urlsplit(api_base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"api_base must be an http(s) URL, not {api_base!r}")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/"


def configure(api_base: str | None, gateway_url: str | None = None) -> None:
    """Set discord.py's REST base (and gateway) when ``api_base`` is given; otherwise do nothing."""
    if not api_base:
        return
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api_base.rstrip("/")
    gateway = gateway_url or os.environ.get("DISCORD_GATEWAY_URL") or derive_gateway(api_base)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


async def use_gateway_from_api(client: Any) -> str:
    """Ask ``GET /gateway/bot`` (through the client's HTTP session) and connect there from now on."""
    import discord.gateway
    import yarl

    _shards, url, _limits = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    return str(url)
