"""One string catalog for zh-CN and en.

Each area registers its own strings (``register({...})``) so that modules do not collide;
``t(key, lang, **kw)`` formats a string, falling back to English, then to the key itself.
"""

from __future__ import annotations

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

_CATALOG: dict[str, dict[str, str]] = {}


def norm_lang(lang: str | None) -> str:
    """Map Discord locales and user input (``zh-CN``, ``zh_TW``, ``en-US``…) to ``zh`` or ``en``."""
    if not lang:
        return DEFAULT_LANG
    return "zh" if lang.lower().startswith("zh") else "en"


def register(entries: dict[str, dict[str, str]]) -> None:
    """Add strings: ``{"key": {"zh": "…", "en": "…"}}``. A key registered twice must agree."""
    for key, texts in entries.items():
        old = _CATALOG.get(key)
        if old is not None and old != texts:
            raise ValueError(f"i18n key {key!r} registered twice with different texts")
        _CATALOG[key] = texts


def t(key: str, lang: str | None = None, /, **kw: object) -> str:
    texts = _CATALOG.get(key)
    if texts is None:
        return key
    text = texts.get(norm_lang(lang)) or texts.get("en") or key
    return text.format(**kw) if kw else text


def has(key: str) -> bool:
    return key in _CATALOG
