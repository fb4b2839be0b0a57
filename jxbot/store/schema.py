"""The versioned schema. ``MIGRATIONS[i]`` takes the database from version ``i`` to ``i + 1``.

The version is SQLite's ``PRAGMA user_version``; each migration and the version bump run in
one transaction at open, so a crash during a migration leaves the previous version intact.
Append new migrations; never edit a released one.
"""

from __future__ import annotations

LEDGER_REASONS = (
    "win",
    "loss",
    "fee",
    "escape",
    "daily",
    "grant",
    "transfer",
    "starting_grant",
    "admin",
)

_reasons_sql = ", ".join(f"'{r}'" for r in LEDGER_REASONS)

V1 = [
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE players (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        lang TEXT CHECK (lang IN ('zh', 'en')),
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    )""",
    """CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL,
        updated_at REAL NOT NULL
    )""",
    # One wallet per (scope, player); scope = guild id, or 0 when silver is global.
    # user_id NULL is the house account of that scope (it may go negative).
    """CREATE TABLE wallets (
        wallet_id INTEGER PRIMARY KEY,
        scope INTEGER NOT NULL,
        user_id INTEGER REFERENCES players(user_id),
        balance INTEGER NOT NULL DEFAULT 0,
        granted INTEGER NOT NULL DEFAULT 0,
        daily_last REAL,
        daily_streak INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        CHECK (user_id IS NULL OR balance >= 0)
    )""",
    "CREATE UNIQUE INDEX wallets_owner ON wallets(scope, user_id) WHERE user_id IS NOT NULL",
    "CREATE UNIQUE INDEX wallets_house ON wallets(scope) WHERE user_id IS NULL",
    "CREATE INDEX wallets_rank ON wallets(scope, balance DESC, user_id) WHERE user_id IS NOT NULL",
    """CREATE TABLE tables (
        table_id TEXT PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        config TEXT NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'closed')),
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        closed_at REAL
    )""",
    "CREATE INDEX tables_running ON tables(status) WHERE status = 'running'",
    """CREATE TABLE hands (
        hand_id TEXT PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        table_id TEXT REFERENCES tables(table_id),
        ruleset TEXT NOT NULL,
        seats TEXT NOT NULL,
        commitment TEXT NOT NULL,
        reveal TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'settled')),
        result TEXT,
        drawn INTEGER,
        winner_seat INTEGER,
        self_draw INTEGER,
        tai INTEGER,
        fan INTEGER,
        points INTEGER,
        created_at REAL NOT NULL,
        settled_at REAL,
        CHECK ((status = 'settled') = (result IS NOT NULL))
    )""",
    "CREATE INDEX hands_table ON hands(table_id) WHERE table_id IS NOT NULL",
    "CREATE INDEX hands_open ON hands(status) WHERE status = 'running'",
    """CREATE TABLE hand_seats (
        hand_id TEXT NOT NULL REFERENCES hands(hand_id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id INTEGER NOT NULL REFERENCES players(user_id),
        guild_id INTEGER NOT NULL,
        delta INTEGER,
        won INTEGER,
        settled_at REAL,
        PRIMARY KEY (hand_id, seat)
    ) WITHOUT ROWID""",
    "CREATE INDEX hand_seats_user ON hand_seats(guild_id, user_id, settled_at)",
    """CREATE TABLE hand_events (
        hand_id TEXT NOT NULL REFERENCES hands(hand_id),
        idx INTEGER NOT NULL CHECK (idx >= 0),
        event TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (hand_id, idx)
    ) WITHOUT ROWID""",
    # A transaction groups ledger rows that sum to zero (one operation).
    """CREATE TABLE txns (
        txn_id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        hand_id TEXT REFERENCES hands(hand_id),
        actor INTEGER,
        note TEXT,
        at REAL NOT NULL
    )""",
    # a hand is settled by exactly one operation, enforced by the database as well
    "CREATE UNIQUE INDEX txns_settle ON txns(hand_id) WHERE kind = 'settle'",
    "CREATE INDEX txns_hand ON txns(hand_id) WHERE hand_id IS NOT NULL",
    f"""CREATE TABLE ledger (
        entry_id INTEGER PRIMARY KEY,
        txn_id INTEGER NOT NULL REFERENCES txns(txn_id),
        wallet_id INTEGER NOT NULL REFERENCES wallets(wallet_id),
        guild_id INTEGER NOT NULL,
        user_id INTEGER,
        delta INTEGER NOT NULL CHECK (delta != 0),
        balance_after INTEGER NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ({_reasons_sql})),
        hand_id TEXT REFERENCES hands(hand_id),
        at REAL NOT NULL
    )""",
    "CREATE INDEX ledger_wallet ON ledger(wallet_id, entry_id)",
    "CREATE INDEX ledger_txn ON ledger(txn_id)",
    "CREATE INDEX ledger_hand ON ledger(hand_id) WHERE hand_id IS NOT NULL",
    # period leaderboards (net winnings over a day / a week): play rows of players only
    """CREATE INDEX ledger_play ON ledger(guild_id, at, user_id, delta)
        WHERE hand_id IS NOT NULL AND user_id IS NOT NULL""",
    # Per-guild player statistics, kept up to date by settle_hand (derived; `check` verifies them).
    """CREATE TABLE members (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL REFERENCES players(user_id),
        hands INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        self_draws INTEGER NOT NULL DEFAULT 0,
        net INTEGER NOT NULL DEFAULT 0,
        biggest_win INTEGER NOT NULL DEFAULT 0,
        best_points INTEGER NOT NULL DEFAULT 0,
        best_tai INTEGER NOT NULL DEFAULT 0,
        best_fan INTEGER NOT NULL DEFAULT 0,
        first_seen REAL NOT NULL,
        last_played REAL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX members_wins ON members(guild_id, wins DESC, user_id)",
    "CREATE INDEX members_net ON members(guild_id, net DESC, user_id)",
    "CREATE INDEX members_points ON members(guild_id, best_points DESC, user_id)",
    "CREATE INDEX members_tai ON members(guild_id, best_tai DESC, user_id)",
    "CREATE INDEX members_fan ON members(guild_id, best_fan DESC, user_id)",
    """CREATE TABLE member_patterns (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        pattern TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id, pattern)
    ) WITHOUT ROWID""",
]

