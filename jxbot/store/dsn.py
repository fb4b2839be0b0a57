"""Telling a PostgreSQL DSN from a SQLite path, and showing one without its password (no asyncpg import:
the settings use it)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

PG_SCHEMES = ("postgresql://", "postgres://")


def is_pg_dsn(path: str | None) -> bool:
    return bool(path) and path.startswith(PG_SCHEMES)  # type: ignore[union-attr]


def redact(dsn: str) -> str:
    """The DSN without its password (for messages and logs)."""
    try:
        parts = urlsplit(dsn)
    except ValueError:
        return "postgresql://…"
    netloc = parts.netloc
    if "@" in netloc:
        cred, host = netloc.rsplit("@", 1)
        user = cred.split(":", 1)[0]
        netloc = f"{user}:***@{host}" if ":" in cred else f"{user}@{host}"
    query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))
