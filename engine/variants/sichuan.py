"""四川麻将 Sichuan (Chengdu rules) as the apps play it: 定缺, no chow, 一炮多响, 血战到底 or 血流成河,
换三张, 刮风下雨, the full 成都计番 table, 点杠花, 查花猪 and 查大叫; 三人两房 at three seats (条 and 筒
only).

Every rule and decision is in docs/rules/sichuan.md (the fan table is the public Chengdu one; its decisions,
裁定 N, are cited by number here).

Money: a hand worth ``fan`` 番 pays 底分 × 2^min(fan, cap). Kong money (刮风下雨) is paid when the kong is
made.

Variant state (``State.extra``): a ``Swapped`` record once 换三张 is done (None before, and without it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from ..actions import Act, KongMode
from ..events import Event, EventKind
from ..hands import all_258, all_pungs
from ..melds import Meld, MeldKind, owned
from ..scoring import base_part, others, pay, payers, refunds, win_settlement
from ..shanten import Shapes
from ..shape import CHOW, decompositions, is_seven_pairs, is_standard, seven_pairs_quads, shanten
from ..state import Op, Part, Payment, SettleKind, Settlement, State, evolve, evolve_seat
from ..tiles import Counts, format_tiles, parse_tiles
from ..variant import Options, OptionSpec, Preset, TilePick, Variant, WinContext, WinInfo, kong_after

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
    # the full Chengdu table (option ``full_fans``)
    "jingoudiao": ("金钩钓", "golden hook (four exposed melds, single wait)"),  # 2 番
    "daiyaojiu": ("带幺九", "terminals in every set"),  # 2 番
    "jiangqidui": ("将七对", "seven pairs of 2-5-8"),  # 4 番
    "qingjingoudiao": ("清金钩钓", "one-suit golden hook"),  # 4 番
    "qingdaiyaojiu": ("清带幺九", "one-suit terminals in every set"),  # 4 番
    "shibaluohan": ("十八罗汉", "eighteen arhats (four kongs)"),  # 6 番
    "qingshibaluohan": ("清十八罗汉", "one-suit eighteen arhats"),  # 8 番
    "menqing": ("门清", "concealed hand"),  # +1 (option ``menqing_zhongzhang``)
    "zhongzhang": ("中张", "no terminals"),  # +1 (option ``menqing_zhongzhang``)
    "tianhu": ("天胡", "heavenly win"),  # paid at the cap (option ``tiandihu``)
    "dihu": ("地胡", "earthly win"),  # paid at the cap (option ``tiandihu``)
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
    "chajiao_none": ("查花猪 / 查大叫：无人要付", "pigs and not-ready hands pay: here nobody has to"),
    # 换三张: the way the dice send the three tiles (VARIANT events), and a seat's own tiles received
    "swap_next": ("换三张：骰子定向，交给下家", "swap three: the dice send the tiles to the next player"),
    "swap_prev": ("换三张：骰子定向，交给上家", "swap three: the dice send the tiles to the previous player"),
    "swap_across": ("换三张：骰子定向，交给对家", "swap three: the dice send the tiles across"),
    "swap_received": ("换三张", "swap three"),  # the title of a seat's own line: what went where
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
    "jingoudiao": 2,
    "daiyaojiu": 2,
    "jiangqidui": 4,
    "qingjingoudiao": 4,
    "qingdaiyaojiu": 4,
    "shibaluohan": 6,
    "qingshibaluohan": 8,
}

XUELIU = "xueliu"  # 血流成河 (option ``mode``)

OPTIONS = (
    # 血战到底: a winner leaves play; 血流成河: he plays on and may win again, the hand ends with the wall
    OptionSpec(
        "mode",
        "xuezhan",
        ("xuezhan", XUELIU),
        "玩法",
        "mode",
        {
            "xuezhan": ("血战到底", "bloody battle (a winner leaves)"),
            XUELIU: ("血流成河", "river of blood (winners play on)"),
        },
    ),
    OptionSpec("swap", False, (False, True), "换三张", "swap three tiles before the void"),
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
    # 点杠花: a win on the replacement of an exposed kong, paid as a self-draw or by the kong's feeder alone
    OptionSpec(
        "dianganghua",
        "zimo",
        ("zimo", "dianpao"),
        "点杠花",
        "win on an exposed kong's replacement",
        {"zimo": ("算自摸", "paid as a self-draw"), "dianpao": ("点杠者付", "paid by the kong's feeder")},
    ),
    OptionSpec(
        "full_fans",
        True,
        (True, False),
        "全番型（金钩钓 带幺九 将七对 十八罗汉）",
        "full fan table (golden hook, terminals, 2-5-8 pairs, arhats)",
    ),
    OptionSpec("menqing_zhongzhang", False, (False, True), "门清中张", "concealed / no terminals +1 fan"),
    OptionSpec("tiandihu", False, (False, True), "天地胡", "heavenly / earthly win (paid at the cap)"),
    OptionSpec("last_four", False, (False, True), "最后四张必胡", "forced win on the last four tiles"),
)

PRESETS = (
    Preset("xuezhan", "血战到底", "Bloody battle", {"mode": "xuezhan", "swap": False}, seats=4),
    Preset("xuezhan_swap", "血战换三张", "Bloody battle, swap three", {"mode": "xuezhan", "swap": True}, 4),
    Preset("xueliu", "血流成河", "River of blood", {"mode": XUELIU, "swap": True}, seats=4),
    Preset("sanren", "三人两房", "Three players, two suits", {"mode": "xuezhan", "swap": False}, seats=3),
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


def _terminal_sets(counts: Counts, melds: tuple[Meld, ...]) -> bool:
    """带幺九: every set and the pair hold a 1 or a 9 — melds are pungs or kongs of 1 or 9, and the concealed
    tiles split into 123 / 789 runs, 1 or 9 pungs and a 1 or 9 pair."""
    if any(m.tile % 9 not in (0, 8) for m in melds):
        return False
    if any(counts[lo + r] for lo in (0, 9, 18) for r in (3, 4, 5)):
        return False  # a 4, 5 or 6 is in no set with a terminal
    return any(
        pair % 9 in (0, 8) and all(t % 9 in ((0, 6) if kind == CHOW else (0, 8)) for kind, t in sets)
        for pair, sets in decompositions(counts)
    )


def _standard_readings(
    counts: Counts, melds: tuple[Meld, ...], one_suit: bool, full: bool, gen: int
) -> list[tuple[str, int]]:
    """The readings of a hand of four sets and a pair: 对对胡 (清对, 将对; 金钩钓, 十八罗汉 with every set
    melded) or 平胡 / 清一色, and 带幺九."""
    readings: list[tuple[str, int]] = []
    if all_pungs(counts, melds):
        name = "qingdui" if one_suit else "jiangdui" if all_258(counts, melds) else "duiduihu"
        readings.append((name, gen))
        if full and len(melds) == 4:  # every set melded: the hand waited on its pair alone (单钓)
            if all(m.is_kong for m in melds):
                readings.append(("qingshibaluohan" if one_suit else "shibaluohan", gen - 4))
            elif all(m.kind != MeldKind.KONG_CONCEALED for m in melds):  # 金钩钓: four exposed melds
                readings.append(("qingjingoudiao" if one_suit else "jingoudiao", gen))
    else:
        readings.append(("qingyise" if one_suit else "pinghu", gen))
    if full and _terminal_sets(counts, melds):
        readings.append(("qingdaiyaojiu" if one_suit else "daiyaojiu", gen))
    return readings


def _seven_pairs_reading(
    counts: Counts, melds: tuple[Meld, ...], one_suit: bool, full: bool, gen: int
) -> tuple[str, int]:
    """A seven-pairs hand's reading: 将七对, 龙七对 (清龙七对; its four is in the fan) or 七对 (清七对)."""
    quads = seven_pairs_quads(counts)
    if full and all_258(counts, melds):
        # two suits hold six kinds of 2/5/8: seven pairs of them always hold a four
        return ("jiangqidui", gen - 1 if quads else gen)
    if quads:
        return ("qinglongqidui" if one_suit else "longqidui", gen - 1)
    return ("qingqidui" if one_suit else "qidui", gen)


