"""The lobby's state machine (cogs/lobby.py ``TableManager``) without Discord: each transition is one
synchronous step; a user holds at most one seat; a released seat takes its panel, buttons and hold along."""

import random

import pytest

from cogs.lobby import LobbyError, Table, TableConfig, TableManager

A, B, C, D, E = 1, 2, 3, 4, 5


def manager() -> tuple[TableManager, list[tuple[str, int]]]:
    m = TableManager()
    released: list[tuple[str, int]] = []
    m.on_release = lambda table, uid: released.append((table.id, uid))
    return m, released


def test_a_user_sits_at_one_table():
    m, _ = manager()
    t1 = m.create(9, 100, A, "a", TableConfig())
    t2 = m.create(9, 200, B, "b", TableConfig())
    m.join(t1, C, "c")
    with pytest.raises(LobbyError) as e:
        m.join(t2, C, "c")
    assert e.value.code == "at_other_table" and e.value.kw["channel"] == 100
    with pytest.raises(LobbyError) as e:
        m.join(t1, C, "c")
    assert e.value.code == "already_seated"
    with pytest.raises(LobbyError) as e:
        m.create(9, 300, C, "c", TableConfig())
    assert e.value.code == "at_other_table"
    m.leave(t1, C)
    assert m.join(t2, C, "c") == 1 and m.of_user(C) is t2


def test_release_takes_panel_buttons_reservation_and_hold():
    m, released = manager()
    t = m.create(9, 100, A, "a", TableConfig())
    seat = m.join(t, B, "b")
    t.panels[seat] = (55, 66)
    t.panel_users[seat] = B
    n = t.nonces.get(seat, 0)
    m.kick(t, A, B)
    assert t.seats[seat] is None and seat not in t.panels and seat not in t.panel_users
    assert t.nonces[seat] > n and m.of_user(B) is None and released == [(t.id, B)]
    seat = m.join(t, C, "c")  # Carol in Bob's old seat: nothing of Bob's is bound to it
    assert seat == 1 and 1 not in t.panels


def test_start_is_one_step_and_only_the_owners():
    m, _ = manager()
    t = m.create(9, 100, A, "a", TableConfig())
    m.join(t, B, "b")
    for bad in (lambda: m.start(t, B), lambda: m.add_computer(t, B), lambda: m.kick(t, B, A)):
        with pytest.raises(LobbyError) as e:
            bad()
        assert e.value.code == "not_owner"
    m.start(t, A)
    assert t.state == "running" and t.filled == 4
    with pytest.raises(LobbyError) as e:
        m.start(t, A)
    assert e.value.code == "running"
    with pytest.raises(LobbyError):
        m.join(t, C, "c")


def test_escape_keeps_the_hold_until_the_hand_is_settled():
    m, released = manager()
    t = m.create(9, 100, A, "a", TableConfig())
    m.join(t, B, "b")
    m.start(t, A)
    seat = m.escape(t, B)
    assert t.seats[seat].is_computer and m.of_user(B) is None and released == []
    t2 = m.create(9, 200, B, "b", TableConfig())  # free to sit elsewhere at once
    m.settled(t)
    assert released == [(t.id, B)] and m.of_user(B) is t2


def test_stand_up_and_end_release_everyone():
    m, released = manager()
    t = m.create(9, 100, A, "a", TableConfig())
    m.join(t, B, "b")
    m.start(t, A)
    assert m.stand_up(t, 1) == B and t.seats[1].is_computer and m.of_user(B) is None
    assert m.stand_up(t, 1) is None  # a computer seat: nothing to do
    m.end(t)
    assert t.state == "ended" and m.tables == {} and m.of_user(A) is None
    assert sorted(released) == [(t.id, A), (t.id, B)]


def test_a_resumed_table_reserves_its_players_again():
    m, _ = manager()
    t = m.create(9, 100, A, "a", TableConfig())
    m.join(t, B, "b")
    t.panels[1] = (7, 8)
    t.panel_users[1] = B
    m2, _ = manager()
    m2.add(Table.from_json(t.to_json()))
    assert m2.of_user(B) is not None and m2.get(t.id).panel_users == {1: B}
    old = t.to_json()
    del old["panel_users"]  # saved before bindings were recorded: the occupant's
    assert Table.from_json(old).panel_users == {1: B}


