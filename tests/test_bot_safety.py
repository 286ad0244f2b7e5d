"""Safety: foreign and stale presses change nothing, simultaneous presses never corrupt a table, hidden
tiles never reach a group message or the logs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.messages.keyboards import game_keyboard
from bot.telegram.app import QUIET_LOGGERS, configure_logging
from bot.text import render, views
from bot.text.texts import t
from engine import Act, Action, Phase

from .bot_support import (
    Clock,
    Player,
    bot_running,
    hand_over,
    lobby_message,
    open_table,
    play_hand,
    service,
)
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser


@pytest.fixture(autouse=True)
def _restore_log_levels() -> object:
    names = ["bot", "storage", *QUIET_LOGGERS]
    levels = {n: logging.getLogger(n).level for n in names}
    yield
    for n, level in levels.items():
        logging.getLogger(n).setLevel(level)


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
        # an index that does not exist, and a decision from the future
        hid = rt.hand.id  # type: ignore[union-attr]
        assert await answer(alice, alice.id, message.message_id, f"g|{tid}|{hid}|{state.version}|99") == (
            "This button is out of date"
        )
        assert await answer(alice, alice.id, message.message_id, f"g|{tid}|{hid}|{state.version + 5}|0") == (
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
    rs = engine.get_variant("changsha")
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


def test_game_buttons_carry_table_hand_and_decision_within_64_bytes() -> None:
    for rs in engine.VARIANTS.values():
        state = engine.new_hand(rs, 11)
        for seat in engine.to_act(state):
            obs = engine.observe(state, seat)
            rows = game_keyboard(obs, obs.legal, 123456789, 987654321, 99999, "zh")
            datas = [b.data for row in rows for b in row if b.data]
            assert datas and all(len(d.encode()) <= 64 for d in datas)
            assert all(d.startswith("g|123456789|987654321|99999|") for d in datas)


# ---------------------------------------------------------- buttons bound to hand and decision


def decision_of(data: str) -> int:
    """The decision number of a game button (second to last field, whatever else the data carries)."""
    return int(data.split("|")[-2])


@contextlib.asynccontextmanager
async def alice_alone(
    tg: FakeTelegramServer, tmp_path: Path, variant: str, seed_base: int = 0
) -> AsyncIterator[tuple[Any, FakeUser, FakeChat, int]]:
    """Alice and three AI seats: the app, Alice, the group and the table, its first hand started."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", Clock(), seed_base=seed_base) as app:
        tid, _ = await open_table(tg, alice, group, variant)
        tg.press(alice, group, (await lobby_message(tg, group, tid)).message_id, f"L|{tid}|go")
        yield app, alice, group, tid


async def _answer_of(tg: FakeTelegramServer, query: object) -> str:
    await tg.wait_for(lambda _: query.answered, what="an answer")  # type: ignore[attr-defined]
    return query.text or ""  # type: ignore[attr-defined]