def _shape(counts: Counts, melds: tuple[Meld, ...], one_suit: bool, full: bool) -> tuple[str, int] | None:
    """The best reading of a complete hand: (shape name, 根 left to count). 根 = each kind owned four times;
    the four that makes 龙七对 / 将七对 and the four kongs of 十八罗汉 are already in their fan
    (docs/rules/sichuan.md 裁定 9, 裁定 24, 裁定 25: each further four is a 根). ``full``: the full Chengdu
    table (金钩钓, 带幺九, 将七对, 十八罗汉 …). Readings of equal worth: the bigger named hand."""
    gen = sum(1 for n in owned(counts, melds) if n == 4)
    readings = _standard_readings(counts, melds, one_suit, full, gen) if is_standard(counts) else []
    if not melds and is_seven_pairs(counts):
        readings.append(_seven_pairs_reading(counts, melds, one_suit, full, gen))
    if not readings:
        return None
    return max(readings, key=lambda r: (SHAPE_FAN[r[0]] + r[1], SHAPE_FAN[r[0]]))


def _no_terminals(counts: Counts, melds: tuple[Meld, ...]) -> bool:
    """中张: no 1 and no 9 anywhere in the hand or its melds."""
    if any(counts[lo] or counts[lo + 8] for lo in (0, 9, 18)):
        return False
    return all(m.tile % 9 not in (0, 8) for m in melds)


