"""Variants as data: a frozen Ruleset with room options and a few strategy functions.

The core state machine (game.py) asks the ruleset only what differs between regions: which hands win and
what they are called, who pays what, which opening hands exist, and a handful of flags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    kong_draw: str = ""  # "kai" (杠上开花 after 开杠), "bu" (after 补张), "" otherwise
    kong_discard: bool = False  # 杠上炮: discard made straight after 开杠
    robbed: bool = False  # 抢杠胡
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
    # opening hands (起手小胡) a fresh hand holds, by id; None if the variant has none
    opening_hands: Callable[[Counts], tuple[str, ...]] | None = None
    settle_opening: Callable[[State, int, tuple[str, ...]], Settlement] | None = None
    settle_kong: Callable[[State, int, int, MeldKind, int | None], Settlement | None] | None = None
    settle_draw: Callable[[State], Settlement | None] | None = None
    # tiles shown to the table when opening hands are declared
    opening_reveal: Callable[[Counts, tuple[str, ...]], tuple[int, ...]] | None = None
    # waits the neighbour rule misses (e.g. any 2/5/8 for 将将胡)
    wait_candidates: Callable[[Counts, tuple[Meld, ...]], Iterable[int]] | None = None
    # may this seat chow this tile (beyond "next seat only")? None = yes
    chow_allowed: Callable[[State, int, int], bool] | None = None
    # is this seat offered the haidi? None = every seat (Xiangyin: only ready players)
    haidi_eligible: Callable[[State, int], bool] | None = None
    # cheap shape test run before a WinContext is built; must be True for every hand evaluate_win accepts
    could_win: Callable[[Counts, tuple[Meld, ...]], bool] = field(default=lambda c, m: True)
    chow: bool = True
    robbing_kong: bool = True  # 抢杠胡 on a 补杠
    haidi_roaming: bool = True  # 海底漫游
    kaigang: bool = False  # 补张 vs 开杠 (dice, locked hand)
    multi_win: bool = True  # 一炮多响 / 通炮
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