@pytest.mark.parametrize("seed", range(20))
def test_random_presses_keep_the_invariants(seed):
    """Any sequence of lobby actions by five users on three tables: nobody sits twice, the reservation
    map agrees with the seats, every hold taken is released exactly once the seat is given up."""
    rng = random.Random(seed)
    m, released = manager()
    held: set[tuple[str, int]] = set()
    tables: list[Table] = []
    users = [A, B, C, D, E]

    def seat_holders() -> set[tuple[str, int]]:
        return {(t.id, o.user_id) for t in m.tables.values() for _, o in t.humans}

    for _ in range(300):
        u = rng.choice(users)
        live = [t for t in tables if t.id in m.tables]
        op = rng.choice(["create", "join", "join", "leave", "kick", "start", "escape", "stand", "end", "settle"])
        t = rng.choice(live) if live else None
        try:
            if op == "create" or t is None:
                t = m.create(9, rng.randrange(4), u, "x", TableConfig())
                tables.append(t)
                held.add((t.id, u))
            elif op == "join":
                m.join(t, u, "x")
                held.add((t.id, u))
            elif op == "leave":
                m.leave(t, u)
            elif op == "kick":
                m.kick(t, t.owner_id, u)
            elif op == "start":
                m.start(t, t.owner_id)
            elif op == "escape":
                m.escape(t, u)
            elif op == "stand" and t.state == "running":
                m.stand_up(t, rng.randrange(4))
            elif op == "end":
                m.end(t)
            elif op == "settle":
                m.settled(t)
        except LobbyError:
            pass
        for tid, uid in released:
            held.discard((tid, uid))
        released.clear()
        seats = [o.user_id for tt in m.tables.values() for _, o in tt.humans]
        assert len(seats) == len(set(seats)), "a user sits twice"
        assert {uid: tid for tid, uid in seat_holders()} == m.seated
        escapers = {(tt.id, uid) for tt in m.tables.values() for uid in tt.escapers}
        assert held == seat_holders() | escapers, "a hold was lost or kept after its seat was released"


def test_table_ids_of_two_processes_do_not_clash():
    """Two processes sharing one PostgreSQL store each make their own table ids: with 24 random bits two
    managers' 5,000 tables each clashed in about 4 runs of 5; with 48 bits they must not."""
    ids: set[str] = set()
    for _process in range(2):
        m = TableManager()
        for n in range(5000):
            t = m.create(9, 10_000 + n, 100_000 + n, "p", TableConfig())
            assert len(t.id) == 12 and int(t.id, 16) >= 0
            ids.add(t.id)
    assert len(ids) == 10_000


def test_a_reseat_moves_seats_panels_and_makes_every_button_stale_and_the_seatings_then_agree():
    m, _ = manager()
    t = m.create(9, 100, A, "a", TableConfig(ruleset="caishen"))
    m.join(t, B, "b")
    m.start(t, A)
    t.panels, t.panel_users = {0: (50, 51), 1: (60, 61)}, {0: A, 1: B}
    t.nonces, t.action_keys = {0: 4, 1: 9}, {0: frozenset({"discard"})}
    runner = [{"user_id": A, "is_computer": False}, {"user_id": B, "is_computer": False},
              {"user_id": None, "is_computer": True}, {"user_id": None, "is_computer": True}]
    assert t.seats_differ(runner) == []
    moves = [3, 0, 1, 2]
    t.move_seats(moves)
    assert t.seat_of(A) == 3 and t.seat_of(B) == 0
    assert t.panels == {3: (50, 51), 0: (60, 61)} and t.panel_users == {3: A, 0: B}
    assert set(t.nonces.values()) == {10} and not t.action_keys  # no button shown before is taken
    moved = [None] * 4
    for old, new in enumerate(moves):
        moved[new] = runner[old]
    assert t.seats_differ(moved) == []
    assert t.seats_differ(runner) == [0, 3]  # the runner's seats not moved: both humans disagree
    escaped = [dict(s) for s in moved]
    m.escape(t, B)  # B escapes: the lobby shows a computer, the runner still holds B for this hand
    assert t.seats_differ(escaped) == []
    with pytest.raises(ValueError):
        t.move_seats([0, 0, 1, 2])
