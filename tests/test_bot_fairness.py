"""The uniform claim pause (docs/security.md): the group must not be able to tell that someone may
claim. Before, "waiting for answers to X's tile" appeared only when a human could claim (AI seats answer
at once). Now after every discard, and every kong that may be robbed (抢杠), every chat shows the same thing
for the same time - the room's pause - whether or not anyone may claim.

* The pause view is built from the state before the moment and the public moment alone; where the engine
  does open a claim window it is exactly what the engine's own view of that window shows (so a claim that
  outlasts the pause changes nothing anyone sees): checked over AI playouts of every variant.
* End to end: after every discard the group shows the pause line, the table's timer is the pause's end,
  nothing moves before it (the injected clock; the timer is run by hand, nothing sleeps), and a
  claim decision of a human opens at once while everyone else waits.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from bot import ai
from bot.table.play import claim_moment, moment_event
from bot.table.present import paused_observation
from bot.text import views
from engine import Phase

from .bot_support import Clock, bot_running, lobby_message, open_table, service
from .changsha_helpers import rob_deal
from .fake_telegram import FakeMessage, FakeTelegramServer

NAMES = ["East", "South", "West", "North"]


def _group_text(obs: engine.Observation, recent: list[engine.Event]) -> str:
    return views.group_table_text(obs, "en", NAMES[: len(obs.seats)], 1, 1, recent, [])


def _panel_text(obs: engine.Observation) -> str:
    return views.panel_text(obs, "en", NAMES[: len(obs.seats)], "header", None, False)


def _same_as_the_window(before: engine.State, action: engine.Action) -> engine.State:
    """Assert that the pause view of ``action`` is what the engine's claim window on it shows."""
    moment = claim_moment(before, action)
    assert moment is not None
    state, _ = engine.apply(before, action)
    assert state.phase == Phase.CLAIM and state.claim is not None and state.claim.kind == moment.kind
    recent = [moment_event(moment)]
    paused = paused_observation(engine.observe_public(before), moment)
    assert _group_text(paused, recent) == _group_text(engine.observe_public(state), recent)
    for s in range(before.num_seats):
        real = engine.observe(state, s)
        if not real.legal:  # whoever may not claim sees just what the window shows him
            assert _panel_text(paused_observation(engine.observe(before, s), moment)) == _panel_text(real)
    return state


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
def test_the_pause_view_is_the_engines_claim_window(variant: str) -> None:
    rs = engine.get_variant(variant)
    seen = {"discard": [0, 0], "rob": [0, 0]}  # kind -> [moments with a claim window, without]
    for seed in range(4):
        state = engine.new_hand(rs, seed)
        rng = random.Random(seed)
        while state.phase != Phase.ENDED:
            seat = engine.to_act(state)[0]
            action = ai.choose(engine.observe(state, seat), rng, ai.BASELINE_LEVEL)
            before = state
            state, _ = engine.apply(before, action)
            moment = claim_moment(before, action)
            if moment is None:
                continue
            window = (
                state.phase == Phase.CLAIM and state.claim is not None and state.claim.kind == moment.kind
            )
            seen[moment.kind][0 if window else 1] += 1
            paused = paused_observation(engine.observe_public(before), moment)
            assert paused.legal == () and paused.phase == Phase.CLAIM
            if window:
                _same_as_the_window(before, action)
    assert seen["discard"][0] and seen["discard"][1], seen


def test_the_rob_window_pause_view() -> None:
    """抢杠: seat 1 adds the fourth 1m to its pung and seat 2 may rob it (tests/test_changsha_kong.py)."""
    before = rob_deal()
    state = _same_as_the_window(before, engine.Action(1, engine.Act.KONG, engine.parse_tile("1m"), "bu"))
    assert engine.to_act(state) == (2,)


def test_only_the_rules_decide_a_moment() -> None:
    """A discard is always a moment; a kong only where the variant lets others rob that kind of kong."""
    cs, hy = engine.get_variant("changsha"), engine.get_variant("hengyang")
    for rs in (cs, hy):
        state = engine.new_hand(rs, 5)
        added, concealed = engine.MeldKind.KONG_ADDED, engine.MeldKind.KONG_CONCEALED
        assert (rs.robbable(state, added), rs.robbable(state, concealed)) == (rs is cs, False)
        while state.phase != Phase.TURN:
            state, _ = engine.apply(state, engine.legal_actions(state, engine.to_act(state)[0])[-1])
        discard = next(a for a in engine.legal_actions(state, state.current) if a.act == engine.Act.DISCARD)
        moment = claim_moment(state, discard)
        assert moment is not None and (moment.kind, moment.seat, moment.tile) == (
            "discard",
            discard.seat,
            discard.tile,
        )


