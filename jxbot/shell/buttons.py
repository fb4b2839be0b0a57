"""The buttons of a seat's panel (one per tile to discard, then the actions and the auto-win switch).
"""

from __future__ import annotations

import logging

import discord

from jxbot.custom_ids import CustomId, MjButton, to_base36
from jxbot.game.actions import ActionType
from jxbot.i18n import t
from jxbot.rules.tiles import tile_name
from jxbot.shell.lobby import Table

log = logging.getLogger("jxbot.shell.buttons")


ACTION_VERBS = {a.value for a in ActionType}


def _action_label(a: dict, lang: str, white_as: int | None = None) -> str:
    typ, tile = a["type"], a.get("tile")
    if tile is None:
        return t(f"bot.act.{typ}", lang)
    if typ == "discard":
        return tile_name(tile, lang)
    if typ == "chi" and white_as is not None and white_as in (tile, tile + 1, tile + 2):
        # caishen (RULES B1): the 白板 plays the 財神's face in this run, e.g. 吃 1万 2万 白(3万)
        run = [t("bot.white_face", lang, face=tile_name(k, lang)) if k == white_as else tile_name(k, lang)
               for k in (tile, tile + 1, tile + 2)]
        return t("bot.act.chi", lang, tiles=" ".join(run))
    if typ == "chi":
        return t("bot.act.chi", lang, tiles="".join(tile_name(tile + i, lang)[0] for i in range(3)) + tile_name(tile, lang)[1:])
    if typ in ("angang", "bugang"):
        return t(f"bot.act.{typ}", lang, tile=tile_name(tile, lang))
    return t(f"bot.act.{typ}", lang)


_STYLE = {"tsumo": discord.ButtonStyle.success, "hu": discord.ButtonStyle.success,
          "gang": discord.ButtonStyle.primary, "peng": discord.ButtonStyle.primary, "chi": discord.ButtonStyle.primary,
          "angang": discord.ButtonStyle.primary, "bugang": discord.ButtonStyle.primary,
          "pass": discord.ButtonStyle.secondary, "persist": discord.ButtonStyle.danger,
          "give_up": discord.ButtonStyle.secondary, "discard": discord.ButtonStyle.secondary}


_ORDER = ["tsumo", "hu", "gang", "peng", "chi", "angang", "bugang", "persist", "give_up", "pass"]


def action_keys(view: dict) -> frozenset[str]:
    return frozenset(f"{a['type']}:{a.get('tile')}" for a in view.get("actions") or ())


def panel_components(table_id: str, seat: int, nonce: int, view: dict, lang: str,
                     *, autowin: bool = False) -> discord.ui.View:
    """The seat's buttons: one per distinct tile to discard (百搭 first, marked ★), then, on a new row,
    the other actions (自摸 / 胡 / 杠 / 碰 / 吃 per chow / 暗杠 / 补杠 / 坚持 / 放弃 / 过), then the auto-win
    switch. At most 5 buttons a row and 5 rows, as Discord allows."""
    v = discord.ui.View(timeout=None)
    actions = list(view.get("actions") or ())
    wild = view.get("wildcard")
    nonce_s = to_base36(nonce)
    discards = sorted({a["tile"] for a in actions if a["type"] == "discard"}, key=lambda x: (x != wild, x))
    others = sorted((a for a in actions if a["type"] != "discard"),
                    key=lambda a: (_ORDER.index(a["type"]) if a["type"] in _ORDER else 99, a.get("tile") or 0))
    items: list[tuple[int, MjButton]] = []
    for i, tile in enumerate(discards):
        label = ("★" if tile == wild else "") + tile_name(tile, lang)
        items.append((i // 5, MjButton(CustomId("discard", table_id, seat, nonce_s, tile), label=label)))
    first = (len(discards) + 4) // 5
    for i, a in enumerate(others):
        items.append((first + i // 5, MjButton(CustomId(a["type"], table_id, seat, nonce_s, a.get("tile")),
                                               label=_action_label(a, lang, view.get("white_as")),
                                               style=_STYLE.get(a["type"], discord.ButtonStyle.secondary))))
    if view.get("phase") != "ended":
        last = first + (len(others) + 4) // 5
        if sum(1 for r, _ in items if r == last - 1) < 5 and last > 0:
            last -= 1  # room on the last row of actions
        style = discord.ButtonStyle.success if autowin else discord.ButtonStyle.secondary
        items.append((last, MjButton(CustomId("autowin", table_id, seat, nonce_s),
                                     label=t("bot.act.autowin", lang) + (" ✓" if autowin else ""), style=style)))
    for row, item in items:
        if row > 4:
            log.error("panel of table %s seat %d has more buttons than Discord allows", table_id, seat)
            break
        item.row = row
        v.add_item(item)
    return v




def lobby_buttons(table: Table) -> discord.ui.View:
    """The lobby message's buttons: Join, Leave, Add computer, Start (disabled once the table runs)."""
    v = discord.ui.View(timeout=None)
    lang = table.lang
    disabled = table.state != "lobby"
    specs = [("join", discord.ButtonStyle.success), ("leave", discord.ButtonStyle.secondary),
             ("addbot", discord.ButtonStyle.secondary), ("start", discord.ButtonStyle.primary)]
    for verb, style in specs:
        v.add_item(MjButton(CustomId(verb, table.id, None, "0"), label=t(f"bot.btn.{verb}", lang), style=style,
                            disabled=disabled))
    return v
