"""Chaos restarts (issue 24): scripted people play, create, leave and pay while the real bot process is
killed (SIGKILL) and stopped (SIGTERM) at seeded random moments and started again — mid-hand, inside the
readiness window (after the gateway connects, before the tables are resumed) and right after a 財神
table reseats its players. After each restart every table resumes and no hand is voided; at the end no
DM panel ever showed anyone another seat's tiles, ``jxbot store check`` passes and every wallet equals
the sum of its ledger.

``JXBOT_CHAOS_RESTART_SEED`` picks the run (default below): the restart plan (which signal, when) and
the people's choices follow from it; the interleaving with the bot is real time. ``JXBOT_CHAOS_RESTARTS``
(default 10) is how many restarts. A failure prints the seed, every restart (kind, signal, moment) and
every problem found, not only the first.

What the people do in the readiness window of every start (the attacks of issue 24, findings 1 and 2):
a stranger types ``/mahjong create`` in a running table's channel, a seated player types it in another
channel, a seated player pays away their whole balance. An answer "starting up, try again" (the readiness
gate) is fine: they try again until the bot answers for real. Anything that acts on the partial state is
a problem: a table opened where one runs, a seated player's held silver paid away, a hand voided, a table
not resumed. The 財神 table is left alone by these attacks so it lives to reach its reseats.

How its reseats come soon: a 財神 match reseats after each 版 of four rounds (16 hands at least). At the
first restart, while the bot is down, the test sets the stored match's ruleset override
``cs_rounds_per_ban=1`` (a field of jxbot.rules.ruleset.Ruleset the engine honours): the table then
reseats after every round (four hands or more), so a short run sees several reseats. It also makes seat 3 the
dealer, so the first reseat comes with the next hand seat 3 does not win. The restart after a reseat is
made the moment the bot logs "players reseated" (finding 3: the runner's seats were saved, the
lobby's not yet).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.players import AutoPlayer, Panel, Player, message_text
from tests.e2e.scenario import start_world, store_check
from tests.e2e.test_integrity import PanelLog

pytestmark = pytest.mark.e2e

SEED = int(os.environ.get("JXBOT_CHAOS_RESTART_SEED", "2424"))
RESTARTS = int(os.environ.get("JXBOT_CHAOS_RESTARTS", "10"))

ENV = {
    "JXBOT_COMPUTER_DELAY": "0",
    "JXBOT_CLAIM_WINDOW": "1",
    "JXBOT_TURN_SECONDS": "3",
    "JXBOT_NEXT_HAND_SECONDS": "0",
    "JXBOT_EDIT_INTERVAL": "0.2",
    "JXBOT_DRAW_PROCESSES": "0",  # pictures in threads: no worker processes to start at every restart
    "JXBOT_MAX_HANDS": "1000000",  # the match's own length (scenario.fast_env sets one hand)
}

INTERNAL = ("出错了，已记录", "Something went wrong")
# the readiness gate's answer (issue 24: "starting up — try again in a few seconds"), or any "try again later"
STARTING = re.compile(r"启动|starting up|try again|稍后|再试", re.IGNORECASE)
CREATED = "牌桌已开好"
PAID = "已转给"
RESUMED = re.compile(r"resumed (\d+) tables?")
READY = "ready: every table resumed"  # the readiness gate opens (a bot without the gate: the resume line)
RESEATED = "players reseated"


# ------------------------------------------------------------------------------------------ the bot's log


class BotLog:
    """The bot's output, read as it grows (each start appends to the same file)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pos = 0
        self.text = ""
        self.dec = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def poll(self) -> str:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.pos)
                data = f.read()
        except FileNotFoundError:
            return self.text
        self.pos += len(data)
        self.text += self.dec.decode(data)
        return self.text

    def mark(self) -> int:
        return len(self.poll())

    def since(self, mark: int) -> str:
        return self.poll()[mark:]

    async def wait(self, pred: Any, timeout: float, every: float = 0.01) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            got = pred(self.poll())
            if got:
                return got
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(every)


# ------------------------------------------------------------------------------------------ the store, read


def _ro(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)


