"""What each seat did in a finished hand, read off its replay: 胡, 自摸, 点炮, 杠, its best hand and what it
brought. These facts feed ``seat_stats`` (/stats, the room's 大结算) and the ratings; they are derived from
the action log (the source of truth), never kept in memory by the bot.

Definitions (docs/stats.md):

* 胡 win: the seat won in the hand (once: 血战 winners leave; 一炮多响 counts each winner once).
* 自摸 self-draw: it won on a tile it drew itself (its turn, the last tile it took, or its dealt tiles).
* 点炮 deal-in: its discard, its kong robbed (抢杠) or the last tile it showed (海底炮) was won on; a tile
  that several seats win on at once counts once.
* 杠 kong: kongs it made (a robbed kong is not one).
* best hand: the hand names of its win, and what that win's settlement gave it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import engine
from engine import Act, EventKind, Phase, SettleKind


@dataclass(frozen=True, slots=True)
class SeatFacts:
    seat: int
    win: bool
    self_draw: bool
    deal_ins: int
    kongs: int
    best: tuple[str, ...]
    best_value: int | None


def seat_facts(start: engine.State, actions: Iterable[engine.Action]) -> tuple[engine.State, list[SeatFacts]]:
    """Replay ``actions`` from the dealt ``start``; returns the final state and each seat's facts."""
    n = start.num_seats
    wins = [False] * n
    self_draw = [False] * n
    fed: list[set[tuple[int, int]]] = [set() for _ in range(n)]  # (discards made, wall left) per tile
    kongs = [0] * n
    state = start
    for action in actions:
        before = state
        state, events = engine.apply(before, action)
        if action.act == Act.WIN:
            wins[action.seat] = True
            if before.phase == Phase.CLAIM and before.claim is not None:
                feeder = before.claim.from_seat
                fed[feeder].add((before.discards_made, before.wall.remaining))
            else:
                self_draw[action.seat] = True
        for ev in events:
            if ev.kind == EventKind.KONG and ev.seat is not None:
                kongs[ev.seat] += 1
    best: list[tuple[str, ...]] = [()] * n
    value: list[int | None] = [None] * n
    for st in state.settlements:
        if st.kind != SettleKind.WIN:
            continue
        names = dict(st.hands)
        for w in st.winners:
            if value[w] is None or st.deltas[w] > (value[w] or 0):
                value[w] = st.deltas[w]
                best[w] = tuple(names.get(w, ()))
    facts = [
        SeatFacts(s, wins[s], self_draw[s], len(fed[s]), kongs[s], best[s], value[s]) for s in range(n)
    ]
    return state, facts
