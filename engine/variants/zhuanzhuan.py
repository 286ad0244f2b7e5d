"""转转麻将 Zhuanzhuan: 108 tiles, no chow, any pair, 七小对, self-draw (option: on a discard too), 抢杠胡
paid by the robbed player for all three, kong money at once, 159中码 birds or 一码全中, no haidi.

Every rule and decision is in docs/rules/zhuanzhuan.md (its decisions, 裁定 N, are cited by
number here). 红中麻将 (engine/variants/hongzhong.py) is this variant with four 红中 as wild tiles.

One payment of a winner W to a payer P, × 底分 (every amount an integer):

    shares × (way + birds + dealer)
    way: 自摸 / 抢杠胡 2, 接炮 1; shares: 1, or 3 when P pays for all three (抢杠胡, 点炮三家付)
    birds: 2 per hit (159中码), or the one bird's rank (一码全中); dealer: 1 if 庄闲 and W or P deals
"""

from __future__ import annotations

from ..actions import Act
from ..melds import Meld, MeldKind
from ..scoring import KONG_NAMES, base_part, pay, payer_shares, refunds, standard_kong_money, win_settlement
from ..shanten import Shapes
from ..shape import is_seven_pairs, is_standard
from ..state import Op, Part, Payment, SettleKind, Settlement, State
from ..tiles import Counts
from ..variant import Options, OptionSpec, Variant, WinContext, WinInfo

# id -> (Chinese, English)
NAMES: dict[str, tuple[str, str]] = {
    # winning shapes
    "pinghu": ("平胡", "plain win"),
    "qidui": ("七小对", "seven pairs"),
    # ways of winning
    "zimo": ("自摸", "self-draw"),
    "jiepao": ("接炮", "win on a discard"),
    "qianggang": ("抢杠胡", "robbing the kong"),
    # kong money
    KONG_NAMES[MeldKind.KONG_CONCEALED]: ("暗杠", "concealed kong"),
    KONG_NAMES[MeldKind.KONG_ADDED]: ("补杠", "added kong"),
    KONG_NAMES[MeldKind.KONG_EXPOSED]: ("明杠", "kong on a discard"),
    # a drawn hand's refund (流局不算杠)
    "tuigang": ("退杠钱", "kong money returned"),
}

# payment parts (not hands)
PARTS: dict[str, tuple[str, str]] = {
    "bird_tiles": ("抓码", "Birds (码)"),
    "bird_hits": ("中码{n}个", "{n} bird{s} hit"),
    "yima": ("一码全中", "one bird (its rank)"),
}

NOTES: dict[str, tuple[str, str]] = {
    "tuigang": ("流局不算杠：杠钱退回", "drawn hand, kongs don't count: kong money is returned"),
}

BIRDS_159 = "159"  # 159中码: a bird of rank 1, 5 or 9 (or 红中) is a hit

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("qidui", True, (True, False), "七小对", "seven pairs (七小对) win"),
    OptionSpec("jiepao", False, (False, True), "可接炮", "win on a discard (可接炮)"),
    OptionSpec("sanjia", False, (False, True), "点炮三家付", "the discarder pays for all three (点炮三家付)"),
    OptionSpec(
        "birds",
        4,
        (2, 4, 6),
        "抓码",
        "birds (159中码: rank 1, 5, 9 hit)",
        {n: (f"{n} 个码", f"{n} birds") for n in (2, 4, 6)},
    ),
    OptionSpec("yima", False, (False, True), "一码全中", "one bird worth its rank (一码全中)"),
    OptionSpec("tuigang", False, (False, True), "流局不算杠", "kong money returned on a drawn hand"),
    OptionSpec("zhuangxian", False, (False, True), "庄闲", "dealer pays and wins 1 more (庄闲)"),
    OptionSpec("base", 1, (1, 2, 5, 10, 20, 50, 100), "底分", "base points"),
)

WAY_SELF_DRAW = 2  # 自摸: each other player pays 2 × 底分 (抢杠胡 too, for all three)
WAY_DISCARD = 1  # 接炮: the discarder pays 1 × 底分
BIRD_HIT = 2  # each 159中码 hit: 2 × 底分 more from each payer
RED_RANK = 10  # 一码全中: 红中 is worth 10


def is_hit(tile: int) -> bool:
    """159中码: a bird of rank 1, 5 or 9 (or 红中, 7z) hits."""
    return tile == 33 or (tile < 27 and tile % 9 in (0, 4, 8))


def bird_value(tile: int) -> int:
    """一码全中: the one bird is worth its rank (红中 10)."""
    return RED_RANK if tile == 33 else tile % 9 + 1


_INFOS: dict[tuple[str, ...], WinInfo] = {}


def win_info(shape: str, way: str, extra: tuple[str, ...] = ()) -> WinInfo:
    """The (immutable, shared) WinInfo of a win: shape, way, extra names — all small hands, of one value."""
    key = (shape, way, *extra)
    info = _INFOS.get(key)
    if info is None:
        info = _INFOS[key] = WinInfo((), key)
    return info