def _feeder_pays(ctx: WinContext) -> bool:
    """点杠花 paid by the kong's feeder (option ``dianganghua``): a self-draw on the replacement of an exposed
    kong, settled as a win on the feeder's discard."""
    return (
        ctx.self_draw
        and ctx.kong_draw is not None
        and ctx.kong_from is not None
        and ctx.options.get("dianganghua", "zimo") == "dianpao"
    )


def evaluate_win(ctx: WinContext) -> WinInfo | None:
    """A winning hand and its fans: big = ((shape, fan), ("gen", roots), extras...).

    docs/rules/sichuan.md §4.2: at most two suits in hand and melds, and no tile of the void suit."""
    c, melds = ctx.counts, ctx.melds
    if sum(c) != 14 - 3 * len(melds):
        return None
    suits = _suits(c, melds)
    void = _void(ctx.choice)
    if len(suits) > 2 or (void is not None and void in suits):
        return None
    opts = ctx.options
    shape = _shape(c, melds, len(suits) == 1, bool(opts.get("full_fans", True)))
    if shape is None:
        return None
    name, gen = shape
    big: list[tuple[str, int]] = [(name, SHAPE_FAN[name])]
    if gen:
        big.append(("gen", gen))
    if opts.get("menqing_zhongzhang", False):
        if all(m.kind == MeldKind.KONG_CONCEALED for m in melds):
            big.append(("menqing", 1))  # 门清: no pung, no exposed or added kong
        if _no_terminals(c, melds):
            big.append(("zhongzhang", 1))
    if ctx.self_draw and ctx.kong_draw:
        big.append(("gangshanghua", 1))  # 杠上花, after a 直杠 too (docs/rules/sichuan.md 裁定 5)
    if not ctx.self_draw and ctx.robbed:
        big.append(("qiangganghu", 1))
    elif not ctx.self_draw and ctx.after_kong:
        big.append(("gangshangpao", 1))
    if ctx.haidi:
        big.append(("haidilaoyue", 1) if ctx.self_draw else ("haidipao", 1))
    if ctx.self_draw and not _feeder_pays(ctx):
        if opts.get("zimo", "jiadi") == "jiafan":
            big.append(("zimo_jiafan", 1))
        else:
            big.append(("zimo_jiadi", 0))
    return WinInfo(tuple(big))


# ---------------------------------------------------------------- 定缺 and play restrictions


def void_choices(state: State, seat: int) -> tuple[str, ...]:
    """定缺 choices, the default (the suit with fewest tiles, ties in the order 万 条 筒) first.

    docs/rules/sichuan.md §2b.3, 裁定 1: with two suits the missing one is the only choice offered; with one
    suit, either of the other two."""
    n = _suit_counts(state.seats[seat].counts)
    missing = [i for i in range(3) if n[i] == 0]
    order = missing if missing else sorted(range(3), key=lambda i: (n[i], i))
    return tuple(SUIT_LETTERS[i] for i in order)


