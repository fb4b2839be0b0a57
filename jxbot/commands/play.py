"""``jxbot play``: a full match in the terminal against three computer players (no Discord needed)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any, TextIO

from jxbot.i18n import add_lang_argument, register, t

register({
    "cli.play.ruleset": {"zh": "没有「{name}」这个规则；可用的规则：{known}",
                         "en": "unknown ruleset {name!r}; known: {known}"},
    "cli.play.at_least": {"zh": "{opt} 至少是 {n}，不是 {value}", "en": "{opt} must be at least {n}, not {value}"},
    "cli.play.positive": {"zh": "{opt} 必须大于 0 秒，不是 {value}", "en": "{opt} must be more than 0 seconds, not {value}"},
})


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("play", help="play a match in the terminal against three computer players",
                       description="Play Jiaxing Mahjong in the terminal against three computer players, "
                                   "with the same clocks as the Discord tables.")
    add_lang_argument(p)
    p.add_argument("--seed", default=None, help="seed of the match (default: a fresh secret one)")
    p.add_argument("--ruleset", default="jiaxing", help="ruleset (default jiaxing)")
    p.add_argument("--rounds", type=int, default=None,
                   help="wind rounds to play (default: the ruleset's match, e.g. one East round for jiaxing, "
                        "one 版 of four rounds for caishen)")
    p.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    p.add_argument("--level", choices=("easy", "normal", "hard", "expert"), default="normal",
                   help="computer level (default normal)")
    p.add_argument("--name", default=None, help="your name at the table")
    p.add_argument("--stake", type=int, default=1, help="底分 (default 1)")
    p.add_argument("--fee", type=int, default=0, help="service fee per hand (default 0)")
    p.add_argument("--silver", type=int, default=1000, help="your starting silver (default 1000)")
    p.add_argument("--delay", type=float, default=0.6, help="seconds a computer takes per move (default 0.6)")
    p.add_argument("--turn-seconds", type=float, default=None, help="turn limit (default: the ruleset's 20 s)")
    p.add_argument("--claim-seconds", type=float, default=None, help="claim window (default: the ruleset's 5 s)")
    p.add_argument("--learn", action="store_true",
                   help=f"learner mode: a {LEARN_TURN:g} s turn and a {LEARN_CLAIM:g} s claim window (unless set), "
                        "the ready hand's winning tiles (听牌) shown, and hint (提示) asks the computer for advice")
    return p


LEARN_TURN = 60.0  # learner mode's clocks (``--learn``), when --turn-seconds / --claim-seconds are not given
LEARN_CLAIM = 20.0


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def args_problem(args: argparse.Namespace, lang: str) -> str | None:
    """What is wrong with the command line, in the player's language (None: nothing). A match of no hand,
    a stake of 0, a negative wallet or a clock of no time cannot be played."""
    from jxbot import rulesets

    if args.ruleset not in rulesets.names():
        return t("cli.play.ruleset", lang, name=args.ruleset, known=", ".join(sorted(rulesets.names())))
    for opt, value, least in (("--rounds", args.rounds, 1), ("--hands", args.hands, 1), ("--stake", args.stake, 1),
                              ("--fee", args.fee, 0), ("--silver", args.silver, 0)):
        if value is not None and value < least:
            return t("cli.play.at_least", lang, opt=opt, n=least, value=value)
    for opt, secs in (("--turn-seconds", args.turn_seconds), ("--claim-seconds", args.claim_seconds)):
        if secs is not None and not secs > 0:  # also NaN
            return t("cli.play.positive", lang, opt=opt, value=f"{secs:g}")
    return None


async def play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, clock: Any = None) -> int:
    from jxbot.i18n import norm_lang
    from jxbot.table import RealClock, SeatInfo, TableConfig, TableRunner
    from jxbot.table.terminal import LineReader, TerminalSeat

    lang = norm_lang(args.lang)
    problem = args_problem(args, lang)
    if problem is not None:  # one line on stderr, exit 2, like every other command's refusal
        sys.stderr.write(f"jxbot play: {problem}\n")
        return 2
    clock = clock or RealClock()
    reader = LineReader(stdin)
    reader.start()
    me = TerminalSeat(stdout, lang, reader, seat=0, clock=clock)
    me.silver = args.silver
    learn = bool(getattr(args, "learn", False))
    me.learn = learn
    turn_seconds, claim_seconds = args.turn_seconds, args.claim_seconds
    if learn:  # time to read a claim prompt, not only a turn (issue 26)
        turn_seconds = LEARN_TURN if turn_seconds is None else turn_seconds
        claim_seconds = LEARN_CLAIM if claim_seconds is None else claim_seconds
    me.auto_pause = max(0.0, args.delay) * 3  # between hands on auto-play or at the end of input
    me.review = review_text  # ``r`` after a hand: the coach's review (docs/coach.md)
    cpu = "电脑" if lang == "zh" else "cpu"
    seats = [SeatInfo(args.name or t("table.ui.you", lang), lang=lang)]
    seats += [SeatInfo.computer(f"{cpu}{i}", args.level) for i in range(1, 4)]

    async def balances(infos: Any) -> list[int | None]:
        return [me.silver if i == me.seat and not s.is_computer else None for i, s in enumerate(infos)]

    config = TableConfig(table_id="terminal", ruleset=args.ruleset, rounds=args.rounds, stake=args.stake, fee=args.fee,
                         seed=_seed(args.seed), max_hands=args.hands, computer_delay=max(0.0, args.delay),
                         # the pause after a result lasts until Enter ("Enter for the next hand")
                         between_hands=24 * 3600.0, turn_seconds=turn_seconds,
                         claim_window=claim_seconds)
    from jxbot.ai.warm import warm_tables_off_loop

    await warm_tables_off_loop()  # the computers' first decision would build them on the loop (issue 18)
    runner = TableRunner(seats, config, interfaces=[me], balances=balances, clock=clock)
    me.runner = runner
    task = runner.start()
    quitter = asyncio.ensure_future(me.quit.wait())
    await asyncio.wait({task, quitter}, return_when=asyncio.FIRST_COMPLETED)
    if me.quit.is_set() and not task.done():
        # leaving is an escape: the hand is played out (and charged), then the match stops
        runner.config.max_hands = runner.hands_played + (1 if runner.hand_running else 0)
        await runner.leave(me.seat)
        runner.skip_pause()  # left between hands: no next hand is dealt
        await task
    quitter.cancel()
    task.result()
    if me.quit.is_set():  # the seat was handed to a computer: the runner no longer reports to it
        await me.on_match_end({"hands": runner.hands_played, "totals": list(runner.totals),
                               "names": [s.name for s in runner.seats]})
    return 0


def review_text(events: list[dict], seat: int, lang: str) -> str:
    """The coach's review of ``seat`` in a finished hand, as the terminal shows it (never raises: a review
    that cannot be made must not end the match)."""
    try:
        from jxbot.coach import views
        from jxbot.commands.review import review_events

        review, _points = review_events(events, seat, out=None)
        return "\n".join([views.summary_text(review, lang), *views.decision_lines(review, lang)])
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def run(args: argparse.Namespace) -> int:
    try:
        rc = asyncio.run(play(args, sys.stdin, sys.stdout))
        sys.stdout.flush()
        return rc
    except KeyboardInterrupt:  # Ctrl-C: end the ^C line, say so in one short line, exit 130
        import contextlib

        from jxbot.table import strings  # noqa: F401  (registers table.ui.*)

        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        sys.stderr.write("\n" + t("table.ui.interrupted", args.lang) + "\n")
        return 130
    except BrokenPipeError:
        pass
    # stdout was closed (e.g. piped into head): silence the interpreter's last flush
    import os

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
