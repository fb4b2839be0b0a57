"""``python3 -m jxbot.howto``: print docs/howto.md."""

from jxbot.howto import markdown

print(markdown(), end="")
