"""Scoring parts every variant shares: who pays a win, birds (扎鸟 / 抓码) and their hits, kong money,
refunds, and the arithmetic of a payment (``pay``: the amount made from its parts, so what players read is
what they pay).

One copy, so "self-draw: everyone pays, else the discarder" or "a bird hits the winner or the payer" means
the same thing in every variant that uses it; a variant's own rule (its amounts, its multipliers) stays in
its file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .melds import MeldKind
from .state import Op, Part, Payment, SettleKind, Settlement, State, evaluate
from .variant import WinContext, WinInfo

# The common names of kong money (a variant may name its own)
KONG_NAMES: dict[MeldKind, str] = {
    MeldKind.KONG_CONCEALED: "angang",  # 暗杠
    MeldKind.KONG_ADDED: "bugang",  # 补杠
    MeldKind.KONG_EXPOSED: "zhigang",  # 直杠 / 放杠
}


# ------------------------------------------------------------------ the arithmetic of a payment


def pay(payer: int, payee: int, parts: Iterable[Part], hits: int = 0) -> Payment:
    """A payment whose amount is what its ``parts`` come to (``state.evaluate``)."""
    steps = tuple(parts)
    return Payment(payer, payee, evaluate(steps), hits, steps)


def base_part(state: State) -> Part:
    """× 底分 (option ``base``)."""
    return Part("base", int(state.options["base"]), Op.MUL)


def doubling_birds(hits: int) -> tuple[Part, ...]:
    """Birds that double a payment, each hit again: × 2^hits (none without a hit)."""
    return (Part("birds", 2**hits, Op.MUL, hits),) if hits else ()


# ------------------------------------------------------------------ who pays


def others(state: State, seat: int, still_in: bool = False) -> list[int]:
    """Every other seat (``still_in``: only those that have not won and left, 血战)."""
    return [p for p in range(state.num_seats) if p != seat and not (still_in and state.seats[p].won)]


def payers(state: State, winner: int, ctx: WinContext, still_in: bool = False) -> list[int]:
    """Who pays a win: on a self-draw every other seat; otherwise the discarder alone (the robbed konger,
    the haidi taker)."""
    if ctx.self_draw:
        return others(state, winner, still_in)
    assert ctx.from_seat is not None
    return [ctx.from_seat]


def payer_shares(
    state: State, winner: int, ctx: WinContext, robbed_pays_all: bool = False, feeder_pays_all: bool = False
) -> list[tuple[int, int]]:
    """(payer, shares) of a win. ``robbed_pays_all``: 抢杠胡 is paid as a self-draw by the robbed konger
    alone, for all the others (包三家). ``feeder_pays_all``: 杠开 after an exposed kong is paid by the seat
    whose discard was konged (点杠), for all the others."""
    n_others = state.num_seats - 1
    if ctx.robbed and robbed_pays_all:
        assert ctx.from_seat is not None
        return [(ctx.from_seat, n_others)]
    if feeder_pays_all and ctx.self_draw and ctx.kong_draw and ctx.kong_from not in (None, winner):
        assert ctx.kong_from is not None
        return [(ctx.kong_from, n_others)]
    return [(p, 1) for p in payers(state, winner, ctx)]


# ------------------------------------------------------------------ birds


def bird_tiles(state: State, haidi_tile: int | None) -> tuple[int, ...]:
    """扎鸟: the room's number of birds (option ``birds``) from the front of the wall (fewer if it is short);
    a haidi win uses the haidi tile as the only bird (海底胡，以海底牌为鸟)."""
    n = state.options["birds"]
    if n == 0:
        return ()
    if haidi_tile is not None:
        return (haidi_tile,)
    return state.wall.peek_front(n)


def bird_target(state: State, tile: int, origin: int) -> int:
    """扎鸟: rank r points at seat ((r−1) mod n) counted in play order from ``origin`` (1/5/9 origin,
    2/6 下家,     3/7 对家, 4/8 上家 at four seats)."""
    n = state.num_seats
    return (origin + (tile % 9) % n) % n


def bird_hits(targets: Iterable[int | None], winner: int, payer: int) -> int:
    """Birds that count on a payment: those on the winner or on the payer (on a discard win the payer is the
    discarder)."""
    return sum(1 for t in targets if t is not None and (t == winner or t == payer))


# ------------------------------------------------------------------ settlements


def win_settlement(
    state: State,
    infos: Sequence[tuple[int, WinInfo]] | None,
    payments: Iterable[Payment],
    birds: tuple[int, ...] = (),
    hands: Sequence[tuple[int, tuple[str, ...]]] | None = None,
    note: str = "",
    bird_seats: tuple[int | None, ...] = (),
    winners: tuple[int, ...] | None = None,
) -> Settlement:
    """A win's settlement: winners and hand names from ``infos`` (big hands repeated by count) unless
    ``hands`` is given."""
    if hands is None:
        assert infos is not None
        hands = [(w, hand_names(info)) for w, info in infos]
    if winners is None:
        assert infos is not None
        winners = tuple(w for w, _ in infos)
    return Settlement.from_payments(
        SettleKind.WIN, state.num_seats, winners, tuple(hands), birds, tuple(payments), note, bird_seats
    )


def hand_names(info: WinInfo) -> tuple[str, ...]:
    """Big-hand names repeated by their count (豪华七小对 counts 2), else the small-hand names."""
    if info.big:
        return tuple(name for name, k in info.big for _ in range(k))
    return info.small


def kong_payments(
    state: State,
    seat: int,
    kind: MeldKind,
    from_seat: int | None,
    concealed: int,
    added: int,
    exposed: int,
    still_in: bool = False,
    name: str | None = None,
) -> list[Payment]:
    """Kong money × 底分 (option ``base``), paid when the kong is made: a concealed kong — each other seat
    pays ``concealed``; an added kong — each pays ``added``; an exposed kong — the discarder pays
    ``exposed``. ``name``: the kong's id in the payment's parts (default: the common name)."""
    label = name or KONG_NAMES[kind]
    if kind == MeldKind.KONG_EXPOSED:
        assert from_seat is not None
        return [pay(from_seat, seat, (Part(label, exposed), base_part(state)))]
    units = concealed if kind == MeldKind.KONG_CONCEALED else added
    return [pay(p, seat, (Part(label, units), base_part(state))) for p in others(state, seat, still_in)]


def kong_settlement(state: State, seat: int, name: str, payments: Iterable[Payment]) -> Settlement:
    return Settlement.from_payments(
        SettleKind.KONG, state.num_seats, (seat,), ((seat, (name,)),), (), tuple(payments)
    )


def standard_kong_money(state: State, seat: int, kind: MeldKind, from_seat: int | None) -> Settlement:
    """The common kong money (Hengyang, Shaoyang; 转转 / 红中): 暗杠 2 from each other player, 补杠 1 from
    each,
    直杠 3 from the discarder, × 底分; no birds, no dealer extra."""
    payments = kong_payments(state, seat, kind, from_seat, concealed=2, added=1, exposed=3)
    return kong_settlement(state, seat, KONG_NAMES[kind], payments)


def refunds(settlements: Iterable[Settlement], label: str = "refund") -> list[Payment]:
    """Every payment of ``settlements`` paid back (退税, 流局不算杠); its part is ``label:<what>``, what being
    the returned settlement's first hand id (the kong), which ``Variant.part_name`` names."""
    out = []
    for st in settlements:
        what = st.hands[0][1][0] if st.hands and st.hands[0][1] else ""
        for p in st.payments:
            out.append(pay(p.payee, p.payer, (Part(f"{label}:{what}" if what else label, p.amount),)))
    return out


__all__ = [
    "KONG_NAMES",
    "base_part",
    "bird_hits",
    "bird_target",
    "bird_tiles",
    "doubling_birds",
    "hand_names",
    "kong_payments",
    "kong_settlement",
    "others",
    "pay",
    "payer_shares",
    "payers",
    "refunds",
    "standard_kong_money",
    "win_settlement",
]
