"""湘阴推倒胡 Xiangyin: no chow (option: toward 清一色 only), small hands by self-draw only, big hands
worth 5·2^(n−1), 飘, kong points, 开杠 of a whole stack, 杠上炮 paid as the konger's own 杠上开花, birds
from the winner.

Every rule and decision is in docs/rules/xiangyin.md (its decisions, 裁定 N, are cited by number
here).
"""

from __future__ import annotations

from ..actions import Act, KongMode
from ..hands import all_258, all_pungs, one_suit
from ..machine import win_info
from ..melds import Meld, MeldKind
from ..scoring import (
    base_part,
    bird_hits,
    bird_tiles,
    hand_names,
    kong_payments,
    kong_settlement,
    pay,
    payers,
    win_settlement,
)
from ..shanten import Shapes
from ..shape import is_seven_pairs, is_standard, seven_pairs_quads
from ..state import Op, Part, Payment, Settlement, State, evaluate
from ..tiles import suit_of
from ..variant import OptionSpec, Variant, WinContext, WinInfo, kong_after

# id -> (Chinese, English)
NAMES: dict[str, tuple[str, str]] = {
    "xiaohu": ("小胡", "small hand"),
    "pengpenghu": ("碰碰胡", "all pungs"),
    "jiangjianghu": ("将将胡", "all 2-5-8"),
    "qingyise": ("清一色", "one suit"),
    "qidui": ("七小对", "seven pairs"),
    "haohua_qidui": ("豪华七小对", "luxury seven pairs"),
    "shuanghaohua_qidui": ("双豪华七小对", "double luxury seven pairs"),
    "haidilaoyue": ("海底捞月", "last tile self-drawn"),
    "haidipao": ("海底炮", "win on the shown last tile"),
    "gangshangkaihua": ("杠上开花", "win on the kong tile"),
    "qiangganghu": ("抢杠胡", "robbing the kong"),
    "gangshangpao": ("杠上炮", "win on the konger's tile"),
    "quanqiuren": ("全求人", "all melds claimed"),
    "fanggang": ("接杠", "kong on a discard"),  # the konger's side; the payment says 放杠 (PARTS)
    "minggang": ("明杠", "kong added to a pung"),
    "angang": ("暗杠", "concealed kong"),
}

# payment parts (not hands)
PARTS: dict[str, tuple[str, str]] = {
    "both_tiles": ("两张都可胡", "both tiles win"),
    "bird_tiles": ("抓鸟", "Birds"),  # docs/rules/xiangyin.md §8: 湘阴 says 抓鸟
    "fanggang": ("放杠", "fed the kong"),  # what the discarder pays for
    "again": ("{what}再算一个", "{what} counted again"),  # 豪华七小对 counts 2 big hands, 双豪华 3
}

# settlement notes: 杠上炮 is paid as the konger's own 杠上开花 (his hands are listed with his seat)
NOTES: dict[str, tuple[str, str]] = {
    "konger_pays": (
        "杠上炮：开杠者按自己杠上开花的分数包赔",
        "杠上炮: the konger pays what his 杠上开花 would have won",
    ),
    "konger_pays_both": (
        "杠上炮：开杠者包赔（两张都可胡，加一番）",
        "杠上炮: the konger pays (both tiles win: one big hand more)",
    ),
}

PIAO_LABELS = {"0": ("不飘", "no piao"), **{v: (f"飘{v}", f"piao {v}") for v in ("1", "2", "3", "4")}}

OPTIONS = (
    OptionSpec("birds", 2, (0, 1, 2, 4, 6), "抓鸟数", "birds"),
    OptionSpec("base", 1, (1, 2, 5, 10, 20, 50, 100), "底分", "base points"),
    OptionSpec("piao", False, (False, True), "加飘", "piao (extra stake 0–4)"),
    OptionSpec("jiangjiang_zimo", False, (False, True), "将将胡必须自摸", "all 2-5-8 by self-draw only"),
    OptionSpec("qingyise_chow", False, (False, True), "清一色可吃", "chow toward one suit"),
    OptionSpec("no_late_bu", False, (False, True), "明杠过杠不能再补", "a skipped added kong: 开杠 only"),
    OptionSpec(
        "jiangpeng_not_jiangjiang",
        False,
        (False, True),
        "将碰胡接炮不算将将胡",
        "2-5-8 all pungs on a discard: all pungs only",
    ),
)

