"""The variant interface: the common rules (docs/rules/common.md) as real default methods.

A variant is one file in ``engine/variants/``: a subclass of :class:`Variant` that overrides only what its
region changes, like python-chess's variant boards or scalachess's ``Variant``. The core state machine
(engine/game.py and its parts) knows no region: it asks the variant, by concern,

* dealing and pre-hand choices — the tile set, the first dealer, 飘 / 加锤 / 定缺 (and later stages such as
  换三张 through ``after_choices``), opening hands (起手小胡, 扳牌);
* claims — which pungs, kongs and chows are allowed, which discards, forced wins, 漏胡;
* kongs — 补张 / 开杠 modes, robbing, kong money;
* the wall and haidi — tiles kept back at the end (birds), who is offered the last tile (海底漫游);
* win evaluation — could_win, evaluate_win, waits, shanten;
* scoring — wins, drawn hands, what happens after a win (血战: winners leave);
* the next dealer;
* display — hand names, option value labels, presets, pre-hand choice labels and how a choice is picked
  (one value, or tiles of the hand: ``choice_pick``), payment part names, the opening prompt, for any
  front end.

Variant-only state lives in ``State.extra``, a slot the variant owns (None at the deal); the core never reads
it. A variant updates it in its hooks (``on_opening``, ``on_discard``, ``after_choices``, ``after_win``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Act, KongMode
from .errors import InvalidOption
from .hands import all_258
from .melds import Meld, MeldKind, owned
from .shanten import TILES_258, HandShape, Shapes
from .shape import (
    ORPHANS,
    candidates,
    is_seven_pairs,
    is_standard,
    is_thirteen_orphans,
    seven_pairs_wait,
    standard_waits,
)
from .tiles import NUM_KINDS, Counts, full_set

if TYPE_CHECKING:
    from .events import Event
    from .state import Settlement, State


# ------------------------------------------------------------------ room options


_YES_NO = {True: ("是", "yes"), False: ("否", "no")}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One room option (房间选项): its id, default, allowed values, its label and its values' labels."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    label_zh: str
    label_en: str
    # value -> (Chinese, English); booleans read 是/否 yes/no and numbers themselves unless given here
    value_labels: Mapping[Any, tuple[str, str]] = field(default_factory=dict)

    def label(self, lang: str = "zh") -> str:
        return self.label_zh if lang == "zh" else self.label_en

    def value_label(self, value: Any, lang: str = "zh") -> str:
        """How a value of this option reads to players (``jiadi`` → 自摸加底 / +1 base on a self-draw)."""
        pair = self.value_labels.get(value)
        if pair is None and isinstance(value, bool):
            pair = _YES_NO[value]
        if pair is None:
            return str(value)
        return pair[0] if lang == "zh" else pair[1]


@dataclass(frozen=True, slots=True)
class Preset:
    """One lobby choice that sets several room options at once, as the apps' rooms do (四川: 血战换三张 =
    血战到底 with 换三张), and the seat count where the preset fixes it (三人两房: 3). A front end lists a
    variant's ``presets`` generically; choosing one overlays ``options`` on the room's."""

    id: str
    label_zh: str
    label_en: str
    options: Mapping[str, Any]
    seats: int | None = None

    def label(self, lang: str = "zh") -> str:
        return self.label_zh if lang == "zh" else self.label_en

    def matches(self, options: Mapping[str, Any], seats: int) -> bool:
        """Does a room with these options and this many seats play this preset?"""
        if self.seats is not None and seats != self.seats:
            return False
        return all(options.get(k) == v for k, v in self.options.items())


@dataclass(frozen=True, slots=True)
class TilePick:
    """A pre-hand choice made by picking tiles from one's own hand (换三张: three tiles of one suit).

    Every offered value (a CHOOSE action's detail) is the picked tiles in tile notation (``format_tiles``:
    ``"557m"``), so a front end can let the player toggle ``count`` of his tiles and send the action whose
    tiles they are — instead of one button per combination (there can be over a hundred)."""

    count: int


class Options(Mapping[str, Any]):
    """Immutable, validated room options."""

    __slots__ = ("_d",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._d = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self._d[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._d.items())))

    def __repr__(self) -> str:
        return f"Options({self._d!r})"


# ------------------------------------------------------------------ win evaluation


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything a variant needs to decide whether a hand wins and what it is worth."""

    seat: int
    dealer: int
    counts: Counts  # concealed tiles including the winning tile
    melds: tuple[Meld, ...]
    tile: int  # the winning tile (-1: 天胡 on the dealt tiles, no tile drawn)
    self_draw: bool
    from_seat: int | None = None  # discarder / robbed seat / haidi taker
    first_turn: bool = False  # 天胡: the dealer's untouched 14 tiles
    first_discard: bool = False  # 地胡: the dealer's first discard (his own kongs before it don't matter)
    haidi: bool = False  # the tile is the haidi tile (捞月 if self_draw, 炮 otherwise)
    kong_draw: KongMode | None = (
        None  # the tile is a kong replacement: BU (补张 / a plain kong) or KAI (开杠)
    )
    kong_discard: bool = False  # 杠上炮: discard made straight after 开杠
    after_kong: KongMode | None = None  # the discarder had just konged (杠上炮 after any kong)
    kong_from: int | None = None  # self-draw after an exposed kong: the seat that fed it (点杠)
    kong_tiles: tuple[int, ...] = ()  # all tiles of a two-tile 开杠 (both may win)
    robbed: bool = False  # 抢杠胡
    robbed_concealed: bool = False  # robbing a concealed kong (only 十三幺, Shaoyang)
    choice: str | None = None  # the winner's pre-hand choice (定缺 suit, 飘, 加锤)
    options: Options = field(default_factory=lambda: Options({}))


