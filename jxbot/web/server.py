"""Starting and stopping the web companion's listener: inside the bot (``jxbot run`` with JXBOT_WEB_PORT) or
alone (``jxbot web``), over the store it is given."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from jxbot.web.app import WebApp, WebConfig

log = logging.getLogger("jxbot.web")


def config_from(settings: Any, *, all_servers: bool | None = None) -> WebConfig:
    return WebConfig(delay=settings.watch_delay, secret=settings.web_secret, base_url=settings.web_url,
                     all_servers=settings.web_all_servers if all_servers is None else all_servers,
                     rate=settings.web_rate)


class WebServer:
    """``await start(host, port)`` (port 0: any free one, see :attr:`address`), ``await stop()``."""

    def __init__(self, store: Any, config: WebConfig) -> None:
        self.webapp = WebApp(store, config)
        self._runner: web.AppRunner | None = None
        self.address: tuple[str, int] | None = None

    async def start(self, host: str, port: int) -> None:
        runner = web.AppRunner(self.webapp.app, access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.address = sockets[0].getsockname()[:2] if sockets else (host, port)
        log.info("web pages on http://%s:%d/", *self.address)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()  # the app's cleanup stops its drawing lane
