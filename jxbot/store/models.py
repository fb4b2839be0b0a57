"""Plain records returned by :class:`jxbot.store.Store` (frozen dataclasses, JSON-able)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from jxbot.store.errors import MAX_AMOUNT, InvalidArgument


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    name: str
    lang: str | None  # "zh" | "en" | None (use the Discord locale)
    created_at: float


def _int_in(name: str, v: object, lo: int, hi: int = MAX_AMOUNT) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise InvalidArgument(f"{name} must be an integer in [{lo}, {hi}]")
    return v


def _num_in(name: str, v: object, lo: float, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= float(v) <= hi:
        raise InvalidArgument(f"{name} must be a number in [{lo}, {hi}]")
    return float(v)


# who sees the concealed tiles in a replay of a finished hand: each player only their own seat, everyone
# who sat at the table every seat (the default), or everyone in the server every seat
REPLAY_HANDS = ("own", "table", "everyone")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild economy and table settings (defaults apply until an admin changes them)."""

    guild_id: int
    stake_min: int = 1  # 底分 limits for a table
    stake_max: int = 100
    fee: int = 1  # service fee F per seat per hand (RULES A10)
    claim_window: float = 5.0  # seconds (RULES A3)
    turn_limit: float = 20.0  # seconds (RULES C)
    starting_grant: int = 1000  # silver on a player's first seat
    daily_amount: int = 100
    replay_hands: str = "table"  # whose concealed tiles a replay shows: own / table / everyone (REPLAY_HANDS)
    daily_streak_bonus: int = 10  # extra per consecutive day after the first…
    daily_streak_cap: int = 7  # …counted up to this many days
    min_balance_multiplier: int = 10  # to sit: balance >= stake × this + fee
    allowed_channels: tuple[int, ...] = ()  # empty: every channel
    computer_level: str = "normal"  # level of computer players at new tables (jxbot.ai: easy/normal/hard)
    idle_lobby_minutes: float = 30.0  # a lobby nobody touched this long is closed (0: never; docs/bot.md)
    web: bool = False  # the web companion shows this server's pages (/admin web on; docs/web.md)
    web_name: str = ""  # the server's name as the web pages title it (taken when an admin turns them on)
    ranked_channel: int = 0  # where ranked tables open (a thread each where the bot may make threads); 0: none
    ranked_computer_wait: float = 0.0  # seconds a ranked player waits before computers fill the table (0: never)
    watch_delay: int = 2  # moves a watcher's view is behind (docs/watch.md); JXBOT_WATCH_DELAY unless set here
    # the settings an admin set (even to the built-in default): they win over the bot's own defaults
    explicit: tuple[str, ...] = ()

    EDITABLE = (
        "stake_min",
        "stake_max",
        "fee",
        "claim_window",
        "turn_limit",
        "starting_grant",
        "daily_amount",
        "replay_hands",
        "daily_streak_bonus",
        "daily_streak_cap",
        "min_balance_multiplier",
        "allowed_channels",
        "computer_level",
        "idle_lobby_minutes",
        "web",
        "web_name",
        "ranked_channel",
        "ranked_computer_wait",
        "watch_delay",
    )

    def validated(self) -> GuildSettings:
        _int_in("stake_min", self.stake_min, 1)
        _int_in("stake_max", self.stake_max, self.stake_min)
        _int_in("fee", self.fee, 0)
        _num_in("claim_window", self.claim_window, 1.0, 120.0)
        _num_in("turn_limit", self.turn_limit, 3.0, 3600.0)
        _int_in("starting_grant", self.starting_grant, 0)
        _int_in("daily_amount", self.daily_amount, 0)
        if self.replay_hands not in REPLAY_HANDS:
            raise InvalidArgument(f"replay_hands must be one of {', '.join(REPLAY_HANDS)}")
        _int_in("daily_streak_bonus", self.daily_streak_bonus, 0)
        _int_in("daily_streak_cap", self.daily_streak_cap, 0, 3650)
        _int_in("min_balance_multiplier", self.min_balance_multiplier, 0, 1_000_000)
        for c in self.allowed_channels:
            _int_in("allowed_channels", c, 1)
        if self.computer_level not in ("easy", "normal", "hard", "expert"):
            raise InvalidArgument(f"computer_level must be easy, normal, hard or expert, not {self.computer_level!r}")
        _num_in("idle_lobby_minutes", self.idle_lobby_minutes, 0.0, 10080.0)
        if not isinstance(self.web, bool):
            raise InvalidArgument("web must be true or false")
        if not isinstance(self.web_name, str) or len(self.web_name) > 100:
            raise InvalidArgument("web_name is a text of at most 100 characters")
        _int_in("ranked_channel", self.ranked_channel, 0)
        _num_in("ranked_computer_wait", self.ranked_computer_wait, 0.0, 3600.0)
        _int_in("watch_delay", self.watch_delay, 0, 50)
        if self.daily_amount + self.daily_streak_bonus * self.daily_streak_cap > MAX_AMOUNT:
            raise InvalidArgument("daily amount too large")
        return self

    def channel_allowed(self, channel_id: int) -> bool:
        return not self.allowed_channels or channel_id in self.allowed_channels

    def min_balance(self, stake: int) -> int:
        return stake * self.min_balance_multiplier + self.fee

    def to_json(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "guild_id"}
        d["allowed_channels"] = list(self.allowed_channels)
        d["explicit"] = list(self.explicit)
        return d

    @classmethod
    def from_json(cls, guild_id: int, d: dict[str, Any]) -> GuildSettings:
        known = {k: v for k, v in d.items() if k in cls.EDITABLE}
        if "allowed_channels" in known:
            known["allowed_channels"] = tuple(known["allowed_channels"])
        if "explicit" in d:
            explicit = tuple(k for k in d["explicit"] if k in cls.EDITABLE)
        else:  # saved before explicit settings were recorded: the values that differ from the defaults
            base = cls(guild_id=guild_id)
            explicit = tuple(k for k, v in known.items() if v != getattr(base, k))
        return cls(guild_id=guild_id, explicit=explicit, **known)


