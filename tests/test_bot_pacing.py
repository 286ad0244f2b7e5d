"""A group is sent one request per ``group_interval`` (Telegram's ~20 a minute), while its table is published
on every move: the table is rendered when the outbox sends it (bot/table/present.py ``GroupSnap``,
``Outbox.live_lazy``), so the moves merged by the pace are rendered once, and the group sees exactly what
rendering the table at the end of the burst shows."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.table.present import GroupSnap, Presenter, View, group_key

from .bot_support import Player, bot_running, open_table, press_button, quiet, service
from .fake_telegram import FakeTelegramServer

INTERVAL = 1.5  # the burst's presses take a few ms each: all within one interval


async def test_a_burst_of_moves_to_a_paced_group_renders_its_table_once(
    tg: FakeTelegramServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # count the real renders and publishes (each one calls through to the real code)
    snaps: list[GroupSnap] = []
    renders: list[GroupSnap] = []
    real_snap, real_render = Presenter.group_snap, Presenter.render_group

    def group_snap(self: Presenter, rt: Any, closed: str = "") -> GroupSnap:
        snaps.append(real_snap(self, rt, closed))
        return snaps[-1]

    def render_group(self: Presenter, snap: GroupSnap) -> View:
        renders.append(snap)
        return real_render(self, snap)

    monkeypatch.setattr(Presenter, "group_snap", group_snap)
    monkeypatch.setattr(Presenter, "render_group", render_group)
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db") as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        press_button(tg, alice, lobby, f"L|{tid}|go")  # three AI seats join her
        rt = svc.tables[tid]
        player = Player(tg, alice, tid)
        await quiet(app, tg)  # the hand's table is in the group
        outbox = app.bot_data["outbox"]
        outbox.group_interval = INTERVAL  # from now on the group is paced (the tests' bot is not) ...
        outbox.paced_from(group.id, time.time())  # ... as if its last request went just now
        table = outbox.message_id(group.id, group_key(tid))
        assert table is not None
        edits = len(tg.calls_to("editMessageText", chat_id=group.id, message_id=table))
        snaps.clear()
        renders.clear()
        for _ in range(6):  # six moves (and the AI seats' after each), the table published each time
            d = await player.wait_decision(lambda: rt.state is None)
            assert d is not None, "the hand ended early: pick another seed"
            player.press(d[0], d[1][0])
        await player.wait_decision(lambda: rt.state is None)
        assert len(snaps) >= 6
        assert len(renders) <= 1  # nothing is rendered while the group waits for its pace ...
        await quiet(app, tg)
        assert len(renders) == 1  # ... and then the latest table, once
        assert renders[0] is snaps[-1]
        assert len(tg.calls_to("editMessageText", chat_id=group.id, message_id=table)) == edits + 1
        # what the group shows is the table as it is now, rendered as the eager code did
        shown = tg.message(group, table)
        assert shown.text == svc.present.group_view(rt).text
        assert shown.callback_data == [b.data for row in svc.present.group_view(rt).kb or () for b in row]
