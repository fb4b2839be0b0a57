"""The bot's event-loop CPU per move, without Discord: prints ONE JSON line.

N tables of the real runner (``jxbot.table.TableRunner``), each with one scripted person and three
``normal`` computers, in one event loop, flat out (no computer delay, the person answers at once). The
person's seat is the bot's own :class:`jxbot.shell.seat.DiscordSeat` and the channel its :class:`ChannelObserver`,
on a stub session whose coalescer sends nothing: on every change the bench does what their ``push`` does
short of Discord and the picture (``signature``; when it changed, ``panel_text`` / ``panel_components`` or
``status_text`` / ``components``), and the person's press is answered as ``DiscordSeat.answer`` does (the
signature, the panel's text and buttons, the signature again). Pictures are drawn off the event loop in
the bot and are left out. Every change is pushed (the bot's coalescer merges a few under load), so the
panel share here is an upper bound.

``cpu_ms_per_move`` = ``time.process_time()`` over the run / actions applied (computers' and the
person's); ``loop_cpu_ms_per_move`` the same with ``time.thread_time()`` of the event loop's thread alone
(with ``--store`` the store's thread works beside it). ``digest`` = sha256 of every table's stored event log: the same seeds must give the same
games, so the figure of old and new code compares the same moves.

    python3 bench/moves.py [--tables 20] [--hands 2] [--rounds 3] [--store] [--baseline REF]

``--store``: the runner's sink is the bot's ``StoreSink`` on a SQLite store in a temporary directory (the
store's thread then runs beside the loop; its CPU is in the figure too), not the in-memory one.

``--baseline REF`` (e.g. ``main``): the same bench also runs on ``git archive REF`` (in a temporary
directory, imported first through PYTHONPATH), alternating with this tree, ``--rounds`` times each;
prints both medians, their ratio and whether the digests agree.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("cpu_ms_per_move", "loop_cpu_ms_per_move")
LEAD_MS_PER_MOVE = 12.7  # the bot's main thread per move at 100 tables (py-spy, issue 14)


class _Coalescer:
    """The bot's edit coalescer, sending nothing: the bench pushes every change itself."""

    def submit(self, key: Any, fn: Any, *, urgent: bool = False) -> None:
        return None


def _choice(view: dict) -> dict:
    """The scripted person: wins when it can, discards the drawn tile (else the last one offered), passes
    on claims, persists in a contract."""
    acts = view.get("actions") or []
    by = {}
    for a in acts:
        by.setdefault(a["type"], []).append(a)
    for win in ("tsumo", "hu"):
        if win in by:
            return by[win][0]
    if "discard" in by:
        d = view.get("drawn")
        return next((a for a in by["discard"] if a["tile"] == d), by["discard"][-1])
    for k in ("pass", "persist"):
        if k in by:
            return by[k][0]
    return acts[0]


class Person:
    """The person's seat: the bot's DiscordSeat (notify, signature, panel) and a scripted press."""

    confirms_delivery = True

    def __init__(self, session: Any, seat: int) -> None:
        from jxbot.shell.seat import DiscordSeat

        self.ds = DiscordSeat(session, seat)
        self.session = session
        self.seat = seat
        self.pressed_step = -1
        self.presses = 0
        self.tasks: set[asyncio.Task] = set()

    def _build(self) -> None:
        """DiscordSeat.build without the picture."""
        from jxbot.shell.buttons import action_keys, panel_components
        from jxbot.shell.texts import panel_text

        ds, table = self.ds, self.session.table
        view = ds.view or {}
        nonce = table.nonce_for(self.seat, action_keys(view))
        autowin = bool(((view.get("seats") or [{}] * 4)[self.seat]).get("autowin"))
        panel_text(table, self.seat, view, ds.lang)
        panel_components(table.id, self.seat, nonce, view, ds.lang, autowin=autowin)

    def _push(self) -> None:
        ds = self.ds
        offer = ds._fresh_offer()
        sig = ds.signature()
        if sig != ds._pushed:
            self._build()
            ds._pushed = sig
        ds._delivered(offer)

    async def notify(self, view: dict, note: dict | None) -> None:
        await self.ds.notify(view, note)
        self._push()
        runner = self.session.runner
        if view.get("actions") and view.get("step") != self.pressed_step:
            self.pressed_step = view.get("step")
            task = asyncio.ensure_future(self._press(runner, view))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _press(self, runner: Any, view: dict) -> None:
        await asyncio.sleep(0)
        ds = self.ds
        ds.answering += 1
        err = await runner.submit(self.seat, _choice(view))
        if err is None:
            self.presses += 1
        # DiscordSeat.answer: the signature, the panel (picture left out), the signature again
        offer = ds._fresh_offer()
        sig = ds.signature()
        self._build()
        ds._pushed = sig
        ds._delivered(offer)
        ds.answering = max(0, ds.answering - 1)
        if ds.view is not None and ds.signature() != ds._pushed:
            self._push()

    async def on_result(self, result_view: dict) -> None:
        await self.ds.on_result(result_view)
        self._push()


