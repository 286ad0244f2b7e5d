"""四川麻将 血战到底 Sichuan (Chengdu rules): 定缺, no chow, 一炮多响, 血战, 刮风下雨, 成都计番, 查花猪 and
查大叫.

Every rule and decision is in docs/rules/sichuan.md (the seed is a fragment; the fan table is the public
Chengdu one; decisions are marked D: there and here).

Money: a hand worth ``fan`` 番 pays 底分 × 2^min(fan, cap). Kong money (刮风下雨) is paid when the kong is
made.
"""

from __future__ import annotations

from typing import Any

from ..actions import Act
from ..events import Event
from ..hands import all_258, all_pungs
from ..melds import Meld, MeldKind
from ..scoring import others, payers, refunds, win_settlement
from ..shanten import Shapes
from ..shape import is_seven_pairs, is_standard, seven_pairs_quads
from ..state import Payment, SettleKind, Settlement, State, evolve, evolve_seat
from ..tiles import Counts
from ..variant import OptionSpec, Variant, WinContext, WinInfo

SUIT_LETTERS = "msp"  # 万 条 筒, the 定缺 choices (CHOOSE detail)

# id -> (Chinese, English)
NAMES: dict[str, tuple[str, str]] = {
    "pinghu": ("平胡", "plain hand"),  # 0 番
    "duiduihu": ("对对胡", "all pungs"),  # 1 番
    "qingyise": ("清一色", "one suit"),  # 2 番
    "qidui": ("七对", "seven pairs"),  # 2 番
    "longqidui": ("龙七对", "dragon seven pairs"),  # 3 番: seven pairs holding a four of a kind
    "qingdui": ("清对", "one-suit all pungs"),  # 3 番
    "jiangdui": ("将对", "all pungs of 2-5-8"),  # 3 番
    "qingqidui": ("清七对", "one-suit seven pairs"),  # 4 番
    "qinglongqidui": ("清龙七对", "one-suit dragon seven pairs"),  # 5 番
    "gen": ("根", "root (four of a kind)"),  # +1 番 each
    "gangshanghua": ("杠上花", "win on the kong replacement"),  # +1
    "gangshangpao": ("杠上炮", "win on the konger's discard"),  # +1
    "qiangganghu": ("抢杠胡", "robbing the kong"),  # +1
    "haidilaoyue": ("海底捞月", "self-drawn last tile"),  # +1
    "haidipao": ("海底炮", "win on the last discard"),  # +1
    "zimo_jiafan": ("自摸加番", "self-draw +1 fan"),  # +1
    "zimo_jiadi": ("自摸加底", "self-draw +1 base"),  # +底分, no fan
    "zhigang": ("直杠", "exposed kong"),  # 刮风
    "bugang": ("补杠", "added kong"),  # 刮风 (面下杠 / 弯杠)
    "angang": ("暗杠", "concealed kong"),  # 下雨
    "guoshougang": ("过手杠", "late added kong (no money)"),
    "huazhu": ("花猪", "three suits at the end"),  # 查花猪
    "wujiao": ("无叫", "not ready at the end"),  # 查大叫: pays
    "youjiao": ("有叫", "ready at the end"),  # 查大叫: is paid
}

# settlement notes
NOTES: dict[str, tuple[str, str]] = {
    "hujiao": ("呼叫转移", "call transfer: the kong money goes to the winner"),
    "chajiao": ("查花猪 / 查大叫", "pigs and not-ready hands pay"),
    "chajiao_tuishui": ("查花猪 / 查大叫 / 退税", "pigs and not-ready hands pay; kong money returned"),
}

VOID_LABELS = {
    "m": ("缺万", "void characters"),
    "s": ("缺条", "void bamboo"),
    "p": ("缺筒", "void dots"),
}

# 成都计番: the shape of a hand and its fan (docs/rules/sichuan.md)
SHAPE_FAN: dict[str, int] = {
    "pinghu": 0,
    "duiduihu": 1,
    "qingyise": 2,
    "qidui": 2,
    "longqidui": 3,
    "qingdui": 3,
    "jiangdui": 3,
    "qingqidui": 4,
    "qinglongqidui": 5,
}