# one-entry cache (seat, the void suit it still holds or None): the core asks once per tile in hand
_held_void: list[tuple[Any, int | None]] = [(None, None)]


def discard_allowed(state: State, seat: int, t: int) -> bool:
    """docs/rules/sichuan.md §2b.4: while a void tile is held, only void tiles may be thrown."""
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
    """No pung or kong of the void suit, own concealed kongs included (docs/rules/sichuan.md §2b.5,
    裁定 2)."""
    return _void(state.seats[seat].choice) != t // 9


def must_win(state: State, seat: int) -> bool:
    """Once the last four wall tiles are being drawn, a player who can win must: a room option
    (``last_four``), off by default (docs/rules/sichuan.md §9.1, 裁定 4)."""
    return bool(state.options.get("last_four", False)) and state.wall.remaining < 4


# ---------------------------------------------------------------- 换三张


@dataclass(frozen=True, slots=True)
class Swapped:
    """``State.extra`` once 换三张 is done: the dice, the seat step the tiles went (1 下家, −1 上家, 2 对家)
    and what each seat passed (hidden: the core never shows ``extra``)."""

    dice: tuple[int, int]
    step: int
    given: tuple[tuple[int, ...], ...]


SWAP_COUNT = 3
SWAP_STAGE = "swap"  # Observation.choice_stage while the seats pick their three tiles (换三张)
_SWAP_NOTE = {1: "swap_next", -1: "swap_prev", 2: "swap_across"}


def swapping(state: State) -> bool:
    """Is this the 换三张 stage (the option is on and the tiles have not passed yet)?"""
    return bool(state.options.get("swap", False)) and not isinstance(state.extra, Swapped)


def swap_step(dice_sum: int, seats: int) -> int:
    """docs/rules/sichuan.md §2.2, §2.3, 裁定 21: sum 2–4 to 下家, 5–8 to 上家, 9–12 across; three seats have
    nobody across: 9–12 pass to 下家 (2–8 as at four)."""
    if dice_sum <= 4 or (dice_sum > 8 and seats == 3):
        return 1
    return -1 if dice_sum <= 8 else 2


@lru_cache(maxsize=2048)
def swap_choices(counts: Counts) -> tuple[str, ...]:
    """Every set of three tiles of one suit this hand can pass (tile notation, ``557m``), the suggested one
    first: from the suit with fewest tiles (at least three; ties 万 条 筒) — the one to do without — the
    three whose loss leaves the best shanten, then the most isolated, terminals first."""
    out: list[tuple[tuple[int, int, float], str]] = []
    sizes = _suit_counts(counts)
    for suit in sorted((i for i in range(3) if sizes[i] >= SWAP_COUNT), key=lambda i: (sizes[i], i)):
        lo = suit * 9
        held = [t for t in range(lo, lo + 9) for _ in range(min(counts[t], SWAP_COUNT))]
        for combo in sorted(set(combinations_with_replacement(sorted(set(held)), SWAP_COUNT))):
            rest = list(counts)
            for t in combo:
                rest[t] -= 1
            if min(rest) < 0:
                continue
            after = shanten(tuple(rest), 1, seven_pairs=False)
            near = sum(rest[x] for t in combo for x in range(max(lo, t - 2), min(lo + 8, t + 2) + 1))
            edge = sum(0.5 for t in combo if t % 9 in (0, 8))
            out.append(((sizes[suit], after, near - edge), format_tiles(combo)))
    return tuple(detail for _, detail in sorted(out, key=lambda x: x[0]))


