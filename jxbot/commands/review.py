"""``jxbot review FILE`` (a hand written by ``jxbot export``) or ``jxbot review HAND --db PATH``: the coach's
review of one seat's decisions in a finished hand — agreement with the expert, the estimated silver lost, the
three costliest moments and every decision's candidates — in the terminal (``--png DIR``: the pictures).
``jxbot play`` offers the same after each hand (``r``). See docs/coach.md."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from jxbot.commands.replay import fail, load_source, make_dir, why
from jxbot.i18n import add_lang_argument, register, t

register({
    "cli.review.running": {"zh": "牌局 {hand} 还没结束，结束后才能复盘", "en": "hand {hand} has not ended: it can be reviewed once it has"},
    "cli.review.ruleset": {"zh": "牌局 {hand} 用的规则「{ruleset}」这个 jxbot 不认识（认识的规则：{known}），没法复盘",
                           "en": "hand {hand} is played by the rules {ruleset!r}, which this jxbot does not know "
                                 "(it knows: {known}): it cannot be reviewed"},
})


def positive(text: str) -> int:
    """A count of ms or processes: 0 or less would make a review of no work (2 worlds, no playout step)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review", help="the coach's review of one seat's decisions in a finished hand",
        description="Review one seat's decisions in a finished hand against the expert: agreement, the estimated "
        "silver lost, the three costliest moments and each decision's candidates. From a file written by "
        "`jxbot export` (FILE or --file) or a hand id with --db. See docs/coach.md.")
    p.add_argument("hand", nargs="?", default=None, help="a hand file (from `jxbot export`) or, with --db, a hand id")
    p.add_argument("--db", default=None, help="SQLite file (default: $JXBOT_DB or jxbot.sqlite3)")
    p.add_argument("--file", default=None, help="a hand file written by `jxbot export`")
    p.add_argument("--seat", type=int, choices=range(4), default=None,
                   help="whose decisions (0-3; default: the first seat a person played)")
    p.add_argument("--png", metavar="DIR", default=None, help="write the summary and every decision's picture into DIR")
    p.add_argument("--jobs", type=positive, default=1, help="worker processes for the evaluation (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the evaluation's seed (a review is reproducible)")
    p.add_argument("--budget-ms", type=positive, default=None,
                   help="CPU ms per decision (default: $JXBOT_REVIEW_BUDGET_MS or 15 s for the whole hand, "
                        "shared by its decisions)")
    add_lang_argument(p)


def hand_budget_ms() -> int:
    """A whole hand's budget: ``JXBOT_REVIEW_BUDGET_MS`` (the bot's setting too), else 15 s of CPU."""
    from jxbot.coach.review import BUDGET_HAND_MS

    v = os.environ.get("JXBOT_REVIEW_BUDGET_MS", "").strip()
    return int(v) if v.isdigit() and int(v) > 0 else BUDGET_HAND_MS


def default_seat(computers: Sequence[bool]) -> int:
    return next((i for i, c in enumerate(computers) if not c), 0)


def review_events(events: list[Any], seat: int, *, jobs: int = 1, seed: int = 0, budget_ms: int | None = None,
                  out: Any = "stderr", total_ms: int | None = None) -> Any:
    """The review of ``seat`` (evaluated here, or in ``jobs`` worker processes), with a progress line on ``out``
    (the standard error as it is when called — not as it was when this module was imported; None: none)."""
    from jxbot.coach import review as rv

    if out == "stderr":
        out = sys.stderr

    points = rv.decision_points(events, seat)
    first = events[0]
    hand_id = first["hand_id"] if isinstance(first, dict) else first.hand_id
    ruleset = first["ruleset"] if isinstance(first, dict) else first.ruleset
    if budget_ms is not None:
        budget = budget_ms
    else:
        budget = rv.per_decision_budget(len(points), total_ms or hand_budget_ms())
    seeds = [rv.seed_of(hand_id, seat, p.n, seed) for p in points]
    results: list[list[dict]] = []

    def tick() -> None:
        if out is not None and points:
            out.write(f"\r… {round(100 * len(results) / len(points))}%")
            out.flush()

    tick()
    if jobs > 1 and len(points) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as ex:
            for r in ex.map(rv.expert, points, seeds, [budget] * len(points)):
                results.append(r)
                tick()
    else:
        for p, s in zip(points, seeds, strict=True):
            results.append(rv.expert(p, s, budget))
            tick()
    if out is not None and points:
        out.write("\r")
        out.flush()
    return rv.review_points(hand_id, ruleset, seat, points, results), points


def print_review(review: Any, who: str, lang: str) -> None:
    from jxbot.coach import views

    print(f"{review.hand_id} · {who}")
    print(views.summary_text(review, lang))
    for line in views.decision_lines(review, lang):
        print(line)


def write_pngs(review: Any, points: list[Any], who: str, lang: str, out: str) -> int:
    import render
    from jxbot.coach import views

    wc, badge = views.wildcard_of(points)
    try:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "review.png"), "wb") as f:
            f.write(render.render_review_summary(views.summary_view(review, who, lang, wildcard=wc, badge=badge), lang))
        for p in points:
            with open(os.path.join(out, f"decision-{p.n + 1:02d}.png"), "wb") as f:
                f.write(render.render_review_decision(views.decision_view(review, p, who, lang), lang))
    except OSError as exc:  # the disk filled, a file in the way
        return fail("review", t("cli.file.cannot_write", lang, path=exc.filename or out, why=why(exc)))
    print(f"wrote {len(points) + 1} pictures to {out}")
    return 0


def unknown_ruleset(replay: Any, lang: str) -> str | None:
    """Why the hand cannot be reviewed here when its ruleset is not installed (a file from another jxbot)."""
    from jxbot import rulesets

    name = str(getattr(replay.events[0], "ruleset", "") or "")
    if rulesets.find(name) is not None:
        return None
    return t("cli.review.ruleset", lang, hand=replay.hand_id, ruleset=name, known=", ".join(sorted(rulesets.names())))


def looks_like_file(text: str) -> bool:
    """A path, not a hand id (``c811af0a9799-1``): a hand id has no dot and no slash."""
    return text.lower().endswith(".json") or "/" in text or os.sep in text


def run(args: argparse.Namespace) -> int:
    if args.hand and not args.db and not args.file and (os.path.isfile(args.hand) or looks_like_file(args.hand)):
        args.file, args.hand = args.hand, None  # `jxbot review FILE` (a mistyped one: "there is no file")
    src = load_source("review", args)
    if isinstance(src, int):
        return src
    replay, _stored = src
    if not replay.ended:
        return fail("review", t("cli.review.running", args.lang, hand=replay.hand_id), 1)
    why = unknown_ruleset(replay, args.lang)
    if why is not None:
        return fail("review", why, 1)
    if args.png and (code := make_dir("review", args.png, args.lang)) is not None:
        return code  # said before the review's seconds of work, not after
    seat = args.seat if args.seat is not None else default_seat(replay.computers)
    who = replay.who(seat, args.lang)
    t0 = time.process_time()
    review, points = review_events(replay.events, seat, jobs=max(1, args.jobs), seed=args.seed,
                                   budget_ms=args.budget_ms)
    print_review(review, who, args.lang)
    if args.jobs <= 1:
        print(f"({len(points)} decisions, {time.process_time() - t0:.1f} s of CPU)", file=sys.stderr)
    if args.png:
        return write_pngs(review, points, who, args.lang, args.png)
    return 0