PIAO_CHOICES = ("0", "1", "2", "3", "4")  # 飘 0–4, the default first

BIG_VALUE = 5  # 大胡基础分 5 分
# 放杠: the discarder pays 3 (3 players: 2, 2 players: 1); 明杠 (补杠) each other 1; 暗杠 each other 2
FANGGANG_POINTS = {4: 3, 3: 2, 2: 1}

# 全求人: every meld claimed from others — pungs and exposed kongs (明杠 both kinds), never 暗杠 or a chow
_CLAIMED = (MeldKind.PUNG, MeldKind.KONG_EXPOSED, MeldKind.KONG_ADDED)


# ---------------------------------------------------------------- shapes


def _chow_suit(melds: tuple[Meld, ...]) -> int | None:
    """The suit of the player's chows (清一色可吃: all his chows are in one suit), None without a chow."""
    for m in melds:
        if m.kind == MeldKind.CHOW:
            return suit_of(m.tile)
    return None


# ---------------------------------------------------------------- winning hands


def _shape_hands(ctx: WinContext, std: bool, qd: bool, jj: bool, pure: bool) -> list[tuple[str, int]]:
    """The big hands of the shape: 碰碰胡 将将胡 清一色 七小对 (豪华, 双豪华) 全求人."""
    c, melds = ctx.counts, ctx.melds
    big: list[tuple[str, int]] = []
    pph = std and all_pungs(c, melds)
    if pph:
        big.append(("pengpenghu", 1))
    # 将碰胡接炮不算将将胡: with the option, the all-pung 258 hand on a discard is 碰碰胡 only
    if jj and not (not ctx.self_draw and pph and ctx.options.get("jiangpeng_not_jiangjiang", False)):
        big.append(("jiangjianghu", 1))
    if pure:
        big.append(("qingyise", 1))
    if qd:
        quads = seven_pairs_quads(c)
        # docs/rules/xiangyin.md 裁定 6: three fours count as 双豪华七小对 too
        big.append(
            ("qidui", 1) if not quads else ("haohua_qidui", 2) if quads == 1 else ("shuanghaohua_qidui", 3)
        )
    if len(melds) == 4 and sum(c) == 2 and all(m.kind in _CLAIMED for m in melds):
        big.append(("quanqiuren", 1))  # 单钓, all melds claimed; always with 碰碰胡 (至少为碰碰胡)
    return big


def evaluate_win(ctx: WinContext) -> WinInfo | None:
    """Which hands 14 tiles make here. A small hand (any pair) wins only by self-draw; 杠上炮, 抢杠胡 and
    海底炮 are big hands, so any winning shape may take them. After a chow only 清一色 wins (特殊规则 5》)."""
    c, melds = ctx.counts, ctx.melds
    if sum(c) != 14 - 3 * len(melds):
        return None
    opts = ctx.options
    on_discard = not ctx.self_draw
    std = is_standard(c)
    qd = not melds and is_seven_pairs(c)
    # 将将胡必须自摸: not on a discard (docs/rules/xiangyin.md 裁定 4: 抢杠, 杠上炮, 海底炮 too)
    jj = all_258(c, melds) and not (on_discard and opts.get("jiangjiang_zimo", False))
    if not (std or qd or jj):
        return None
    pure = (std or qd) and one_suit(c, melds)
    if _chow_suit(melds) is not None and not pure:
        return None  # 吃牌后，只能胡带清一色的牌型
    if ctx.kong_discard and on_discard:
        # 杠上炮: 不计算胡牌人的牌型分数 — the konger pays his own 杠上开花 (settle_wins)
        return WinInfo((("gangshangpao", 1),))
    big = _shape_hands(ctx, std, qd, jj, pure)
    # the big hands of the moment: 海底捞月 / 海底炮, 杠上开花, 抢杠胡 (杠上炮 is settled above)
    if ctx.haidi:
        big.append(("haidilaoyue", 1) if ctx.self_draw else ("haidipao", 1))
    if ctx.self_draw and ctx.kong_draw == KongMode.KAI:
        big.append(("gangshangkaihua", 1))  # one even if both tiles win: docs/rules/xiangyin.md 裁定 10
    if ctx.robbed:
        big.append(("qiangganghu", 1))
    if big:
        return WinInfo(tuple(big))
    if ctx.self_draw:
        return WinInfo((), ("xiaohu",))
    return None  # 小胡只能自摸


