"""The AI seats' strength as a room setting (电脑水平, docs/ai.md "Levels"): chosen from the lobby's settings
like any other, stored and remembered with the group's room; the AI seats play at it, and a player on 托管
is played by the strongest level whatever the room's AI seats play."""

from __future__ import annotations

import random
from pathlib import Path

import engine
from bot import ai
from engine import Action

from .bot_support import (
    Clock,
    bot_running,
    command,
    lobby_message,
    open_table,
    press,
    quiet,
    service,
    setting,
    until_hands,
)
from .fake_telegram import FakeTelegramServer


async def test_the_room_chooses_its_ai_strength_and_the_ai_seats_play_at_it(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        assert svc.tables[tid].settings.ai_level is None  # the bot's default until the room chooses
        assert await press(tg, alice, lobby, f"L|{tid}|s") == "OK"
        await tg.wait_for(lambda _: f"L|{tid}|b" in tg.message(group, lobby.message_id).callback_data)
        page = tg.message(group, lobby.message_id)
        assert any("AI strength" in b["text"] for b in page.buttons), page.buttons
        default = ai.get_level(ai.DEFAULT_LEVEL)
        assert f"empty seats get AI players ({default.label('en')})" in page.text, page.text
        assert default.note("en") not in page.text
        # while the strengths are listed, the lobby says what each does
        opened = setting(svc, tid, "ai_level")
        tg.press(alice, group, lobby.message_id, opened)
        notes = [lv.note("en") for lv in ai.LEVELS]
        await tg.wait_for(lambda _: all(n in tg.message(group, lobby.message_id).text for n in notes))
        level = next(lv for lv in ai.LEVEL_IDS if lv != ai.DEFAULT_LEVEL)
        assert await press(tg, alice, lobby, setting(svc, tid, "ai_level", level)) == "OK"
        rt = svc.tables[tid]
        assert rt.settings.ai_level == level
        label = ai.get_level(level).label("en")
        await tg.wait_for(lambda _: f"AI players ({label})" in tg.message(group, lobby.message_id).text)
        # the choice closed the list
        assert default.note("en") not in tg.message(group, lobby.message_id).text
        assert (await svc.storage.table_settings(tid)).ai_level == level
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 1)  # Alice never presses: timeouts, then 托管

        [hand] = [h for h in await svc.storage.table_hands(tid) if h.finished]
        rec = await svc.storage.hand_replay(hand.id)
        state = engine.new_hand(
            engine.get_variant(rec.variant), hand.seed, hand.options, hand.dealer_arg, len(hand.seats)
        )
        ai_moves, alice_moves = 0, []
        for logged in rec.actions:
            action = Action.parse(logged.action)
            seat = action.seat
            obs = engine.observe(state, seat)
            rng = random.Random(f"{tid}/{hand.id}/{seat}/{state.version}")
            if len(obs.legal) > 1:
                if hand.seats[seat] is None:  # an AI seat's own choice: the room's level
                    assert action == ai.choose(obs, rng, level=level), (state.version, action)
                    ai_moves += 1
                else:
                    alice_moves.append((action, ai.choose(obs, rng)))
            state, _ = engine.apply(state, action)
        assert ai_moves > 10
        # Alice timed out twice (the timeout's move), then went on 托管: the strongest level plays for her
        on_auto = alice_moves[2:]
        assert on_auto and all(done == strongest for done, strongest in on_auto), alice_moves

        # the room is remembered with its strength: the group's next changsha table starts with it
        assert "stopped" in (await command(tg, alice, group, "/stop")).lower()
        await quiet(app, tg)
        tid2, _ = await open_table(tg, alice, group, "changsha")
        assert svc.tables[tid2].settings.ai_level == level
        await lobby_message(tg, group, tid2)
