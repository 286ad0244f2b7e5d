"""Safety: foreign and stale presses change nothing, simultaneous presses never corrupt a table, hidden
tiles never reach a group message or the logs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from bot import render, views
from bot.app import QUIET_LOGGERS, configure_logging
from bot.keyboards import game_keyboard
from bot.texts import t
from engine import Act, Action, Phase

from .fake_telegram import FakeTelegramServer
from .test_bot_support import (
    Clock,
    Player,
    bot_running,
    hand_over,
    lobby_message,
    open_table,
    play_hand,
    service,
)


@pytest.fixture(autouse=True)
def _restore_log_levels() -> object:
    names = ["bot", "storage", *QUIET_LOGGERS]
    levels = {n: logging.getLogger(n).level for n in names}
    yield
    for n, level in levels.items():
        logging.getLogger(n).setLevel(level)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as server:
        yield server


async def _seat_and_start(tg: FakeTelegramServer, group: object, users: list, variant: str) -> int:  # type: ignore[type-arg]
    tid, _ = await open_table(tg, users[0], group, variant)  # type: ignore[arg-type]
    lobby = await lobby_message(tg, group, tid, "j")  # type: ignore[arg-type]
    for u in users[1:]:
        tg.press(u, group, lobby.message_id, f"L|{tid}|j")  # type: ignore[arg-type]
    return tid


async def test_foreign_and_stale_presses_change_nothing(tg: FakeTelegramServer, tmp_path: Path) -> None:
    alice, mallory = tg.add_user("Alice", started=True), tg.add_user("Mallory", started=True)
    group = tg.add_group("Mahjong", members=[alice, mallory])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid = await _seat_and_start(tg, group, [alice], "changsha")
        rt = svc.tables[tid]
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        player = Player(tg, alice, tid)
        message, data = await player.wait_decision(lambda: False) or (None, [])
        assert message is not None
        state = rt.state
        assert state is not None

        async def answer(user: object, chat: object, msg_id: int, payload: str) -> str:
            q = tg.press(user, chat, msg_id, payload, check=False)  # type: ignore[arg-type]
            await tg.wait_for(lambda _: q.answered, what=f"answer to {payload}")
            return q.text or ""

        # Mallory is not seated: Alice's button data, pressed by her, is refused
        assert await answer(mallory, mallory.id, tg.send_text(mallory, None, "hi").message_id, data[0]) == (
            "You're not seated at this table"
        )
        # the group's "my hand" button, pressed by someone not seated
        group_msg = next(m for m in reversed(tg.bot_messages(group)) if f"h|{tid}" in m.callback_data)
        assert (
            await answer(mallory, group, group_msg.message_id, f"h|{tid}")
            == "You're not seated at this table"
        )
        # an index that does not exist, and a version from the future
        assert await answer(alice, alice.id, message.message_id, f"g|{tid}|{state.version}|99") == (
            "This button is out of date"
        )
        assert await answer(alice, alice.id, message.message_id, f"g|{tid}|{state.version + 5}|0") == (
            "This button is out of date"
        )
        assert rt.state is state  # nothing changed

        # Alice plays; then her old button (an older decision) is stale
        player.press(message, data[0])
        await player.wait_decision(lambda: False)
        assert rt.state is not state and rt.state.version > state.version
        now = rt.state
        assert await answer(alice, alice.id, message.message_id, data[-1]) == "This button is out of date"
        assert rt.state is now
        await tg.wait_idle()
        # the log replays to exactly the table's state
        assert rt.hand is not None
        rebuilt = await svc.storage.rebuild(rt.hand.id)
        assert rebuilt.version == now.version and rebuilt.seats == now.seats


async def test_simultaneous_presses_are_serialised(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Sichuan's 定缺: every seat chooses at once. Two players press together, and one double-clicks."""
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock()) as app:
        svc = service(app)
        tid = await _seat_and_start(tg, group, [alice, bob], "sichuan")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats and bob.id in rt.seats)
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        pa, pb = Player(tg, alice, tid), Player(tg, bob, tid)
        (ma, da), (mb, db) = await asyncio.gather(
            pa.wait_decision(lambda: False), pb.wait_decision(lambda: False)
        )  # type: ignore[misc]
        assert rt.state is not None and rt.state.phase == Phase.CHOOSE
        qa1 = pa.press(ma, da[0])
        qa2 = tg.press(alice, alice.id, ma.message_id, da[1])  # a second press of another option
        qb = pb.press(mb, db[0])
        await tg.wait_for(lambda _: qa1.answered and qa2.answered and qb.answered)
        answers = [qa1.text or "", qa2.text or ""]
        assert sum(a.startswith("✔") for a in answers) == 1 and "This button is out of date" in answers
        assert (qb.text or "").startswith("✔")
        await tg.wait_idle()
        state = rt.state
        assert state is not None and state.phase != Phase.CHOOSE
        seat_a, seat_b = rt.seats.index(alice.id), rt.seats.index(bob.id)
        assert state.seats[seat_a].choice is not None and state.seats[seat_b].choice is not None
        assert rt.hand is not None
        rebuilt = await svc.storage.rebuild(rt.hand.id)
        assert rebuilt.version == state.version
        replay = await svc.storage.hand_replay(rt.hand.id)
        assert [a.version for a in replay.actions] == list(range(1, state.version + 1))


