"""The outbox against the fake Bot API over HTTP: photos edited in place (editMessageMedia when
the picture changes, editMessageCaption when only the words or buttons do), a live message that changes
between photo and text sent anew, texts over 4,096 characters split (never cut), captions kept within
1,024, and requests to a group spaced by its interval (Telegram's 20 a minute), also when another worker's
outbox sent the group's last request."""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import pytest
from telegram import Bot
from telegram.request import HTTPXRequest

from bot.messages.content import Button, Content
from bot.telegram.outbox import LAZY, URGENT, Outbox
from bot.text.fit import MAX_CAPTION, MAX_TEXT, caption_of, split_text

from .fake_telegram import FakeTelegramServer


@dataclass(frozen=True)
class Pic:
    """A picture for the outbox: drawn (counted) only when it is sent."""

    seed: int

    def png(self) -> bytes:
        DRAWN.append(self.seed)
        return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", 40, 30) + bytes([self.seed]) * 64


DRAWN: list[int] = []
KB = ((Button("Go", "x|1"),),)


@pytest.fixture
async def bot(tg: FakeTelegramServer) -> AsyncIterator[Bot]:
    b = Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url, request=HTTPXRequest())
    async with b:
        yield b


def test_split_text_cuts_at_line_ends_and_loses_nothing() -> None:
    lines = [f"line {i:04d} " + "字" * (i % 90) for i in range(400)]
    text = "\n".join(lines)
    parts = split_text(text)
    assert len(parts) > 1 and all(len(p) <= MAX_TEXT for p in parts)
    assert "\n".join(parts) == text  # cut only at line ends
    long_line = "word " * 2000  # a single line longer than a message: cut at spaces
    parts = split_text(long_line.strip())
    assert all(len(p) <= MAX_TEXT for p in parts) and " ".join(parts).split() == long_line.split()
    assert split_text("short") == ["short"]
    assert caption_of("x" * 10) == "x" * 10
    cut = caption_of("\n".join(["a" * 100] * 20))
    assert len(cut) <= MAX_CAPTION and cut.endswith("…")  # never silently


async def test_a_photo_is_edited_in_place_and_drawn_only_when_sent(tg: FakeTelegramServer, bot: Bot) -> None:
    alice = tg.add_user("Alice", started=True)
    out = Outbox(bot, group_interval=0)
    DRAWN.clear()
    out.live(alice.id, "p1", "hand 1", KB, photo=Pic(1))
    out.live(alice.id, "p1", "hand 2", KB, photo=Pic(2))  # merged with the first: one send, one drawing
    await out.drain(5)
    [msg] = tg.bot_messages(alice)
    assert DRAWN == [2] and msg.caption == "hand 2" and msg.photo is not None
    out.live(alice.id, "p1", "hand 2, 10 s left", KB, photo=Pic(2))  # only the caption changes
    await out.drain(5)
    out.live(alice.id, "p1", "hand 3", None, photo=Pic(3))  # a new picture, buttons gone
    await out.drain(5)
    assert [c.method for c in tg.calls_to("sendPhoto", "editMessageCaption", "editMessageMedia")] == [
        "sendPhoto",
        "editMessageCaption",
        "editMessageMedia",
    ]
    assert DRAWN == [2, 3] and len(tg.bot_messages(alice)) == 1
    assert [v.caption for v in msg.versions] == ["hand 2", "hand 2, 10 s left", "hand 3"]
    assert len({v.photo_file_id for v in msg.versions}) == 2 and msg.reply_markup is None
    out.live(alice.id, "p1", "hand 3", None, photo=Pic(3))  # the same again: nothing is sent
    await out.drain(5)
    assert len(tg.calls_to("editMessageCaption", "editMessageMedia")) == 2
    # a chat that switches to text: the photo cannot become text, a new message is sent
    out.live(alice.id, "p1", "hand 3 as text", KB)
    await out.drain(5)
    first, second = tg.bot_messages(alice)
    assert second.text == "hand 3 as text" and second.callback_data == ["x|1"]
    assert first.caption == "hand 3"
    await out.close()


