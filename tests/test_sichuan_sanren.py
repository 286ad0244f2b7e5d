"""三人两房 (docs/rules/sichuan.md §1.4): 3 players, 条 and 筒 only (72 tiles), no 定缺; everything else as 4
players — payments and 查叫 for three. A table picks it by its seat count (the "三人两房" preset sets it).

The junk hands hold both suits, no pair and are not ready: they only pass and throw what they draw."""

from __future__ import annotations

from collections import Counter

from engine import Act, Phase, legal_actions, new_hand, parse_tiles

from . import dealing
from .dealing import act, discard, flows, hand_names, last_settlement, paid, play_to_end, settlements
from .sichuan_helpers import SC

JA = "12345678s12457p"
JB = "12345678s12467p"
JC = "23456789s23568p"
READY = "123s456s789s23p55p"  # 平胡, waits 1p/4p
DUIDUI = "999s333p888p999p4p"  # 对对胡, waits 4p


def deal3(hands: list[str], **kw: object):  # type: ignore[no-untyped-def]
    return dealing.deal(SC, hands, **kw)


def test_three_players_72_tiles_of_two_suits() -> None:
    """docs/rules/sichuan.md §1.4: 三人两房, 3 players, 条 and 筒 only, 72 tiles."""
    state = new_hand(SC, 4, seats=3)
    assert state.num_seats == 3 and len(state.wall.tiles) == 72
    assert Counter(state.wall.tiles) == Counter(parse_tiles("123456789s123456789p" * 4))
    assert sum(sum(s.counts) for s in state.seats) == 40 and state.wall.remaining == 32
    assert 3 in SC.seat_counts and new_hand(SC, 4).num_seats == 4  # four unless the table says three


def test_no_dingque_the_dealer_plays_at_once() -> None:
    """docs/rules/sichuan.md §1.4: no 定缺 — two suits leave nothing to do without: the dealer's first discard
    is the first decision, and a hand of both suits wins."""
    state = new_hand(SC, 4, seats=3)
    assert state.phase == Phase.TURN and state.current == state.dealer
    assert all(a.act != Act.CHOOSE for a in legal_actions(state, state.dealer))
    assert all(s.choice is None for s in state.seats)


def test_a_discard_win_the_discarder_pays() -> None:
    """docs/rules/sichuan.md §6.2: the discarder pays — 平胡 on the dealer's 4p: 1."""
    state = deal3([JA + "4p", READY, JB])
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.WIN)
    assert flows(last_settlement(state)) == {(0, 1, 1)}
    assert state.phase == Phase.TURN and state.current == 2  # 血战: the two others play on


def test_a_self_draw_is_paid_by_the_two_others() -> None:
    """docs/rules/sichuan.md §1.4, §6.2: payments among the three — a self-draw is paid by each other player
    still in, two of them: 对对胡 2 + 1 自摸加底 each."""
    state = deal3([JA + "3s", DUIDUI, JB], draws="4p")
    state = discard(state, 0, "3s")
    state = act(state, 1, Act.WIN)
    settlement = last_settlement(state)
    assert hand_names(settlement, 1) == ["duiduihu", "zimo_jiadi"]
    assert paid(settlement) == {0: 3, 2: 3}


def test_the_hand_ends_when_two_have_won() -> None:
    """docs/rules/sichuan.md §1.4, §7.3: 血战到底 for three — the hand goes on until all but one have won."""
    state = deal3([JA + "4p", READY, DUIDUI])
    state = act(state, 0, Act.DISCARD, "4p")
    state = act(state, 1, Act.WIN)
    state = act(state, 2, Act.WIN)
    assert state.phase == Phase.ENDED and state.result is not None
    assert state.result.winners == (1, 2)
    assert flows(last_settlement(state)) == {(0, 1, 1), (0, 2, 2)}


def test_chajiao_for_three() -> None:
    """docs/rules/sichuan.md §1.4, §12.3: 查叫 among the three — at the end of the wall the unready seats 0
    and 2 each pay the ready seat 1 his 平胡 (1); nobody can be a 花猪 with two suits."""
    state = deal3([JA + "3s", READY, JC])
    state = play_to_end(discard(state, 0, "3s"))
    (draw,) = settlements(state, "draw")
    assert flows(draw) == {(0, 1, 1), (2, 1, 1)}
    assert "huazhu" not in {n for _, names in draw.hands for n in names}


def test_the_sanren_preset_sets_three_seats() -> None:
    """The "三人两房" preset is a seat count: 3."""
    preset = next(p for p in SC.presets if p.id == "sanren")
    assert preset.seats == 3 and preset.label("zh") == "三人两房"
    assert SC.preset_of(SC.make_options(preset.options), 3) == preset
