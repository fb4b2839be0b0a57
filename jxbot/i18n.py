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


def parse_lang(text: str) -> str:
    """A language a person chose (``--lang``, ``JXBOT_LANG``): ``zh``/``en`` or a locale of one of them
    (``zh-CN``, ``en_US``); anything else is a ValueError naming the allowed values."""
    v = (text or "").strip().lower().replace("_", "-")
    for lang in LANGS:
        if v == lang or v.startswith(lang + "-"):
            return lang
    raise ValueError(f"unknown language {text!r}: use one of {', '.join(LANGS)} (zh-CN, en-US… also work)")


def add_lang_argument(parser: object, what: str = "language") -> None:
    """The one ``--lang`` of every command: zh unless set, or ``JXBOT_LANG`` from the environment; an
    unknown value (on the command line or in the environment) is an error naming the allowed ones."""
    import argparse
    import os

    def lang_type(text: str) -> str:
        try:
            return parse_lang(text)
        except ValueError as exc:
            source = " (from JXBOT_LANG)" if text == os.environ.get("JXBOT_LANG") else ""
            raise argparse.ArgumentTypeError(f"{exc}{source}") from None

    default = os.environ.get("JXBOT_LANG") or DEFAULT_LANG
    parser.add_argument("--lang", type=lang_type, default=default, metavar="{zh,en}",  # type: ignore[attr-defined]
                        help=f"{what}: zh or en (default: JXBOT_LANG, else {DEFAULT_LANG})")


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
