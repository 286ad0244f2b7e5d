"""红中麻将 Hongzhong: 转转麻将 (engine/variants/zhuanzhuan.py) with four 红中 as wild tiles (万能牌).

112 tiles; a 红中 stands for any tile in melds, pairs and 七小对 (engine/wild.py); it cannot be discarded,
punged or konged; four 红中 win at once (四红中); only a hand without 红中 may win on a discard (可接炮);
无红中 (option) is one bird hit more. Every rule and decision is in docs/rules/hongzhong.md (its decisions,
裁定 N, are cited by number here).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import Act
from ..melds import Meld
from ..shanten import HandShape
from ..state import State
from ..tiles import SUITED_KINDS, Counts, full_set
from ..variant import Options, OptionSpec, WinInfo
from ..wild import RED, WildShape, is_complete, is_seven_pairs
from .zhuanzhuan import NAMES, OPTIONS, Zhuanzhuan

_FULL_112 = (*full_set(False), RED, RED, RED, RED)  # 108 suited tiles and four 红中
_ANY = (*range(SUITED_KINDS), RED)  # with a 红中 in hand any tile of the set may complete it

WUHONGZHONG = OptionSpec(
    "wuhongzhong", False, (False, True), "无红中加码", "+1 bird hit without 红中 (无红中)"
)
_AFTER = "yima"  # the option 无红中 follows in the room's list

HONGZHONG_NAMES: dict[str, tuple[str, str]] = {
    **NAMES,
    "sihongzhong": ("四红中", "four red dragons"),
    "wuhongzhong": ("无红中", "no red dragon (+1 bird hit)"),
}


class Hongzhong(Zhuanzhuan):
    id = "hongzhong"
    name_zh = "红中麻将"
    name_en = "Hongzhong"
    option_specs = tuple(
        s for spec in OPTIONS for s in ((spec, WUHONGZHONG) if spec.name == _AFTER else (spec,))
    )
    names = HONGZHONG_NAMES

    def tile_set(self, seats: int, options: Options) -> tuple[int, ...]:
        return _FULL_112

    def wild_tiles(self) -> frozenset[int]:
        return frozenset({RED})

    def wins_at_deal(self, state: State, seat: int) -> bool:
        """四红中: four 红中 among the dealt tiles win at once, before the dealer's first discard (the
        dealer's own are his first turn's self-draw)."""
        return seat != state.dealer and state.seats[seat].counts[RED] == 4

    # ---------------------------------------------------------------- claims and discards

    def claim_allowed(self, state: State, seat: int, act: Act, tile: int) -> bool:
        """No chow; 红中 can be neither punged nor konged."""
        return act != Act.CHOW and tile != RED

    def discard_allowed(self, state: State, seat: int, tile: int) -> bool:
        """红中 cannot be discarded."""
        return tile != RED

    # ---------------------------------------------------------------- win evaluation

    def could_win(self, counts: Counts, melds: tuple[Meld, ...]) -> bool:
        if counts[RED] == 4:
            return True  # 四红中
        return is_complete(counts) or (not melds and is_seven_pairs(counts))

    def win_shape(self, counts: Counts, melds: tuple[Meld, ...], options: Options) -> str | None:
        """四红中 (four 红中 in hand, whatever else), else 七小对 (option) or 4 melds + a pair, 红中 wild."""
        if counts[RED] == 4:
            return "sihongzhong"
        # (a hand of the wrong size fails both: is_complete by its count mod 3, is_seven_pairs by 14)
        if not melds and options["qidui"] and is_seven_pairs(counts):
            return "qidui"
        if is_complete(counts):
            return "pinghu"
        return None

    def takes_discard(self, counts: Counts) -> bool:
        """可接炮 only for a hand holding no 红中."""
        return counts[RED] == 0

    def extra_names(self, counts: Counts, options: Options) -> tuple[str, ...]:
        """无红中 (option): a winning hand without 红中 is one bird hit more."""
        return ("wuhongzhong",) if options["wuhongzhong"] and not counts[RED] else ()

    def extra_hits(self, info: WinInfo) -> int:
        return 1 if "wuhongzhong" in info.small else 0

    def wait_candidates(self, counts: Counts, melds: tuple[Meld, ...]) -> Iterable[int]:
        """A 红中 completes any ready hand; with a 红中 in hand any tile may (a 红中 pairs with it)."""
        return _ANY if counts[RED] else (RED,)

    def hand_shape(self, melds: Sequence[Meld] = ()) -> HandShape:
        return WildShape(self.shapes, melds, four_win=True, kinds=_ANY)


VARIANT = HONGZHONG = Hongzhong()