def value_parts(names: tuple[str, ...]) -> tuple[Part, ...]:
    """牌型分 as parts: a small hand 1; big hands 5·2^(n−1) — the first 5, each further one ×2 (``names``
    repeats a big hand by its count: 豪华七小对 counts 2, 双豪华 3)."""
    if names == ("xiaohu",):
        return (Part("xiaohu", 1),)
    # a big hand that counts more than once says so (豪华七小对 5 · 豪华七小对再算一个 ×2)
    more = (f"again:{name}" if name in names[:i] else name for i, name in enumerate(names) if i)
    return (Part(names[0], BIG_VALUE), *(Part(label, 2, Op.MUL) for label in more))


def hand_value(info: WinInfo) -> int:
    """牌型分: small 1, big 5·2^(n−1) for n big hands (豪华七小对 counts 2, 双豪华 3)."""
    return evaluate(value_parts(hand_names(info)))


def _birds_and_piao(state: State, winner: int, payer: int, hits: int) -> tuple[Part, ...]:
    """× (中鸟数 + 1), then + 飘分: both players' 飘 × 底分."""
    parts = [Part("birds", hits + 1, Op.MUL, hits)] if hits else []
    piao = _piao(state, winner) + _piao(state, payer)
    if piao:
        parts.append(Part("piao", piao * int(state.options["base"])))
    return tuple(parts)


# ---------------------------------------------------------------- claims and kongs


def claim_allowed(state: State, seat: int, act: Act, t: int) -> bool:
    """No chow, unless 清一色可吃: then only toward one suit (seed 清一色 (1)(2)); after a chow no pung or
    kong (明、暗) of another suit."""
    s = state.seats[seat]
    suit = suit_of(t)
    if act == Act.CHOW:
        if not state.options["qingyise_chow"]:
            return False
        if any(suit_of(m.tile) != suit for m in s.melds):
            return False  # 碰了 / 吃了别的花色，就不能再吃这个花色
        # 手牌和桌面上碰的牌，某个花色大于等于7个 (docs/rules/xiangyin.md 裁定 24: not the discard)
        held = sum(s.counts[suit * 9 : suit * 9 + 9]) + sum(len(m.tiles) for m in s.melds)
        return held >= 7
    chow_suit = _chow_suit(s.melds)
    return chow_suit is None or chow_suit == suit


def _has_pung(melds: tuple[Meld, ...], t: int) -> bool:
    return any(m.kind == MeldKind.PUNG and m.tile == t for m in melds)


def kong_modes(state: State, seat: int, t: int, kind: MeldKind) -> tuple[KongMode, ...]:
    """补张 always, 开杠 when ready after the kong (as Changsha). 明杠过杠不能再补: a 补杠 skipped at the
    first chance may later be made only as 开杠. 开杠开出来的牌，自己可以杠: after 开杠 the locked hand may
    开杠 again if it stays ready (docs/rules/xiangyin.md 裁定 12: the waits may change, not vanish)."""
    s = state.seats[seat]
    counts, melds = kong_after(s.counts, s.melds, t, kind)
    ready = bool(state.variant.waits(counts, melds, state.options, s.choice))
    if s.locked:
        return (KongMode.KAI,) if ready else ()
    late = state.options["no_late_bu"] and t in s.passed_kongs and _has_pung(s.melds, t)
    out = () if late else (KongMode.BU,)
    return (*out, KongMode.KAI) if ready else out


def settle_kong(state: State, seat: int, t: int, kind: MeldKind, from_seat: int | None) -> Settlement | None:
    """杠分 (× 底分), paid when the kong is made and kept on a drawn hand (流局不流杠). A 补杠 made after it
    was skipped scores nothing (两种玩法下过补后再补和杠，都不算杠分)."""
    if kind == MeldKind.KONG_ADDED and t in state.seats[seat].passed_kongs:
        return None
    names = {
        MeldKind.KONG_EXPOSED: "fanggang",
        MeldKind.KONG_ADDED: "minggang",
        MeldKind.KONG_CONCEALED: "angang",
    }
    exposed = FANGGANG_POINTS[state.num_seats]
    payments = kong_payments(
        state, seat, kind, from_seat, concealed=2, added=1, exposed=exposed, name=names[kind]
    )
    return kong_settlement(state, seat, names[kind], payments)


