"""长沙麻将 Changsha: 258 pair for small hands, opening small hands, additive big hands, birds that double.

Every rule and decision is in docs/rules/changsha.md (its decisions, 裁定 N, are cited by number here). What
differs from the common model (engine/variant.py): the 258 pair, 起手小胡, 补张 / 开杠 with one tile by dice,
漏胡 barring only the passed tile, the payment table and birds, the bird's seat dealing after two wins at the
deal (docs/rules/changsha.md §2.7).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..actions import KongMode
from ..hands import TILES_258, all_258, all_pungs, one_suit
from ..melds import MeldKind
from ..scoring import (
    base_part,
    bird_hits,
    bird_target,
    bird_tiles,
    doubling_birds,
    pay,
    payers,
    win_settlement,
)
from ..shanten import Shapes
from ..shape import is_seven_pairs, is_standard, seven_pairs_quads, standard_pairs
from ..state import Op, Part, Payment, SettleKind, Settlement, State
from ..tiles import Counts, is_258
from ..variant import OptionSpec, Variant, WinContext, WinInfo, bu_or_kai

# id -> (Chinese, English)
NAMES: dict[str, tuple[str, str]] = {
    "xiaohu": ("小胡", "small hand"),
    "tianhu": ("天胡", "heavenly hand"),
    "dihu": ("地胡", "earthly hand"),
    "pengpenghu": ("碰碰胡", "all pungs"),
    "jiangjianghu": ("将将胡", "all 2-5-8"),
    "qingyise": ("清一色", "one suit"),
    "haidilaoyue": ("海底捞月", "last tile self-drawn"),
    "haidipao": ("海底炮", "win on the shown last tile"),
    "qidui": ("七小对", "seven pairs"),
    "haohua_qidui": ("豪华七小对", "luxury seven pairs"),
    "gangshangkaihua": ("杠上开花", "win on the kong tile"),
    "qiangganghu": ("抢杠胡", "robbing the kong"),
    "gangshangpao": ("杠上炮", "win on the konger's discard"),
    "quanqiuren": ("全求人", "all melds exposed"),
    "sixi": ("四喜", "four of a kind at the deal"),
    "banbanhu": ("板板胡", "no 2-5-8 at the deal"),
    "queyise": ("缺一色", "a suit missing at the deal"),
    "liuliushun": ("六六顺", "two triplets at the deal"),
}

OPTIONS = (
    OptionSpec("birds", 2, (0, 1, 2, 4, 6), "扎鸟数", "birds"),
    OptionSpec("base", 1, (1, 2, 5, 10, 20, 50, 100), "底分", "base points"),
)


def _shape_hands(ctx: WinContext, std: bool, qd: bool, jj: bool) -> list[tuple[str, int]]:
    """The big hands of the shape (碰碰胡 将将胡 清一色 七小对 全求人), none needing a 258 pair (乱将)."""
    c, melds = ctx.counts, ctx.melds
    big: list[tuple[str, int]] = []
    if std and all_pungs(c, melds):
        big.append(("pengpenghu", 1))
    if jj:
        big.append(("jiangjianghu", 1))
    if (std or qd) and one_suit(c, melds):
        big.append(("qingyise", 1))
    if qd:
        # docs/rules/changsha.md 裁定 6: seven pairs with any four of a kind are 豪华七小对, 2 however many
        # fours.
        big.append(("haohua_qidui", 2) if seven_pairs_quads(c) else ("qidui", 1))
    if (
        not ctx.self_draw
        and len(melds) == 4
        and all(m.kind != MeldKind.KONG_CONCEALED for m in melds)
        and sum(c) == 2
    ):
        big.append(("quanqiuren", 1))
    return big


def evaluate_win(ctx: WinContext) -> WinInfo | None:
    """Which hands a complete 14 tiles make. Shape big hands need no 258 pair (乱将); situational big
    hands (天胡 地胡 海底 杠 抢杠) need a hand that already wins (将的种类根据当前牌型决定)."""
    c, melds = ctx.counts, ctx.melds
    if sum(c) != 14 - 3 * len(melds):
        return None
    std = is_standard(c)
    qd = not melds and is_seven_pairs(c)
    jj = all_258(c, melds)
    if not (std or qd or jj):
        return None
    big = _shape_hands(ctx, std, qd, jj)
    if not big and not (std and any(is_258(p) for p in standard_pairs(c))):
        return None
    # the big hands of the moment (天胡 地胡 海底 杠上开花 抢杠胡 杠上炮), on a hand that already wins
    if ctx.first_turn and ctx.self_draw:
        big.append(("tianhu", 1))
    if ctx.first_discard and not ctx.self_draw:
        big.append(("dihu", 1))
    if ctx.haidi:
        big.append(("haidilaoyue", 1) if ctx.self_draw else ("haidipao", 1))
    if ctx.self_draw and ctx.kong_draw == KongMode.KAI:
        big.append(("gangshangkaihua", 1))
    if ctx.robbed:
        big.append(("qiangganghu", 1))
    if ctx.kong_discard and not ctx.self_draw:
        big.append(("gangshangpao", 1))
    if big:
        return WinInfo(tuple(big))
    return WinInfo((), ("xiaohu",))


def opening_kinds(counts: Counts) -> tuple[str, ...]:
    out = []
    if any(n == 4 for n in counts):
        out.append("sixi")  # 四喜：手上已有四张一样的牌
    if not any(counts[t] for t in TILES_258):
        out.append("banbanhu")  # 板板胡：没有一张 2、5、8
    if any(not any(counts[s * 9 : s * 9 + 9]) for s in range(3)):
        out.append("queyise")  # 缺一色：筒、索、万任缺一门
    if sum(1 for n in counts if n >= 3) >= 2:
        out.append("liuliushun")  # 六六顺：已有 2 个刻子 (docs/rules/changsha.md 裁定 8: a four holds one)
    return tuple(out)


def opening_reveal(state: State, seat: int, kinds: tuple[str, ...]) -> tuple[int, ...]:
    """The tiles a declaration shows: the fours, the triplets, or the whole hand (板板胡, 缺一色)."""
    counts = state.seats[seat].counts
    show = [0] * len(counts)
    for k in kinds:
        for t, n in enumerate(counts):
            if k in ("banbanhu", "queyise") or (k == "sixi" and n == 4) or (k == "liuliushun" and n >= 3):
                show[t] = n
    return tuple(t for t, n in enumerate(show) for _ in range(n))


def _units(hands: tuple[tuple[str, int], ...], self_draw: bool, dealer_involved: bool) -> tuple[Part, ...]:
    """The payment table of docs/rules/changsha.md in units of 底分/10: 10 → 1, 20 → 2, 30n+10 → 3n+1 —
    as parts: each big hand (name, count) 3 per count, twice that on a discard (点炮 ×2, said as such); a
    small hand (count 0) 1; the dealer 1 more."""
    parts = [Part(name, 3 * n if n else 1) for name, n in hands]
    if not self_draw and any(n for _, n in hands):
        parts.append(Part("dianpao", 2, Op.MUL))
    if dealer_involved:
        parts.append(Part("dealer", 1))
    return tuple(parts)


def bird_seats(state: State, birds: tuple[int, ...]) -> tuple[int, ...]:
    """扎鸟 counts from the dealer (以庄家为起点，逆时针): 1/5/9 dealer, 2/6 下家, 3/7 对家, 4/8 上家."""
    return tuple(bird_target(state, b, state.dealer) for b in birds)


def _pay(
    state: State,
    winner: int,
    paying: Iterable[int],
    hands: tuple[tuple[str, int], ...],
    self_draw: bool,
    targets: tuple[int, ...],
) -> list[Payment]:
    """扎鸟: a bird on the winner or on the payer doubles that payer's payment, each hit again."""
    out = []
    for p in paying:
        hits = bird_hits(targets, winner, p)
        units = _units(hands, self_draw, state.dealer in (winner, p))
        out.append(pay(p, winner, (*units, base_part(state), *doubling_birds(hits)), hits))
    return out