def swap_tiles(state: State, events: list[Event]) -> State:
    """换三张 (docs/rules/sichuan.md §2): every seat's three tiles pass at once by the dealer's dice; each
    seat is told privately what it received; the choices are cleared for 定缺."""
    n = state.num_seats
    roll = state.dice_rolls
    rng = random.Random(f"{state.variant.id}/{state.seed}/dice/{roll}")
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    step = swap_step(d1 + d2, n)
    given = tuple(tuple(parse_tiles(s.choice or "")) for s in state.seats)
    seats = []
    for i, s in enumerate(state.seats):
        received = given[(i - step) % n]
        c = list(s.counts)
        for t in given[i]:
            c[t] -= 1
        for t in received:
            c[t] += 1
        seats.append(evolve_seat(s, counts=tuple(c), choice=None))
    events.append(Event(EventKind.DICE, state.dealer, dice=(d1, d2)))
    events.append(Event(EventKind.VARIANT, note=_SWAP_NOTE[step]))
    for i in range(n):
        received = given[(i - step) % n]
        events.append(
            Event(
                EventKind.VARIANT,
                i,
                private=True,
                tiles=received,
                note="swap_received",
                from_seat=(i - step) % n,
                to_seat=(i + step) % n,
            )  # fmt: skip
        )
    # the dealer's 14 tiles are mixed with what he received: none of them is "the tile he drew" any more
    # (天胡 stays a win on the dealt tiles)
    return evolve(
        state,
        seats=tuple(seats),
        dice_rolls=roll + 1,
        drawn=None,
        extra=Swapped((d1, d2), step, given),
    )


# ---------------------------------------------------------------- money


def _fan_parts(state: State, fans: list[tuple[str, int]]) -> tuple[Part, ...]:
    """底分 × 2^min(番, 封顶) as parts: each (name, 番) that counts, the cap if it binds, 2^, × 底分."""
    parts = [Part(name, k) for name, k in fans if k] or [Part(fans[0][0], 0)]
    cap = int(state.options["cap"])
    if sum(k for _, k in fans) > cap:
        parts.append(Part("cap", cap, Op.CAP))
    return (*parts, Part("fan", 2, Op.POW), base_part(state))


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


def _heaven_earth(state: State, w: int, ctx: WinContext) -> str | None:
    """天胡 / 地胡 (option ``tiandihu``). 天胡: the dealer wins on his dealt tiles. 地胡
    (docs/rules/sichuan.md 裁定 28) is a non-dealer's win with his first tile — the dealer's first discard, or
    his own first draw — as the hand's first win, before any pung or kong."""
    if not state.options.get("tiandihu", False):
        return None
    if ctx.first_turn and w == state.dealer:
        return "tianhu"
    if w == state.dealer or state.winners or state.claims_made:
        return None
    if ctx.first_discard or (ctx.self_draw and not state.seats[w].discards):
        return "dihu"
    return None