@dataclass(frozen=True, slots=True)
class DailyResult:
    amount: int  # silver received
    streak: int  # consecutive days, this one included
    next_at: float  # unix time of the next claim
    balance: int  # balance after


@dataclass(frozen=True, slots=True)
class PayResult:
    amount: int
    from_balance: int
    to_balance: int


@dataclass(frozen=True, slots=True)
class SitCheck:
    ok: bool
    code: str | None  # None | "stake_out_of_range" | "insufficient_balance"
    stake: int
    required: int  # minimum balance for this stake
    balance: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    hand_id: str
    guild_id: int
    channel_id: int
    table_id: str | None
    ruleset: str
    seats: tuple[int | None, ...]
    commitment: str
    reveal: Any
    status: str  # "running" | "settled"
    created_at: float
    settled_at: float | None


@dataclass(frozen=True, slots=True)
class AppliedTransfer:
    payer: int | None  # seat, None = house
    payee: int | None
    amount: int  # what actually moved (may be below `asked` if the payer ran short)
    asked: int
    reason: str


@dataclass(frozen=True, slots=True)
class SettleResult:
    hand_id: str
    deltas: tuple[int, ...]  # per seat, what actually moved (computer seats: via the house)
    house_delta: int  # the house account's change, computer seats included
    balances: tuple[int | None, ...]  # per seat after settlement; None for computer seats
    transfers: tuple[AppliedTransfer, ...]
    capped: bool  # a payer had less than the settlement asked (balances changed meanwhile)
    result: Any  # the result JSON given at the first settlement
    settled_at: float
    repeated: bool = False  # True when this call found the hand already settled (no-op)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("repeated")
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any], repeated: bool = False) -> SettleResult:
        return cls(
            hand_id=d["hand_id"],
            deltas=tuple(d["deltas"]),
            house_delta=d["house_delta"],
            balances=tuple(d["balances"]),
            transfers=tuple(AppliedTransfer(**t) for t in d["transfers"]),
            capped=d["capped"],
            result=d["result"],
            settled_at=d["settled_at"],
            repeated=repeated,
        )


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    guild_id: int
    channel_id: int
    config: Any
    state: Any
    status: str  # "running" | "closed"
    hand_ids: tuple[str, ...]  # in creation order
    open_hand_id: str | None  # the hand still running (not settled), if any
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class BestHand:
    """One won hand, as the biggest-hand board and the stats show it.

    Jiaxing: ``points`` = stake × 台 × 2^番 with ``tai``/``fan``; caishen (``mult`` set, ``tai``/``fan``
    None): ``points`` = stake × ``mult`` (倍)."""

    hand_id: str
    ruleset: str
    points: int
    tai: int | None
    fan: int | None
    mult: int | None
    self_draw: bool
    settled_at: float


@dataclass(frozen=True, slots=True)
class LeaderEntry:
    rank: int
    user_id: int
    name: str
    value: int
    best: BestHand | None = None  # kinds biggest / points / mult: the hand that holds the value


@dataclass(frozen=True, slots=True)
class LeaderPage:
    kind: str
    period: str
    page: int  # 1-based
    pages: int
    total: int
    entries: tuple[LeaderEntry, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    guild_id: int
    balance: int
    hands: int
    wins: int
    win_rate: float  # wins / hands (0.0 with no hands)
    self_draws: int
    biggest_win: int  # the most silver won in one hand
    best_points: int
    best_tai: int
    best_fan: int
    favourite_pattern: str | None  # the pattern code won with most often
    net: int  # silver won minus lost in hands, fees included
    best_mult: int = 0  # the biggest caishen multiplier (倍) won
    best_hand: BestHand | None = None  # the biggest hand won, by points (either ruleset)


@dataclass(frozen=True, slots=True)
class ReviewStats:
    """A player's reviewed hands in a guild (the coach, docs/coach.md): their running agreement with the expert
    and the silver lost per hand against the expert's choices (None before a first review)."""

    hands: int
    decisions: int
    agreement: float | None
    lost_per_hand: float | None


@dataclass(frozen=True, slots=True)
class HandSummary:
    hand_id: str
    seat: int
    settled_at: float
    delta: int
    won: bool
    drawn: bool
    self_draw: bool
    tai: int | None
    fan: int | None
    points: int | None
    ruleset: str
    mult: int | None = None  # caishen: the multiplier (倍) of a won hand (tai / fan are None then)


@dataclass(frozen=True, slots=True)
class Problem:
    code: str  # "balance_mismatch", "running_balance", "txn_not_zero_sum", "hand_not_zero_sum", …
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