async def test_a_new_panel_is_one_request_with_its_buttons(tg: FakeTelegramServer, bot: Bot) -> None:
    """A new panel (a new hand) comes with its buttons in one request, and its id is reported before the
    chat's next request (it is stored at once: the next request edits it, a restart edits it). The panel used
    to be sent bare and edited to add its buttons: a second request, and buttons a moment late."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("G", members=[alice])
    seen: list[tuple[int, int, int]] = []  # (chat, message id, calls made when the id was reported)

    async def stored(chat_id: int, key: str, message_id: int) -> None:
        seen.append((chat_id, message_id, len(tg.calls)))

    out = Outbox(bot, group_interval=0, on_message=stored)
    out.live(alice.id, "p1", "panel", KB, fresh=True)
    out.live(group.id, "t1", "table", KB, fresh=True)
    await out.drain(5)
    out.live(alice.id, "p1", "panel 2", KB)
    await out.drain(5)
    [panel] = tg.bot_messages(alice)
    [table] = tg.bot_messages(group)
    assert panel.versions[0].reply_markup is not None and panel.callback_data == ["x|1"]
    assert len(tg.calls_to("sendMessage", chat_id=alice.id)) == 1
    assert not tg.calls_to("editMessageReplyMarkup", chat_id=alice.id)
    [(_, pid, calls_then)] = [x for x in seen if x[0] == alice.id]
    [edit] = tg.calls_to("editMessageText", chat_id=alice.id)
    assert pid == panel.message_id and edit.seq >= calls_then  # the id was known before the next request
    assert len(table.versions) == 1 and table.callback_data == ["x|1"]
    await out.close()


async def test_long_texts_are_split_never_cut(tg: FakeTelegramServer, bot: Bot) -> None:
    """Texts over 4,096 characters were silently cut. A posted one goes in parts; a live one keeps
    its keyboard on its last part and edits its earlier parts in place."""
    alice = tg.add_user("Alice", started=True)
    out = Outbox(bot, group_interval=0)
    long = "\n".join(f"{i:05d} " + "结算" * 30 for i in range(200))  # about 13,000 characters
    out.post(alice.id, long, KB)
    await out.drain(5)
    parts = tg.bot_messages(alice)
    assert len(parts) == len(split_text(long)) >= 3
    assert "\n".join(m.text or "" for m in parts) == long
    assert [bool(m.callback_data) for m in parts] == [False] * (len(parts) - 1) + [True]
    # a live message of three parts, edited: the changed part and the last are edited, nothing sent
    live = "\n".join(f"{i:05d} " + "牌" * 60 for i in range(150))
    out.live(alice.id, "g1", live, KB)
    await out.drain(5)
    sent = tg.bot_messages(alice)[len(parts) :]
    assert len(sent) == len(split_text(live)) == 3 and sent[-1].callback_data == ["x|1"]
    changed = live.replace("00001 ", "00001*", 1) + "\nthe end"
    out.live(alice.id, "g1", changed, KB)
    await out.drain(5)
    assert len(tg.bot_messages(alice)) == len(parts) + 3
    assert "\n".join(m.text or "" for m in sent) == changed
    assert len(sent[1].versions) == 1  # the unchanged middle part was left alone
    await out.close()


async def test_requests_to_a_group_are_spaced(tg: FakeTelegramServer, bot: Bot) -> None:
    """Telegram allows about 20 messages or edits a minute in a group: every request to a group waits
    ``group_interval`` after the one before (here 0.05 s), and what piles up meanwhile is merged."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("G", members=[alice])
    interval = 0.05
    out = Outbox(bot, group_interval=interval)
    out.count_group_sends = True
    for i in range(30):  # a burst of moves: far fewer requests
        out.live(group.id, "g1", f"table {i}", KB, photo=Pic(i % 3))
    out.post(group.id, "a note")
    for i in range(30, 40):
        out.live(group.id, "g1", f"table {i}", KB, photo=Pic(i % 3))
    await out.drain(5)
    calls = [c for c in tg.calls if c.params.get("chat_id") == group.id]
    assert len(calls) <= 4
    # when each request went (the fake server's receipt times add its own event loop's delays)
    sends = out.group_sends[group.id]
    assert len(sends) == len(calls)
    gaps = [b - a for a, b in zip(sends, sends[1:], strict=False)]
    assert all(g >= interval * 0.9 for g in gaps), gaps
    [table, note] = tg.bot_messages(group)
    assert table.caption == "table 39" and note.text == "a note"
    await out.close()


