"""What each seat did in a finished hand: 胡, 自摸, 点炮, 杠, its best hand and what it brought. These facts
feed ``seat_stats`` (/stats, the room's 大结算) and the ratings.

They are gathered as the hand is played (``Facts.after`` on every applied action: the bot does it as it
commits an action, a restart as it replays the log), so finishing a hand costs no second replay; a hand
finished without them (before schema v6, or imported) is replayed once by ``seat_facts``.

Definitions (docs/stats.md):

* 胡 win: the seat won in the hand (once: 血战 winners leave; 一炮多响 counts each winner once).
* 自摸 self-draw: it won on a tile it drew itself (its turn, the last tile it took, or its dealt tiles).
* 点炮 deal-in: its discard, its kong robbed (抢杠) or the last tile it showed (海底炮) was won on; a tile
  that several seats win on at once counts once.
* 杠 kong: kongs it made (a robbed kong is not one).
* best hand: the hand names of its win, and what that win's settlement gave it.

They also keep how each win so far was made (``Facts.ways``: 自摸, or whose tile, and how it was claimed),
which the result names and the observation does not say.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import engine
from engine import Act, EventKind, Phase, SettleKind

SELF_DRAWN = "self"  # a win on the winner's own tile (his draw, the last tile he took, his dealt tiles)
# how a win was made: (winner, a claim kind's value or SELF_DRAWN, the seat whose tile it was or None)
WinWay = tuple[int, str, int | None]


def win_way(before: engine.State, action: engine.Action) -> WinWay | None:
    """How ``action`` (applied to ``before``) wins, if it is a win: on another seat's tile (a claim window:
    its kind and whose tile), else self-drawn."""
    if action.act != Act.WIN:
        return None
    claim = before.claim
    if before.phase == Phase.CLAIM and claim is not None and claim.from_seat != action.seat:
        return (action.seat, claim.kind.value, claim.from_seat)
    return (action.seat, SELF_DRAWN, None)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    seat: int
    win: bool
    self_draw: bool
    deal_ins: int
    kongs: int
    best: tuple[str, ...]
    best_value: int | None


@dataclass(frozen=True, slots=True)
class Facts:
    """The facts of a hand so far (immutable: ``after`` gives the next, so a refused write loses nothing)."""

    wins: frozenset[int] = frozenset()
    self_draws: frozenset[int] = frozenset()
    fed: frozenset[tuple[int, int, int]] = frozenset()  # (seat, discards made, wall left) per tile won on
    kongs: tuple[int, ...] = (0, 0, 0, 0)
    ways: tuple[WinWay, ...] = ()  # how each win so far was made, in order

    def after(self, before: engine.State, action: engine.Action, events: Sequence[engine.Event]) -> Facts:
        """The facts once ``action`` (applied to ``before``, giving ``events``) has happened."""
        out = self
        way = win_way(before, action)
        if way is not None:
            out = replace(out, ways=(*out.ways, way))
        if action.act == Act.WIN:
            if before.phase == Phase.CLAIM and before.claim is not None:
                key = (before.claim.from_seat, before.discards_made, before.wall.remaining)
                out = replace(out, wins=out.wins | {action.seat}, fed=out.fed | {key})
            else:
                out = replace(out, wins=out.wins | {action.seat}, self_draws=out.self_draws | {action.seat})
        made = [ev.seat for ev in events if ev.kind == EventKind.KONG and ev.seat is not None]
        if made:
            kongs = list(out.kongs)
            for seat in made:
                kongs[seat] += 1
            out = replace(out, kongs=tuple(kongs))
        return out

    def seats(self, final: engine.State) -> list[SeatFacts]:
        """Every seat's facts, with its best win read off the final state's settlements."""
        n = final.num_seats
        best: list[tuple[str, ...]] = [()] * n
        value: list[int | None] = [None] * n
        for st in final.settlements:
            if st.kind != SettleKind.WIN:
                continue
            names = dict(st.hands)
            for w in st.winners:
                current = value[w]
                if current is None or st.deltas[w] > current:
                    value[w] = st.deltas[w]
                    best[w] = tuple(names.get(w, ()))
        return [
            SeatFacts(
                s,
                s in self.wins,
                s in self.self_draws,
                sum(1 for f in self.fed if f[0] == s),
                self.kongs[s],
                best[s],
                value[s],
            )
            for s in range(n)
        ]


def seat_facts(start: engine.State, actions: Iterable[engine.Action]) -> tuple[engine.State, list[SeatFacts]]:
    """Replay ``actions`` from the dealt ``start``; returns the final state and each seat's facts."""
    facts = Facts()
    state = start
    for action in actions:
        before = state
        state, events = engine.apply(before, action)
        facts = facts.after(before, action, events)
    return state, facts.seats(state)
