"""衡阳麻将 Hengyang: 平和 with a 258 pair, 门前清, 扳牌 opening hands shown for three turns, additive big
hands, two birds from the wall front, kong money, two-tile 开杠, no robbing the kong.

Every rule and decision is in docs/rules/hengyang.md (its decisions, 裁定 N, are cited by number
here). Variant state: ``State.extra`` holds each seat's remaining 三巡 (own discards its hand stays shown).
"""

from __future__ import annotations

from ..actions import KongMode
from ..hands import TILES_258, all_258, all_pungs, one_suit
from ..melds import Meld, MeldKind
from ..scoring import (
    base_part,
    bird_hits,
    bird_target,
    bird_tiles,
    doubling_birds,
    pay,
    payers,
    standard_kong_money,
    win_settlement,
)
from ..shanten import Shapes
from ..shape import is_seven_pairs, is_standard, seven_pairs_quads, standard_pairs
from ..state import Op, Part, Payment, SettleKind, Settlement, State, evolve
from ..tiles import Counts, is_258, remove_tile
from ..variant import OptionSpec, Variant, WinContext, WinInfo, bu_or_kai

# id -> (Chinese, English)
NAMES: dict[str, tuple[str, str]] = {
    "pinghu": ("平和", "plain win"),
    "menqianqing": ("门前清", "concealed hand"),
    "jiangyise": ("将一色", "all 2-5-8"),
    "pengpenghu": ("碰碰胡", "all pungs"),
    "quanqiuren": ("全求人", "all melds exposed"),
    "qingyise": ("清一色", "one suit"),
    "qidui": ("七小对", "seven pairs"),
    "longqidui": ("龙七对", "dragon seven pairs"),
    "gangshangkaihua": ("杠上开花", "win on the kong tiles"),
    "haidilaoyue": ("海底捞月", "last tile self-drawn"),
    "tianhu": ("天胡", "heavenly hand"),
    "dihu": ("地胡", "earthly hand"),
    "queyimen": ("缺一门", "a suit or the 2-5-8 missing at the deal"),
    "sixi": ("四喜", "four of a kind at the deal"),
    "liuliushun": ("六六顺", "two triplets at the deal"),
    "angang": ("暗杠", "concealed kong"),
    "bugang": ("补杠", "added kong"),
    "zhigang": ("直杠", "kong on a discard"),
}

# payment parts (not hands)
PARTS: dict[str, tuple[str, str]] = {
    "longqidui_fan": ("龙七对加番", "dragon seven pairs +1"),
    "bird_tiles": ("捉鸟", "Birds"),  # docs/rules/hengyang.md §9: 衡阳 says 捉鸟
}

OPTIONS = (
    # docs/rules/hengyang.md 裁定 15: the source turns up two birds and defines payments up to two hits
    # (×4), so a room may play with 0, 1 or 2 birds; 2 is the default.
    OptionSpec("birds", 2, (0, 1, 2), "捉鸟数", "birds"),
    OptionSpec("base", 1, (1, 2, 5, 10, 20, 50, 100), "底分", "base points"),
)


OPENING_TURNS = 3  # 公开手牌三巡


def _concealed(melds: tuple[Meld, ...]) -> bool:
    """门前清: no chow, pung or 明杠; a concealed kong still counts (暗杠可以算作门前清)."""
    return all(m.kind == MeldKind.KONG_CONCEALED for m in melds)


def _shape_hands(ctx: WinContext, std: bool, qd: bool, jiang: bool) -> list[tuple[str, int]]:
    """The big hands of the shape (将一色 碰碰胡 全求人 清一色 七小对 / 龙七对), none needing a 258 pair."""
    c, melds = ctx.counts, ctx.melds
    big: list[tuple[str, int]] = []
    if jiang:
        big.append(("jiangyise", 1))  # 将一色：手中全是二、五、八 … 即和牌
    if std and all_pungs(c, melds):
        big.append(("pengpenghu", 1))  # 碰碰胡：4组刻子加任意对子
    if (
        not ctx.self_draw
        and len(melds) == 4
        and all(m.kind != MeldKind.KONG_CONCEALED for m in melds)
        and sum(c) == 2
        and is_258(ctx.tile)
    ):
        # 全求人 (docs/rules/hengyang.md §7.3, 裁定 7): a single wait on a 258 pair, won on a discard.
        big.append(("quanqiuren", 1))
    if (std or qd) and one_suit(c, melds):
        big.append(("qingyise", 1))  # 清一色：不需要二五八作将
    if qd:
        # 七小对, or 龙七对: one big hand and 1 番 more on each payment (docs/rules/hengyang.md §7.6, 裁定 5)
        big.append(("longqidui", 1) if is_longqidui(c, ctx.tile, ctx.self_draw) else ("qidui", 1))
    return big