async def test_hidden_tiles_never_reach_the_group_or_the_logs(
    tg: FakeTelegramServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    configure_logging(logging.DEBUG)  # what `python -m bot` configures, with the bot's own debug lines
    caplog.set_level(logging.DEBUG)
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", Clock(), seed_base=3) as app:
        svc = service(app)
        tid = await _seat_and_start(tg, group, [alice, bob], "changsha")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats and bob.id in rt.seats)
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        players = [Player(tg, alice, tid), Player(tg, bob, tid)]
        await play_hand(players, hand_over(tg, group, t("note.result_title", "en", n=1)))
        await tg.wait_idle()
    # every private hand line ("  Characters: 1m | 1m | ...") that was ever shown
    private = {
        line.strip()
        for user in (alice, bob)
        for m in tg.bot_messages(user)
        for v in m.versions
        for line in (v.text or "").splitlines()
        if line.startswith("  ") and ":" in line and "|" in line
    }
    assert private
    group_texts = [v.text or "" for m in tg.messages(group, include_deleted=True) for v in m.versions]
    for text in group_texts:
        for line in private:
            assert line not in text
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for line in private:
        assert line not in logged
    assert tg.token not in logged and tg.token.split(":")[1] not in logged
    for call in tg.calls_to("sendMessage", "editMessageText"):
        if call.params.get("chat_id") == group.id:
            assert not any(game_buttons_in(call.params.get("reply_markup"), tid))


def game_buttons_in(markup: object, tid: int) -> list[str]:
    rows = (markup or {}).get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [
        b.get("callback_data", "") for row in rows for b in row if b.get("callback_data", "").startswith("g|")
    ]


def test_public_view_hides_concealed_kongs_and_hands() -> None:
    rs = engine.get_ruleset("changsha")
    state = engine.arranged_hand(
        rs, ["5555m345s678p1199s", "679m25689s12489p", "2367m12468s1248p", "23679m279s14689p"], dealer=0
    )
    while state.phase == Phase.OPENING:
        state, _ = engine.apply(state, Action(state.current, Act.PASS))
    kong = next(a for a in engine.legal_actions(state, 0) if a.act == Act.KONG and a.detail in ("", "bu"))
    state, _ = engine.apply(state, kong)
    public = views.public_observation(state)
    assert public.hand == () and public.legal == () and public.drawn is None
    assert public.seats[0].melds == () and public.seats[0].concealed_kongs == 1
    assert all(ps.hand is None for ps in public.seats)
    text = render.table_view(public, "en", ["A", "B", "C", "D"])
    assert "5555m" not in text and "5m" not in text and "concealed kong ×1" in text
    own = engine.observe(state, 0)
    assert own.seats[0].melds  # the player himself still sees it


def test_game_buttons_carry_table_and_version_within_64_bytes() -> None:
    for rs in engine.RULESETS.values():
        state = engine.new_hand(rs, 11)
        for seat in engine.to_act(state):
            obs = engine.observe(state, seat)
            rows = game_keyboard(obs, obs.legal, 123456789, 99999, "zh")
            datas = [b.data for row in rows for b in row if b.data]
            assert datas and all(len(d.encode()) <= 64 for d in datas)
            assert all(d.startswith("g|123456789|99999|") for d in datas)