# ---------------------------------------------------------------- 飘


def _piao(state: State, seat: int) -> int:
    if not state.options["piao"]:
        return 0
    return int(state.seats[seat].choice or 0)


# ---------------------------------------------------------------- birds and payments


def bird_seat(n: int, origin: int, tile: int) -> int | None:
    """抓鸟: 1/5/9 → ``origin`` (the winner, 全中), 2/6 → 下家, 3/7 → 对家, 4/8 → 上家. With 3 players
    there is no 对家 (3/7 hit nobody); with 2 the other player sits opposite (3/7 hit him, 2/6/4/8 nobody):
    docs/rules/xiangyin.md §8.4, 裁定 19."""
    d = tile % 9 % 4  # 0 self, 1 下家, 2 对家, 3 上家
    if n == 4:
        return (origin + d) % 4
    if d == 0:
        return origin
    if n == 3:
        return {1: (origin + 1) % 3, 3: (origin + 2) % 3}.get(d)
    return (origin + 1) % 2 if d == 2 else None


def konger_value(state: State, konger: int, tiles: tuple[int, ...]) -> tuple[int, tuple[str, ...]]:
    """杠上炮: the big hands the konger would have had, had one turned-up tile made his 杠上开花
    (只记一张成功). His most valuable wait counts (docs/rules/xiangyin.md 裁定 17). Returns (big count,
    names). A tile he kept for another kong is not in that hand: he held it only after they were turned up."""
    s = state.seats[konger]
    counts = list(s.counts)
    claim = state.claim
    if claim is not None and claim.from_seat == konger and claim.kept >= 0:
        counts[claim.kept] -= 1
    held = tuple(counts)
    best: tuple[int, tuple[str, ...]] = (1, ("gangshangkaihua",))
    for t in state.variant.waits(held, s.melds, state.options, s.choice):
        c = list(held)
        c[t] += 1
        ctx = WinContext(
            seat=konger,
            dealer=state.dealer,
            counts=tuple(c),
            melds=s.melds,
            tile=t,
            self_draw=True,
            kong_draw=KongMode.KAI,
            kong_tiles=tiles,
            choice=s.choice,
            options=state.options,
        )
        info = evaluate_win(ctx)
        if info is not None and info.big_count > best[0]:
            best = (info.big_count, hand_names(info))
    return best


def _settle_gangshangpao(
    state: State, winners: tuple[int, ...], ctx: WinContext, targets: tuple[int | None, ...]
) -> tuple[list[Payment], tuple[str, ...], tuple[str, ...], str]:
    """杠上炮 (docs/rules/xiangyin.md §11, 裁定 17): the winner's hand is not scored, the konger pays what his
    own 杠上开花 would have won (进多少出多少). Both turned-up tiles winnable → one more big hand; 1 winner
    takes it all, 2 split it (rounded half up), 3 share it and the bird multiplies a share
    (中鸟的玩家多拿一番)."""
    konger = ctx.from_seat
    assert konger is not None
    n = state.num_seats
    tiles = ctx.kong_tiles or (ctx.tile,)

    def wins(w: int, t: int) -> bool:
        info = win_info(
            state, w, t, False, from_seat=konger, kong_discard=True, after_kong=KongMode.KAI, kong_tiles=tiles
        )
        return info is not None

    # 两张杠出的牌都能胡: each tile wins someone's hand (whether or not he takes it), the konger's aside
    others = [s for s in range(n) if s != konger and not state.seats[s].won]
    both = len(tiles) == 2 and all(any(wins(w, t) for w in others) for t in tiles)
    _, names = konger_value(state, konger, tiles)
    # the pot: his 杠上开花 (one big hand more when both tiles win) × 底分 from each of the others; then
    # split between the winners (docs/rules/xiangyin.md 裁定 17: rounded half up; three share 3 parts)
    pot = (
        *value_parts(names),
        *((Part("both_tiles", 2, Op.MUL),) if both else ()),
        base_part(state),
        Part("players", n - 1, Op.MUL, n - 1),
    )
    split = (Part("split", len(winners), Op.DIV, len(winners)),) if len(winners) > 1 else ()
    payments = []
    for w in winners:
        hits = bird_hits(targets, w, konger)
        payments.append(pay(konger, w, (*pot, *split, *_birds_and_piao(state, w, konger, hits)), hits))
    shown = ("gangshangpao", "gangshangpao") if both else ("gangshangpao",)
    return payments, shown, names, "konger_pays_both" if both else "konger_pays"