def evaluate_win(ctx: WinContext) -> WinInfo | None:
    """Which hands a complete 14 tiles make. Shape big hands need no 258 pair; 平和 does; the situational
    big hands (天胡 地胡 海底捞月 杠上开花) need a hand that already wins (docs/rules/hengyang.md 裁定 8)."""
    c, melds = ctx.counts, ctx.melds
    if sum(c) != 14 - 3 * len(melds):
        return None
    std = is_standard(c)
    qd = not melds and is_seven_pairs(c)
    jiang = all_258(c, melds)
    if not (std or qd or jiang):
        return None
    big = _shape_hands(ctx, std, qd, jiang)
    pinghu = std and any(is_258(p) for p in standard_pairs(c))
    if not big and not pinghu:
        return None
    # the big hands of the moment (天胡 地胡 海底捞月 杠上开花), on a hand that already wins
    if ctx.first_turn and ctx.self_draw:
        big.append(("tianhu", 1))  # 天胡：庄家起手就和牌
    if ctx.first_discard and not ctx.self_draw:
        big.append(("dihu", 1))  # 地胡：庄家打出第一张牌闲家就胡牌
    if ctx.haidi and ctx.self_draw:
        big.append(("haidilaoyue", 1))  # 海底捞月 (docs/rules/hengyang.md 裁定 9: not on the shown tile)
    if ctx.self_draw and ctx.kong_draw == KongMode.KAI:
        big.append(("gangshangkaihua", 1))  # 杠上开花 only after 开杠 (docs/rules/hengyang.md 裁定 10)
    if big:
        return WinInfo(tuple(big))
    return WinInfo((), ("pinghu", "menqianqing") if _concealed(melds) else ("pinghu",))


def is_longqidui(counts: Counts, tile: int, self_draw: bool) -> bool:
    """龙七对 of a complete seven-pairs hand, by its two forms (seed: 龙七对：5组对子加上一组刻子，和牌即为
    龙七对，或者有一个杠子加上4组对子和一张单牌，在自摸那张单牌的情况下也为龙七对): five pairs and a triplet
    won on its fourth, on a discard or self-drawn; or a four, four pairs and a single whose mate is
    self-drawn — won on a discard, that second form is a plain 七小对 (docs/rules/hengyang.md §7, 裁定 5)."""
    if not seven_pairs_quads(counts):
        return False
    return self_draw or (tile >= 0 and counts[tile] == 4)  # on a discard: the tile made the four


# ------------------------------------------------------------------ 扳牌 opening hands


def opening_counts(state: State, seat: int) -> Counts:
    """The 13 dealt tiles an opening hand is judged on (docs/rules/hengyang.md 裁定 12: the dealer's 14th
    tile is his first draw and is left out)."""
    counts = state.seats[seat].counts
    if seat == state.dealer and state.first_turn and state.drawn is not None and sum(counts) == 14:
        return remove_tile(counts, state.drawn)
    return counts


def opening_kinds(counts: Counts) -> tuple[str, ...]:
    """扳牌 held in 13 tiles (docs/rules/hengyang.md 裁定 13: each kind counts once, several combine)."""
    out = []
    no_suit = any(not any(counts[s * 9 : s * 9 + 9]) for s in range(3))
    if no_suit or not any(counts[t] for t in TILES_258):
        out.append("queyimen")  # 缺一门：没有索、饼、万、将任意一门
    if any(n == 4 for n in counts):
        out.append("sixi")  # 四喜：手牌有一组杠子
    if sum(1 for n in counts if n >= 3) >= 2:
        out.append("liuliushun")  # 六六顺：手牌有2组刻子 (docs/rules/hengyang.md 裁定 13: a four holds one)
    return tuple(out)


def settle_opening(state: State, seat: int, kinds: tuple[str, ...]) -> Settlement:
    """Each 扳牌 is 1 番 paid as a small self-draw (10, 20 where the dealer is involved), no birds."""
    payments = [
        pay(p, seat, (*_small_parts(kind, state.dealer in (seat, p), False), base_part(state)))
        for kind in kinds
        for p in range(state.num_seats)
        if p != seat
    ]
    return Settlement.from_payments(
        SettleKind.OPENING, state.num_seats, (seat,), ((seat, kinds),), (), tuple(payments)
    )


# ------------------------------------------------------------------ payments


def _small_parts(name: str, dealer_involved: bool, menqianqing: bool) -> tuple[Part, ...]:
    """小和 in 番 (1 番 = 10 at 底分 10): 1, 2 with the dealer involved; 门前清 adds 1."""
    parts = [Part(name, 1)]
    if dealer_involved:
        parts.append(Part("dealer", 1))
    if menqianqing:
        parts.append(Part("menqianqing", 1))
    return tuple(parts)


