"""Settings from the environment and an optional ``.env`` file (the environment wins).

``Settings.load()`` reads ``.env`` (a tiny parser: ``KEY=value`` lines, ``#`` comments, optional
``export`` and quotes), overlays ``os.environ`` and converts each setting to its type. The bot token is
never printed: ``repr(settings)`` and ``settings.describe()`` mask it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path


class ConfigError(ValueError):
    """A setting has a value that cannot be used; the message names the setting."""


def parse_shard_ids(text: str, shard_count: int | None, name: str = "--shards") -> tuple[int, ...]:
    """Shard ids (``JXBOT_SHARD_IDS``, ``--shards``; jxbot/cluster/shards.py uses them):
    ``"0-3"``, ``"0,2,5"``, ``"0-1,4"`` → sorted, distinct shard ids, each below ``shard_count``."""
    if shard_count is None:
        raise ConfigError(f"{name} needs a shard count (--shard-count / JXBOT_SHARD_COUNT)")
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        lo_s, dash, hi_s = part.partition("-")
        try:
            lo = int(lo_s)
            hi = int(hi_s) if dash else lo
        except ValueError:
            raise ConfigError(f"{name} must be shard ids such as 0-3 or 0,2,5, not {text!r}") from None
        if lo > hi or lo < 0:
            raise ConfigError(f"{name}: {part!r} is not a range of shard ids")
        if hi >= shard_count:
            raise ConfigError(f"{name}: shard {hi} does not exist with a shard count of {shard_count} "
                              f"(ids are 0 to {shard_count - 1})")
        out.update(range(lo, hi + 1))
    if not out:
        raise ConfigError(f"{name} names no shard")
    return tuple(sorted(out))


def parse_dotenv(text: str) -> dict[str, str]:
    """Parse ``.env`` text. Unknown syntax on a line is an error naming the line number."""
    out: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key or not key.replace("_", "").isalnum():
            raise ConfigError(f".env line {lineno}: expected KEY=value")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        else:
            # an unquoted value ends at an inline comment
            hash_at = value.find(" #")
            if hash_at >= 0:
                value = value[:hash_at].rstrip()
        out[key] = value
    return out


def _int(name: str, value: str, *, lo: int | None = None, hi: int | None = None) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {value!r}") from None
    if lo is not None and n < lo or hi is not None and n > hi:
        raise ConfigError(f"{name} must be between {lo} and {hi}, not {n}")
    return n


def _float(name: str, value: str, *, lo: float, hi: float) -> float:
    try:
        x = float(value.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {value!r}") from None
    if not lo <= x <= hi:
        raise ConfigError(f"{name} must be between {lo} and {hi}, not {x}")
    return x


def _db_setting(v: str) -> str:
    """A SQLite path as given, or a PostgreSQL DSN (``postgresql://`` / ``postgres://``) that parses."""
    from urllib.parse import urlsplit

    from jxbot.store.dsn import is_pg_dsn, redact

    if not is_pg_dsn(v):
        return v
    try:
        parts = urlsplit(v)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise ConfigError(f"JXBOT_DB is not a valid PostgreSQL address: {redact(v)}") from None
    if not parts.hostname and "host=" not in parts.query:
        raise ConfigError(f"JXBOT_DB names no server: {redact(v)} (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)")
    return v


_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _web_settings(get: Callable[[str], str | None]) -> dict[str, object]:
    """The web companion's settings (docs/web.md)."""
    kw: dict[str, object] = {}
    if (v := get("JXBOT_WEB_PORT")) is not None:
        kw["web_port"] = _int("JXBOT_WEB_PORT", v, lo=1, hi=65535)
    if (v := get("JXBOT_WEB_HOST")) is not None:
        v = v.strip()
        if any(c.isspace() or c in "/@" for c in v):
            raise ConfigError(f"JXBOT_WEB_HOST must be an address such as 127.0.0.1 or 0.0.0.0, not {v!r}")
        kw["web_host"] = v
    if (v := get("JXBOT_WEB_URL")) is not None:
        v = v.strip().rstrip("/")
        if not v.startswith(("http://", "https://")) or any(c.isspace() or c in "<>\"'" for c in v):
            raise ConfigError(f"JXBOT_WEB_URL must be an http(s) address such as https://mj.example.org, not {v!r}")
        kw["web_url"] = v
    if (v := get("JXBOT_WEB_SECRET")) is not None:
        if len(v.strip()) < 16:
            raise ConfigError("JXBOT_WEB_SECRET must be at least 16 characters (e.g. `openssl rand -hex 32`)")
        kw["web_secret"] = v.strip()
    if (v := get("JXBOT_WEB_ALL_SERVERS")) is not None:
        v = v.strip().lower()
        if v not in ("0", "1", "true", "false", "yes", "no"):
            raise ConfigError(f"JXBOT_WEB_ALL_SERVERS must be 0 or 1, not {v!r}")
        kw["web_all_servers"] = v in ("1", "true", "yes")
    if (v := get("JXBOT_WEB_RATE")) is not None:
        kw["web_rate"] = _float("JXBOT_WEB_RATE", v, lo=0.0, hi=100000.0)
    return kw


@dataclass(frozen=True)
class Settings:
    discord_token: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    db_path: str = "jxbot.sqlite3"
    silver_scope: str = "guild"  # "guild": a wallet per server; "global": one wallet everywhere
    discord_api_base: str | None = None  # point the bot at a local Discord API double
    log_level: str = "INFO"
    lang: str = "zh"  # language of channel messages when a guild has none set
    # table defaults (a guild's admin can change them with /admin settings)
    default_stake: int = 5
    min_stake: int = 1
    max_stake: int = 1000
    fee: int = 1
    claim_window: float = 5.0
    turn_seconds: float = 20.0
    contract_seconds: float = 15.0
    next_hand_seconds: float = 10.0
    event_tick: float = 15.0  # seconds between the events' checks (scheduled starts, check-in opening, wait limits)
    starting_grant: int = 1000
    daily_amount: int = 100
    edit_interval: float = 1.0  # at most one edit per message per this many seconds
    edit_budget: float = 25.0  # table-message edits per second, all channels (Discord: ~50 requests/s in all; 0: no limit)
    picture_pace: float = 10.0  # table pictures per second, all channels, whichever route (CPU; 0: no pace)
    expert_queue: int = 4  # expert decisions queued in the worker before an expert answers with its hard proposal
    request_budget: float = 40.0  # counted requests per second of the bot token, all processes together (0: no limit)
    token_routing: bool = True  # updates through interaction tokens (not counted) where one is fresh (issue 28)
    token_life: float = 900.0  # seconds an interaction token lives (Discord: 15 minutes; tests shorten it)
    watch_delay: int = 2  # a watcher's view is this many moves behind the table (at least 1), docs/watch.md
    watch_budget: float = 5.0  # edits per second of the watchers' views, all tables (0: no limit)
    watch_token_seconds: float = 840.0  # a watcher's view says it stopped updating after this (Discord: 15 min)
    computer_delay: float = 1.0  # pacing of computer moves, so people can follow them
    max_hands: int | None = None  # end every match after this many hands (None: the ruleset's match length)
    test_seed: int | None = None  # TESTS ONLY: every table's wall from this seed (predictable!)
    start_wait: float = 5.0  # a command or press while the tables are resumed waits this long for them, then is refused
    test_resume_delay: float = 0.0  # TESTS ONLY: seconds the start-up waits before resuming tables (a long window)
    test_stop_delay: float = 0.0  # TESTS ONLY: seconds a stop holds its closed gate before it drains (a long stop)
    draw_processes: int | None = None  # pictures drawn in this many processes (0: threads; None: auto)
    lag_log: float = 0.0  # log the event loop's lag every this many seconds (0: off); for load tests
    unsafe_discord_debug: bool = False  # UNSAFE: discord.py's DEBUG logs carry tokens and message payloads
    owner_ids: tuple[int, ...] = ()  # the bot's owners besides the application's owner (global-scope money)
    # Discord shards this process connects (None: all of them, unsharded as before); see docs/bot.md, "N processes"
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    # metrics and health (docs/ops.md): an HTTP listener on this port (None: off) and address (loopback)
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    # the ranked queue (docs/ranked.md, "The queue"): jxbot.ladder.QueueSettings(band, widen_per_minute,
    # max_together_per_day)
    ranked_band: float = 150.0
    ranked_band_widen: float = 100.0
    ranked_max_together: int = 3
    # the coach's reviews (docs/coach.md): worker processes evaluating decisions (0: threads inside the bot) and
    # the CPU milliseconds one hand's review may take in all (its decisions share it)
    review_processes: int = 1
    review_budget_ms: int = 15_000

    # the web companion (docs/web.md): served on this port by `jxbot run` (None: off), bound to this address
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    web_url: str | None = None  # the public address of the web pages, for the links the bot posts
    web_secret: str | None = field(default=None, repr=False)  # HMAC key of the private hand links
    web_all_servers: bool = False  # a private deployment: every server's pages, without /admin web on
    web_rate: float = 20.0  # requests per second per address (a burst of 4× that); 0: no limit
    ENV = {
        "discord_token": "DISCORD_TOKEN",
        "dev_guild_id": "DEV_GUILD_ID",
        "db_path": "JXBOT_DB",
        "silver_scope": "SILVER_SCOPE",
        "discord_api_base": "DISCORD_API_BASE",
        "log_level": "LOG_LEVEL",
        "lang": "JXBOT_LANG",
        "default_stake": "JXBOT_DEFAULT_STAKE",
        "min_stake": "JXBOT_MIN_STAKE",
        "max_stake": "JXBOT_MAX_STAKE",
        "fee": "JXBOT_FEE",
        "claim_window": "JXBOT_CLAIM_WINDOW",
        "turn_seconds": "JXBOT_TURN_SECONDS",
        "contract_seconds": "JXBOT_CONTRACT_SECONDS",
        "next_hand_seconds": "JXBOT_NEXT_HAND_SECONDS",
        "event_tick": "JXBOT_EVENT_TICK",
        "starting_grant": "JXBOT_STARTING_GRANT",
        "daily_amount": "JXBOT_DAILY_AMOUNT",
        "edit_interval": "JXBOT_EDIT_INTERVAL",
        "edit_budget": "JXBOT_EDIT_BUDGET",
        "picture_pace": "JXBOT_PICTURE_PACE",
        "expert_queue": "JXBOT_EXPERT_QUEUE",
        "request_budget": "JXBOT_REQUEST_BUDGET",
        "token_routing": "JXBOT_TOKEN_ROUTING",
        "token_life": "JXBOT_TOKEN_LIFE",
        "computer_delay": "JXBOT_COMPUTER_DELAY",
        "watch_delay": "JXBOT_WATCH_DELAY",
        "watch_budget": "JXBOT_WATCH_BUDGET",
        "watch_token_seconds": "JXBOT_WATCH_TOKEN_SECONDS",
        "max_hands": "JXBOT_MAX_HANDS",
        "test_seed": "JXBOT_TEST_SEED",
        "test_resume_delay": "JXBOT_TEST_RESUME_DELAY",
        "start_wait": "JXBOT_START_WAIT",
        "test_stop_delay": "JXBOT_TEST_STOP_DELAY",
        "lag_log": "JXBOT_LAG_LOG",
        "draw_processes": "JXBOT_DRAW_PROCESSES",
        "unsafe_discord_debug": "JXBOT_UNSAFE_DISCORD_DEBUG",
        "owner_ids": "JXBOT_OWNER_IDS",
        "shard_ids": "JXBOT_SHARD_IDS",
        "shard_count": "JXBOT_SHARD_COUNT",
        "metrics_port": "JXBOT_METRICS_PORT",
        "metrics_host": "JXBOT_METRICS_HOST",
        "ranked_band": "JXBOT_RANKED_BAND",
        "ranked_band_widen": "JXBOT_RANKED_BAND_WIDEN",
        "ranked_max_together": "JXBOT_RANKED_MAX_TOGETHER",
        "web_port": "JXBOT_WEB_PORT",
        "web_host": "JXBOT_WEB_HOST",
        "web_url": "JXBOT_WEB_URL",
        "web_secret": "JXBOT_WEB_SECRET",
        "web_all_servers": "JXBOT_WEB_ALL_SERVERS",
        "web_rate": "JXBOT_WEB_RATE",
        "review_processes": "JXBOT_REVIEW_PROCESSES",
        "review_budget_ms": "JXBOT_REVIEW_BUDGET_MS",
    }

    @classmethod
    def from_mapping(cls, env: Mapping[str, str]) -> Settings:
        kw: dict[str, object] = {}
        e = {k: v for k, v in env.items() if v is not None and str(v).strip() != ""}
        get = e.get
        if (v := get("DISCORD_TOKEN")) is not None:
            kw["discord_token"] = v.strip()
        if (v := get("DEV_GUILD_ID")) is not None:
            kw["dev_guild_id"] = _int("DEV_GUILD_ID", v, lo=1, hi=2**64 - 1)
        if (v := get("JXBOT_DB")) is not None:
            kw["db_path"] = _db_setting(v)
        if (v := get("SILVER_SCOPE")) is not None:
            v = v.strip().lower()
            if v not in ("guild", "global"):
                raise ConfigError(f"SILVER_SCOPE must be 'guild' or 'global', not {v!r}")
            kw["silver_scope"] = v
        if (v := get("DISCORD_API_BASE")) is not None:
            v = v.strip().rstrip("/")
            if not v.startswith(("http://", "https://")):
                raise ConfigError(f"DISCORD_API_BASE must be an http(s) URL, not {v!r}")
            kw["discord_api_base"] = v
        if (v := get("LOG_LEVEL")) is not None:
            v = v.strip().upper()
            if v not in _LOG_LEVELS:
                raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, not {v!r}")
            kw["log_level"] = v
        if (v := get("JXBOT_LANG")) is not None:
            from jxbot.i18n import parse_lang

            try:
                kw["lang"] = parse_lang(v)
            except ValueError as exc:
                raise ConfigError(f"JXBOT_LANG: {exc}") from None
        ints = {"default_stake": (1, 10**9), "min_stake": (1, 10**9), "max_stake": (1, 10**9),
                "fee": (0, 10**9), "starting_grant": (0, 10**12), "daily_amount": (0, 10**12),
                "max_hands": (1, 10**6), "test_seed": (0, 2**63 - 1), "ranked_max_together": (1, 1000),
                "watch_delay": (0, 50), "review_processes": (0, 32), "review_budget_ms": (100, 600_000),
                "expert_queue": (0, 1000)}
        for name, (lo, hi) in ints.items():
            if (v := get(cls.ENV[name])) is not None:
                kw[name] = _int(cls.ENV[name], v, lo=lo, hi=hi)
        floats = {"claim_window": (1.0, 60.0), "turn_seconds": (3.0, 600.0), "contract_seconds": (3.0, 120.0),
                  "next_hand_seconds": (0.0, 600.0), "event_tick": (0.1, 600.0), "edit_interval": (0.0, 10.0), "computer_delay": (0.0, 10.0),
                  "edit_budget": (0.0, 10000.0), "picture_pace": (0.0, 10000.0), "request_budget": (0.0, 10000.0), "token_life": (1.0, 900.0),
                  "watch_budget": (0.0, 1000.0), "watch_token_seconds": (1.0, 900.0),
                  "lag_log": (0.0, 3600.0), "test_resume_delay": (0.0, 60.0),
                  "start_wait": (0.0, 60.0), "test_stop_delay": (0.0, 10.0),
                  "ranked_band": (0.0, 10000.0), "ranked_band_widen": (0.0, 10000.0)}
        for name, (flo, fhi) in floats.items():
            if (v := get(cls.ENV[name])) is not None:
                kw[name] = _float(cls.ENV[name], v, lo=flo, hi=fhi)
        if (v := get("JXBOT_DRAW_PROCESSES")) is not None and v.strip().lower() != "auto":
            if not v.strip().isdigit() or int(v) > 32:
                raise ConfigError(f"JXBOT_DRAW_PROCESSES must be 'auto' or a whole number from 0 to 32, not {v!r}")
            kw["draw_processes"] = int(v)
        if (v := get("JXBOT_UNSAFE_DISCORD_DEBUG")) is not None:
            v = v.strip().lower()
            if v not in ("0", "1", "true", "false", "yes", "no"):
                raise ConfigError(f"JXBOT_UNSAFE_DISCORD_DEBUG must be 0 or 1, not {v!r}")
            kw["unsafe_discord_debug"] = v in ("1", "true", "yes")
        if (v := get("JXBOT_TOKEN_ROUTING")) is not None and v.strip():
            v = v.strip().lower()
            if v not in ("0", "1", "true", "false", "yes", "no"):
                raise ConfigError(f"JXBOT_TOKEN_ROUTING must be 0 or 1, not {v!r}")
            kw["token_routing"] = v in ("1", "true", "yes")
        if (v := get("JXBOT_OWNER_IDS")) is not None:
            kw["owner_ids"] = tuple(_int("JXBOT_OWNER_IDS", x, lo=1, hi=2**64 - 1)
                                    for x in v.replace(",", " ").split())
        if (v := get("JXBOT_SHARD_COUNT")) is not None:
            kw["shard_count"] = _int("JXBOT_SHARD_COUNT", v, lo=1, hi=4096)
        if (v := get("JXBOT_SHARD_IDS")) is not None:
            kw["shard_ids"] = parse_shard_ids(v, kw.get("shard_count"), "JXBOT_SHARD_IDS")  # type: ignore[arg-type]
        if (v := get("JXBOT_METRICS_PORT")) is not None:
            kw["metrics_port"] = _int("JXBOT_METRICS_PORT", v, lo=1, hi=65535)
        if (v := get("JXBOT_METRICS_HOST")) is not None:
            v = v.strip()
            if any(c.isspace() or c in "/@" for c in v):
                raise ConfigError(f"JXBOT_METRICS_HOST must be an address such as 127.0.0.1 or 0.0.0.0, not {v!r}")
            kw["metrics_host"] = v
        kw.update(_web_settings(get))
        s = cls(**kw)  # type: ignore[arg-type]
        if not s.min_stake <= s.default_stake <= s.max_stake:
            raise ConfigError("JXBOT_DEFAULT_STAKE must lie between JXBOT_MIN_STAKE and JXBOT_MAX_STAKE")
        return s

    @classmethod
    def load(cls, env_file: str | os.PathLike[str] | None = ".env",
             environ: Mapping[str, str] | None = None) -> Settings:
        merged: dict[str, str] = {}
        if env_file is not None:
            p = Path(env_file)
            if p.is_file():
                merged.update(parse_dotenv(p.read_text(encoding="utf-8")))
        merged.update(os.environ if environ is None else environ)
        return cls.from_mapping(merged)

    @property
    def has_token(self) -> bool:
        return bool(self.discord_token)

    def describe(self) -> str:
        """One line per setting for the log; the token shows only whether it is set."""
        lines = []
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in ("discord_token", "web_secret"):
                v = "(set)" if v else "(not set)"
            elif f.name == "db_path":
                v = self.db_shown
            elif f.name == "draw_processes" and v is None:
                v = "auto"
            lines.append(f"{self.ENV[f.name]}={v}")
        return "\n".join(lines)

    @property
    def db_shown(self) -> str:
        """JXBOT_DB for messages and logs: a PostgreSQL DSN without its password."""
        from jxbot.store.dsn import is_pg_dsn, redact

        return redact(self.db_path) if is_pg_dsn(self.db_path) else self.db_path

    def __repr__(self) -> str:
        parts = [f"{f.name}={self.db_shown if f.name == 'db_path' else getattr(self, f.name)!r}"
                 for f in fields(self) if f.name not in ("discord_token", "web_secret")]
        tok = "'***'" if self.discord_token else "None"
        return f"Settings(discord_token={tok}, {', '.join(parts)})"

    __str__ = __repr__
