"""``jxbot replay | export | verify`` on a database the bot wrote, and on an exported file."""

from __future__ import annotations

import json

import pytest

from jxbot.cli import main
from jxbot.game import Hand, HandContext
from jxbot.replay import commitment_of, wall_notation
from jxbot.store import Store

from .helpers import played_hand, store_hand


@pytest.fixture
async def db(tmp_path):
    path = str(tmp_path / "bot.sqlite3")
    store = await Store.open(path)
    hand = played_hand(4)
    await store_hand(store, hand, [11, None, 12, None])
    running = Hand.new(9, context=type(hand.context)(hand_id="fedcba987654-1"))
    await store.create_hand(running.hand_id, 5, 6, "jiaxing", [None] * 4, running.commitment)
    for i, e in enumerate(running.events_json()):
        await store.append_event(running.hand_id, i, e)
    await store.close()
    return path, hand


def test_replay_prints_every_step_and_a_seat_sees_its_tiles(db, capsys):
    path, hand = db
    assert main(["replay", hand.hand_id, "--db", path, "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert hand.commitment in out[0]
    assert "Deal:" in out[1] and "Alice" in out[1] or "Alice" in "\n".join(out)
    assert "[" not in out[2]  # no concealed tiles without --seat
    assert main(["replay", hand.hand_id, "--db", path, "--seat", "0", "--lang", "en"]) == 0
    seat_out = capsys.readouterr().out.splitlines()
    assert len(seat_out) == len(out) and "[" in seat_out[1]


def test_replay_writes_a_picture_per_step(db, tmp_path, capsys):
    path, hand = db
    out = tmp_path / "pngs"
    assert main(["replay", hand.hand_id, "--db", path, "--lang", "en"]) == 0
    last = len(capsys.readouterr().out.splitlines()) - 2  # the header; steps count from 0
    assert main(["replay", hand.hand_id, "--db", path, "--seat", "2", "--png", str(out), "--steps=-2:"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4  # header, two steps, "wrote …"
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted([f"step-{last - 1:03d}-hand.png", f"step-{last - 1:03d}.png",
                            f"step-{last:03d}-hand.png", f"step-{last:03d}.png", "result.png"])
    assert (out / f"step-{last:03d}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["replay", hand.hand_id, "--db", path, "--png", str(out / "b"), "--steps", "0:1"]) == 0
    assert sorted(p.name for p in (out / "b").iterdir()) == ["step-000.png"]
    assert main(["replay", hand.hand_id, "--db", path, "--steps", "x"]) == 2


def test_a_running_or_unknown_hand_is_refused(db, capsys):
    path, _hand = db
    assert main(["replay", "fedcba987654-1", "--db", path]) == 1
    assert "still running" in capsys.readouterr().err
    assert main(["export", "fedcba987654-1", "--db", path]) == 1
    assert main(["replay", "nope", "--db", path]) == 1
    assert "no hand 'nope'" in capsys.readouterr().err
    assert main(["replay", "x", "--db", "/nonexistent.sqlite3"]) == 2


def test_the_commands_only_read_the_database(db, tmp_path, capsys):
    import hashlib
    import pathlib

    path, hand = db
    before = hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()
    assert main(["replay", hand.hand_id, "--db", path]) == 0
    assert main(["export", hand.hand_id, "--db", path, "-o", str(tmp_path / "h.json")]) == 0
    assert main(["verify", hand.hand_id, "--db", path]) == 0
    assert hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest() == before
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    capsys.readouterr()
    assert main(["replay", "x", "--db", str(junk)]) == 2
    assert "cannot be read as a jxbot database" in capsys.readouterr().err


def test_export_then_replay_and_verify_the_file(db, tmp_path, capsys):
    path, hand = db
    f = tmp_path / "hand.json"
    assert main(["export", hand.hand_id, "--db", path, "-o", str(f)]) == 0
    doc = json.loads(f.read_text())
    assert doc["format"] == "jxbot-hand" and doc["seats"][0]["name"] == "Alice"
    assert "11" not in json.dumps(doc["seats"])  # no user ids in a shared file
    capsys.readouterr()
    assert main(["replay", "--file", str(f), "--lang", "en"]) == 0
    from_file = capsys.readouterr().out
    assert main(["replay", hand.hand_id, "--db", path, "--lang", "en"]) == 0
    assert capsys.readouterr().out == from_file  # the same steps, captions and names
    assert main(["verify", "--file", str(f)]) == 0
    assert capsys.readouterr().out.count("✅") == 3
    assert main(["verify", hand.hand_id, "--db", path]) == 0
    capsys.readouterr()
    assert main(["verify", hand.hand_id, "--db", path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verified"] and [c["check"] for c in report["checks"]] == [
        "verify.ok.wall_set", "verify.ok.commitment", "verify.ok.events"]
    # a tampered salt in the file is refused with the reason
    doc["reveal"]["salt"] = "00" + doc["reveal"]["salt"][2:]
    f.write_text(json.dumps(doc))
    assert main(["verify", "--file", str(f), "--lang", "en"]) == 1
    assert "does not match" in capsys.readouterr().out


def test_verify_pasted_wall_salt_commitment(db, capsys):
    _path, hand = db
    args = ["verify", "--wall", wall_notation(hand.wall), "--salt", hand.salt, "--commitment", hand.commitment]
    assert main([*args, "--lang", "en"]) == 0
    assert "only the commitment and the wall" in capsys.readouterr().out
    wall = list(hand.wall)
    wall[0], wall[135] = wall[135], wall[0]
    assert wall != list(hand.wall) or True
    bad = ["verify", "--wall", wall_notation(wall), "--salt", hand.salt, "--commitment", hand.commitment]
    if commitment_of(wall, hand.salt) != hand.commitment:
        assert main(bad) == 1
        assert "❌" in capsys.readouterr().out
    assert main(["verify", "--wall", "1m 2m", "--salt", "s", "--commitment", "c"]) == 1  # not 136 tiles
    assert main(["verify", "--wall", "zz", "--salt", "s", "--commitment", "c"]) == 2
    assert main(["verify", "--salt", "s"]) == 2


def test_jxbot_play_shows_the_commitment_at_the_deal_and_the_whole_reveal_after(monkeypatch, capsys):
    import io
    import re
    import sys

    # issue 26: after the hand a short check (salt, commitment); the wall only when asked (wall), never
    # during the hand ("wall" typed at a prompt is not a command)
    monkeypatch.setattr(sys, "stdin", io.StringIO("wall\n\n" * 150))
    assert main(["play", "--seed", "7", "--hands", "2", "--delay", "0", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    c = re.search(r"fair deal: the wall's SHA-256 commitment is ([0-9a-f]{64})", out)
    assert c and out.index(c[0]) < out.index("you: discard")  # before the first discard of the hand
    short = re.search(r"fair deal check: salt (\S+), commitment ([0-9a-f]{64}) \(type wall", out)
    salt = short[1]
    assert short[2] == c[1]
    wall = re.search(r"the wall \(head to tail\): (.+)", out)[1]
    assert out.index(c[0]) < out.index(short[0]) < out.index(wall)
    assert out.index("== Winner") < out.index(wall) or out.index("== Drawn") < out.index(wall)
    assert main(["verify", "--wall", wall, "--salt", salt, "--commitment", c[1]]) == 0



async def _void_hand_db(path: str, hid: str) -> None:
    from types import SimpleNamespace

    store = await Store.open(path)
    hand = Hand.new(9, context=HandContext(hand_id=hid))
    await store.create_hand(hid, 5, 6, "jiaxing", [None] * 4, hand.commitment)
    for i, e in enumerate(hand.events_json()):
        await store.append_event(hid, i, e)
    # what cogs/suspend.py void_suspended writes for a hand whose table stopped on an error
    await store.settle_hand(hid, 5, [None] * 4, SimpleNamespace(transfers=(), deltas=(0, 0, 0, 0), house_delta=0),
                            {"void": True, "reason": "table_error", "hand_id": hid, "table_id": None,
                             "winner": None, "drawn_game": True, "payments": []})
    await store.close()


def test_export_of_a_void_hand_says_so_without_a_traceback(tmp_path, capsys):
    """Issue 24 finding 10: a hand settled as void (its table stopped on an error) never ended; exporting
    it gives a clear message and exit code 1, not an uncaught ValueError."""
    import asyncio

    path, hid = str(tmp_path / "bot.sqlite3"), "0123456789ab-1"
    asyncio.run(_void_hand_db(path, hid))
    assert main(["export", hid, "--db", path]) == 1
    cap = capsys.readouterr()
    assert f"hand {hid} was void" in cap.err and "Traceback" not in cap.err and cap.out == ""


def test_an_output_path_that_cannot_be_written_is_one_line_not_a_traceback(db, tmp_path, capsys, monkeypatch):
    """export -o, replay --png, review --png and render --demo / -o into a path under a file (or with no
    permission) were tracebacks; review's came after its seconds of work."""
    import jxbot.commands.review as review_cmd

    path, hand = db
    f = tmp_path / "hand.json"
    assert main(["export", hand.hand_id, "--db", path, "-o", str(f)]) == 0
    capsys.readouterr()
    blocker = tmp_path / "afile"
    blocker.write_text("")
    bad = str(blocker / "sub")

    def no_review(*a, **k):  # the folder is refused before the review's work
        raise AssertionError("the review ran although its pictures could not be written")

    monkeypatch.setattr(review_cmd, "review_events", no_review)
    for argv, words in (
        (["export", hand.hand_id, "--db", path, "-o", bad + ".json"], f"jxbot export: cannot write {bad}.json (Not a directory)"),
        (["replay", "--file", str(f), "--png", bad, "--lang", "en"], f"jxbot replay: cannot write {bad} (Not a directory)"),
        (["replay", "--file", str(f), "--png", bad, "--lang", "zh"], f"jxbot replay: 写不了 {bad}（Not a directory）"),
        (["review", str(f), "--png", bad, "--lang", "en"], f"jxbot review: cannot write {bad} (Not a directory)"),
        (["render", "--demo", bad, "--lang", "en"], "jxbot render: cannot write "),
    ):
        rc = main(argv)
        out, err = capsys.readouterr()
        assert rc == 2, argv
        assert words in err and "Traceback" not in err and err.count("\n") == 1, (argv, err)
    assert not (blocker.parent / "afile" / "sub").exists()
