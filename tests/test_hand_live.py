"""A hand's live state is one object (``HandLive``, bot/table/runtime.py) made at the deal and dropped at the
hand's end: nothing of one hand can leak into the next. The table keeps only what outlives a hand."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.table.runtime import HandLive, TableRuntime

from .bot_support import Clock, bot_running, lobby_message, open_table, quiet, run_timer, service
from .fake_telegram import FakeTelegramServer

# What a table keeps between hands. A field added to TableRuntime must be added here on purpose: if it
# belongs to one hand, it goes into HandLive instead.
TABLE_SCOPED = {
    "table", "settings", "seats", "options", "hand", "lock", "result_due", "summary", "summaries",
    "restored_due", "vote_dms", "last_code", "setting_open", "waiting_dm", "dm_noted", "totals",
    "next_dealer", "hands_played", "closed", "hand_lines",
}  # fmt: skip


def test_the_table_holds_nothing_of_a_hand_but_the_hand() -> None:
    assert {f.name for f in dataclasses.fields(TableRuntime)} == TABLE_SCOPED


def test_a_hand_starts_from_defaults() -> None:
    """Every field of a hand but the stored row and the state has a default: a new hand starts empty."""
    required = [f.name for f in dataclasses.fields(HandLive) if f.default is dataclasses.MISSING
                and f.default_factory is dataclasses.MISSING]  # fmt: skip
    assert required == ["row", "state"]


async def test_the_second_hand_starts_from_a_clean_slate(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Alice lets her timer run out twice in hand 1 (notes of what the bot played for her, auto-play, her
    timeouts, the hand's moves and wins); hand 2 is a new object with none of it."""
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=3) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        await tg.wait_for(lambda _: rt.hand is not None and rt.hand.pending, what="her first decision")
        first = rt.live
        seat = rt.seats.index(alice.id)
        while seat not in first.auto:
            await run_timer(app, svc, clock, tid)
        assert first.notes and first.timeouts and first.recent
        while rt.hand is first:  # on auto-play the hand runs out by itself (timers for claim pauses)
            if svc.timers.deadline(tid) is not None:  # type: ignore[attr-defined]
                await run_timer(app, svc, clock, tid)
            await quiet(app, tg)
        assert rt.hand is None and rt.hands_played == 1
        lobby = await lobby_message(tg, group, tid, "go")
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")  # the host deals the next hand now
        await tg.wait_for(lambda _: rt.hand is not None, what="the second hand")
        second = rt.live
        assert second is not first and second.row.number == 2
        assert second.auto == frozenset() and second.timeouts == {} and second.notes == {}
        assert second.news == {} and second.picks == {} and second.dm_lost == set()