def settle_wins(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Settlement:
    """最终得分 = 牌型分 × 底分 × (中鸟数 + 1) + 飘分 (+ 杠分, settled with each kong). Self-draw: every other
    player pays; on a discard (抢杠, 海底炮 too) the discarder pays."""
    n = state.num_seats
    winners = tuple(w for w, _ in infos)
    birds = bird_tiles(state, ctx.tile if ctx.haidi else None)
    # counted from the winner; 一炮多响 from the discarder
    origin = winners[0] if len(winners) == 1 or ctx.from_seat is None else ctx.from_seat
    targets = tuple(bird_seat(n, origin, b) for b in birds)
    if ctx.kong_discard and not ctx.self_draw:
        payments, shown, konger_hands, note = _settle_gangshangpao(state, winners, ctx, targets)
        assert ctx.from_seat is not None
        hands = (*((w, shown) for w in winners), (ctx.from_seat, konger_hands))
        return win_settlement(state, None, payments, birds, hands, note, targets, winners)
    pays: list[Payment] = []
    for w, info in infos:
        value = (*value_parts(hand_names(info)), base_part(state))
        for p in payers(state, w, ctx):
            hits = bird_hits(targets, w, p)
            pays.append(pay(p, w, (*value, *_birds_and_piao(state, w, p, hits)), hits))
    return win_settlement(state, infos, pays, birds, bird_seats=targets)


class Xiangyin(Variant):
    id = "xiangyin"
    name_zh = "湘阴推倒胡"
    name_en = "Xiangyin Push-Down"
    seat_counts = (2, 3, 4)
    option_specs = OPTIONS
    names = NAMES
    part_names = PARTS
    choice_labels = PIAO_LABELS
    choice_name = ("加飘", "piao (飘)")
    choice_question = (
        "加飘：开牌前（不看牌）选飘几，0 到 4。你和另一家之间的每一笔胡牌输赢，都另加你们两人的飘数 × 底分"
        "（你飘 2、他飘 1：多 3 分）：飘得多，赢得多，输得也多。",
        "Piao (飘): before the tiles are turned up, pick 0 to 4. Every win payment between you and another "
        "player gets both your piao added, × the base (you 2, he 1: 3 more): the more piao, the more you "
        "win or lose.",
    )
    notes = NOTES
    shapes = Shapes(seven_pairs=True, all_258=True)
    kai_tiles = 2  # 开杠: dice, both tiles of one stack

    def first_dealer(self, seats: int, creator: int | None) -> int | None:
        """The table's creator deals the first hand (docs/rules/xiangyin.md §2.1, 裁定 1; None, no creator
        known: the hand's seed draws the dealer)."""
        return creator if creator is not None and 0 <= creator < seats else None

    def pre_hand(self, state: State, seat: int) -> tuple[str, ...]:
        """加飘: before the hand (blind) each player picks 0–4."""
        return PIAO_CHOICES if state.options["piao"] else ()

    def choose_blind(self, state: State) -> bool:
        return True

    def claim_allowed(self, state: State, seat: int, act: Act, tile: int) -> bool:
        return claim_allowed(state, seat, act, tile)

    def kong_modes(self, state: State, seat: int, tile: int, kind: MeldKind) -> tuple[KongMode, ...]:
        return kong_modes(state, seat, tile, kind)

    def settle_kong(
        self, state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
    ) -> Settlement | None:
        return settle_kong(state, seat, tile, kind, from_seat)

    def haidi_seats(self, state: State, first: int) -> tuple[int, ...] | None:
        """海底漫游: 听牌者才有摸海底的权利."""
        out = []
        for seat in state.play_order(first):
            s = state.seats[seat]
            if not s.won and self.waits(s.counts, s.melds, state.options, s.choice):
                out.append(seat)
        return tuple(out)

    def evaluate_win(self, ctx: WinContext) -> WinInfo | None:
        return evaluate_win(ctx)

    def settle_wins(
        self, state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext
    ) -> Settlement:
        return settle_wins(state, infos, ctx)


VARIANT = XIANGYIN = Xiangyin()
