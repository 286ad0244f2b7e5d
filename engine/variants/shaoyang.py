"""邵阳麻将 Shaoyang: 136 tiles, self-draw only (except 杠上炮 and 抢杠), one multiplier per hand, 加锤.

Every rule and decision is in docs/rules/shaoyang.md (its decisions, 裁定 N, are cited by number
here).

Payment of one winner W to one payer P (every amount an integer):

    底分 × hand multiplier × way (自摸 2, 杠上炮 1) × share (1, or 3 when P 包三家) × 2^(锤 W + 锤 P)
"""

from __future__ import annotations

from ..hands import all_pungs
from ..melds import Meld, MeldKind
from ..scoring import base_part, pay, payer_shares, standard_kong_money, win_settlement
from ..shanten import Shapes
from ..shape import is_seven_pairs, is_standard, is_thirteen_orphans, seven_pairs_quads
from ..state import Op, Part, Payment, Settlement, State
from ..tiles import Counts, full_set, suit_of
from ..variant import Options, OptionSpec, Variant, WinContext, WinInfo

# id -> (Chinese, English)
NAMES: dict[str, tuple[str, str]] = {
    "pinghu": ("平胡", "plain hand"),
    "menqing_pinghu": ("门前清平胡", "concealed plain hand"),
    "pengpenghu": ("碰碰胡", "all pungs"),
    "menqing_pengpenghu": ("门前清碰碰胡", "concealed all pungs"),
    "qingyise": ("清一色", "one suit"),
    "menqing_qingyise": ("门前清清一色", "concealed one suit"),
    "fengyise": ("风一色", "all honors"),
    "menqing_fengyise": ("门前清风一色", "concealed all honors"),
    "qiqiaodui": ("七巧对", "seven pairs"),
    "longqidui": ("龙七对", "seven pairs with a four"),
    "shisanyao": ("十三幺", "thirteen orphans"),
    # ways of winning (shown with the hand in the settlement)
    "zimo": ("自摸", "self-draw"),
    "gangkai": ("杠开", "win on the kong replacement"),
    "qianggang": ("抢杠", "robbing the kong"),
    "gangshangpao": ("杠上炮", "win on the konger's discard"),
    # kong money
    "angang": ("暗杠", "concealed kong"),
    "bugang": ("补杠", "added kong"),
    "zhigang": ("直杠", "exposed kong from a discard"),
}

# 牌型倍数 × 底分 (docs/rules/shaoyang.md §6; 裁定 1: no stacking — the highest applies).
MULTIPLIER: dict[str, int] = {
    "pinghu": 2,  # 平胡，底分的2倍
    "menqing_pinghu": 4,  # 小胡门前清为底分的四倍
    "pengpenghu": 8,  # 碰碰对，是底分的8倍
    "qingyise": 8,  # 清一色，是底分的8倍
    "fengyise": 8,  # 风一色，是底分的8倍
    "menqing_pengpenghu": 16,  # 大胡门前清为底分的16倍
    "menqing_qingyise": 16,
    "menqing_fengyise": 16,
    "qiqiaodui": 8,  # 七巧对，是底分的8倍
    "longqidui": 16,  # 龙七对 is in the 大胡门前清 list: 16
    "shisanyao": 24,  # 十三幺，是底分的24倍
}

# docs/rules/shaoyang.md 裁定 1: equal multipliers are named in this order (清一色龙七对 is 龙七对)
_PRIORITY = (
    "shisanyao",
    "longqidui",
    "menqing_qingyise",
    "menqing_fengyise",
    "menqing_pengpenghu",
    "qingyise",
    "fengyise",
    "pengpenghu",
    "qiqiaodui",
    "menqing_pinghu",
    "pinghu",
)

WAY_SELF_DRAW = 2  # 自摸：2倍，3家都输
WAY_DISCARD = 1  # 点炮：1倍，仅点炮者输 (here only 杠上炮)

HAMMERS = ("0", "1", "2")  # 加锤: 不加锤 / 加一锤 / 加两锤
HAMMER_LABELS = {"0": ("不加锤", "no hammer"), "1": ("加一锤", "one hammer"), "2": ("加两锤", "two hammers")}
_FULL_136 = tuple(full_set(True))

OPTIONS = (
    OptionSpec("base", 1, (1, 2, 5, 10, 20, 25, 50, 100), "底分", "base points"),
    OptionSpec("jiachui", True, (True, False), "加锤", "hammers (加锤) before the hand"),
)

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