@dataclass(frozen=True, slots=True)
class WinInfo:
    """A winning hand: big-hand names (each with its count) or small-hand names."""

    big: tuple[tuple[str, int], ...]  # e.g. (("qingyise", 1), ("haohua_qidui", 2))
    small: tuple[str, ...] = ()

    @property
    def big_count(self) -> int:
        return sum(n for _, n in self.big)

    @property
    def is_big(self) -> bool:
        return bool(self.big)


# Names of the common parts of a payment's arithmetic (``state.Part.label``) that a variant does not name
# itself: ``{n}`` is the part's count (``{s}``: "s" unless it is 1); a label "a:b" reads as a's name about
# b's (``refund:angang``).
PART_NAMES: dict[str, tuple[str, str]] = {
    "base": ("底分", "base"),
    "dealer": ("庄家", "dealer"),
    "dianpao": ("点炮", "on a discard"),  # a big hand won on a discard pays twice its self-draw share
    "birds": ("中鸟{n}只", "{n} bird{s} hit"),
    "piao": ("飘", "piao"),
    "hammers": ("两家共{n}锤", "{n} hammer{s}, both players'"),  # the winner's and this payer's (加锤)
    "share": ("包{n}家", "pays for {n}"),
    "players": ("{n}家", "{n} players"),
    "split": ("{n}家分", "split {n} ways"),
    "cap": ("封顶", "cap"),
    "bird_tiles": ("扎鸟", "Birds"),
    "fan": ("番", "fan"),
    "refund": ("退还{what}", "{what} returned"),
}

_NOT_ORPHANS = tuple(t for t in range(NUM_KINDS) if t not in ORPHANS)
_get_not_orphans = itemgetter(*_NOT_ORPHANS)
_get_not_258 = itemgetter(*(t for t in range(NUM_KINDS) if t not in TILES_258))


def _plus(counts: Counts, t: int) -> Counts:
    """``counts`` with one more ``t``."""
    c = list(counts)
    c[t] += 1
    return tuple(c)


_FULL_108 = tuple(full_set(False))