def unit_parts(info: WinInfo, self_draw: bool, dealer_involved: bool) -> tuple[Part, ...]:
    """One payer's amount in 番 (the table of docs/rules/hengyang.md §8), as parts: small 1/2 (+1 门前清);
    big self-draw 3n / 3n+1; big on a discard 6n / 7n; 龙七对 adds 1 to each payment."""
    if not info.big:
        return _small_parts(info.small[0], dealer_involved, "menqianqing" in info.small)
    parts = [Part(name, 3 * k) for name, k in info.big]
    if not self_draw:
        parts.append(Part("dianpao", 2, Op.MUL))  # said as such: a discard pays twice
    if dealer_involved:
        parts.append(Part("dealer", 1 if self_draw else info.big_count))
    if any(name == "longqidui" for name, _ in info.big):
        parts.append(Part("longqidui_fan", 1))
    return tuple(parts)


def settle_wins(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Settlement:
    """Self-draw: the three others pay; on a discard only the discarder. A bird on the winner or on the
    payer doubles that payer's amount, two hits ×4 (同一人被捉中2只鸟 … 4倍)."""
    birds = bird_tiles(state, ctx.tile if ctx.haidi else None)
    # 捉鸟: 以庄家为起点逆时针计算
    targets = tuple(bird_target(state, b, state.dealer) for b in birds)
    payments: list[Payment] = []
    for w, info in infos:
        for p in payers(state, w, ctx):
            hits = bird_hits(targets, w, p)
            units = unit_parts(info, ctx.self_draw, state.dealer in (w, p))
            payments.append(pay(p, w, (*units, base_part(state), *doubling_birds(hits)), hits))
    return win_settlement(state, infos, payments, birds, bird_seats=targets)


def open_turns(state: State, seat: int) -> int:
    """扳牌 公开手牌三巡: how many more own discards this seat's whole hand stays shown."""
    extra: tuple[int, ...] | None = state.extra
    return extra[seat] if extra is not None else 0


class Hengyang(Variant):
    id = "hengyang"
    name_zh = "衡阳麻将"
    name_en = "Hengyang"
    option_specs = OPTIONS
    names = NAMES
    part_names = PARTS
    shapes = Shapes(pair_258=True, seven_pairs=True, all_pungs=True, one_suit=True, all_258=True)
    kai_tiles = 2  # 开杠: dice, the 2 tiles of the N-th stack from the back
    opening_label = ("扳牌", "opening hands (扳牌)")
    opening_question = (
        "你可以扳牌：{hands}。报了，每种按小和自摸付你（庄家那份翻倍，不扎鸟）；之后你的整手牌公开三巡"
        "（直到你再打出三张牌）。报不报自己决定。",
        "You may declare 扳牌: {hands}. Each kind is paid to you as a small self-drawn win (the dealer's "
        "share doubled, no birds); then your whole hand is shown to the table for three turns (until you "
        "have discarded three more tiles). Declaring is up to you.",
    )

    def evaluate_win(self, ctx: WinContext) -> WinInfo | None:
        return evaluate_win(ctx)

    # 扳牌: no tiles revealed — the whole hand is shown for three turns instead (公开手牌三巡)
    def opening_hands(self, state: State, seat: int) -> tuple[str, ...]:
        return opening_kinds(opening_counts(state, seat))

    def settle_opening(self, state: State, seat: int, kinds: tuple[str, ...]) -> Settlement:
        return settle_opening(state, seat, kinds)

    def on_opening(self, state: State, seat: int, kinds: tuple[str, ...]) -> State:
        turns = list(state.extra or (0,) * state.num_seats)
        turns[seat] = OPENING_TURNS
        return evolve(state, extra=tuple(turns))

    def on_discard(self, state: State, seat: int, tile: int) -> State:
        if not open_turns(state, seat):
            return state
        turns = list(state.extra)
        turns[seat] -= 1
        return evolve(state, extra=tuple(turns))

    def hand_shown(self, state: State, seat: int) -> bool:
        return open_turns(state, seat) > 0 or state.seats[seat].won

    def kong_modes(self, state: State, seat: int, tile: int, kind: MeldKind) -> tuple[KongMode, ...]:
        return bu_or_kai(self, state, seat, tile, kind)

    def robbable(self, state: State, kind: MeldKind) -> bool:
        return False  # 衡阳麻将不可以抢杠和牌

    def settle_kong(
        self, state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
    ) -> Settlement | None:
        """暗杠: each other player pays 2 番; 补杠: each pays 1 番; 直杠: the discarder alone pays 3 番. No
        birds and no dealer extra on kong money; it stays on a drawn hand (docs/rules/hengyang.md 裁定 16)."""
        return standard_kong_money(state, seat, kind, from_seat)

    def settle_wins(
        self, state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext
    ) -> Settlement:
        return settle_wins(state, infos, ctx)

    # Next dealer: the common rule is Hengyang's — 哪家和牌则为下一局的庄家; several winners on one tile →
    # the discarder, so 庄家放铳时同时有两家和牌可以继续坐庄; a drawn hand → the haidi rule.


VARIANT = HENGYANG = Hengyang()