@dataclass
class TableRow:
    table_id: str
    channel_id: int
    status: str
    state: dict
    created_at: float

    @property
    def lobby_humans(self) -> list[int | None]:
        return _humans((self.state.get("bot_table") or {}).get("seats") or [])

    @property
    def runner_humans(self) -> list[int | None]:
        return _humans((self.state.get("runner") or {}).get("seats") or [])

    @property
    def people(self) -> set[int]:
        return {u for u in self.lobby_humans + self.runner_humans if u is not None}

    @property
    def ended(self) -> bool:
        return (self.state.get("bot_table") or {}).get("state") == "ended" or bool((self.state.get("runner") or {}).get("over"))

    @property
    def ruleset(self) -> str:
        return str(((self.state.get("runner") or {}).get("match") or {}).get("ruleset")
                   or ((self.state.get("bot_table") or {}).get("config") or {}).get("ruleset") or "?")


def _humans(seats: list[Any]) -> list[int | None]:
    return [None if (o is None or o.get("is_computer") or o.get("user_id") is None) else int(o["user_id"])
            for o in seats]


def tables(db: Path) -> dict[str, TableRow]:
    con = _ro(db)
    try:
        rows = con.execute("SELECT table_id, channel_id, status, state, created_at FROM tables").fetchall()
    finally:
        con.close()
    return {r[0]: TableRow(r[0], int(r[1]), r[2], json.loads(r[3]) if r[3] else {}, float(r[4])) for r in rows}


def running(db: Path) -> dict[str, TableRow]:
    return {k: v for k, v in tables(db).items() if v.status == "running"}


def seated_at(db: Path, user_id: int) -> TableRow | None:
    return next((r for r in running(db).values() if user_id in r.people and not r.ended), None)


def balance(db: Path, user_id: int) -> int:
    con = _ro(db)
    try:
        row = con.execute("SELECT balance FROM wallets WHERE user_id = ?", (user_id,)).fetchone()
    finally:
        con.close()
    return int(row[0]) if row else 0


def voided(db: Path) -> list[tuple[str, str, float]]:
    con = _ro(db)
    try:
        rows = con.execute("SELECT hand_id, table_id, result, settled_at FROM hands WHERE status = 'settled'").fetchall()
    finally:
        con.close()
    out = []
    for h, t, r, at in rows:
        d = json.loads(r) or {}
        if d.get("void") or (d.get("result") or {}).get("void"):
            out.append((h, t, at))
    return out


def wallets_off_ledger(db: Path) -> list[tuple[int, int, int]]:
    con = _ro(db)
    try:
        return con.execute(
            "SELECT w.user_id, w.balance, COALESCE((SELECT SUM(l.delta) FROM ledger l WHERE l.wallet_id = w.wallet_id), 0) "
            "AS s FROM wallets w WHERE w.balance != s").fetchall()
    finally:
        con.close()


def seat_mismatches(db: Path) -> list[str]:
    """Running tables whose stored lobby seats and runner seats hold the same people at different seats
    (finding 3: the runner's seats saved after a reseat, the lobby's not)."""
    out = []
    for r in running(db).values():
        lob, run = r.lobby_humans, r.runner_humans
        people = {u for u in lob if u is not None}
        if people and people == {u for u in run if u is not None} and lob != run:
            out.append(f"table {r.table_id} ({r.ruleset}): the lobby seats {lob}, the runner seats {run}")
    return out