async def test_a_lazy_burst_to_a_paced_group_is_rendered_once(tg: FakeTelegramServer, bot: Bot) -> None:
    """``live_lazy``: a group's table, published on every move while the group waits for its pace, is
    rendered only when its request is made - once for the whole burst, the latest content. Content that
    the message shows already is not sent and does not spend the group's pace; a switch between picture
    and text still sends the message anew."""
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("G", members=[alice])
    out = Outbox(bot, group_interval=0.3)
    rendered: list[int] = []

    def table(i: int, photo: bool = False) -> Callable[[], Content]:
        def render() -> Content:
            rendered.append(i)
            return Content(f"table {i}", KB, Pic(i) if photo else None)

        return render

    out.live_lazy(group.id, "g1", table(0))  # nothing waits: rendered at once (and sent)
    assert rendered == [0]
    await out.drain(5)
    for i in range(1, 30):  # a burst of moves within the group's pace
        out.live_lazy(group.id, "g1", table(i))
    assert rendered == [0]  # nothing rendered while it waits
    await out.drain(5)
    assert rendered == [0, 29]
    [msg] = tg.bot_messages(group)
    assert [v.text for v in msg.versions] == ["table 0", "table 29"]
    calls = len(tg.calls)
    out.live_lazy(group.id, "g1", table(29))  # what it shows already: rendered, compared, not sent
    await out.drain(5)
    assert rendered == [0, 29, 29] and len(tg.calls) == calls
    # the pace was not spent: the next goes at once, so it is rendered at once (a picture: sent anew) ...
    out.live_lazy(group.id, "g1", table(30, photo=True))
    assert rendered == [0, 29, 29, 30]
    out.live(group.id, "g1", "table 31", KB, photo=Pic(31))  # ... unless replaced before it goes
    out.live_lazy(group.id, "g1", table(32, photo=True))
    await out.drain(5)
    assert rendered == [0, 29, 29, 30, 32]
    old, new = tg.bot_messages(group)
    assert old.text == "table 29" and old.reply_markup is None and new.caption == "table 32"
    await out.close()


async def test_a_posts_on_sent_runs_once_its_sending_is_over_never_when_closed_first(
    tg: FakeTelegramServer, bot: Bot
) -> None:
    """The transactional outbox deletes a post's row in ``on_sent``: after the message went, or
    after Telegram refused it for good (a blocked bot: every post queued for that chat is over), and in the
    chat's order; never for a post the outbox was closed before sending (its row stays, for the restart)."""
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    over: list[str] = []

    def note(name: str) -> Callable[[], Awaitable[None]]:
        async def done() -> None:
            over.append(name)

        return done

    out = Outbox(bot, group_interval=0)
    out.post(alice.id, "one", on_sent=note("one"))
    out.post(alice.id, "two", KB, on_sent=note("two"))
    await out.drain(5)
    assert over == ["one", "two"] and [m.text for m in tg.bot_messages(alice)] == ["one", "two"]
    tg.block(bob)
    out.post(bob.id, "refused", on_sent=note("refused"))
    out.post(bob.id, "dropped with it", on_sent=note("dropped"))
    await out.drain(5)
    assert over[2:] == ["refused", "dropped"]
    tg.hold("sendMessage", alice)
    out.post(alice.id, "cut off", on_sent=note("cut off"))
    await tg.wait_for(lambda _: tg.held_calls(), what="the post in flight")
    await out.close()
    tg.release()
    assert "cut off" not in over and [m.text for m in tg.bot_messages(alice)] == ["one", "two"]


# ------------------------------------------------------------------ Telegram's budget: what goes first