OPTIONS = (
    OptionSpec("base", 1, (1, 2, 5, 10, 20, 50, 100), "底分", "base points"),
    OptionSpec("cap", 3, (2, 3, 4, 5, 6), "封顶番数", "fan cap"),
    # 直杠: 承包制 only the discarder pays 2× (the default); 家家有 also 1× from everyone else still in
    OptionSpec(
        "zhigang",
        "chengbao",
        ("chengbao", "jiajiayou"),
        "直杠收分",
        "exposed kong paid by",
        {
            "chengbao": ("承包制（点杠者付）", "the discarder alone"),
            "jiajiayou": ("家家有", "everyone still in"),
        },
    ),
    OptionSpec("hujiao", True, (True, False), "呼叫转移", "kong money follows a deal-in after the kong"),
    # 自摸加底: +1 底分 from each payer; 自摸加番: +1 番
    OptionSpec(
        "zimo",
        "jiadi",
        ("jiadi", "jiafan"),
        "自摸加底/加番",
        "self-draw bonus",
        {"jiadi": ("自摸加底", "+1 base"), "jiafan": ("自摸加番", "+1 fan")},
    ),
    OptionSpec("last_four", True, (True, False), "最后四张必胡", "forced win on the last four tiles"),
)

HUJIAO_NOTE = "hujiao"  # 呼叫转移
KONG_NAME = {
    MeldKind.KONG_EXPOSED: "zhigang",  # 直杠 (刮风)
    MeldKind.KONG_ADDED: "bugang",  # 面下杠 / 补杠 (刮风)
    MeldKind.KONG_CONCEALED: "angang",  # 暗杠 (下雨)
}
_HAIDI = ("haidilaoyue", "haidipao")


# ---------------------------------------------------------------- shapes


def _void(choice: str | None) -> int | None:
    """The 定缺 suit index (0 万, 1 条, 2 筒), None before the choice."""
    return SUIT_LETTERS.index(choice) if choice in ("m", "s", "p") else None


def _suit_counts(counts: Counts) -> list[int]:
    return [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]