def settle_wins(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Settlement:
    """底分 × 2^fan (capped) from every player still in on a self-draw, from the discarder otherwise (点杠花
    with ``dianganghua`` = dianpao: from the kong's feeder alone). 天胡 / 地胡 are paid at the cap
    (docs/rules/sichuan.md 裁定 28)."""
    base = int(state.options["base"])
    cap = int(state.options["cap"])
    haidi = _haidi(state, ctx)
    payments: list[Payment] = []
    hands: list[tuple[int, tuple[str, ...]]] = []
    for w, info in infos:
        big = list(info.big)
        if haidi is not None and not any(n in _HAIDI for n, _ in big):
            big.append((haidi, 1))
        heaven = _heaven_earth(state, w, ctx)
        if heaven is not None:
            big.insert(0, (heaven, cap))  # worth the cap on its own: 封顶
        parts = _fan_parts(state, big)
        if any(n == "zimo_jiadi" for n, _ in big):
            parts += (Part("zimo_jiadi", base),)  # 自摸加底: 额外收取其他未胡玩家1倍基础分
        if _feeder_pays(ctx):
            assert ctx.kong_from is not None
            paying = [ctx.kong_from]  # 点杠花 (点炮): the seat whose discard was konged, as on a discard
        else:
            paying = payers(state, w, ctx, still_in=True)
        payments += [pay(p, w, parts) for p in paying]
        hands.append((w, _hand_names(big)))
    note = ""
    transfer = _hujiao(state, infos, ctx)
    if transfer is not None:
        payments.append(transfer)
        note = HUJIAO_NOTE
    return win_settlement(state, infos, payments, hands=hands, note=note)


def _hujiao(state: State, infos: tuple[tuple[int, WinInfo], ...], ctx: WinContext) -> Payment | None:
    """呼叫转移 (docs/rules/sichuan.md §8.6, 裁定 7): the konger deals in straight after his kong → that
    kong's money goes to the winner; only the kong just made; with 一炮多响 the first winner in play order
    takes it."""
    if not state.options["hujiao"] or ctx.self_draw or ctx.robbed or not ctx.after_kong:
        return None
    konger = ctx.from_seat
    if konger is None or not state.settlements:
        return None
    last = state.settlements[-1]
    if last.kind != SettleKind.KONG or last.winners != (konger,) or last.deltas[konger] <= 0:
        return None
    return pay(konger, infos[0][0], (Part(f"{HUJIAO_NOTE}:{last.hands[0][1][0]}", last.deltas[konger]),))


def settle_kong(
    state: State, seat: int, tile: int, kind: MeldKind, from_seat: int | None
) -> Settlement | None:
    """刮风下雨 (docs/rules/sichuan.md §8): 直杠 2× from the discarder (家家有: and 1× from every other player
    still in); 面下杠 1× from each player still in; 下雨 (暗杠) 2× from each player still in."""
    still_in = others(state, seat, still_in=True)
    name = KONG_NAME[kind]
    if kind == MeldKind.KONG_EXPOSED:
        assert from_seat is not None
        units = [(from_seat, 2)]
        if state.options["zhigang"] == "jiajiayou":
            units += [(s, 1) for s in still_in if s != from_seat]
    elif kind == MeldKind.KONG_ADDED:
        if tile in state.seats[seat].passed_kongs:
            # a fourth tile kept past a discard (过手杠) may still be konged, for no money
            # (docs/rules/sichuan.md §8.5, 裁定 8)
            return Settlement.from_payments(
                SettleKind.KONG, state.num_seats, (seat,), ((seat, ("guoshougang",)),), (), ()
            )
        units = [(s, 1) for s in still_in]
    else:
        units = [(s, 2) for s in still_in]
    payments = tuple(pay(p, seat, (Part(name, n), base_part(state))) for p, n in units)
    return Settlement.from_payments(
        SettleKind.KONG, state.num_seats, (seat,), ((seat, (name,)),), (), payments
    )


def best_fan(state: State, seat: int) -> int | None:
    """查大叫: the most a ready hand can be worth — its best wait, shape and 根 only (no situational fan, no
    self-draw bonus); None if not ready. A wait that would need a fifth copy is no wait (docs/rules/sichuan.md
    裁定 14)."""
    best = best_ready(state, seat)
    return None if best is None else best[0]


def best_ready(state: State, seat: int) -> tuple[int, tuple[tuple[str, int], ...]] | None:
    """查大叫: a ready hand's best wait as (番, its fans by name), as ``best_fan`` counts it; None if not
    ready."""
    s = state.seats[seat]
    best: tuple[int, tuple[tuple[str, int], ...]] | None = None
    for t in state.variant.live_waits(s.counts, s.melds, state.options, s.choice):
        c = list(s.counts)
        c[t] += 1
        ctx = WinContext(
            seat, state.dealer, tuple(c), s.melds, t, False, options=state.options, choice=s.choice
        )
        info = evaluate_win(ctx)
        if info is not None and (best is None or info.big_count > best[0]):
            best = (info.big_count, tuple(info.big))
    return best


def is_huazhu(state: State, seat: int) -> bool:
    """花猪: still holding tiles of all three suits when the wall runs out (docs/rules/sichuan.md)."""
    s = state.seats[seat]
    return len(_suits(s.counts, s.melds)) == 3


def settle_draw(state: State) -> Settlement | None:
    """The wall is empty with two or more players still in (docs/rules/sichuan.md §12): 查花猪 — a 花猪 pays
    every other non-花猪 player still in the cap; 查大叫 — a player not ready pays every ready player his best
    hand, named fan by fan; 退税 — players not ready (花猪 included) return their kong money. The check is
    shown even when nobody pays (docs/rules/sichuan.md §12.6: everyone ready, or
    nobody). 血流成河: "still in" is every seat that
    has not won this hand (a winner has been paid for his wins and takes no part, as in 血战:
    docs/rules/sichuan.md 裁定 23)."""
    # 血战: the seats still in; 血流成河: the seats that never won
    active = [s for s in range(state.num_seats) if not state.seats[s].won and s not in state.winners]
    huazhu = [s for s in active if is_huazhu(state, s)]
    bests = {s: best_ready(state, s) for s in active if s not in huazhu}
    ready = {s: b for s, b in bests.items() if b is not None}
    unready = [s for s in active if s not in ready]
    payments: list[Payment] = []
    cap_parts = _fan_parts(state, [("huazhu", int(state.options["cap"]))])
    for h in huazhu:
        payments += [pay(h, o, cap_parts) for o in active if o not in huazhu]
    parts = {r: _fan_parts(state, list(big)) for r, (_, big) in ready.items()}
    for x in unready:
        if x in huazhu:
            continue  # the 花猪 has paid the cap already (docs/rules/sichuan.md 裁定 15)
        payments += [pay(x, r, parts[r]) for r in ready]
    returned = _refunds(state, unready)
    payments += returned

    def status(s: int) -> tuple[str, ...]:
        if s in ready:
            return ("youjiao", *_hand_names(list(ready[s][1])))
        return ("huazhu",) if s in huazhu else ("wujiao",)

    if not payments and len(active) < 2:
        return None  # nothing moves and nobody to check against (one seat that never won: 血流成河)
    hands = tuple((s, status(s)) for s in active)  # (seat, (status, *the hand a ready seat is checked for))
    note = "chajiao_tuishui" if returned else "chajiao" if payments else "chajiao_none"
    return Settlement.from_payments(SettleKind.DRAW, state.num_seats, (), hands, (), tuple(payments), note)


def _refunds(state: State, seats: list[int]) -> list[Payment]:
    """退税: every kong payment a not-ready player received goes back to its payer — except a kong whose
    money already went to a winner by 呼叫转移 (docs/rules/sichuan.md 裁定 16)."""
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


# ---------------------------------------------------------------- 血战到底 / 血流成河


def after_win(state: State, winners: tuple[int, ...], ctx: WinContext) -> tuple[State, bool]:
    """血战到底: the winners leave play; the hand goes on while two or more seats are still in.

    血流成河 (docs/rules/sichuan.md §7b, 裁定 22): the winners stay in and may win again; the hand goes on
    until the wall is empty. As the apps do, a winner's hand is locked (it can no longer change): every tile
    he draws that does not win is discarded for him; he claims nothing but wins, and may kong a drawn tile
    only when that leaves his waits as they are. A self-drawn winning tile is laid face up before him (in his
    river), so that he holds his 13 tiles again; a discard won stays in its discarder's river."""
    seats = list(state.seats)
    if state.options.get("mode") != XUELIU:
        for w in winners:
            seats[w] = evolve_seat(seats[w], won=True)
        state = evolve(state, seats=tuple(seats))
        return state, sum(1 for s in state.seats if not s.won) > 1
    for w in winners:
        s = seats[w]
        counts, discards = s.counts, s.discards
        if ctx.self_draw:
            t = ctx.tile if ctx.tile >= 0 else max(range(len(counts)), key=lambda x: counts[x])  # 天胡
            c = list(counts)
            c[t] -= 1
            counts, discards = tuple(c), (*discards, t)
        seats[w] = evolve_seat(s, counts=counts, discards=discards, locked=True)
    return evolve(state, seats=tuple(seats)), True


def locked_kong(variant: Variant, state: State, seat: int, tile: int, kind: MeldKind) -> bool:
    """血流成河: may a winner (locked hand) kong the tile he drew? Only if his waits stay the same."""
    s = state.seats[seat]
    if kind == MeldKind.KONG_EXPOSED or state.drawn != tile:
        return False
    before = list(s.counts)
    before[tile] -= 1
    counts, melds = kong_after(s.counts, s.melds, tile, kind)
    waits = variant.waits(tuple(before), s.melds, state.options, s.choice)
    return bool(waits) and waits == variant.waits(counts, melds, state.options, s.choice)


# ---------------------------------------------------------------- 三人两房

_TWO_SUITS = tuple(t for t in range(9, 27) for _ in range(4))  # 条 and 筒: 72 tiles
_THREE_SUITS = tuple(t for t in range(27) for _ in range(4))


# ---------------------------------------------------------------- the variant


class Sichuan(Variant):
    id = "sichuan"
    name_zh = "四川麻将"
    name_en = "Sichuan"
    seat_counts = (4, 3)  # 三人两房 at three
    option_specs = OPTIONS
    presets = PRESETS
    names = NAMES
    choice_labels = VOID_LABELS
    choice_name = ("定缺", "the void suit (定缺)")
    swap_name = ("换三张的牌", "three tiles to swap (换三张)")
    choice_question = (
        "定缺：选一门这局不要的花色。这门的牌要先打完，胡牌时手里不能有它；第一个按钮是你张数最少的一门。",
        "Void suit (定缺): pick the suit you will do without this hand. Its tiles must be discarded first, "
        "and a winning hand holds none of it; the first button is the suit you hold fewest of.",
    )
    swap_question = (
        "换三张：选同一门花色的三张牌，暗中交给别家（骰子定方向：下家、上家或对家）",
        "Swap three: pick three tiles of one suit to pass face down (the dice say to whom: next, previous "
        "or across)",
    )
    notes = NOTES
    shapes = Shapes(seven_pairs=True)

    def tile_set(self, seats: int, options: Options) -> tuple[int, ...]:
        """108 tiles; 三人两房 (three seats): 条 and 筒 only, 72 tiles."""
        return _TWO_SUITS if seats == 3 else _THREE_SUITS

    def pre_hand(self, state: State, seat: int) -> tuple[str, ...]:
        """换三张 first (option ``swap``), then 定缺 — but for 三人两房: two suits, nothing to void."""
        if swapping(state):
            return swap_choices(state.seats[seat].counts)
        if state.num_seats == 3:
            return ()
        return void_choices(state, seat)

    def choice_stage(self, state: State) -> str | None:
        """换三张 comes before 定缺: everyone knows which of the two the table is making."""
        return SWAP_STAGE if swapping(state) else None

    def choice_title(self, lang: str = "zh", stage: str | None = None) -> str:
        name = self.swap_name if stage == SWAP_STAGE else self.choice_name
        return name[0] if lang == "zh" else name[1]

    def choices_public(self, state: State) -> bool:
        """The 定缺 suits are shown once all have chosen; the three tiles of 换三张 never are."""
        return not swapping(state)

    def after_choices(self, state: State, events: list[Event]) -> State:
        return swap_tiles(state, events) if swapping(state) else state

    def choice_pick(self, offered: Sequence[str]) -> TilePick | None:
        """换三张 is three tiles of the hand (its values name tiles: ``557m``); 定缺 one suit letter."""
        return TilePick(SWAP_COUNT) if offered and len(offered[0]) > 1 else None

    def choice_prompt(self, offered: Sequence[str], lang: str = "zh") -> str | None:
        q = self.swap_question if self.choice_pick(offered) is not None else self.choice_question
        return q[0] if lang == "zh" else q[1]

    def choice_label(self, value: str, lang: str = "zh") -> str:
        if len(value) > 1:  # 换三张: the tiles
            return " ".join(f"{r}{value[-1]}" for r in value[:-1])
        return super().choice_label(value, lang)

    def kong_modes(self, state: State, seat: int, tile: int, kind: MeldKind) -> tuple[KongMode, ...]:
        if not state.seats[seat].locked:
            return (KongMode.PLAIN,)
        return (KongMode.PLAIN,) if locked_kong(self, state, seat, tile, kind) else ()

    def claim_allowed(self, state: State, seat: int, act: Act, tile: int) -> bool:
        """No chow; no pung or kong of the void suit, own concealed kongs included (docs/rules/sichuan.md
        §3.1, §2b.5)."""
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
        return after_win(state, winners, ctx)

    def next_dealer(self, state: State, ctx: WinContext | None) -> int:
        """The first to win deals next; if the first win was 一炮多响, the discarder; if nobody won, the
        dealer stays (docs/rules/sichuan.md §13, 裁定 18)."""
        first = next((s for s in state.settlements if s.kind == SettleKind.WIN), None)
        if first is None:
            return state.dealer
        if len(first.winners) > 1:
            return first.payments[0].payer
        return first.winners[0]


VARIANT = SICHUAN = Sichuan()
