"""jxbot — Jiaxing Mahjong (嘉兴麻将) for Discord."""

__version__ = "0.1.0"