class Channel:
    """The channel: the bot's ChannelObserver (notify, signature, status text)."""

    def __init__(self, session: Any) -> None:
        from jxbot.shell.observer import ChannelObserver

        self.obs = ChannelObserver(session)
        self.session = session

    async def notify(self, view: dict, note: dict | None) -> None:
        from jxbot.shell.texts import status_text

        obs = self.obs
        await obs.notify(view, note)
        sig = obs.signature()
        if sig != obs._shown:
            if not isinstance(sig, tuple):  # before the signature held its status text, push wrote it again
                status_text(obs.view or {}, self.session.table.lang)
            obs.components()
            obs._shown = sig

    async def on_result(self, result_view: dict) -> None:
        return None


def _balances(store: Any) -> Any:
    async def balances(seats: Any) -> list[int | None]:
        return [None if s.is_computer else await store.balance(1, s.user_id) for s in seats]

    return balances


class _Tee:
    """The MemorySink (for the digest) and, with --store, the bot's StoreSink."""

    def __init__(self, mem: Any, other: Any) -> None:
        self.mem, self.other = mem, other
        if other is None:
            self.append_many = None

    async def table_state(self, table_id: str, state: dict) -> None:
        await self.mem.table_state(table_id, state)
        if self.other is not None:
            await self.other.table_state(table_id, state)

    async def hand_started(self, hand_id: str, info: dict) -> None:
        await self.mem.hand_started(hand_id, info)
        if self.other is not None:
            await self.other.hand_started(hand_id, info)

    async def append(self, hand_id: str, index: int, event_json: dict) -> None:
        await self.mem.append(hand_id, index, event_json)
        if self.other is not None:
            await self.other.append(hand_id, index, event_json)

    async def append_many(self, hand_id: str, start: int, events_json: list[dict]) -> None:  # type: ignore[no-redef]
        for i, e in enumerate(events_json):
            await self.mem.append(hand_id, start + i, e)
        await self.other.append_many(hand_id, start, events_json)

    async def settle(self, hand_id: str, settlement: Any, result_view: dict) -> None:
        await self.mem.settle(hand_id, settlement, result_view)
        if self.other is not None:
            await self.other.settle(hand_id, settlement, result_view)


def _table(k: int, lang: str) -> Any:
    from jxbot.shell.lobby import Occupant, Table
    from jxbot.shell.lobby import TableConfig as LobbyConfig

    t = Table(id=f"m{k}", guild_id=1, channel_id=1, owner_id=1, config=LobbyConfig(), lang=lang)
    t.seats = [Occupant(1000 + k, f"p{k}", lang=lang)] + [
        Occupant(None, f"#{i}", is_computer=True) for i in (1, 2, 3)]
    return t


async def _run(tables: int, hands: int, store_dir: str | None = None) -> dict:
    from jxbot.table import MemorySink, SeatInfo, TableConfig, TableRunner

    store = None
    if store_dir is not None:  # the bot's own sink on a SQLite store (its thread's work is in the figure)
        from jxbot.store import Store

        store = await Store.open(str(Path(store_dir) / "moves.sqlite3"))
        for k in range(tables):
            await store.ensure_player(1000 + k, f"p{k}")
            await store.grant_starting(1, 1000 + k)
    sessions, persons, runners, sinks = [], [], [], []
    for k in range(tables):
        lang = "zh" if k % 2 else "en"
        session = SimpleNamespace(table=_table(k, lang), bot=SimpleNamespace(coalescer=_Coalescer()), runner=None)
        person = Person(session, 0)
        seats = [SeatInfo(name=f"p{k}", user_id=1000 + k, lang=lang)] + [
            SeatInfo.computer(f"c{i}", "normal") for i in (1, 2, 3)]
        sink = MemorySink()
        kw: dict[str, Any] = {}
        if store is not None:
            from jxbot.shell.session import StoreSink

            kw["sink"] = StoreSink(store, session.table)
            await kw["sink"].table_state(f"m{k}", {})  # the bot saves a table when it is created
            kw["balances"] = _balances(store)
        runner = TableRunner(seats, TableConfig(table_id=f"m{k}", seed=f"moves/{k}", max_hands=hands,
                                                computer_delay=0.0, between_hands=0.0),
                             interfaces={0: person}, observers=[Channel(session)], sink=_Tee(sink, kw.get("sink")),
                             **{k_: v for k_, v in kw.items() if k_ != "sink"})
        session.runner = runner
        sessions.append(session)
        persons.append(person)
        runners.append(runner)
        sinks.append(sink)
    import cogs.replay  # noqa: F401  (imported on first use by the code measured: not part of a move)
    import jxbot.ai  # noqa: F401

    c0, w0, l0 = time.process_time(), time.perf_counter(), time.thread_time()
    await asyncio.gather(*(r.start() for r in runners))
    cpu, wall, loop = time.process_time() - c0, time.perf_counter() - w0, time.thread_time() - l0
    if store is not None:
        await store.close()
    moves = sum(len(r.decision_ms) for r in runners) + sum(p.presses for p in persons)
    h = hashlib.sha256()
    for s in sinks:
        for hid in s.order:
            h.update(json.dumps(s.events[hid], sort_keys=True).encode())
    return {"tables": tables, "hands": sum(r.hands_played for r in runners), "moves": moves,
            "presses": sum(p.presses for p in persons), "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "cpu_ms_per_move": round(cpu * 1000.0 / max(1, moves), 4),
            "loop_cpu_ms_per_move": round(loop * 1000.0 / max(1, moves), 4), "digest": h.hexdigest()[:16]}