class Zhuanzhuan(Variant):
    id = "zhuanzhuan"
    name_zh = "转转麻将"
    name_en = "Zhuanzhuan"
    option_specs = OPTIONS
    names = NAMES
    part_names = PARTS
    notes = NOTES
    shapes = Shapes(seven_pairs=True)  # any pair; 七小对 (a four counts as two pairs)

    # ---------------------------------------------------------------- claims

    def claim_allowed(self, state: State, seat: int, act: Act, tile: int) -> bool:
        """No chow (不能吃); pung and kong as usual."""
        return act != Act.CHOW

    # ---------------------------------------------------------------- the wall

    def wall_reserve(self, options: Options) -> int:
        """The birds stay at the end of the wall: play stops when only they are left (一码全中: one)."""
        return 1 if options["yima"] else int(options["birds"])

    def haidi_seats(self, state: State, first: int) -> tuple[int, ...] | None:
        return None  # no 海底: the last tile before the birds is drawn like any other

    # ---------------------------------------------------------------- win evaluation

    def win_shape(self, counts: Counts, melds: tuple[Meld, ...], options: Options) -> str | None:
        """The winning shape of 14 tiles: 七小对 (with the option), else 4 melds + any pair; None = none."""
        if sum(counts) + 3 * len(melds) != 14:
            return None
        if options["qidui"] and not melds and is_seven_pairs(counts):
            return "qidui"
        if is_standard(counts):
            return "pinghu"
        return None

    def takes_discard(self, counts: Counts) -> bool:
        """May this hand win on a discard when 可接炮 is on? (红中: only a hand without 红中.)"""
        return True

    def extra_names(self, counts: Counts, options: Options) -> tuple[str, ...]:
        """Names a variant adds to a win (红中: 无红中)."""
        return ()

    def extra_hits(self, info: WinInfo) -> int:
        """Bird hits a win earns beyond its birds (红中: 无红中 is one)."""
        return 0

    def evaluate_win(self, ctx: WinContext) -> WinInfo | None:
        """Self-draw always; 抢杠胡 always (docs/rules/zhuanzhuan.md 裁定 3: paid as a self-draw); a discard
        only with 可接炮."""
        if ctx.robbed:
            way = "qianggang"
        elif ctx.self_draw:
            way = "zimo"
        elif ctx.options["jiepao"] and self.takes_discard(ctx.counts):
            way = "jiepao"
        else:
            return None
        shape = self.win_shape(ctx.counts, ctx.melds, ctx.options)
        if shape is None:
            return None
        return win_info(shape, way, self.extra_names(ctx.counts, ctx.options))

    # ---------------------------------------------------------------- scoring

    def settle_kong(
        self, state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
    ) -> Settlement | None:
        """Paid at once: 明杠 the discarder 3 × 底分, 补杠 each other player 1, 暗杠 each 2."""
        return standard_kong_money(state, seat, kind, from_seat)

    def settle_draw(self, state: State) -> Settlement | None:
        """流局不算杠 (option): on a drawn hand every kong's money is paid back; otherwise it stays."""
        if state.winners or not state.options["tuigang"]:
            return None
        back = refunds(s for s in state.settlements if s.kind == SettleKind.KONG)
        if not back:
            return None
        hands = tuple((p, ("tuigang",)) for p in dict.fromkeys(x.payer for x in back))
        return Settlement.from_payments(
            SettleKind.DRAW, state.num_seats, (), hands, (), tuple(back), "tuigang"
        )

    def birds(self, state: State) -> tuple[int, ...]:
        """抓码: the room's birds (一码全中: one) from the front of the wall."""
        return state.wall.peek_front(self.wall_reserve(state.options))

    def settle_wins(
        self, state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext
    ) -> Settlement:
        """Every winner on the tile is paid (一炮多响) with the same birds. 159中码: each hit adds 2 × 底分
        to each share; 一码全中: the bird's rank does; ``extra_hits`` add 2 each either way."""
        opts = state.options
        birds = self.birds(state)
        yima = bool(opts["yima"])
        hits = 1 if yima else sum(1 for b in birds if is_hit(b))
        if yima:
            bonus = (Part("yima", bird_value(birds[0])),) if birds else ()
        else:
            bonus = (Part("bird_hits", BIRD_HIT * hits, Op.ADD, hits),) if hits else ()
        payments: list[Payment] = []
        for w, info in infos:
            more = self.extra_hits(info)
            way_name = info.small[1]
            way = WAY_DISCARD if way_name == "jiepao" else WAY_SELF_DRAW
            shares = payer_shares(state, w, ctx, robbed_pays_all=True)
            if way == WAY_DISCARD and opts["sanjia"]:
                shares = [(p, state.num_seats - 1) for p, _ in shares]  # 点炮三家付
            # extra hits are named by the win's extra name (红中: 无红中)
            label = info.small[2] if len(info.small) > 2 else "bird_hits"
            extra = (Part(label, BIRD_HIT * more, Op.ADD, more),) if more else ()
            for p, n in shares:
                parts = [Part(way_name, way), *bonus, *extra]
                if opts["zhuangxian"] and state.dealer in (w, p):
                    parts.append(Part("dealer", 1))
                parts.append(base_part(state))
                if n > 1:
                    parts.append(Part("share", n, Op.MUL, n))
                payments.append(pay(p, w, parts, hits + more))
        # a hit points at the winner (one winner); with several, at nobody in particular
        target = infos[0][0] if len(infos) == 1 else None
        seats = tuple(target if (yima or is_hit(b)) else None for b in birds)
        return win_settlement(state, infos, payments, birds, bird_seats=seats)

    # ---------------------------------------------------------------- next dealer

    def next_dealer(self, state: State, ctx: WinContext | None) -> int:
        """The winner deals; several winners on one tile → the discarder (the robbed konger); a drawn hand →
        the dealer stays."""
        if not state.winners:
            return state.dealer
        return super().next_dealer(state, ctx)


VARIANT = ZHUANZHUAN = Zhuanzhuan()