# V2: rulesets whose hands are worth a multiplier (caishen: points = stake × 倍, 台/番 are 0). A won caishen
# hand records its multiplier; members keep the biggest one. Existing caishen hands are filled in from
# the stored result (points ÷ the score's stake); their 台/番 (recorded as 0) become NULL: not applicable.
V2 = [
    "ALTER TABLE hands ADD COLUMN mult INTEGER",
    "ALTER TABLE members ADD COLUMN best_mult INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX members_mult ON members(guild_id, best_mult DESC, user_id)",
    """UPDATE hands SET mult = points / json_extract(result, '$.result.score.stake'), tai = NULL, fan = NULL
        WHERE ruleset = 'caishen' AND status = 'settled' AND points IS NOT NULL AND winner_seat IS NOT NULL
        AND json_valid(result) AND json_extract(result, '$.result.score.stake') > 0""",
    """UPDATE members SET best_mult = COALESCE((SELECT MAX(h.mult) FROM hand_seats s JOIN hands h
        ON h.hand_id = s.hand_id WHERE s.guild_id = members.guild_id AND s.user_id = members.user_id
        AND s.won = 1), 0)""",
]

# V_LADDER (issue 29, docs/ranked.md): ranked play. A ladder is a server id as text, or 'global' when the store's
# silver is global. Ratings per (ladder, ruleset, season, player) with the placement counts and the play figures of
# the rated matches; a history row per player per rated match; seasons; a row per ranked match (rated or void),
# written in the transaction of the match's last settlement (so a match is rated exactly once).
V_LADDER = [
    """CREATE TABLE ladder_seasons (
        ladder TEXT NOT NULL,
        season INTEGER NOT NULL CHECK (season >= 1),
        started_at REAL NOT NULL,
        ended_at REAL,
        PRIMARY KEY (ladder, season)
    ) WITHOUT ROWID""",
    """CREATE TABLE ladder_ratings (
        ladder TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        season INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        score REAL NOT NULL,
        bucket INTEGER NOT NULL,
        matches INTEGER NOT NULL DEFAULT 0,
        p1 INTEGER NOT NULL DEFAULT 0,
        p2 INTEGER NOT NULL DEFAULT 0,
        p3 INTEGER NOT NULL DEFAULT 0,
        p4 INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        self_draws INTEGER NOT NULL DEFAULT 0,
        deal_ins INTEGER NOT NULL DEFAULT 0,
        best_points INTEGER NOT NULL DEFAULT 0,
        best_hand TEXT,
        updated_at REAL NOT NULL,
        PRIMARY KEY (ladder, ruleset, season, user_id)
    ) WITHOUT ROWID""",
    # the board's order: bucket (score // 10, see jxbot/ladder/model.py) then score, then user id; ladder_buckets counts
    # the players of each bucket, so a position or a deep page is found without counting 100,000 index entries
    "CREATE INDEX ladder_ratings_board ON ladder_ratings(ladder, ruleset, season, bucket DESC, score DESC, user_id)",
    """CREATE TABLE ladder_buckets (
        ladder TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        season INTEGER NOT NULL,
        bucket INTEGER NOT NULL,
        players INTEGER NOT NULL,
        PRIMARY KEY (ladder, ruleset, season, bucket)
    ) WITHOUT ROWID""",
    """CREATE TABLE ladder_matches (
        match_id TEXT PRIMARY KEY,
        ladder TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        season INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('rated', 'void')),
        group_key TEXT NOT NULL,
        entrants TEXT NOT NULL,
        last_hand TEXT,
        at REAL NOT NULL
    )""",
    "CREATE INDEX ladder_matches_group ON ladder_matches(group_key, at)",
    """CREATE TABLE ladder_history (
        match_id TEXT NOT NULL REFERENCES ladder_matches(match_id),
        user_id INTEGER NOT NULL,
        ladder TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        season INTEGER NOT NULL,
        place INTEGER NOT NULL CHECK (place BETWEEN 1 AND 4),
        total INTEGER NOT NULL,
        escaped INTEGER NOT NULL DEFAULT 0,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        rating_before INTEGER NOT NULL,
        rating INTEGER NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (match_id, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX ladder_history_user ON ladder_history(ladder, ruleset, season, user_id, at)",
]

# V_EVENTS (issue 32): arranged tables (jxbot/shell/arranged.py: fixed players and settings, a result handed on
# once) and events (jxbot/events: tournaments, their players and the results of their tables, one row a table)
V_EVENTS = [
    """CREATE TABLE arranged (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        table_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'ended', 'delivered')),
        spec TEXT NOT NULL,
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        CHECK ((status = 'open') = (result IS NULL))
    )""",
    "CREATE INDEX arranged_pending ON arranged(status) WHERE status <> 'delivered'",
    """CREATE TABLE events (
        event_id TEXT PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'running', 'ended', 'cancelled')),
        config TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    )""",
    "CREATE INDEX events_live ON events(guild_id, status) WHERE status IN ('open', 'running')",
    """CREATE TABLE event_players (
        event_id TEXT NOT NULL REFERENCES events(event_id),
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        checked_in INTEGER NOT NULL DEFAULT 0,
        joined_at REAL NOT NULL,
        PRIMARY KEY (event_id, user_id)
    )""",
    """CREATE TABLE event_tables (
        event_id TEXT NOT NULL REFERENCES events(event_id),
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        result TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (event_id, round, table_no)
    )""",
]

# V_COACH (issue 30): a hand's review for one seat (docs/coach.md), the cache of ``/mahjong review`` and the
# Review button: computed once (≤ 20 s of worker CPU), then read back; ``user_id`` is the player who sat there,
# for their running agreement and loss in /stats.
V_COACH = [
    """CREATE TABLE coach_reviews (
        hand_id TEXT NOT NULL REFERENCES hands(hand_id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id INTEGER,
        guild_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        agreed INTEGER NOT NULL,
        lost REAL NOT NULL,
        review TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (hand_id, seat)
    ) WITHOUT ROWID""",
    "CREATE INDEX coach_reviews_user ON coach_reviews(guild_id, user_id) WHERE user_id IS NOT NULL",
]

# V_SEASON_SCHEDULE (issue 29, docs/ranked.md "Seasons"): a ladder whose seasons last ``days`` days; ``next_end`` is
# when the open one ends (jxbot/ladder/schedule.py rolls it over there).
V_SEASON_SCHEDULE = [
    """CREATE TABLE ladder_schedules (
        ladder TEXT PRIMARY KEY,
        days INTEGER NOT NULL CHECK (days >= 1),
        next_end REAL NOT NULL
    )""",
]

# V_RANKED_QUEUE (issue 29, docs/ranked.md "The cross-server queue"): the global ranked queue, shared by every
# process of a shared store: one row per waiting person (whatever ladder), ``claimed`` the group a matcher put them
# in (in the transaction that formed it: a claimed row is never matched again), ``table_id`` once its table opened.
V_RANKED_QUEUE = [
    """CREATE TABLE ranked_queue (
        user_id INTEGER PRIMARY KEY,
        ladder TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        rating INTEGER NOT NULL,
        name TEXT NOT NULL,
        lang TEXT NOT NULL,
        joined_at REAL NOT NULL,
        claimed TEXT,
        claimed_at REAL,
        table_id TEXT
    )""",
    "CREATE INDEX ranked_queue_waiting ON ranked_queue(ladder, joined_at) WHERE claimed IS NULL",
]

MIGRATIONS: list[list[str]] = [V1, V2, V_LADDER, V_EVENTS, V_COACH, V_SEASON_SCHEDULE, V_RANKED_QUEUE]
SCHEMA_VERSION = len(MIGRATIONS)