# ------------------------------------------------------------------ hands


def _suits(counts: Counts, melds: tuple[Meld, ...]) -> set[int]:
    """Suits present (0 万, 1 条, 2 筒, 3 字)."""
    out = {suit_of(t) for t, n in enumerate(counts) if n}
    out.update(suit_of(m.tile) for m in melds)
    return out


def _menqing(melds: tuple[Meld, ...]) -> bool:
    """门前清: no chow, pung, exposed or added kong. A concealed kong (暗杠) keeps the hand 门前清, and so
    does winning on a robbed tile or 杠上炮 (docs/rules/shaoyang.md 裁定 3)."""
    return all(m.kind == MeldKind.KONG_CONCEALED for m in melds)


def hand_kinds(counts: Counts, melds: tuple[Meld, ...]) -> list[str]:
    """Every hand a complete 14 tiles make (before choosing the highest); empty if it does not win."""
    if sum(counts) != 14 - 3 * len(melds):
        return []
    out: list[str] = []
    concealed = _menqing(melds)
    suits = _suits(counts, melds)
    one_suit = len(suits) == 1 and 3 not in suits  # 全是筒子、万字或全是索子
    honors = suits == {3}  # 全是东南西北中发白
    if not melds and is_thirteen_orphans(counts):
        out.append("shisanyao")  # 十三张牌后让任意一个做对
    if not melds and is_seven_pairs(counts):
        # 7对对子(四张一样为两对); a four of a kind makes it 龙七对
        out.append("longqidui" if seven_pairs_quads(counts) else "qiqiaodui")
    std = is_standard(counts)
    if std:
        out.append("menqing_pinghu" if concealed else "pinghu")
        if all_pungs(counts, melds):
            out.append("menqing_pengpenghu" if concealed else "pengpenghu")
    if std or (not melds and is_seven_pairs(counts)):
        # docs/rules/shaoyang.md 裁定 4: 清一色 / 风一色 count for seven pairs too (always 门前清)
        if one_suit:
            out.append("menqing_qingyise" if concealed else "qingyise")
        if honors:
            out.append("menqing_fengyise" if concealed else "fengyise")
    return out


def best_hand(counts: Counts, melds: tuple[Meld, ...]) -> str | None:
    """The one hand that is paid: the highest multiplier (docs/rules/shaoyang.md 裁定 1), ties by
    _PRIORITY."""
    kinds = hand_kinds(counts, melds)
    if not kinds:
        return None
    return max(kinds, key=lambda k: (MULTIPLIER[k], -_PRIORITY.index(k)))


def evaluate_win(ctx: WinContext) -> WinInfo | None:
    """胡牌必须自摸，不能点炮，除非是接杠上炮和开明杠的牌: a tile another seat gave wins only as 杠上炮
    (the konger's discard after any kong) or 抢杠 (robbing a 补杠); a concealed kong only by 十三幺."""
    if not ctx.self_draw:
        if ctx.robbed:
            if ctx.robbed_concealed and not (not ctx.melds and is_thirteen_orphans(ctx.counts)):
                return None  # 暗杠不能抢（抢杠玩家胡十三幺除外）
        elif not ctx.after_kong:
            return None  # 胡牌必须自摸，不能点炮
    key = best_hand(ctx.counts, ctx.melds)
    if key is None:
        return None
    if key in ("pinghu", "menqing_pinghu"):
        return WinInfo((), (key,))
    return WinInfo(((key, 1),))


# ------------------------------------------------------------------ money


def hammers(state: State, seat: int) -> int:
    """加锤 chosen before the hand: 0, 1 or 2 (no choice made = 0)."""
    choice = state.seats[seat].choice
    return int(choice) if choice in HAMMERS else 0


def hammer_parts(state: State, winner: int, payer: int) -> tuple[Part, ...]:
    """加锤是赢家与输家之间相互结算的: × 2 per hammer of the winner and per hammer of the payer — as a part
    (none without a hammer)."""
    n = hammers(state, winner) + hammers(state, payer)
    return (Part("hammers", 2**n, Op.MUL, n),) if n else ()


def way_of(ctx: WinContext) -> str:
    if ctx.robbed:
        return "qianggang"
    if not ctx.self_draw:
        return "gangshangpao"
    if ctx.kong_draw:
        return "gangkai"
    return "zimo"