class Variant:
    """A regional rule set. Every method has the common rule as its default; a variant overrides the rest.

    Instances are immutable singletons (``engine.variants.<id>.VARIANT``); everything about a hand is in
    the State, its Options, and the variant's own slot ``State.extra``."""

    # ---------------------------------------------------------------- identity
    id: ClassVar[str] = ""
    name_zh: ClassVar[str] = ""
    name_en: ClassVar[str] = ""
    seat_counts: ClassVar[tuple[int, ...]] = (4,)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    # lobby shortcuts that set several options at once (and maybe the seat count), in display order
    presets: ClassVar[tuple[Preset, ...]] = ()
    # hand, settlement and kong ids -> (Chinese, English)
    names: ClassVar[Mapping[str, tuple[str, str]]] = {}
    # settlement note ids (``Settlement.note``) -> (Chinese, English)
    notes: ClassVar[Mapping[str, tuple[str, str]]] = {}
    # the variant's own payment part ids (``Part.label``) that are not hands -> (Chinese, English); "{n}"
    # is the part's count
    part_names: ClassVar[Mapping[str, tuple[str, str]]] = {}
    # the win shapes: could_win, the waits beyond neighbours, shanten (and the AI plays toward them)
    shapes: ClassVar[Shapes] = Shapes()
    # pre-hand choice values -> (Chinese, English), and what the choice asks (Chinese, English)
    choice_labels: ClassVar[Mapping[str, tuple[str, str]]] = {}
    choice_question: ClassVar[tuple[str, str] | None] = None
    choice_name: ClassVar[tuple[str, str]] = ("开局选择", "the pre-hand choice")  # 飘 / 加锤 / 定缺
    # what a decision at the deal is called (起手小胡, 扳牌, 四红中 …) and what declaring one does, for a
    # front end's prompt: "{hands}" in the question is the hands held (Chinese, English)
    opening_label: ClassVar[tuple[str, str]] = ("起手", "at the deal")
    opening_question: ClassVar[tuple[str, str] | None] = None
    multi_win: ClassVar[bool] = True  # 一炮多响 / 通炮: several seats may win on one tile
    kai_tiles: ClassVar[int] = 1  # 开杠 turns up 1 tile (by dice) or a whole stack of 2
    concealed_kong_shown: ClassVar[bool] = False  # 暗杠亮一张牌: the others see a concealed kong's tile

    # derived once per class (never settings), so the core skips a default on its hot paths: does the
    # variant restrict discards at all, or ever force a win?
    _restricts_discards: ClassVar[bool] = False
    _forces_wins: ClassVar[bool] = False
    # do could_win and wait_candidates stay the defaults (the shapes)? Then shape_waits reads the waits
    # suit by suit instead of trying each candidate tile.
    _shape_defaults: ClassVar[bool] = True
    _discard_hook: ClassVar[bool] = False  # does the variant override on_discard?

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._restricts_discards = cls.discard_allowed is not Variant.discard_allowed
        cls._forces_wins = cls.must_win is not Variant.must_win
        cls._shape_defaults = (
            cls.could_win is Variant.could_win and cls.wait_candidates is Variant.wait_candidates
        )
        cls._discard_hook = cls.on_discard is not Variant.on_discard

    def __repr__(self) -> str:
        return f"<variant {self.id}>"

    def make_options(self, values: Mapping[str, Any] | None = None) -> Options:
        """Defaults overlaid with ``values``; unknown names or values raise InvalidOption."""
        specs = {s.name: s for s in self.option_specs}
        out = {s.name: s.default for s in self.option_specs}
        for k, v in (values or {}).items():
            if k not in specs:
                raise InvalidOption(f"{self.id} has no option {k!r}; it has {sorted(specs)}")
            if v not in specs[k].choices:
                raise InvalidOption(f"option {k}={v!r} not in {specs[k].choices}")
            out[k] = v
        return Options(out)

    # ---------------------------------------------------------------- dealing and pre-hand choices

    def tile_set(self, seats: int, options: Options) -> tuple[int, ...]:
        """Every tile of the set: 108 suited tiles (万 条 筒, four of each) unless the variant differs."""
        return _FULL_108

    def wild_tiles(self) -> frozenset[int]:
        """Tiles that stand for any other in a winning hand (红中麻将's 红中); none unless the variant has
        them. What players are shown of them (marked, "wild: cannot be discarded")."""
        return frozenset()

    def first_dealer(self, seats: int, creator: int | None) -> int | None:
        """The dealer of a table's first hand, given the seat of the table's creator (None if unknown).
        None: drawn from the hand's seed (the common rule: 第一局随机定庄)."""
        return None

    def pre_hand(self, state: State, seat: int) -> tuple[str, ...]:
        """The choices ``seat`` makes before play (飘, 加锤, 定缺, …), default first; () = none."""
        return ()

    def choose_blind(self, state: State) -> bool:
        """Are the pre-hand choices made before looking at the tiles (飘, 加锤)?"""
        return False

    def choices_public(self, state: State) -> bool:
        """Are the choices shown to everyone once every seat has chosen (飘, 加锤, 定缺: yes; the three tiles
        of 换三张: no)? The core then reports them in a CHOICES event."""
        return True

    def after_choices(self, state: State, events: list[Event]) -> State:
        """Every seat has made its choice: apply them (e.g. 换三张 passes the tiles, with its own events:
        ``EventKind.VARIANT``) and, for a further stage, clear ``Seat.choice`` (a secret choice must be
        cleared: the observation shows each seat's choice once nobody is choosing); the core stays in the
        choosing phase while ``pre_hand`` offers more."""
        return state

    def choice_prompt(self, offered: Sequence[str], lang: str = "zh") -> str | None:
        """What a pre-hand choice among ``offered`` asks, in words (定缺：选一门不要的花色); None: a generic
        prompt."""
        q = self.choice_question
        return None if q is None else q[0] if lang == "zh" else q[1]

    def wins_at_deal(self, state: State, seat: int) -> bool:
        """Does ``seat`` win on its dealt tiles at once, before the dealer's first discard (红中麻将's
        四红中)? The core then offers it a WIN (a self-draw on no tile) with the opening hands. Default:
        nobody (the dealer's 天胡 is a self-draw on his first turn)."""
        return False

    def choice_pick(self, offered: Sequence[str]) -> TilePick | None:
        """How a pre-hand choice among ``offered`` is made: None = pick one of the values (飘, 定缺: one
        button each); a TilePick = pick that many tiles of one's hand, each value naming them (换三张)."""
        return None

    def opening_hands(self, state: State, seat: int) -> tuple[str, ...]:
        """Opening hands (起手小胡, 扳牌) ``seat`` may declare after the deal; () = none."""
        return ()

    def settle_opening(self, state: State, seat: int, kinds: tuple[str, ...]) -> Settlement:
        raise NotImplementedError(f"{self.id} has no opening hands")

    def opening_reveal(self, state: State, seat: int, kinds: tuple[str, ...]) -> tuple[int, ...]:
        """Tiles a declaration shows to the table."""
        return ()

    def on_opening(self, state: State, seat: int, kinds: tuple[str, ...]) -> State:
        """After ``seat`` declared ``kinds`` (and was paid): the variant may update its slot."""
        return state

    def hand_shown(self, state: State, seat: int) -> bool:
        """Does the table see this seat's concealed hand before the end (a 血战 winner's, 扳牌's 三巡)?"""
        return state.seats[seat].won

    # ---------------------------------------------------------------- claims and discards

    def claim_allowed(self, state: State, seat: int, act: Act, tile: int) -> bool:
        """May ``seat`` pung / kong / chow ``tile`` (a discard, or its own kong)? Chow only ever by the
        next seat (the core's rule); every meld allowed by default."""
        return True

    def discard_allowed(self, state: State, seat: int, tile: int) -> bool:
        """May ``seat`` discard ``tile`` (Sichuan: the void suit first)?"""
        return True

    def must_win(self, state: State, seat: int) -> bool:
        """Must ``seat`` take a win it can make (Sichuan's last four tiles)?"""
        return False

    def passed_win_bars(self, passed: tuple[int, ...], tile: int) -> bool:
        """漏胡: ``passed`` holds the tiles the seat passed a win on since its last draw, pung or kong; does
        that bar a win on ``tile`` from another seat? The common rule: every such win is barred."""
        return bool(passed)

    def on_discard(self, state: State, seat: int, tile: int) -> State:
        """After ``seat`` discarded ``tile`` (before any claim): the variant may update its slot."""
        return state

    # ---------------------------------------------------------------- kongs

    def kong_modes(self, state: State, seat: int, tile: int, kind: MeldKind) -> tuple[KongMode, ...]:
        """How ``seat`` may kong ``tile`` as ``kind`` (already allowed by claim_allowed): () = not at all,
        (PLAIN,) = a kong and a replacement from the back. A locked hand (开杠) makes no kong by default."""
        return () if state.seats[seat].locked else (KongMode.PLAIN,)

    def robbable(self, state: State, kind: MeldKind) -> bool:
        """May a kong of ``kind`` be robbed (抢杠胡)? The common rule: only a 补杠."""
        return kind == MeldKind.KONG_ADDED

    def settle_kong(
        self, state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
    ) -> Settlement | None:
        """Kong money, paid when the kong is made; None = no money."""
        return None

    # ---------------------------------------------------------------- the wall and haidi

    def wall_reserve(self, options: Options) -> int:
        """Tiles kept back at the end of the wall (for birds): play stops when only these are left."""
        return 0

    def haidi_seats(self, state: State, first: int) -> tuple[int, ...] | None:
        """海底漫游: the seats offered the last wall tile, in order from ``first`` (the seat to draw it); an
        empty tuple draws the hand at once. None: no haidi choice, the last tile is drawn like any other."""
        return tuple(s for s in state.play_order(first) if not state.seats[s].won)

    # ---------------------------------------------------------------- win evaluation

    def could_win(self, counts: Counts, melds: tuple[Meld, ...]) -> bool:
        """A cheap shape test run before a WinContext is built: True for every hand evaluate_win accepts.
        By ``shapes``: 4 melds + a pair, 七小对, 十三幺 (concealed), 将将胡 (all 2/5/8, any shape)."""
        if is_standard(counts):
            return True
        shapes = self.shapes
        if not melds and (
            (shapes.seven_pairs and is_seven_pairs(counts))
            or (shapes.thirteen_orphans and not any(_get_not_orphans(counts)) and is_thirteen_orphans(counts))
        ):
            return True
        return shapes.all_258 and not any(_get_not_258(counts)) and all_258(counts, melds)

    def evaluate_win(self, ctx: WinContext) -> WinInfo | None:
        """Which hands 14 tiles make in this context; None = no win (or not allowed here)."""
        raise NotImplementedError

    def wait_candidates(self, counts: Counts, melds: tuple[Meld, ...]) -> Iterable[int]:
        """Waits the neighbour rule misses, by ``shapes``: any 2/5/8 for an all-2/5/8 hand (将将胡 wins in
        any shape), any terminal or honor for a 十三幺 hand (a variant with wilds: any tile)."""
        if self.shapes.all_258 and all_258(counts, melds):
            return TILES_258
        if self.shapes.thirteen_orphans and not melds and not any(counts[t] for t in _NOT_ORPHANS):
            return ORPHANS
        return ()

    def shape_waits(self, counts: Counts, melds: tuple[Meld, ...] = ()) -> list[int]:
        """Tiles ``t`` (never a fifth copy) for which ``could_win(counts + t, melds)``, sorted: the waits by
        shape, before the variant's evaluation. With the default shapes they are read suit by suit
        (engine/shape.py); a variant overriding could_win or wait_candidates has each candidate tried."""
        if self._shape_defaults:
            shapes = self.shapes
            found = standard_waits(counts)
            extra: list[int] = []
            if not melds:
                if shapes.seven_pairs:
                    t = seven_pairs_wait(counts)
                    if t >= 0:
                        extra.append(t)
                if shapes.thirteen_orphans and not any(_get_not_orphans(counts)):
                    extra.extend(t for t in ORPHANS if is_thirteen_orphans(_plus(counts, t)))
            if shapes.all_258 and not any(_get_not_258(counts)) and all_258(counts, melds):
                extra.extend(t for t in TILES_258 if counts[t] < 4)
            if extra:
                found = sorted({*found, *extra})
            return found
        cands = set(candidates(counts))
        cands.update(self.wait_candidates(counts, melds))
        return [t for t in sorted(cands) if counts[t] < 4 and self.could_win(_plus(counts, t), melds)]

    def waits(
        self,
        counts: Counts,
        melds: tuple[Meld, ...] = (),
        options: Options | None = None,
        choice: str | None = None,
    ) -> list[int]:
        """Tiles that would complete this 3k+1 hand in any context (self-draw or discard) — 听牌. The
        variant's evaluation runs only on the waits by shape."""
        shaped = self.shape_waits(counts, melds)
        if not shaped:
            return shaped
        opts = options if options is not None else self.make_options()
        out = []
        for t in shaped:
            ct = _plus(counts, t)
            for self_draw in (True, False):
                ctx = WinContext(
                    0,
                    1,
                    ct,
                    melds,
                    t,
                    self_draw,
                    from_seat=None if self_draw else 2,
                    options=opts,
                    choice=choice,
                )
                if self.evaluate_win(ctx) is not None:
                    out.append(t)
                    break
        return out

    def live_waits(
        self,
        counts: Counts,
        melds: tuple[Meld, ...] = (),
        options: Options | None = None,
        choice: str | None = None,
    ) -> list[int]:
        """``waits`` without a tile the player owns all four of: winning on it would need a fifth copy
        (docs/rules/sichuan.md 裁定 14 says so of 查大叫; no set holds one anywhere)."""
        total = owned(counts, melds)
        return [t for t in self.waits(counts, melds, options, choice) if total[t] < 4]

    def shanten(
        self,
        counts: Counts,
        melds: tuple[Meld, ...] = (),
        options: Options | None = None,
        choice: str | None = None,
    ) -> int:
        """向听: −1 complete, 0 ready (exactly when ``waits`` is not empty, for a 3k+1 hand), n: n tiles
        from ready. A lower bound from the variant's ``shapes``, checked against ``waits`` at 0."""
        s = self.hand_shape(melds).shanten(counts)
        if s == 0 and sum(counts) % 3 == 1 and not self.waits(counts, melds, options, choice):
            return 1
        return s

    def hand_shape(self, melds: Sequence[Meld] = ()) -> HandShape:
        """The shanten machinery of one seat's melds (its lower bound and useful tiles), by ``shapes``; the
        AI plays with it. A variant with wild tiles returns its own HandShape that counts them."""
        return HandShape(self.shapes, melds)

    # ---------------------------------------------------------------- scoring

    def settle_wins(
        self, state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext
    ) -> Settlement:
        """Settle the win(s) on one tile (or a self-draw)."""
        raise NotImplementedError

    def settle_draw(self, state: State) -> Settlement | None:
        """The wall ran out (荒庄, or in 血战 after some wins): None = nothing to pay."""
        return None

    def after_win(
        self, state: State, winners: tuple[int, ...], ctx: WinContext, events: list[Event]
    ) -> tuple[State, bool]:
        """After a settled win: (state, play on?). The common rule: the hand ends. Playing on, the next
        draw is the seat's after the last winner that has not left (血战: winners leave play, ``won``;
        血流成河: they stay in, their hands locked)."""
        return state, False

    # ---------------------------------------------------------------- next dealer

    def next_dealer(self, state: State, ctx: WinContext | None) -> int:
        """The common rule: the winner deals; several winners on one tile → the discarder (通炮: the robbed
        konger, the haidi taker); a drawn hand → the seat that took the last tile as a kong replacement
        (本局无海底), else the haidi taker, else the first seat offered the haidi, else the dealer stays."""
        winners = state.winners
        if len(winners) == 1:
            return winners[0]
        if winners:
            return ctx.from_seat if ctx is not None and ctx.from_seat is not None else winners[0]
        for seat in (state.haidi_as_replacement, state.haidi_taker, state.haidi_first):
            if seat is not None:
                return seat
        return state.dealer

    def dealer_note(self, state: State, ctx: WinContext | None, nxt: int) -> str:
        """Why ``nxt`` deals next, where players would not expect it (a ``notes`` key shown beside the next
        dealer); "" where the rule is the one everyone knows."""
        return ""

    # ---------------------------------------------------------------- display

    def hand_name(self, key: str, lang: str = "zh") -> str:
        zh, en = self.names.get(key, (key, key))
        return zh if lang == "zh" else en

    def note_label(self, key: str, lang: str = "zh") -> str:
        """A settlement's note as players read it (呼叫转移 / call transfer)."""
        zh, en = self.notes.get(key, (key, key))
        return zh if lang == "zh" else en

    def part_name(self, label: str, count: int = 0, lang: str = "zh") -> str:
        """A payment part as players read it: the variant's own name of a part, hand or kong
        (``part_names``, ``names``, then ``notes``), else a common one (底分, 庄家, 中鸟 n 只 …); ``count``
        fills its ``{n}``."""
        head, _, what = label.partition(":")
        pair = (
            self.part_names.get(head)
            or self.names.get(head)
            or self.notes.get(head)
            or PART_NAMES.get(head)
            or (head, head)
        )
        text = pair[0] if lang == "zh" else pair[1]
        if "{" not in text:
            return text
        return text.format(
            n=count, s="" if count == 1 else "s", what=self.part_name(what, 0, lang) if what else ""
        )

    def opening_prompt(self, hands: str, lang: str = "zh") -> str | None:
        """What declaring the opening hands ``hands`` (already named) does, in words; None: a generic
        prompt."""
        q = self.opening_question
        return None if q is None else (q[0] if lang == "zh" else q[1]).format(hands=hands)

    def choice_stage(self, state: State) -> str | None:
        """Which of several pre-hand choices is being made, if the variant has more than one (a public
        fact, shown to everyone: 四川's 换三张 before 定缺); None: the only one."""
        return None

    def choice_title(self, lang: str = "zh", stage: str | None = None) -> str:
        """What the pre-hand choice (of ``stage``, from ``choice_stage``) is called (定缺 / void suit)."""
        return self.choice_name[0] if lang == "zh" else self.choice_name[1]

    def choice_label(self, value: str, lang: str = "zh") -> str:
        """A pre-hand choice as players read it (定缺 "p" → 缺筒 / void dots)."""
        zh, en = self.choice_labels.get(value, (value, value))
        return zh if lang == "zh" else en

    def preset_of(self, options: Mapping[str, Any], seats: int) -> Preset | None:
        """The first preset a room with these options and seats plays, if any (for the lobby)."""
        return next((p for p in self.presets if p.matches(options, seats)), None)

    def option_spec(self, name: str) -> OptionSpec:
        for s in self.option_specs:
            if s.name == name:
                return s
        raise InvalidOption(f"{self.id} has no option {name!r}")


