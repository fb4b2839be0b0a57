"""The web companion's HTML: plain functions from data to a page. Every text that comes from a player
(names, a server's name) goes through :func:`esc`; pages carry no inline script or style (the
Content-Security-Policy forbids them): behaviour is the static ``web.js``, looks the static ``web.css``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

from jxbot.i18n import t
from jxbot.web import links

ASSET_VERSION = "1"
BOARDS = ("balance", "net", "wins", "biggest")
BOARD_PERIODS = ("all", "week", "day")


def esc(text: object) -> str:
    return escape("" if text is None else str(text), quote=True)


def _q(path: str, **params: object) -> str:
    q = {k: v for k, v in params.items() if v is not None}
    return path + (("&" if "?" in path else "?") + urlencode(q) if q else "")


def page(lang: str, title: str, body: str, *, here: str, query: dict[str, str] | None = None,
         data: dict[str, str] | None = None) -> str:
    """A whole page: ``here`` is the page's path (the language switch links to it), ``data`` the
    ``data-*`` attributes of <body> (ids and paths the script needs; never a player's text)."""
    other = "en" if lang == "zh" else "zh"
    switch = _q(here, **{**(query or {}), "lang": other})
    attrs = "".join(f' data-{esc(k)}="{esc(v)}"' for k, v in (data or {}).items())
    return (
        "<!doctype html>\n"
        f'<html lang="{"zh-CN" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · {esc(t('web.site', lang))}</title>"
        f'<link rel="stylesheet" href="/static/web.css?v={ASSET_VERSION}">'
        f'<script src="/static/web.js?v={ASSET_VERSION}" defer></script></head>'
        f"<body{attrs}><header><a class=\"site\" href=\"{esc(_q('/', lang=lang))}\">{esc(t('web.site', lang))}</a>"
        f'<a class="lang" href="{esc(switch)}">{esc(t("web.lang_other", lang))}</a></header>'
        f"<main>{body}</main><footer>{esc(t('web.footer', lang))}</footer></body></html>\n"
    )


def home(lang: str) -> str:
    body = f"<h1>{esc(t('web.home.title', lang))}</h1><p>{esc(t('web.home.body', lang))}</p>"
    return page(lang, t("web.home.title", lang), body, here="/")


def error(lang: str, status: int) -> str:
    key = {403: "web.err.403", 429: "web.err.429", 500: "web.err.500"}.get(status, "web.err.404")
    body = f"<h1>{esc(t('web.err.title', lang))}</h1><p class=\"err\">{esc(t(key, lang))}</p>"
    return page(lang, t("web.err.title", lang), body, here="/")


def _when(at: float | None) -> str:
    if not at:
        return ""
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M")


def _name(name: str | None, lang: str) -> str:
    return name if name else t("web.player.unknown", lang)


# ---------------------------------------------------------------------------------------------- a server


def guild(lang: str, guild_id: int, title: str, board: str, period: str, lb: Any, ladder: Sequence[dict],
          tables: Sequence[dict], recent: Sequence[dict]) -> str:
    here = links.guild_path(guild_id)
    parts = [f"<h1>{esc(t('web.guild.title', lang, name=title))}</h1>"]
    # live tables first: what is happening now
    parts.append(f"<section><h2>{esc(t('web.live.title', lang))}</h2>")
    if tables:
        rows = "".join(
            f'<tr><td><a href="{esc(_q(links.table_path(tb["table_id"]), lang=lang))}">'
            f'{esc(t("web.live.watch", lang))} {esc(tb["table_id"])}</a></td>'
            f'<td>{esc(" · ".join(tb["names"]))}</td></tr>' for tb in tables)
        parts.append(f'<table class="list"><thead><tr><th>{esc(t("web.col.table", lang))}</th>'
                     f'<th>{esc(t("web.col.players", lang))}</th></tr></thead><tbody>{rows}</tbody></table>')
    else:
        parts.append(f'<p class="muted">{esc(t("web.live.none", lang))}</p>')
    parts.append("</section>")
    # the boards
    tabs = "".join(
        f'<a class="tab{" on" if b == board else ""}" href="{esc(_q(here, board=b, lang=lang))}">'
        f'{esc(t("web.board." + b, lang))}</a>' for b in BOARDS)
    parts.append(f'<section><nav class="tabs">{tabs}</nav>')
    if board == "net":
        per = "".join(
            f'<a class="tab small{" on" if p == period else ""}" href="{esc(_q(here, board=board, period=p, lang=lang))}">'
            f'{esc(t("web.period." + p, lang))}</a>' for p in BOARD_PERIODS)
        parts.append(f'<nav class="tabs">{per}</nav>')
    if lb.entries:
        board_rows: list[str] = []
        for e in lb.entries:
            value = f"{e.value:,}"
            best = getattr(e, "best", None)
            if best is not None:
                value = f'<a href="{esc(_q(links.hand_path(best.hand_id), lang=lang))}">{esc(value)}</a>'
            else:
                value = esc(value)
            board_rows.append(f'<tr><td class="num">{e.rank}</td><td><a href="{esc(_q(links.profile_path(guild_id, e.user_id), lang=lang))}">'
                        f"{esc(_name(e.name, lang))}</a></td><td class=\"num\">{value}</td></tr>")
        parts.append(f'<table class="list board"><thead><tr><th>{esc(t("web.col.rank", lang))}</th>'
                     f'<th>{esc(t("web.col.player", lang))}</th><th>{esc(t("web.board." + board, lang))}</th></tr>'
                     f'</thead><tbody>{"".join(board_rows)}</tbody></table>')
    else:
        parts.append(f'<p class="muted">{esc(t("web.board.empty", lang))}</p>')
    parts.append("</section>")
    for b in ladder:  # the ratings package's boards (jxbot/web/data.py, the ladder hook)
        rows = "".join(f'<tr><td><a href="{esc(_q(links.profile_path(guild_id, int(r.get("user_id") or 0)), lang=lang))}">'
                       f'{esc(r.get("name"))}</a></td><td class="num">{esc(r.get("value"))}</td></tr>'
                       for r in b.get("rows") or [])
        parts.append(f'<section><h2>{esc(b.get("title") or t("web.ladder", lang))}</h2>'
                     f'<table class="list"><tbody>{rows}</tbody></table></section>')
    parts.append(_recent_section(lang, recent))
    return page(lang, t("web.guild.title", lang, name=title), "".join(parts), here=here,
                query={"board": board, **({"period": period} if board == "net" else {})})


def _recent_section(lang: str, recent: Sequence[dict]) -> str:
    out = [f"<section><h2>{esc(t('web.recent.title', lang))}</h2>"]
    if not recent:
        out.append(f'<p class="muted">{esc(t("web.recent.none", lang))}</p></section>')
        return "".join(out)
    rows = []
    for h in recent:
        if h.get("drawn") or h.get("winner_seat") is None:
            res = t("web.drawn", lang)
        else:
            res = t("web.won_by", lang, who=h.get("winner_name") or "ESWN"[int(h["winner_seat"])])
            if h.get("points"):
                res += f" · {h['points']:,}"
        rows.append(f'<tr><td><a href="{esc(_q(links.hand_path(h["hand_id"]), lang=lang))}">{esc(h["hand_id"])}</a></td>'
                    f"<td>{esc(_when(h.get('settled_at')))}</td><td>{esc(res)}</td></tr>")
    out.append(f'<table class="list"><thead><tr><th>{esc(t("web.col.hand", lang))}</th><th>{esc(t("web.col.when", lang))}</th>'
               f'<th>{esc(t("web.col.result", lang))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></section>')
    return "".join(out)


# ---------------------------------------------------------------------------------------------- a player


def graph(points: Sequence[tuple[float, int]], lang: str, *, width: int = 520, height: int = 180,
          alt: str = "web.graph.alt") -> str:
    """Silver (or, with ``alt="web.rating.alt"``, a rating) over time as an inline SVG (no script, no style
    attribute)."""
    if len(points) < 1:
        return f'<p class="muted">{esc(t("web.graph.none", lang))}</p>'
    vals = [v for _, v in points]
    lo, hi = min(vals), max(vals)
    span = (hi - lo) or 1
    pad_l, pad_r, pad_t, pad_b = 56, 8, 10, 22
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    n = len(points)
    xy = [(pad_l + (w * i / (n - 1) if n > 1 else w / 2), pad_t + h - h * (v - lo) / span) for i, v in enumerate(vals)]
    poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    label = t(alt, lang, a=f"{vals[0]:,}", b=f"{vals[-1]:,}", lo=f"{lo:,}", hi=f"{hi:,}")
    first, last = _when(points[0][0])[:10], _when(points[-1][0])[:10]
    return (
        f'<svg class="graph" viewBox="0 0 {width} {height}" role="img" aria-label="{esc(label)}">'
        f"<title>{esc(label)}</title>"
        f'<line class="axis" x1="{pad_l}" y1="{pad_t + h}" x2="{pad_l + w}" y2="{pad_t + h}"/>'
        f'<line class="axis" x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{pad_t + h}"/>'
        f'<text class="lbl" x="{pad_l - 4}" y="{pad_t + 10}" text-anchor="end">{hi:,}</text>'
        f'<text class="lbl" x="{pad_l - 4}" y="{pad_t + h}" text-anchor="end">{lo:,}</text>'
        f'<text class="lbl" x="{pad_l}" y="{height - 4}">{esc(first)}</text>'
        f'<text class="lbl" x="{pad_l + w}" y="{height - 4}" text-anchor="end">{esc(last)}</text>'
        f'<polyline class="line" points="{poly}"/></svg>'
    )


def profile(lang: str, guild_id: int, guild_title: str, name: str, stats: Any, recent: Iterable[Any],
            history: Sequence[tuple[float, int]], ratings: Sequence[dict] = ()) -> str:
    here = links.profile_path(guild_id, stats.user_id)
    cells = [("web.stat.balance", f"{stats.balance:,}"), ("web.stat.hands", f"{stats.hands:,}"),
             ("web.stat.wins", f"{stats.wins:,}"), ("web.stat.win_rate", f"{stats.win_rate:.0%}"),
             ("web.stat.self_draws", f"{stats.self_draws:,}"), ("web.stat.net", f"{stats.net:+,}"),
             ("web.stat.biggest_win", f"{stats.biggest_win:,}"), ("web.stat.best_points", f"{stats.best_points:,}")]
    grid = "".join(f'<div class="stat"><span class="k">{esc(t(k, lang))}</span><span class="v">{esc(v)}</span></div>'
                   for k, v in cells)
    rows = []
    for h in recent:
        res = t("web.drawn", lang) if h.drawn else (t("web.won_by", lang, who=name) if h.won else "")
        if h.won and h.points:
            res += f" · {h.points:,}"
        rows.append(f'<tr><td><a href="{esc(_q(links.hand_path(h.hand_id, seat=h.seat), lang=lang))}">{esc(h.hand_id)}</a></td>'
                    f"<td>{esc(_when(h.settled_at))}</td><td>{esc(res)}</td><td class=\"num\">{h.delta:+,}</td></tr>")
    table = (f'<table class="list"><thead><tr><th>{esc(t("web.col.hand", lang))}</th><th>{esc(t("web.col.when", lang))}</th>'
             f'<th>{esc(t("web.col.result", lang))}</th><th>{esc(t("web.col.delta", lang))}</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>') if rows else f'<p class="muted">{esc(t("web.recent.none", lang))}</p>'
    body = (f"<h1>{esc(t('web.profile.title', lang, name=name))}</h1>"
            f'<p><a href="{esc(_q(links.guild_path(guild_id), lang=lang))}">{esc(t("web.back", lang))}: {esc(guild_title)}</a></p>'
            f'<section class="stats">{grid}</section>'
            f"<section><h2>{esc(t('web.graph.title', lang))}</h2>{graph(history, lang)}</section>"
            + "".join(f"<section><h2>{esc(r['title'])}</h2>{graph(r['points'], lang, alt='web.rating.alt')}</section>"
                      for r in ratings)
            + f"<section><h2>{esc(t('web.recent.title', lang))}</h2>{table}</section>")
    return page(lang, t("web.profile.title", lang, name=name), body, here=here)


# ---------------------------------------------------------------------------------------------- a hand


def replay(lang: str, stored: Any, k: int, seat: int, *, base: str, private: dict | None = None,
           private_days: int = 7) -> str:
    """One step of a finished hand. ``private``: the signed query of the player's own link (their seat's
    tiles shown); without it, what a stranger sees."""
    rp = stored.replay
    hand_id = rp.hand_id
    last = len(rp) - 1
    concealed = private is not None
    here = links.hand_path(hand_id) + ("/me" if concealed else "")

    def step_url(to: int, s: int = seat) -> str:
        if concealed:
            return _q(here, **private, step=to, lang=lang)  # type: ignore[arg-type]
        return _q(links.hand_path(hand_id), step=to, seat=s, lang=lang)

    nav = []
    for key, label, to, off in (("Home", "web.replay.first", 0, k == 0), ("ArrowLeft", "web.replay.prev", k - 1, k == 0),
                                ("ArrowRight", "web.replay.next", k + 1, k == last), ("End", "web.replay.last", last, k == last)):
        if off:
            nav.append(f'<span class="btn off">{esc(t(label, lang))}</span>')
        else:
            nav.append(f'<a class="btn" data-key="{key}" href="{esc(step_url(to))}">{esc(t(label, lang))}</a>')
    seats = []
    for s in range(4):
        who = rp.who(s, lang)
        if concealed:
            href = _q(links.hand_path(hand_id), step=k, seat=s, lang=lang) if s != seat else step_url(k)
        else:
            href = step_url(k, s)
        seats.append(f'<a class="seat{" on" if s == seat else ""}" href="{esc(href)}">{esc(who)}</a>')
    caption = rp.caption(k, lang, seat=seat, concealed=concealed)
    img_q: dict[str, Any] = {"lang": lang, **(private or {})}
    img_base = f"/img/h/{quote(hand_id, safe='')}/{k}/{seat}"
    pics = [f'<img class="pic" src="{esc(_q(img_base + "/table.png", **img_q))}" width="640" '
            f'alt="{esc(t("web.replay.table_alt", lang, k=k))}">']
    if concealed:
        pics.append(f'<img class="pic" src="{esc(_q(img_base + "/hand.png", **img_q))}" width="640" '
                    f'alt="{esc(t("web.replay.hand_alt", lang))}">')
    if k == last and rp.result_view() is not None:
        pics.append(f'<img class="pic" src="{esc(_q(img_base + "/result.png", **img_q))}" width="640" '
                    f'alt="{esc(t("web.replay.result_alt", lang))}">')
    note = (t("web.replay.private", lang, days=private_days) if concealed else t("web.replay.public", lang))
    share_step = base + links.hand_path(hand_id, step=k, seat=seat)
    share_hand = base + links.hand_path(hand_id)
    body = (
        f"<h1>{esc(t('web.replay.title', lang, hand=hand_id))}</h1>"
        f'<p class="note">{esc(note)}</p>'
        f'<p class="step" id="step">{esc(t("web.replay.step", lang, k=k, n=last))}</p>'
        f'<p class="caption" id="caption">{esc(caption)}</p>'
        f'<nav class="steps">{"".join(nav)}</nav>'
        f'<p class="muted keys">{esc(t("web.replay.keys", lang))}</p>'
        f'<div class="pics">{"".join(pics)}</div>'
        f'<h2>{esc(t("web.replay.seat", lang))}</h2><nav class="seats">{"".join(seats)}</nav>'
        f'<p class="share"><a href="{esc(share_step)}">{esc(t("web.replay.share", lang))}</a> · '
        f'<a href="{esc(share_hand)}">{esc(t("web.replay.share_hand", lang))}</a></p>'
        f'<p><a href="{esc(_q(links.guild_path(stored.record.guild_id), lang=lang))}">{esc(t("web.back", lang))}</a></p>'
    )
    return page(lang, t("web.replay.title", lang, hand=hand_id), body, here=here,
                query={**({k_: str(v) for k_, v in private.items()} if private else {}), "step": str(k),
                       **({} if concealed else {"seat": str(seat)})},
                data={"page": "replay"})


# ---------------------------------------------------------------------------------------------- a live table


def table(lang: str, snap: Any, delay: int, *, guild_title: str, state: dict | None = None) -> str:
    tid = snap.table_id
    names = snap.seat_names(lang)
    state = state or live_state(snap, lang)
    body = (
        f"<h1>{esc(t('web.col.table', lang))} {esc(tid)}</h1>"
        f'<p class="note">{esc(t("web.live.delay", lang, n=delay))}</p>'
        f'<p class="players">{esc(" · ".join(names))}</p>'
        f'<p class="step" id="step">{esc(state["head"])}</p>'
        f'<p class="caption" id="caption">{esc(state["caption"])}</p>'
        f'<div class="pics"><img class="pic" id="live-pic" src="{esc(state["image"] or "/static/blank.png")}" width="640" '
        f'alt="{esc(t("web.live.title", lang))}"></div>'
        f'<p id="replay-link" class="muted">{_replay_link(state, lang)}</p>'
        f'<p><a href="{esc(_q(links.guild_path(snap.guild_id), lang=lang))}">{esc(t("web.back", lang))}: {esc(guild_title)}</a></p>'
    )
    return page(lang, f"{t('web.col.table', lang)} {tid}", body, here=links.table_path(tid),
                data={"page": "live", "feed": _q(f"/api/t/{quote(tid, safe='')}/events", lang=lang)})


def _replay_link(state: dict, lang: str) -> str:
    if not state.get("last_hand"):
        return ""
    return (f'<a href="{esc(_q(links.hand_path(state["last_hand"]), lang=lang))}">'
            f'{esc(t("web.replay.title", lang, hand=state["last_hand"]))}</a>')


def live_state(snap: Any, lang: str, ready: tuple[str, int] | None = None) -> dict:
    """What a live page shows and its feed sends (public only): the head line, the caption, the picture of
    the step ``ready`` (the newest drawn: it may trail the caption by a move or two; None: not drawn yet)."""
    tid = quote(snap.table_id, safe="")
    if snap.running:
        head = t("web.live.hand", lang, n=snap.hand_number) + " · " + t("web.live.step", lang, k=snap.step)
        image = (_q(f"/img/t/{tid}/{quote(ready[0], safe='')}/{ready[1]}.png", lang=lang)
                 if ready is not None else None)
        return {"version": f"{snap.version}:{ready[1] if ready else '-'}", "head": head,
                "caption": snap.caption(lang), "image": image, "last_hand": None, "ended": False}
    return {"version": snap.version, "head": t("web.live.between", lang), "caption": "", "image": None,
            "last_hand": snap.hand_id, "ended": False}