def win_payers(state: State, winner: int, ctx: WinContext) -> list[tuple[int, int, int]]:
    """(payer, way multiplier, share) lines of one winner.

    自摸: each of the three pays ×2. 抢杠: 按胡牌家自摸计算，被抢玩家包三家牌. 杠开 after a 点杠
    (exposed kong from a discard): 由点杠者包自摸. 杠上炮: 点炮 ×1, only the discarder."""
    way = WAY_SELF_DRAW if ctx.self_draw or ctx.robbed else WAY_DISCARD
    shares = payer_shares(state, winner, ctx, robbed_pays_all=True, feeder_pays_all=True)
    return [(p, way, share) for p, share in shares]


def hand_key(info: WinInfo) -> str:
    return info.big[0][0] if info.big else info.small[0]


def settle_wins(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Settlement:
    way = way_of(ctx)
    payments: list[Payment] = []
    for w, info in infos:
        key = hand_key(info)
        for p, way_mult, share in win_payers(state, w, ctx):
            parts = (
                Part(key, MULTIPLIER[key]),
                base_part(state),
                Part(way, way_mult, Op.MUL),
                *((Part("share", share, Op.MUL, share),) if share > 1 else ()),
                *hammer_parts(state, w, p),
            )
            payments.append(pay(p, w, parts))
    hands = tuple((w, (hand_key(info), way)) for w, info in infos)
    return win_settlement(state, infos, payments, hands=hands)


class Shaoyang(Variant):
    id = "shaoyang"
    name_zh = "邵阳麻将"
    name_en = "Shaoyang"
    option_specs = OPTIONS
    names = NAMES
    choice_labels = HAMMER_LABELS
    choice_name = ("加锤", "hammers (加锤)")
    choice_question = (
        "加锤：开牌前（不看牌）选不加、加一锤或加两锤。你和另一家之间的胡牌输赢，你的每一锤、他的每一锤"
        "都让它翻一倍（杠钱不翻）：锤加得多，赢得多，输得也多。",
        "Hammers (加锤): before the tiles are turned up, pick none, one or two. Each hammer - yours and the "
        "other player's - doubles a win payment between you two (kong money is not doubled): the more "
        "hammers, the more you win or lose.",
    )
    shapes = Shapes(seven_pairs=True, thirteen_orphans=True)
    concealed_kong_shown = True  # 暗杠亮一张牌，其余三张盖住

    def tile_set(self, seats: int, options: Options) -> tuple[int, ...]:
        return _FULL_136  # 136 tiles, with 东南西北中发白

    def pre_hand(self, state: State, seat: int) -> tuple[str, ...]:
        """在开牌打色子前 … 可选择加一锤或加两锤，或者不加锤 (default first: no hammer)."""
        return HAMMERS if state.options["jiachui"] else ()

    def choose_blind(self, state: State) -> bool:
        return True

    def robbable(self, state: State, kind: MeldKind) -> bool:
        """抢杠 on a 补杠; a concealed kong only by 十三幺 (evaluate_win sees robbed_concealed)."""
        return kind in (MeldKind.KONG_ADDED, MeldKind.KONG_CONCEALED)

    def haidi_seats(self, state: State, first: int) -> tuple[int, ...] | None:
        return None  # no 海底漫游: the last tile is drawn like any other

    def evaluate_win(self, ctx: WinContext) -> WinInfo | None:
        return evaluate_win(ctx)

    def settle_wins(
        self, state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext
    ) -> Settlement:
        return settle_wins(state, infos, ctx)

    def settle_kong(
        self, state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
    ) -> Settlement | None:
        """As Hengyang (docs/rules/shaoyang.md 裁定 10): 暗杠 each other player pays 2 × 底分; 补杠 each pays
        1 × 底分; 直杠 the discarder pays 3 × 底分; paid when the kong is made, kept on a drawn hand. 加锤
        multiplies win payments only, not kong money (docs/rules/shaoyang.md 裁定 11)."""
        return standard_kong_money(state, seat, kind, from_seat)

    def next_dealer(self, state: State, ctx: WinContext | None) -> int:
        """由本局胡牌的玩家下局坐庄，如庄家胡牌，则继续连庄。若流局则摸最后一张牌的玩家下局坐庄。
        Several winners on one tile → the dealer stays if he is one of them, else the first winner in play
        order from the discarder (the robbed konger): docs/rules/shaoyang.md 裁定 13."""
        winners = state.winners
        if winners:
            return state.dealer if state.dealer in winners else winners[0]
        # the wall is empty: `current` drew the last tile (a normal draw or a kong replacement)
        return state.current


VARIANT = SHAOYANG = Shaoyang()
