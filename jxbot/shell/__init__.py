"""The Discord side of a running table (docs/architecture.md, "The Discord shell"): lobby, session, seats'
panels, channel observer, texts, buttons, pictures, binding, resume and stop.

Importing any of it registers the bot's strings (``jxbot.botstrings``): a panel's buttons and texts must
never show a raw key, whichever module was imported first."""

from jxbot import botstrings  # noqa: F401  (registers the bot.* strings the shell's texts and buttons use)
