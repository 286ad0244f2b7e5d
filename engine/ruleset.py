"""Variants as data: a frozen Ruleset with room options and a few strategy functions.

The core state machine (game.py) asks the ruleset only what differs between regions: which hands win and
what they are called, who pays what, which opening hands exist, and a handful of flags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Act
from .errors import InvalidOption
from .melds import Meld, MeldKind
from .tiles import Counts

if TYPE_CHECKING:
    from .state import Settlement, State


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One room option (房间选项): its id, default, allowed values and labels."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    label_zh: str
    label_en: str


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


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything a variant needs to decide whether a hand wins and what it is worth."""

    seat: int
    dealer: int
    counts: Counts  # concealed tiles including the winning tile
    melds: tuple[Meld, ...]
    tile: int  # the winning tile
    self_draw: bool
    from_seat: int | None = None  # discarder / robbed seat / haidi taker
    first_turn: bool = False  # 天胡: the dealer's untouched 14 tiles
    first_discard: bool = False  # 地胡: the dealer's first discard, nothing claimed before
    haidi: bool = False  # the tile is the haidi tile (捞月 if self_draw, 炮 otherwise)
    kong_draw: str = ""  # "kai" (杠上开花 after 开杠), "bu" (after 补张 / a plain kong), "" otherwise
    kong_discard: bool = False  # 杠上炮: discard made straight after 开杠
    after_kong: str = ""  # the discarder had just konged: "kai" / "bu" ("" if not) — 杠上炮 after any kong
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


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name_zh: str
    name_en: str
    with_honors: bool
    seat_counts: tuple[int, ...]
    option_specs: tuple[OptionSpec, ...]
    # decide a win; None = not a win (or not allowed in this context)
    evaluate_win: Callable[[WinContext], WinInfo | None]
    # settle the win(s) that end a hand
    settle_wins: Callable[[State, tuple[tuple[int, WinInfo], ...], WinContext], Settlement]
    # opening hands (起手小胡 / 扳牌) a seat holds right after the deal, by id; None if the variant has none
    opening_hands: Callable[[State, int], tuple[str, ...]] | None = None
    settle_opening: Callable[[State, int, tuple[str, ...]], Settlement] | None = None
    # tiles shown to the table when opening hands are declared
    opening_reveal: Callable[[State, int, tuple[str, ...]], tuple[int, ...]] | None = None
    opening_open_turns: int = 0  # the declarer's whole hand stays shown for this many own discards (三巡)
    settle_kong: Callable[[State, int, int, MeldKind, int | None], Settlement | None] | None = None
    settle_draw: Callable[[State], Settlement | None] | None = None
    # waits the neighbour rule misses (e.g. any 2/5/8 for 将将胡)
    wait_candidates: Callable[[Counts, tuple[Meld, ...]], Iterable[int]] | None = None
    # may this seat pung / kong / chow this tile (claims and own kongs)? None = yes
    claim_allowed: Callable[[State, int, Act, int], bool] | None = None
    # may this seat discard this tile? None = any tile (Sichuan: the void suit first)
    discard_allowed: Callable[[State, int, int], bool] | None = None
    # must this seat take a win it can make (Sichuan: the last four tiles)? None = never forced
    must_win: Callable[[State, int], bool] | None = None
    # is this seat offered the haidi? None = every seat (Xiangyin: only ready players)
    haidi_eligible: Callable[[State, int], bool] | None = None
    # pre-hand choices of a seat, default first (飘, 加锤, 定缺); None or () = no choice
    pre_hand: Callable[[State, int], tuple[str, ...]] | None = None
    pre_hand_blind: bool = False  # chosen before looking at the tiles (飘, 加锤)
    # next dealer; None from the hook = the common rule (RULES.md §1)
    next_dealer: Callable[[State, tuple[int, ...], WinContext | None], int | None] | None = None
    # cheap shape test run before a WinContext is built; must be True for every hand evaluate_win accepts
    could_win: Callable[[Counts, tuple[Meld, ...]], bool] = field(default=lambda c, m: True)
    chow: bool = True
    robbing_kong: bool = True  # 抢杠胡 on a 补杠
    rob_concealed: bool = False  # a concealed kong may be robbed (evaluate_win sees robbed_concealed)
    haidi_roaming: bool = True  # 海底漫游
    kaigang: str = ""  # 补张 vs 开杠: "" none, "one" (Changsha: one tile by dice), "two" (a whole stack)
    locked_can_kong: bool = False  # after 开杠 the locked hand may still kong a drawn tile (Xiangyin)
    # may this seat kong this tile as "bu" (补张) / "kai" (开杠)? None = yes
    # (Xiangyin: a skipped 补杠 may only be 开杠)
    kong_mode_allowed: Callable[[State, int, int, str], bool] | None = None
    concealed_kong_shown: bool = False  # 暗杠亮一张牌: the other seats see which tile a concealed kong is
    multi_win: bool = True  # 一炮多响 / 通炮
    bloody: bool = False  # 血战到底: winners leave, play goes on until one seat is left or the wall ends
    tile_names: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # id -> (zh, en)

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

    def hand_name(self, key: str, lang: str = "zh") -> str:
        zh, en = self.tile_names.get(key, (key, key))
        return zh if lang == "zh" else en