async def test_a_button_of_an_earlier_hand_is_refused_in_the_next(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Versions restart every hand, so a button of hand 1 named a decision of hand 2."""
    async with alice_alone(tg, tmp_path, "changsha", seed_base=7) as (app, alice, group, tid):
        rt = service(app).tables[tid]
        player = Player(tg, alice, tid)
        await play_hand([player], hand_over(tg, group, t("note.result_title", "en", n=1)))
        await tg.wait_idle()
        old: dict[int, str] = {}  # decision -> a hand-1 button naming it (its first action)
        for m in tg.bot_messages(alice):
            for v in m.versions:
                for d in game_buttons_in(v.reply_markup, tid):
                    if d.endswith("|0"):
                        old.setdefault(decision_of(d), d)
        assert old
        tg.press(alice, group, (await lobby_message(tg, group, tid)).message_id, f"L|{tid}|go")
        await tg.wait_for(lambda _: rt.hand is not None and rt.hand.number == 2, what="hand 2")
        player = Player(tg, alice, tid)  # hand 2's decisions, from the first
        for _ in range(60):
            found = await player.wait_decision(lambda: rt.state is None)
            assert found is not None, "no decision of hand 2 shares a number with one of hand 1"
            message, data = found
            forged = old.get(decision_of(data[0]))
            if forged is None:
                player.press(message, data[0])
                continue
            state = rt.state
            answer = await _answer_of(tg, tg.press(alice, alice.id, message.message_id, forged, check=False))
            assert answer == "This button is out of date"
            assert rt.state is state  # nothing was played
            return
        raise AssertionError("no decision of hand 2 shares a number with one of hand 1")


async def test_a_second_press_on_a_decision_is_refused_even_if_legal_now(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Pressing "Kong (replace)" then "Discard" on one panel: the discard was played without the
    player ever seeing the replacement tile. Xiangyin, seed 1035: the dealer (seat 0) holds a kong."""
    async with alice_alone(tg, tmp_path, "xiangyin", seed_base=34) as (app, alice, _, tid):
        svc = service(app)
        rt = svc.tables[tid]
        found = await Player(tg, alice, tid).wait_decision(lambda: False)
        assert found is not None
        message, _ = found
        assert rt.state is not None and rt.state.dealer == rt.seats.index(alice.id)
        labels = {b["text"]: b["callback_data"] for b in message.buttons if "callback_data" in b}
        kong = next(d for label, d in labels.items() if label.startswith("Kong"))
        kong_tile = next(label for label in labels if label.startswith("Kong")).split()[1]
        discard = next(
            d for label, d in labels.items() if label[0].isdigit() and label.split()[0] != kong_tile
        )
        first = tg.press(alice, alice.id, message.message_id, kong)
        second = tg.press(alice, alice.id, message.message_id, discard)  # a double-click on the old panel
        assert (await _answer_of(tg, first)).startswith("✔")
        assert await _answer_of(tg, second) == "This button is out of date"
        await tg.wait_idle()
        assert rt.hand is not None
        replay = await svc.storage.hand_replay(rt.hand.id)
        assert [a.action.split()[1] for a in replay.actions] == ["kong"]  # nothing after the kong
        assert rt.state is not None and rt.state.current == rt.seats.index(alice.id)


async def test_malformed_callback_data_is_answered_and_changes_nothing(
    tg: FakeTelegramServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """int("²") and 5,000-digit numbers raised in the handler; Arabic-Indic digits were indices."""
    caplog.set_level(logging.INFO)
    async with alice_alone(tg, tmp_path, "changsha") as (app, alice, _, tid):
        rt = service(app).tables[tid]
        found = await Player(tg, alice, tid).wait_decision(lambda: False)
        assert found is not None
        message, data = found
        state = rt.state
        arabic = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
        fullwidth = str.maketrans("0123456789", "０１２３４５６７８９")
        forged = [
            data[0].translate(arabic),  # every number in Arabic-Indic digits
            data[0].translate(fullwidth),
            data[0][: data[0].rindex("|") + 1] + "²",
            data[0][: data[0].rindex("|") + 1] + "1" * 5000,
            "g|" + "9" * 5000 + "|0|0|0",
            f"L|{tid}|" + "٠",
            f"L|{'1' * 4400}|go",
            f"h|{tid}²",
            f"b|-{tid}",
            f"S|{'x' * 100}",
            data[0] + "|0",
            data[0].replace("|", "||"),
            "\x00\uffff|ë",
            "",
        ]
        queries = [tg.press(alice, alice.id, message.message_id, d, check=False) for d in forged]
        answers = [await _answer_of(tg, q) for q in queries]
        assert all(
            a in ("This button is out of date or unknown", "This button is out of date") for a in answers
        )
        assert rt.state is state
        await tg.wait_idle()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a handler raised"
        assert len(tg.calls_to("answerCallbackQuery")) == len(tg.callback_answers)  # one answer each