def _inner(tables: int, hands: int, store: bool) -> dict:
    import jxbot

    if store:
        with tempfile.TemporaryDirectory(prefix="moves-store-") as d:
            out = asyncio.run(_run(tables, hands, d))
    else:
        out = asyncio.run(_run(tables, hands))
    out["code"] = str(Path(jxbot.__file__).resolve().parent.parent)
    return out


def _subprocess(code: Path, tables: int, hands: int, store: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(code))
    p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--inner", "--tables", str(tables),
                        "--hands", str(hands)] + (["--store"] if store else []),
                       cwd=str(code), env=env, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise SystemExit(f"the bench failed in {code}:\n{p.stderr[-3000:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if Path(out["code"]) != code.resolve():
        raise SystemExit(f"imported {out['code']}, not {code}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline", metavar="REF", help="also run the bench on this git revision")
    ap.add_argument("--store", action="store_true", help="the bot's StoreSink on a SQLite store (temporary)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.inner:
        print(json.dumps(_inner(a.tables, a.hands, a.store)))
        return
    if not a.baseline:
        runs = [_subprocess(ROOT, a.tables, a.hands, a.store) for _ in range(a.rounds)]
        print(json.dumps({"bench": "moves", "store": a.store,
                          **{k: runs[0][k] for k in ("tables", "hands", "moves", "digest")}, "rounds": a.rounds,
                          **{k: round(statistics.median(r[k] for r in runs), 4) for k in FIGURES},
                          "runs_cpu_ms_per_move": [r["cpu_ms_per_move"] for r in runs]}))
        return
    with tempfile.TemporaryDirectory(prefix="moves-baseline-") as tmp:
        arch = subprocess.run(["git", "-C", str(ROOT), "archive", a.baseline], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=arch.stdout, check=True)
        base_dir = Path(tmp)
        new, old = [], []
        for _ in range(a.rounds):  # alternate, so a change in the machine's load hits both alike
            new.append(_subprocess(ROOT, a.tables, a.hands, a.store))
            old.append(_subprocess(base_dir, a.tables, a.hands, a.store))
    out: dict[str, Any] = {"bench": "moves", "tables": a.tables, "hands": new[0]["hands"], "moves": new[0]["moves"],
                           "rounds": a.rounds, "baseline": a.baseline, "store": a.store}
    for k in FIGURES:
        n = statistics.median(r[k] for r in new)
        o = statistics.median(r.get(k, math.nan) for r in old)
        out[k], out["baseline_" + k], out["ratio_" + k.removesuffix("_ms_per_move")] = \
            round(n, 4), round(o, 4), round(n / o, 3)
        out["saved_" + k] = round(o - n, 4)
        # each round's two runs are minutes apart at most: their ratio is the steadier figure on a busy machine
        out["paired_ratio_" + k.removesuffix("_ms_per_move")] = round(
            statistics.median(x[k] / y.get(k, math.nan) for x, y in zip(new, old, strict=True)), 3)
    out["saved_share_of_bot_move"] = round(out["saved_loop_cpu_ms_per_move"] / LEAD_MS_PER_MOVE, 3)
    out["same_games"] = new[0]["digest"] == old[0]["digest"] and new[0]["moves"] == old[0]["moves"]
    out["runs_loop_cpu_ms_per_move"] = [r["loop_cpu_ms_per_move"] for r in new]
    out["baseline_runs_loop_cpu_ms_per_move"] = [r["loop_cpu_ms_per_move"] for r in old]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
