"""The web companion (docs/web.md): read-only pages over the shared store — a server's leaderboards, a
player's profile, a finished hand's replay, the running tables as spectators see them (delayed, public).

A sibling of the Discord shell in the ``discord`` layer: it imports the services below it (the store,
replays, the renderer) and never ``jxbot.bot``, ``jxbot.shell`` or ``cogs``. Modules: ``links`` (addresses,
the signed private links; pure), ``texts`` (zh/en), ``live`` (the delayed public view, the live-table hub),
``data`` (what the store gives, who may see it), ``pictures`` (the renderer off the loop, cached),
``pages`` (HTML), ``app`` (aiohttp routes, headers, limits), ``server`` (start and stop).
"""