def _valued(info: WinInfo) -> tuple[tuple[str, int], ...]:
    """A win's hands as (name, count): its big hands, else its small hand with count 0."""
    return info.big if info.big else tuple((name, 0) for name in info.small)


def settle_wins(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Settlement:
    birds = bird_tiles(state, ctx.tile if ctx.haidi else None)
    targets = bird_seats(state, birds)
    payments: list[Payment] = []
    for w, info in infos:
        payments += _pay(state, w, payers(state, w, ctx), _valued(info), ctx.self_draw, targets)
    return win_settlement(state, infos, payments, birds, bird_seats=targets)


def settle_opening(state: State, seat: int, kinds: tuple[str, ...]) -> Settlement:
    """Each opening hand is paid as a small self-draw (等同小胡自摸), birds included; the bird tiles
    are looked at, not taken: they stay at the front of the wall (docs/rules/changsha.md §6.6, 裁定 9)."""
    birds = bird_tiles(state, None)
    targets = bird_seats(state, birds)
    paying = [s for s in range(state.num_seats) if s != seat]
    payments: list[Payment] = []
    for kind in kinds:
        payments += _pay(state, seat, paying, ((kind, 0),), True, targets)
    return Settlement.from_payments(
        SettleKind.OPENING, state.num_seats, (seat,), ((seat, kinds),), birds, tuple(payments), "", targets
    )


class Changsha(Variant):
    id = "changsha"
    name_zh = "长沙麻将"
    name_en = "Changsha"
    option_specs = OPTIONS
    names = NAMES
    shapes = Shapes(
        pair_258=True, seven_pairs=True, all_pungs=True, one_suit=True, all_258=True, single_wait=True
    )
    opening_label = ("起手小胡", "opening hands")
    notes = {  # docs/rules/changsha.md §2.7
        "bird_dealer": (
            "两家以上起手就胡，中鸟的人坐庄",
            "two or more won at the deal: the bird's player deals",
        ),
    }
    opening_question = (
        "你有起手小胡：{hands}。报了，每家按小胡自摸付你（扎鸟照算），这些牌亮给大家看；报不报自己决定。",
        "You hold opening hands: {hands}. Declare them and each player pays you as for a small self-drawn "
        "win (birds count); those tiles are shown to the table. Declaring is up to you.",
    )

    def evaluate_win(self, ctx: WinContext) -> WinInfo | None:
        return evaluate_win(ctx)

    def opening_hands(self, state: State, seat: int) -> tuple[str, ...]:
        """起手小胡 held right after the deal (docs/rules/changsha.md §6.1–§6.5)."""
        return opening_kinds(state.seats[seat].counts)

    def settle_opening(self, state: State, seat: int, kinds: tuple[str, ...]) -> Settlement:
        return settle_opening(state, seat, kinds)

    def opening_reveal(self, state: State, seat: int, kinds: tuple[str, ...]) -> tuple[int, ...]:
        return opening_reveal(state, seat, kinds)

    def passed_win_bars(self, passed: tuple[int, ...], tile: int) -> bool:
        """漏胡 (docs/rules/changsha.md §13.1, 裁定 11): only the tile he passed is barred (until his own next
        draw, pung or kong); another winning tile from a discard may be taken."""
        return tile in passed

    def kong_modes(self, state: State, seat: int, tile: int, kind: MeldKind) -> tuple[KongMode, ...]:
        return bu_or_kai(self, state, seat, tile, kind)

    def settle_wins(
        self, state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext
    ) -> Settlement:
        return settle_wins(state, infos, ctx)

    def next_dealer(self, state: State, ctx: WinContext | None) -> int:
        """Two or more players winning at the deal (天胡 or opening hands) first: the seat hit by the bird of
        the first opening declaration deals (docs/rules/changsha.md §2.7, 裁定 15: none with 0 birds); then
        the common rule (docs/rules/changsha.md §2.2–§2.6)."""
        bird = self._bird_dealer(state, ctx)
        return bird if bird is not None else super().next_dealer(state, ctx)

    def _bird_dealer(self, state: State, ctx: WinContext | None) -> int | None:
        """docs/rules/changsha.md §2.7: the seat the first opening declaration's first bird points at, if two
        or more players won at the deal."""
        openings = [st for st in state.settlements if st.kind == SettleKind.OPENING]
        at_deal = {w for st in openings for w in st.winners}
        if ctx is not None and ctx.first_turn:
            at_deal.update(state.winners)
        bird = next((st.bird_seats[0] for st in openings if st.bird_seats), None)
        return bird if len(at_deal) >= 2 else None

    def dealer_note(self, state: State, ctx: WinContext | None, nxt: int) -> str:
        """The bird's seat deals after two or more wins at the deal (docs/rules/changsha.md §2.7): not the
        winner, so the result says why."""
        return "bird_dealer" if self._bird_dealer(state, ctx) is not None else ""


VARIANT = CHANGSHA = Changsha()
