"""Turn timers: ten seconds before a deadline the player's panel warns him (one edit); on a timeout the bot
plays for him and his panel says what it played; after two in a row the seat is on auto-play until "I'm
back". The clock is injected and the timer is run by hand: no test waits 30 seconds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.table.play import timeout_action
from bot.text.texts import t
from bot.text.views import WARN_AT
from engine import Act, Phase, get_variant, new_hand, observe

from .bot_support import (
    Clock,
    Player,
    bot_running,
    hand_over,
    lobby_message,
    open_table,
    play_hand,
    quiet,
    run_timer,
    service,
)
from .fake_telegram import FakeTelegramServer, FakeUser


async def _answer_others(players: list[Player], rt: Any, tg: FakeTelegramServer, alone: FakeUser) -> None:
    """Let the other players answer until only ``alone`` has a pending decision."""
    seat = rt.seats.index(alone.id)
    while True:
        await tg.wait_idle()
        if set(rt.live.pending) == {seat}:
            return
        for p in players:
            d = p.decision()
            if d is not None and p.user is not alone:
                p.press(d[0], d[1][0])
        await tg.wait_for(
            lambda _: (
                any(p.decision() for p in players if p.user is not alone) or set(rt.live.pending) == {seat}
            )
        )


async def test_timeouts_auto_play_and_im_back(tg: FakeTelegramServer, tmp_path: Path) -> None:
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=5) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid, "j")
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: bob.id in rt.seats)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        pa, pb = Player(tg, alice, tid), Player(tg, bob, tid)
        seat = rt.seats.index(alice.id)

        for n in (1, 2):
            await _answer_others([pa, pb], rt, tg, alice)
            await quiet(app, tg)
            sent = len(tg.bot_messages(alice))
            version = rt.state.version  # type: ignore[union-attr]
            limit = rt.settings.claim_s if rt.state.phase == Phase.CLAIM else rt.settings.discard_s  # type: ignore[union-attr]
            p = rt.live.pending[seat]
            assert p.deadline == pytest.approx(clock.now + limit, abs=limit)
            panel = next(m for m in reversed(tg.bot_messages(alice)) if m.callback_data)
            assert "⏱" in (panel.text or "") and "s left (of " in (panel.text or "")  # the time left is shown
            # ten seconds before the deadline: one warning, an edit of the panel
            assert svc.timers.deadline(tid) == p.deadline - WARN_AT  # type: ignore[attr-defined]
            await run_timer(app, svc, clock, tid)
            await quiet(app, tg)
            assert rt.state.version == version and rt.live.pending[seat].warned  # type: ignore[union-attr]
            assert f"⏰ Only {WARN_AT}s left!" in (panel.text or "")
            assert svc.timers.deadline(tid) == p.deadline  # type: ignore[attr-defined]
            await run_timer(app, svc, clock, tid)
            assert rt.state is None or rt.state.version > version  # the bot played for her
            assert rt.live.timeouts.get(seat) == n or rt.state is None
            await quiet(app, tg)
            # she is told on her panel, in the second person; no new message
            assert "Your time ran out; the bot played for you:" in (panel.text or "")
            assert len(tg.bot_messages(alice)) == sent
            assert rt.state is not None, "the hand ended during the timeouts: pick another seed_base"

        assert seat in rt.live.auto
        await tg.wait_for(lambda _: any("auto-play" in (m.text or "") for m in tg.bot_messages(group)))
        panel = next(m for m in reversed(tg.bot_messages(alice)) if f"b|{tid}" in m.callback_data)
        assert "auto-play" in (panel.text or "")
        # while on auto-play she is never asked: Bob plays, Alice's seat moves by itself
        for _ in range(3):
            d = await pb.wait_decision(lambda: rt.state is None)
            if d is None:
                break
            pb.press(d[0], d[1][0])
            await tg.wait_idle()
            assert seat not in rt.live.pending
        assert rt.state is not None, "the hand ended while she was away: pick another seed_base"
        q = tg.press(alice, alice.id, panel.message_id, f"b|{tid}")
        await tg.wait_for(lambda _: q.answered)
        assert q.text == "Welcome back!"
        assert seat not in rt.live.auto and rt.live.timeouts[seat] == 0
        q2 = tg.press(alice, alice.id, panel.message_id, f"b|{tid}", check=False)
        await tg.wait_for(lambda _: q2.answered)
        assert q2.text == "You're not on auto-play"
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        assert await play_hand([pa, pb], done) >= 0
        assert pa.presses > 0  # she was asked again after coming back


def test_timeout_policy_takes_a_win_passes_claims_and_discards_the_drawn_tile() -> None:
    state = new_hand(get_variant("changsha"), 1)
    while state.phase == Phase.OPENING:
        from engine import Action, apply

        state, _ = apply(state, Action(state.current, Act.PASS))
    obs = observe(state, state.current)
    action = timeout_action(obs)
    if any(a.act == Act.WIN for a in obs.legal):
        assert action.act == Act.WIN
    else:
        assert action.act == Act.DISCARD and action.tile == obs.drawn