@pytest.mark.parametrize(
    ("variant", "seed", "kind"),
    [
        ("xiangyin", 30, engine.EventKind.KONG_TILES),  # 开杠: two tiles turned up
        ("hengyang", 162, engine.EventKind.KONG_TILES),
        ("changsha", 147, engine.EventKind.HAIDI_TAKE),  # 海底: the last tile taken
    ],
)
def test_windows_opened_by_public_events_pause_the_same_whoever_can_decide(
    variant: str, seed: int, kind: engine.EventKind
) -> None:
    """The uniform pause covers 开杠's turned-up tiles and the 海底 windows too: the moment comes from
    the public events alone; during it every chat shows the table as it was before, with those events as
    the latest moves - nothing that depends on whether someone (a human) may now decide. The seeds were found
    with the baseline AI level, which plays the hand."""
    state = engine.new_hand(engine.get_variant(variant), seed)
    rng = random.Random(seed)
    while state.phase != Phase.ENDED:
        action = ai.choose(engine.observe(state, engine.to_act(state)[0]), rng, ai.BASELINE_LEVEL)
        before = state
        state, events = engine.apply(before, action)
        if any(e.kind == kind for e in events):
            break
    else:
        raise AssertionError("the seeded hand has no such moment: pick another seed")
    moment = claim_moment(before, action, events)
    assert moment is not None and moment.shown and moment.shown[-1].kind == kind
    assert all(e.tiles == e.public().tiles for e in moment.shown)  # nothing private in the recent line
    public = engine.observe_public(before)
    paused = paused_observation(public, moment)
    assert paused.legal == () and paused.to_act == ()
    recent = list(moment.shown)
    assert _group_text(paused, recent) == _group_text(dataclasses.replace(public, to_act=()), recent)
    line = views.event_lines(moment.shown, "en", NAMES, variant)[-1]
    assert ("turned up" if kind == engine.EventKind.KONG_TILES else "took the last tile") in line


# ------------------------------------------------------------------ end to end


PAUSE = 3


async def _settle(app: Any, tg: FakeTelegramServer) -> None:
    await app.bot_data["outbox"].drain(5)
    await tg.wait_idle(quiet=0.02)
    await app.bot_data["outbox"].drain(5)


async def _press_and_wait(tg: FakeTelegramServer, user: Any, message: Any, data: str) -> None:
    query = tg.press(user, user.id, message.message_id, data)
    await tg.wait_for(lambda _: query.answered)


async def _run_timer(app: Any, tid: int) -> None:
    timers = app.bot_data["timers"]
    if timers.deadline(tid) is not None:
        await timers.run_now(tid)


async def test_every_discard_pauses_the_same_whether_or_not_anyone_may_claim(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=5, claim_pause=PAUSE) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        assert rt.settings.pause_s == PAUSE
        await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
        lobby = await lobby_message(tg, group, tid)
        assert f"pauses {PAUSE}s for claims" in (lobby.text or "")
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        seat = rt.seats.index(alice.id)

        def table_text() -> str:
            m = next(m for m in reversed(tg.bot_messages(group)) if f"table #{tid} · hand" in (m.text or ""))
            return m.text or ""

        def alice_panel() -> Any:
            return next(
                m for m in reversed(tg.bot_messages(alice)) if f"table #{tid} · hand" in (m.text or "")
            )

        pauses = {True: 0, False: 0}  # by whether Alice had a claim decision in it
        outlasted = 0
        while not (pauses[True] >= 3 and pauses[False] >= 3 and outlasted >= 1):
            assert sum(pauses.values()) < 60, (pauses, outlasted)
            await _settle(app, tg)
            assert rt.state is not None, "the hand ended early: pick another seed_base"
            if (
                rt.live.pause is None
            ):  # Alice's turn (or an opening choice): she plays, which may start a pause
                assert set(rt.live.pending) == {seat}
                message = alice_panel()
                data = [d for d in message.callback_data if d.startswith("g|")]
                await _press_and_wait(tg, alice, message, data[-1])
                continue
            pause = rt.live.pause
            m = pause.moment
            text = table_text()
            tile = engine.tile_str(m.tile)
            assert "waiting for answers to" in text and tile in text, text
            # the table wakes at the pause's end, claim or not (a claim's own deadline is later)
            assert pause.until == clock.now + PAUSE
            assert svc.timers.deadline(tid) == pytest.approx(pause.until)  # type: ignore[attr-defined]
            claim = seat in rt.live.pending
            pauses[claim] += 1
            state = rt.state
            if not claim:
                assert "Waiting for the other players" in (alice_panel().text or "")
                assert not _moves(alice_panel())  # only 托管 on her panel
            # before the pause ends nothing moves, whatever the timer does
            clock.now = pause.until - 0.5
            await _run_timer(app, tid)
            await _settle(app, tg)
            assert rt.state is state and table_text() == text
            answered = claim and pauses[True] % 2 == 0
            if answered:  # she answers within the pause: still nothing moves
                message = alice_panel()
                await _press_and_wait(tg, alice, message, _moves(message)[-1])
                await _settle(app, tg)
                assert table_text() == text
            clock.now = pause.until
            await _run_timer(app, tid)
            await _settle(app, tg)
            if claim and not answered:  # she outlasts the pause: the table shows just the same
                assert rt.state.phase == Phase.CLAIM and seat in rt.live.pending
                outlasted += 1
                assert table_text() == text
                message = alice_panel()
                await _press_and_wait(tg, alice, message, _moves(message)[-1])
        assert pauses[True] >= 3 and pauses[False] >= 3 and outlasted >= 1


def _moves(message: FakeMessage) -> list[str]:
    """A panel's game buttons (its last row is 托管)."""
    return [d for d in message.callback_data if d.startswith("g|")]