def _suits(counts: Counts, melds: tuple[Meld, ...]) -> set[int]:
    out = {i for i, n in enumerate(_suit_counts(counts)) if n}
    out.update(m.tile // 9 for m in melds)
    return out


def _totals(counts: Counts, melds: tuple[Meld, ...]) -> list[int]:
    """Copies of each kind a player owns: concealed plus melded."""
    total = list(counts)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    return total


def _shape(counts: Counts, melds: tuple[Meld, ...], one_suit: bool) -> tuple[str, int] | None:
    """The best reading of a complete hand: (shape name, 根 left to count). 根 = each kind owned four times;
    the four that makes 龙七对 is already in its fan (D: each further four is a 根)."""
    gen = sum(1 for n in _totals(counts, melds) if n == 4)
    readings: list[tuple[str, int]] = []
    if is_standard(counts):
        if all_pungs(counts, melds):
            name = "qingdui" if one_suit else "jiangdui" if all_258(counts, melds) else "duiduihu"
        else:
            name = "qingyise" if one_suit else "pinghu"
        readings.append((name, gen))
    if not melds and is_seven_pairs(counts):
        if seven_pairs_quads(counts):
            readings.append(("qinglongqidui" if one_suit else "longqidui", gen - 1))
        else:
            readings.append(("qingqidui" if one_suit else "qidui", gen))
    if not readings:
        return None
    return max(readings, key=lambda r: SHAPE_FAN[r[0]] + r[1])


def evaluate_win(ctx: WinContext) -> WinInfo | None:
    """A winning hand and its fans: big = ((shape, fan), ("gen", roots), extras...).

    Seed 三.3: 必须缺门可胡，即胡牌的时候不能有三种花色的牌 — and (定缺) no tile of the void suit."""
    c, melds = ctx.counts, ctx.melds
    if sum(c) != 14 - 3 * len(melds):
        return None
    suits = _suits(c, melds)
    void = _void(ctx.choice)
    if len(suits) > 2 or (void is not None and void in suits):
        return None
    shape = _shape(c, melds, len(suits) == 1)
    if shape is None:
        return None
    name, gen = shape
    big: list[tuple[str, int]] = [(name, SHAPE_FAN[name])]
    if gen:
        big.append(("gen", gen))
    if ctx.self_draw and ctx.kong_draw:
        big.append(("gangshanghua", 1))  # 杠上花 (D: also after a 直杠, paid as a self-draw)
    if not ctx.self_draw and ctx.robbed:
        big.append(("qiangganghu", 1))
    elif not ctx.self_draw and ctx.after_kong:
        big.append(("gangshangpao", 1))
    if ctx.haidi:
        big.append(("haidilaoyue", 1) if ctx.self_draw else ("haidipao", 1))
    if ctx.self_draw:
        if ctx.options.get("zimo", "jiadi") == "jiafan":
            big.append(("zimo_jiafan", 1))
        else:
            big.append(("zimo_jiadi", 0))
    return WinInfo(tuple(big))


# ---------------------------------------------------------------- 定缺 and play restrictions


def void_choices(state: State, seat: int) -> tuple[str, ...]:
    """定缺 choices, the default (the suit with fewest tiles, ties in the order 万 条 筒) first.

    Seed 二.1 注: 若摸牌结束只有两门花色，则以第三门花色作为定缺花色；若为一门花色，则可以在其他两门花色中
    选择。 D: with two suits the missing one is the only choice offered."""
    n = _suit_counts(state.seats[seat].counts)
    missing = [i for i in range(3) if n[i] == 0]
    order = missing if missing else sorted(range(3), key=lambda i: (n[i], i))
    return tuple(SUIT_LETTERS[i] for i in order)


# one-entry cache (seat, the void suit it still holds or None): the core asks once per tile in hand
_held_void: list[tuple[Any, int | None]] = [(None, None)]


def discard_allowed(state: State, seat: int, t: int) -> bool:
    """Seed 二.1: 游戏中必须先打完该门花色 — while a void tile is held, only void tiles may be thrown."""
    s = state.seats[seat]
    cached = _held_void[0]
    if cached[0] is not s:
        void = _void(s.choice)
        held = void is not None and any(s.counts[void * 9 : void * 9 + 9])
        cached = (s, void if held else None)
        _held_void[0] = cached
    void = cached[1]
    return void is None or t // 9 == void


def claim_allowed(state: State, seat: int, act: Act, t: int) -> bool:
    """D: no pung or kong of the void suit (手上不能留定缺花色的牌), own concealed kongs included."""
    return _void(state.seats[seat].choice) != t // 9


def must_win(state: State, seat: int) -> bool:
    """Seed 三.4 最后四张自动胡: once the last four wall tiles are being drawn, a player who can win must.
    D: kept although the seed notes 定缺规则中最后四张可以不胡; room option ``last_four``."""
    return bool(state.options.get("last_four", True)) and state.wall.remaining < 4


# ---------------------------------------------------------------- money


def _amount(state: State, fan: int) -> int:
    return int(state.options["base"]) * int(2 ** min(fan, int(state.options["cap"])))


def _hand_names(big: list[tuple[str, int]]) -> tuple[str, ...]:
    """Names for the table: each 根 repeated, everything else once."""
    out: list[str] = []
    for name, k in big:
        out.extend([name] * (k if name == "gen" else 1))
    return tuple(out)


def _haidi(state: State, ctx: WinContext) -> str | None:
    """海底: the last wall tile was drawn (not taken as a kong replacement) — self-drawn (海底捞月) or the
    tile discarded after it (海底炮). The core does not flag it when there is no 海底漫游."""
    if state.wall.remaining or state.haidi_as_replacement is not None or ctx.robbed:
        return None
    return "haidilaoyue" if ctx.self_draw else "haidipao"


def settle_wins(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Settlement:
    """底分 × 2^fan (capped) from every player still in on a self-draw, from the discarder otherwise."""
    base = int(state.options["base"])
    haidi = _haidi(state, ctx)
    payments: list[Payment] = []
    hands: list[tuple[int, tuple[str, ...]]] = []
    for w, info in infos:
        big = list(info.big)
        if haidi is not None and not any(n in _HAIDI for n, _ in big):
            big.append((haidi, 1))
        fan = sum(k for _, k in big)
        amount = _amount(state, fan)
        if any(n == "zimo_jiadi" for n, _ in big):
            amount += base  # 自摸加底: 额外收取其他未胡玩家1倍基础分
        payments += [Payment(p, w, amount) for p in payers(state, w, ctx, still_in=True)]
        hands.append((w, _hand_names(big)))
    note = ""
    transfer = _hujiao(state, infos, ctx)
    if transfer is not None:
        payments.append(transfer)
        note = HUJIAO_NOTE
    return win_settlement(state, infos, payments, hands=hands, note=note)


def _hujiao(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Payment | None:
    """呼叫转移 (seed 二.5): the konger deals in straight after his kong → that kong's money goes to the
    winner. D: only the kong just made; with 一炮多响 the first winner in play order takes it."""
    if not state.options["hujiao"] or ctx.self_draw or ctx.robbed or not ctx.after_kong:
        return None
    konger = ctx.from_seat
    if konger is None or not state.settlements:
        return None
    last = state.settlements[-1]
    if last.kind != SettleKind.KONG or last.winners != (konger,) or last.deltas[konger] <= 0:
        return None
    return Payment(konger, infos[0][0], last.deltas[konger])


def settle_kong(
    state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
) -> Settlement | None:
    """刮风下雨 (seed 二.3–4, 三.6): 直杠 2× from the discarder (家家有: and 1× from every other player still
    in); 面下杠 1× from each player still in; 下雨 (暗杠) 2× from each player still in."""
    base = int(state.options["base"])
    still_in = others(state, seat, still_in=True)
    name = KONG_NAME[kind]
    if kind == MeldKind.KONG_EXPOSED:
        assert from_seat is not None
        units = [(from_seat, 2)]
        if state.options["zhigang"] == "jiajiayou":
            units += [(s, 1) for s in still_in if s != from_seat]
    elif kind == MeldKind.KONG_ADDED:
        if tile in state.seats[seat].passed_kongs:
            # D: seed 三.6 面下杠 is the fourth tile 摸到…这时选择的杠牌; a fourth tile kept past a discard
            # (过手杠) may still be konged, for no money
            return Settlement.from_payments(
                SettleKind.KONG, state.num_seats, (seat,), ((seat, ("guoshougang",)),), (), ()
            )
        units = [(s, 1) for s in still_in]
    else:
        units = [(s, 2) for s in still_in]
    payments = tuple(Payment(p, seat, n * base) for p, n in units)
    return Settlement.from_payments(
        SettleKind.KONG, state.num_seats, (seat,), ((seat, (name,)),), (), payments
    )


def best_fan(state: State, seat: int) -> int | None:
    """查大叫: the most a ready hand can be worth — its best wait, shape and 根 only (no situational fan,
    no self-draw bonus); None if not ready. D: a wait that would need a fifth copy is no wait."""
    s = state.seats[seat]
    total = _totals(s.counts, s.melds)
    best: int | None = None
    for t in state.ruleset.waits(s.counts, s.melds, state.options, s.choice):
        if total[t] >= 4:
            continue
        c = list(s.counts)
        c[t] += 1
        ctx = WinContext(
            seat, state.dealer, tuple(c), s.melds, t, False, options=state.options, choice=s.choice
        )
        info = evaluate_win(ctx)
        if info is not None and (best is None or info.big_count > best):
            best = info.big_count
    return best


def is_huazhu(state: State, seat: int) -> bool:
    """花猪: still holding tiles of all three suits when the wall runs out (docs/rules/sichuan.md)."""
    s = state.seats[seat]
    return len(_suits(s.counts, s.melds)) == 3


def settle_draw(state: State) -> Settlement | None:
    """The wall is empty with two or more players still in (seed 一: 流局查卫生（查花猪）;
    docs/rules/sichuan.md): 查花猪 — a 花猪 pays every other non-花猪 player still in the cap; 查大叫 — a
    player not ready pays every ready player his best hand; 退税 — players not ready (花猪 included) return
    their kong money."""
    active = [s for s in range(state.num_seats) if not state.seats[s].won]
    cap_amount = _amount(state, int(state.options["cap"]))
    huazhu = [s for s in active if is_huazhu(state, s)]
    fans = {s: best_fan(state, s) for s in active if s not in huazhu}
    ready = {s: f for s, f in fans.items() if f is not None}
    unready = [s for s in active if s not in ready]
    payments: list[Payment] = []
    for h in huazhu:
        payments += [Payment(h, o, cap_amount) for o in active if o not in huazhu]
    for x in unready:
        if x in huazhu:
            continue  # D: the 花猪 has paid the cap already, which no hand exceeds
        payments += [Payment(x, r, _amount(state, f)) for r, f in ready.items()]
    returned = _refunds(state, unready)
    payments += returned
    if not payments:
        return None
    hands = tuple(
        (s, ("huazhu",) if s in huazhu else ("wujiao",) if s in unready else ("youjiao",)) for s in active
    )
    note = "chajiao_tuishui" if returned else "chajiao"
    return Settlement.from_payments(SettleKind.DRAW, state.num_seats, (), hands, (), tuple(payments), note)


def _refunds(state: State, seats: list[int]) -> list[Payment]:
    """退税: every kong payment a not-ready player received goes back to its payer — except a kong whose
    money already went to a winner by 呼叫转移 (D)."""
    settlements = state.settlements
    kept = []
    for i, st in enumerate(settlements):
        if st.kind != SettleKind.KONG or st.winners[0] not in seats:
            continue
        following = settlements[i + 1] if i + 1 < len(settlements) else None
        if following is not None and following.kind == SettleKind.WIN and following.note == HUJIAO_NOTE:
            continue
        kept.append(st)
    return refunds(kept)


# ---------------------------------------------------------------- dealer


class Sichuan(Variant):
    id = "sichuan"
    name_zh = "四川麻将 血战到底"
    name_en = "Sichuan (bloody battle)"
    option_specs = OPTIONS
    names = NAMES
    choice_labels = VOID_LABELS
    choice_question = (
        "定缺：选一门这局不要的花色，先把它打完",
        "定缺: pick the suit you will do without this hand; its tiles must go first",
    )
    notes = NOTES
    shapes = Shapes(seven_pairs=True)

    def pre_hand(self, state: State, seat: int) -> tuple[str, ...]:
        return void_choices(state, seat)

    def claim_allowed(self, state: State, seat: int, act: Act, tile: int) -> bool:
        """No chow (不可以吃); D: no pung or kong of the void suit, own concealed kongs included."""
        return act != Act.CHOW and claim_allowed(state, seat, act, tile)

    def discard_allowed(self, state: State, seat: int, tile: int) -> bool:
        return discard_allowed(state, seat, tile)

    def must_win(self, state: State, seat: int) -> bool:
        return must_win(state, seat)

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
        return settle_kong(state, seat, tile, kind, from_seat)

    def settle_draw(self, state: State) -> Settlement | None:
        return settle_draw(state)

    def after_win(
        self, state: State, winners: tuple[int, ...], ctx: WinContext, events: list[Event]
    ) -> tuple[State, bool]:
        """血战到底: the winners leave play; the hand goes on while two or more seats are still in."""
        seats = list(state.seats)
        for w in winners:
            seats[w] = evolve_seat(seats[w], won=True)
        state = evolve(state, seats=tuple(seats))
        return state, sum(1 for s in state.seats if not s.won) > 1

    def bird_multiplier(self, hits: int) -> int | None:
        return None  # no birds

    def next_dealer(self, state: State, ctx: WinContext | None) -> int:
        """D (common Chengdu rule): the first to win deals next; if the first win was 一炮多响, the
        discarder; if nobody won, the dealer stays."""
        first = next((s for s in state.settlements if s.kind == SettleKind.WIN), None)
        if first is None:
            return state.dealer
        if len(first.winners) > 1:
            return first.payments[0].payer
        return first.winners[0]


RULESET = SICHUAN = Sichuan()