# the tiles a kong of each kind takes from the concealed hand (a claimed or robbed tile is not in it)
KONG_TILES_FROM_HAND = {MeldKind.KONG_CONCEALED: 4, MeldKind.KONG_ADDED: 1, MeldKind.KONG_EXPOSED: 3}


def kong_after(
    counts: Counts, melds: tuple[Meld, ...], t: int, kind: MeldKind
) -> tuple[Counts, tuple[Meld, ...]]:
    """The concealed tiles and melds after a kong of ``t`` as ``kind`` (a claimed tile is not in
    ``counts``)."""
    c = list(counts)
    c[t] -= KONG_TILES_FROM_HAND[kind]
    if kind == MeldKind.KONG_ADDED:
        return tuple(c), tuple(
            Meld(MeldKind.KONG_ADDED, t, m.from_seat) if m.kind == MeldKind.PUNG and m.tile == t else m
            for m in melds
        )
    return tuple(c), (*melds, Meld(kind, t))


def bu_or_kai(variant: Variant, state: State, seat: int, tile: int, kind: MeldKind) -> tuple[KongMode, ...]:
    """补张 vs 开杠 (Changsha, Hengyang, Xiangyin): 补张 always; 开杠 only when the hand is ready after the
    kong (听牌，系统判断); a locked hand (after 开杠) makes no further kong."""
    s = state.seats[seat]
    if s.locked:
        return ()
    counts, melds = kong_after(s.counts, s.melds, tile, kind)
    if variant.waits(counts, melds, state.options, s.choice):
        return (KongMode.BU, KongMode.KAI)
    return (KongMode.BU,)


__all__ = [
    "PART_NAMES",
    "OptionSpec",
    "Options",
    "Preset",
    "TilePick",
    "Variant",
    "WinContext",
    "WinInfo",
    "bu_or_kai",
    "kong_after",
]