async def test_when_the_budget_is_short_a_decision_goes_before_the_table_catching_up(
    tg: FakeTelegramServer, bot: Bot
) -> None:
    """Ten chats' catching-up messages wait for the budget (10 a second, 3 saved up); a player's decision
    queued after them goes next, not eleventh."""
    users = [tg.add_user(f"U{i}", started=True) for i in range(11)]
    out = Outbox(bot, group_interval=0, send_rate=10)
    for u in users[:10]:
        out.live(u.id, "p1", f"table {u.id}", fresh=True, priority=LAZY)
    await tg.wait_for(lambda _: tg.calls_to("sendMessage"), what="the first request")
    out.live(users[10].id, "p1", "your turn", KB, fresh=True, priority=URGENT)
    await out.drain(10)
    order = [c.params["chat_id"] for c in tg.calls_to("sendMessage")]
    assert len(order) == 11 and order.index(users[10].id) <= 4  # the 3 saved up, one in flight, then his
    assert out.tokens.waits[LAZY] > 0
    await out.close()


async def test_a_panel_that_only_follows_the_table_is_merged_until_a_decision_cuts_in(
    tg: FakeTelegramServer, bot: Bot
) -> None:
    """With a long ``lazy_interval`` five catching-up edits of a panel send nothing yet; his decision for
    the same panel goes at once and shows the latest state - one request for all six."""
    alice = tg.add_user("Alice", started=True)
    out = Outbox(bot, group_interval=0, lazy_interval=600)
    out.live(alice.id, "p1", "hand dealt", KB, fresh=True, priority=URGENT)
    await out.drain(5)
    for i in range(5):
        out.live(alice.id, "p1", f"moved {i}", priority=LAZY)
    await tg.wait_idle()
    assert len(tg.bot_messages(alice)[0].versions) == 1  # the catching-up edits wait (merged)
    out.live(alice.id, "p1", "your turn", KB, priority=URGENT)
    await tg.wait_for_call("editMessageText", chat_id=alice.id)
    await out.drain(5)
    [panel] = tg.bot_messages(alice)
    assert [v.text for v in panel.versions] == ["hand dealt", "your turn"]
    await out.close()


async def test_nothing_is_sent_again_unchanged(tg: FakeTelegramServer, bot: Bot) -> None:
    alice = tg.add_user("Alice", started=True)
    out = Outbox(bot, group_interval=0, send_rate=100)
    out.live(alice.id, "p1", "same", KB, fresh=True)
    await out.drain(5)
    for _ in range(3):
        out.live(alice.id, "p1", "same", KB, priority=LAZY)
        await out.drain(5)
    assert len(tg.calls) - len(tg.calls_to("getMe")) == 1
    await out.close()


async def test_paid_broadcast_sends_new_messages_that_would_wait(tg: FakeTelegramServer, bot: Bot) -> None:
    """The operator's setting: with the budget short, a new message goes at once as paid broadcast
    (Telegram accepts the flag on sends); without the setting it waits its turn."""
    users = [tg.add_user(f"U{i}", started=True) for i in range(6)]
    out = Outbox(bot, group_interval=0, send_rate=1, paid_broadcast=True)
    for u in users:
        out.post(u.id, f"result for {u.id}")
    await out.drain(10)
    sends = tg.calls_to("sendMessage", ok=True)
    assert len(sends) == 6 and out.paid_sends > 0
    assert sum(bool(c.params.get("allow_paid_broadcast")) for c in sends) == out.paid_sends
    await out.close()


async def test_a_new_message_never_swallows_the_last_edit_of_the_one_it_replaces(
    tg: FakeTelegramServer, bot: Bot
) -> None:
    """The end of a hand shown: a group's table waits for its pace with the hand's last state, and the next
    hand's table (a new message) is published meanwhile - the old message still gets its last state, then
    the new one is sent, and later states go to the new one."""
    group = tg.add_group("G", members=[tg.add_user("Alice", started=True)])
    out = Outbox(bot, group_interval=0.3)
    out.live(group.id, "t1", "hand 1 dealt", fresh=True)
    await out.drain(5)
    out.live(group.id, "t1", "hand 1, a move")
    out.live(group.id, "t1", "hand 1 over")
    out.live(group.id, "t1", "hand 2 dealt", fresh=True)
    out.live(group.id, "t1", "hand 2, a move")
    await out.drain(10)
    first, second = tg.bot_messages(group)
    assert [v.text for v in first.versions] == ["hand 1 dealt", "hand 1 over"]
    assert second.text == "hand 2, a move"
    await out.close()