def fast_forward_caishen(db: Path, table_id: str) -> None:
    """The 財神 table reseats after every round from now on (see the module docstring)."""
    con = sqlite3.connect(db, timeout=10)
    try:
        (raw,) = con.execute("SELECT state FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        state = json.loads(raw)
        match = (state.get("runner") or {}).get("match")
        assert isinstance(match, dict) and match.get("ruleset") == "caishen" and "rounds_done" in match, (
            "the stored state of the 財神 table has no runner.match (its layout changed?): "
            f"{sorted(state)} / {sorted(state.get('runner') or {})}")
        match["ruleset_overrides"] = {**(match.get("ruleset_overrides") or {}), "cs_rounds_per_ban": 1}
        match["dealer"] = 3  # and this round ends with the next hand the dealer does not win
        con.execute("UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps(state), table_id))
        con.commit()
    finally:
        con.close()


def seat_tiles(db: Path) -> dict[str, tuple[str, list[int | None], list[set[tuple[int, ...]]]]]:
    """Every hand: (table id, the user id per seat, every concealed hand each seat held at some moment),
    replayed from the store's events."""
    from jxbot.game import Hand, event_from_json

    con = _ro(db)
    try:
        hands = con.execute("SELECT hand_id, table_id, seats FROM hands").fetchall()
        out = {}
        for hid, tid, seats in hands:
            evs = [json.loads(e) for (e,) in con.execute(
                "SELECT event FROM hand_events WHERE hand_id = ? ORDER BY idx", (hid,))]
            held: list[set[tuple[int, ...]]] = [set() for _ in range(4)]
            h = Hand()
            for e in evs:
                ev = event_from_json(e)
                h._fold(ev)
                h.events.append(ev)
                for s in range(4):
                    with contextlib.suppress(Exception):
                        v = h.view(s)
                        held[s].add(tuple(sorted(list(v["hand"]) + ([v["drawn"]] if v["drawn"] is not None else []))))
            out[hid] = (tid, json.loads(seats), held)
    finally:
        con.close()
    return out


# ------------------------------------------------------------------------------------------ the people


class ChaosPlayer(AutoPlayer):
    """An AutoPlayer that keeps going when a click cannot be made (the bot is down, the panel moved on)."""

    async def run(self) -> None:
        while not self.stopping:
            try:
                await self.step(timeout=3600)
            except (LookupError, PermissionError, TimeoutError) as exc:
                self.errors.append(f"{self.player.name}: {exc}")
                await asyncio.sleep(0.1)


async def said(action: Any, timeout: float = 6.0) -> str:
    """Everything the bot told the player in answer (a reply, a filled deferral, followups)."""
    await action.response(timeout)
    i = action.interaction

    def text() -> str:
        parts = [message_text(m) for m in [i.original, *i.followups] if m is not None and not m.flags & 128]
        return "\n".join(p for p in parts if p)
    with contextlib.suppress(TimeoutError):
        await action.double.wait_for(text, timeout, "the bot's answer")
    return text()


@dataclass
class Restart:
    n: int
    kind: str  # "play" (mid-play), "window" (inside the readiness window), "reseat" (right after a reseat)
    sig: str  # "KILL" | "TERM"
    at: float = 0.0  # seconds since the run began
    detail: str = ""

    def __str__(self) -> str:
        return f"restart #{self.n}: SIG{self.sig} {self.kind} at t={self.at:.1f}s {self.detail}".rstrip()


@dataclass
class Run:
    double: Any
    bot: Any
    db: Path
    log: BotLog
    rng: random.Random
    people: dict[str, Player]
    channels: dict[str, Any]
    t0: float = field(default_factory=time.monotonic)
    restarts: list[Restart] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    told: list[tuple[str, str]] = field(default_factory=list)  # (who / what, the bot's answer)
    start_mark: int = 0
    spare: int = 0
    void_seen: set[str] = field(default_factory=set)
    players: list[Any] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    window_delay: float = 0.0
    window_note: str = ""
    gated: bool = False  # the bot logs READY when its readiness gate opens

    def now(self) -> float:
        return time.monotonic() - self.t0

    def where(self) -> str:
        r = self.restarts[-1] if self.restarts else None
        return f"[seed {SEED}, t={self.now():.1f}s, after {r}]" if r else f"[seed {SEED}, t={self.now():.1f}s, before any restart]"

    def problem(self, text: str) -> None:
        if text in self.seen:
            self.seen[text] += 1
            return
        self.seen[text] = 1
        self.problems.append(f"{self.where()} {text}")

    def in_window(self) -> bool:
        """The current process has not opened yet (its readiness gate's line, or without a gate its resume)."""
        since = self.log.since(self.start_mark)
        if self.gated:
            return READY not in since
        return "logged in as" not in since or not RESUMED.search(since)

    def who(self, uid: int) -> str:
        return next((n for n, p in self.people.items() if p.id == uid), str(uid))

    # -------------------------------------------------------------- acting, with retries on "starting up"
    async def attempt(self, what: str, make: Any, tries: int = 10) -> tuple[str, bool]:
        """Run ``make()`` (an Action, not awaited) until the bot answers for real. Returns (answer, whether
        the answer came while the process had not resumed its tables)."""
        text = ""
        inside = False
        for _ in range(tries):
            try:
                act = await make()
            except (LookupError, PermissionError, ValueError):
                return "", False
            text = await said(act)
            inside = self.in_window()
            self.told.append((what, text))
            if any(s in text for s in INTERNAL):
                self.problem(f"{what}: the bot answered with an internal error: {text!r}")
            if act.failed or not text or STARTING.search(text):
                await asyncio.sleep(0.7)
                continue
            return text, inside
        return text, inside


# ------------------------------------------------------------------------------------------ the test


async def test_chaos_restarts(double, start_bot, tmp_path):
    rng = random.Random(SEED)
    names = ["cs1", "cs2", "j1", "j2", "s1", "s2"]
    w = await start_world(double, start_bot, tmp_path, names, env={**ENV, "JXBOT_TEST_SEED": str(SEED)})
    panels = PanelLog(double)
    ch_main = w.channel
    ch_cs = double.add_text_channel(w.guild, "caishen")
    ch_free = double.add_text_channel(w.guild, "free")
    people = dict(zip(names, w.players, strict=True))
    for n in ("cs1", "cs2"):
        people[n].channel = ch_cs
    people["s1"].channel = ch_free
    people["s2"].channel = ch_free
    run = Run(double, w.bot, w.db, BotLog(w.bot.log_path), rng, people,
              {"main": ch_main, "cs": ch_cs, "free": ch_free})
    run.gated = READY in run.log.poll()

    # --- the tables: a 財神 match (two people, two computers, 8 rounds) and a 嘉兴 one (one round)
    for who in ("s1", "s2"):  # everyone is a known player (a /pay recipient)
        await said(await people[who].slash("balance", wait=False))
    await open_table(run, "cs1", ["cs2"], ch_cs, ruleset="caishen", rounds=8)
    await open_table(run, "j1", ["j2"], ch_main, ruleset="jiaxing", rounds=1)
    aps = {n: ChaosPlayer(p).start() for n, p in people.items()}
    run.players = list(aps.values())
    cs = await double.wait_for(lambda: next((r for r in running(w.db).values() if r.channel_id == ch_cs.id
                                             and (r.state.get("runner") or {}).get("match")), None),
                               30, "the 財神 table dealt")
    stop = asyncio.Event()
    busy = asyncio.create_task(everyday(run, stop))

    # --- the restarts: kinds and signals from the seed. A "play" restart is made at a random moment of
    # play, or (when armed) the moment a reseat is logged if one comes first; one "reseat" restart late in
    # the run waits for a reseat (unless one was made already)
    plan = ["play"] + [rng.choice(["play", "play", "window"]) for _ in range(RESTARTS - 1)]
    plan[rng.randrange(RESTARTS // 2, RESTARTS)] = "reseat"
    attacks: list[asyncio.Task] = []
    try:
        for n, kind in enumerate(plan, start=1):
            sig = rng.choice(["KILL", "TERM"])
            r = Restart(n, kind, sig)
            if kind == "window":  # the process is in its readiness window (see the end of the loop)
                r.detail = f"({run.window_delay:.1f} s after IDENTIFY{run.window_note})"
            else:
                wait_reseat = kind == "reseat" and not any(x.kind == "reseat" for x in run.restarts)
                up = 30.0 if wait_reseat else rng.uniform(0.8, 3.0)
                mark = run.log.mark()
                got = None
                if wait_reseat or rng.random() < 0.75:  # armed: a reseat logged first makes the moment
                    got = await run.log.wait(lambda text, m=mark: RESEATED in text[m:], timeout=up, every=0.005)
                else:
                    await asyncio.sleep(up)
                r.kind = "reseat" if got else "play"
                r.detail = "(the moment the bot logged 'players reseated')" if got else \
                    f"({up:.1f} s after the resume{', no reseat came' if wait_reseat else ''})"
            r.at = run.now()
            await stop_bot(run, sig)
            run.restarts.append(r)
            if n == 1:
                fast_forward_caishen(w.db, cs.table_id)
            for line in seat_mismatches(w.db):
                run.problem(f"the store holds two seatings after the stop: {line}")
            before = {k: v for k, v in running(w.db).items() if not v.ended}
            run.start_mark = run.log.mark()
            await w.bot.start()
            for ap in aps.values():
                ap._done.clear()  # press the panel again after the restart (an answer may have been lost)
            attacks.append(asyncio.create_task(window_attacks(run, before)))
            if n < len(plan) and plan[n] == "window":
                # the next stop comes inside this start's readiness window: after IDENTIFY, before the resume
                await wait_identify(run)
                run.window_delay = rng.uniform(0.0, 1.5)
                await asyncio.sleep(run.window_delay)
                closed = RESUMED.search(run.log.since(run.start_mark)) is not None
                run.window_note = ", the window had closed already" if closed else ""
                continue
            await resumed(run, before)
        await asyncio.sleep(3.0)
        await asyncio.wait_for(asyncio.gather(*attacks), 60)
    finally:
        stop.set()
        for task in attacks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(busy, 15)
        for ap in aps.values():
            await ap.stop()

    # --- the end: nothing voided, every panel its recipient's, the books exact
    for hid, tid, _ in voided(w.db):
        if hid not in run.void_seen:
            run.problems.append(f"[seed {SEED}] hand {hid} of table {tid} was settled as void")
    check_panels(run, panels)
    rc, out = await store_check(w.db)
    if rc != 0:
        run.problems.append(f"[seed {SEED}] jxbot store check failed ({rc}):\n{out}")
    for uid, bal, led in wallets_off_ledger(w.db):
        run.problems.append(f"[seed {SEED}] {run.who(uid)}'s wallet holds {bal} but its ledger sums to {led}")
    log = run.log.poll()
    stops = 0
    for k, segment in enumerate(log.split("===== start #")):
        at = 0
        while (at := segment.find("Traceback (most recent call last):", at + 1)) >= 0:
            run.problems.append(f"[seed {SEED}] a traceback in the bot's log (process #{k}): {segment[at:at + 1500]}")
        stopping = segment.find("SIGTERM: stopping")
        if stopping >= 0:  # a graceful stop (docs/bot.md, "Stopping"): what it cuts short is not an error
            stops += 1
            for line in segment[stopping:].splitlines():
                if re.search(r"\bERROR\b", line):
                    run.problems.append(f"[seed {SEED}] an error logged during a SIGTERM stop (process #{k}): {line}")
    hands = seat_tiles(w.db)
    reseat_kills = [r for r in run.restarts if r.kind == "reseat"]
    summary = {"seed": SEED, "restarts": len(run.restarts), "reseat_restarts": len(reseat_kills),
               "window_restarts": sum(r.kind == "window" for r in run.restarts), "hands": len(hands),
               "reseats_logged": log.count(RESEATED), "panels": len(panels.shown), "seconds": round(run.now(), 1),
               "sigterm_stops": stops}
    print(json.dumps(summary, ensure_ascii=False))
    print("\n".join(str(r) for r in run.restarts))
    report = "\n".join([f"chaos restart run, seed {SEED} (JXBOT_CHAOS_RESTART_SEED={SEED} reruns it): {summary}",
                        "restarts:", *(f"  {r}" for r in run.restarts), "problems:",
                        *(f"  - {p}" + (f" (seen {run.seen[p.split('] ', 1)[-1]]} times)"
                                        if run.seen.get(p.split('] ', 1)[-1], 1) > 1 else "") for p in run.problems)])
    assert not run.problems, report
    assert len(run.restarts) >= 10 or RESTARTS < 10, report
    assert reseat_kills, f"no restart landed right after a reseat: the run tested too little\n{report}"
    assert len(hands) >= 5, f"only {len(hands)} hands were dealt\n{report}"


async def stop_bot(run: Run, sig: str) -> None:
    if sig == "KILL":
        await run.bot.kill()
        return
    proc = run.bot.proc
    if proc is None or proc.returncode is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        rc = await asyncio.wait_for(proc.wait(), 20)
    except TimeoutError:
        run.problem("SIGTERM did not stop the bot within 20 s")
        await run.bot.kill()
        return
    if rc != 0:
        run.problem(f"SIGTERM: the bot exited with {rc}")


async def wait_identify(run: Run) -> None:
    before = run.double.gateway.identifies
    await run.double.wait_for(lambda: run.double.gateway.identifies > before or None, 60, "the bot's IDENTIFY")


async def resumed(run: Run, before: dict[str, TableRow]) -> None:
    """Wait until the process logs its resume; then every table that ran before the stop must have been
    resumed, none closed, no hand voided."""
    mark = run.start_mark

    def up(text: str) -> bool:
        since = text[mark:]
        if run.gated:
            return READY in since
        return "logged in as" in since and (RESUMED.search(since) is not None or not before)
    if not await run.log.wait(up, timeout=60):
        if "logged in as" in run.log.since(mark) and not run.gated:
            await asyncio.sleep(3.0)  # a resume that logs nothing (0 tables)
        else:
            run.problem(f"the bot did not open within 60 s:\n{run.bot.tail(40)}")
            return
    for ap in run.players:
        ap._done.clear()  # press the panel again: a press in the window was answered "starting up"
    m = RESUMED.search(run.log.since(mark))
    n = int(m.group(1)) if m else 0
    now = tables(run.db)
    for tid, rec in before.items():
        after = now.get(tid)
        if after is None or (after.status != "running" and not after.ended):
            note = (after.state.get("suspended") if after else None) or ""
            run.problem(f"table {tid} ({rec.ruleset}, channel {rec.channel_id}, people "
                        f"{sorted(run.who(u) for u in rec.people)}) ran before the stop and was closed by the "
                        f"restart {note}".rstrip())
    if n < len(before):
        run.problem(f"{len(before)} tables ran before the stop, the bot logged 'resumed {n} tables'")
    for hid, tid, _ in voided(run.db):
        if hid not in run.void_seen:
            run.void_seen.add(hid)
            run.problem(f"hand {hid} of table {tid} was settled as void by the restart")


async def window_attacks(run: Run, before: dict[str, TableRow]) -> None:
    """In the readiness window (right after IDENTIFY): a stranger opens a table where one runs, a seated
    player opens one elsewhere, a seated player pays everything away (issue 24, findings 1 and 2). The
    財神 table and its people are left alone."""
    await wait_identify(run)
    await asyncio.sleep(run.rng.uniform(0.0, 0.8))
    others = {k: v for k, v in before.items() if v.ruleset != "caishen"}
    chan_of = {c.id: c for c in run.channels.values()}
    jobs = []
    # a stranger: /mahjong create in a running table's own channel
    target = next((r for r in others.values() if r.channel_id in chan_of), None)
    if target is not None:
        stranger = next((p for n, p in run.people.items() if p.id not in target.people and not n.startswith("cs")), None)
        if stranger is not None:
            jobs.append(create_where_one_runs(run, stranger, chan_of[target.channel_id], target))
    seated = [p for n, p in run.people.items() if not n.startswith("cs") and any(p.id in r.people for r in others.values())]
    if seated:
        p = run.rng.choice(seated)
        run.spare += 1
        jobs.append(create_while_seated(run, p, run.double.add_text_channel(
            run.people["j1"].guild, f"spare-{run.spare}")))
        q = run.rng.choice(seated)
        jobs.append(pay_everything(run, q))
    await asyncio.gather(*jobs)


async def create_where_one_runs(run: Run, p: Player, ch: Any, table: TableRow) -> None:
    what = f"{p.name}: /mahjong create in #{ch.name} where table {table.table_id} runs"
    text, inside = await run.attempt(what, lambda: p.slash("mahjong create", channel=ch, stake=1, wait=False))
    if CREATED in text:
        now = tables(run.db).get(table.table_id)
        if now is not None and now.status == "running" and not now.ended:
            run.problem(f"{what}: the bot opened a table ({'inside' if inside else 'after'} the readiness window)")


async def create_while_seated(run: Run, p: Player, ch: Any) -> None:
    at = seated_at(run.db, p.id)
    if at is None:
        return
    what = f"{p.name} (seated at table {at.table_id}): /mahjong create in #{ch.name}"
    text, inside = await run.attempt(what, lambda: p.slash("mahjong create", channel=ch, stake=1, wait=False))
    if CREATED in text:
        now = tables(run.db).get(at.table_id)
        if now is not None and now.status == "running" and not now.ended:
            run.problem(f"{what}: the bot opened a second table for a seated player "
                        f"({'inside' if inside else 'after'} the readiness window)")


async def pay_everything(run: Run, p: Player) -> None:
    at = seated_at(run.db, p.id)
    if at is None:
        return
    target = run.people["s2"] if p is not run.people["s2"] else run.people["s1"]

    async def make() -> Any:
        return await p.slash("pay", user=target, amount=max(1, balance(run.db, p.id)), wait=False)
    what = f"{p.name} (seated at table {at.table_id}): /pay {target.name} everything"
    text, inside = await run.attempt(what, make)
    still = seated_at(run.db, p.id)
    if PAID in text and still is not None and still.table_id == at.table_id:
        run.problem(f"{what}: paid — the silver held for the table was freed "
                    f"({'inside' if inside else 'after'} the readiness window), now {balance(run.db, p.id)}")


async def open_table(run: Run, owner: str, joiners: list[str], ch: Any, *, ruleset: str, rounds: int) -> bool:
    o = run.people[owner]
    text, _ = await run.attempt(f"{owner}: /mahjong create in #{ch.name}",
                                lambda: o.slash("mahjong create", channel=ch, stake=1, ruleset=ruleset, rounds=rounds,
                                                wait=False))
    if CREATED not in text:
        return False
    for j in joiners:
        await run.attempt(f"{j}: /mahjong join in #{ch.name}",
                          lambda j=j: run.people[j].slash("mahjong join", channel=ch, wait=False))
    await run.attempt(f"{owner}: /mahjong start in #{ch.name}",
                      lambda: o.slash("mahjong start", channel=ch, wait=False))
    return True


async def everyday(run: Run, stop: asyncio.Event) -> None:
    """What people do between restarts: reopen the 嘉兴 table when its match ended, open and leave tables
    in #free, pay each other, ask their balance. Each answer is checked for internal errors only."""
    rng = random.Random(run.rng.random())
    ch_main, ch_free = run.channels["main"], run.channels["free"]
    while not stop.is_set():
        await asyncio.sleep(rng.uniform(0.3, 1.0))
        k = rng.random()
        who = rng.choice(["j1", "j2", "s1", "s2"])
        p = run.people[who]
        busy = {r.channel_id for r in running(run.db).values()}
        with contextlib.suppress(Exception):
            if k < 0.25 and ch_main.id not in busy and seated_at(run.db, run.people["j1"].id) is None \
                    and seated_at(run.db, run.people["j2"].id) is None:
                await open_table(run, "j1", ["j2"], ch_main, ruleset="jiaxing", rounds=1)
            elif k < 0.45 and ch_free.id not in busy and seated_at(run.db, p.id) is None:
                await open_table(run, who, [], ch_free, ruleset="jiaxing", rounds=1)
            elif k < 0.55:
                await run.attempt(f"{who}: /mahjong join in #free",
                                  lambda p=p: p.slash("mahjong join", channel=ch_free, wait=False), tries=2)
            elif k < 0.62 and who.startswith("s"):
                await run.attempt(f"{who}: /mahjong leave", lambda p=p: p.slash("mahjong leave", channel=ch_free,
                                                                            wait=False), tries=2)
            elif k < 0.85:
                other = run.people[rng.choice([n for n in ("j1", "j2", "s1", "s2") if n != who])]
                await run.attempt(f"{who}: /pay {other.name}", lambda p=p, other=other: p.slash(
                    "pay", user=other, amount=rng.choice([1, 3, 10]), wait=False), tries=2)
            else:
                await run.attempt(f"{who}: /balance", lambda p=p: p.slash("balance", wait=False), tries=2)


def check_panels(run: Run, log: PanelLog) -> None:
    """Every panel a person was shown is the hand of a seat they held in that very hand (the store's
    seats of the hand, its tiles replayed from the stored events)."""
    hands = seat_tiles(run.db)
    bad: dict[tuple[int, str, int], str] = {}
    for s in log.shown:
        p = Panel(s)  # type: ignore[arg-type]
        if p.table is None or p.seat in (None, "x") or not p.all_tiles:
            continue
        seat = int(p.seat)
        tiles = tuple(p.all_tiles)
        mine = [h for h, (t, seats, held) in hands.items()
                if t == p.table and seat < len(seats) and seats[seat] == s.recipient and tiles in held[seat]]
        if mine:
            continue
        whose = [(h, seats[seat]) for h, (t, seats, held) in hands.items() if t == p.table and tiles in held[seat]]
        key = (s.recipient, p.table, seat)
        if key in bad:
            continue
        if whose:
            h, owner = whose[0]
            bad[key] = (f"{run.who(s.recipient)} was shown seat {seat}'s concealed tiles of hand {h} (table "
                        f"{p.table}), where seat {seat} is {'a computer' if owner is None else run.who(owner)}")
        else:
            bad[key] = (f"{run.who(s.recipient)} was shown tiles at seat {seat} of table {p.table} that were never "
                        f"that seat's hand")
    run.problems.extend(f"[seed {SEED}] {b}" for b in bad.values())
