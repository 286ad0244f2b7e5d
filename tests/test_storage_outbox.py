"""Schema v9, the transactional outbox ("messages for one chat keep their order", nothing lost
across a worker's death): a one-off message is a row written in the very transaction of what causes it - a
hand's final action and its players' results, a seat put on auto-play and the group's note - so a refused or
failed transaction writes none, and a committed one always leaves its messages to be sent. Rows come back in
the order they were written and go once sent. Runs on SQLite and PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import json

import pytest

from storage import InvalidInput, Post, PressAnswer, SeatPlay, Storage, VersionConflict
from storage.store import ActionLog

from .storage_helpers import random_moves as play_out


def texts(posts: list[Post]) -> list[tuple[int, str]]:
    return [(p.chat_id, p.text) for p in posts]


async def test_a_hands_results_are_written_with_its_final_action_and_go_once_sent(store: Storage) -> None:
    table = await store.create_table(-100, "changsha", seats=[7, 8, None, None])
    hand, state = await store.start_hand(table.id, 5, 0)
    moves = play_out(state, 1)
    for action, st in moves[:-1]:
        await store.log_action(hand.id, action, st.version, table_id=table.id)
    assert await store.unsent_posts(table.id) == []
    action, final = moves[-1]
    results = [Post(7, "你的结果 +12"), Post(8, "your result -12")]
    await store.log_action(hand.id, action, final.version, final=final, table_id=table.id, posts=results)
    rows = await store.unsent_posts(table.id)
    assert texts(rows) == [(7, "你的结果 +12"), (8, "your result -12")]
    assert [r.table_id for r in rows] == [table.id] * 2 and rows[0].id < rows[1].id
    [done] = await store.table_hands(table.id)
    assert done.finished  # the result and its messages: one transaction
    await store.post_sent(rows[0].id)
    assert await store.unsent_posts(table.id) == rows[1:]
    await store.post_sent(rows[0].id)  # told twice: nothing more
    await store.post_sent(rows[1].id)
    assert await store.unsent_posts() == []


async def test_a_refused_action_writes_no_message(store: Storage) -> None:
    """The same final action logged twice (a version conflict): its second set of results is not written."""
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    hand, state = await store.start_hand(table.id, 5, 0)
    moves = play_out(state, 2)
    for action, st in moves[:-1]:
        await store.log_action(hand.id, action, st.version)
    action, final = moves[-1]
    with pytest.raises(VersionConflict):  # a gap: refused, with its message
        await store.log_action(hand.id, action, final.version + 1, table_id=table.id, posts=[Post(7, "x")])
    assert await store.unsent_posts(table.id) == []

    async def end(text: str) -> int:
        return await store.log_action(
            hand.id, action, final.version, final=final, table_id=table.id, posts=[Post(7, text)]
        )

    await end("a")
    with pytest.raises(Exception, match="ended|version"):  # the same final action again
        await end("b")
    assert texts(await store.unsent_posts(table.id)) == [(7, "a")]


async def test_a_run_of_actions_writes_the_messages_of_those_committed_only(store: Storage) -> None:
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    hand, state = await store.start_hand(table.id, 5, 0)
    (a1, s1), (a2, s2), (a3, s3) = play_out(state, 3)[:3]
    run = [
        ActionLog(hand.id, a1, s1.version, table_id=table.id, posts=[Post(-100, "one")]),
        ActionLog(hand.id, a2, s2.version, table_id=table.id, posts=[Post(-100, "two")]),
        ActionLog(hand.id, a3, s3.version + 5, table_id=table.id, posts=[Post(-100, "never")]),  # refused
    ]
    seqs, error = await store.log_actions(run)
    assert seqs == [1, 2] and isinstance(error, VersionConflict)
    assert texts(await store.unsent_posts(table.id)) == [(-100, "one"), (-100, "two")]


async def test_a_note_goes_with_the_seat_change_it_reports(store: Storage) -> None:
    """Auto-play switched on and the group's note on it: one transaction (``save_seats``); a note no other
    write causes has its own (``add_posts``). A keyboard comes back as it was written."""
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    other = await store.create_table(-200, "changsha", seats=[8, None, None, None])
    await store.start_hand(table.id, 5, 0)
    await store.save_seats(table.id, [SeatPlay(0, auto=True)], [Post(-100, "Ann is on auto-play")])
    [r] = [x for x in await store.restore() if x.table.id == table.id]
    assert r.seats[0].auto
    markup = json.dumps({"inline_keyboard": [[{"text": "私聊 ▶", "url": "https://t.me/b?start=x"}]]})
    await store.add_posts(other.id, [Post(-200, "Bo: open the bot", markup)])
    await store.add_posts(table.id, [Post(7, "大结算"), Post(-100, "大结算 (group)")])
    everything = await store.unsent_posts()
    assert texts(everything) == [(-100, "Ann is on auto-play"), (-200, "Bo: open the bot"), (7, "大结算"),
                                 (-100, "大结算 (group)")]  # fmt: skip
    assert [p.id for p in everything] == sorted(p.id for p in everything)
    assert everything[1].keyboard == markup and everything[1].table_id == other.id
    assert texts(await store.unsent_posts(other.id)) == [(-200, "Bo: open the bot")]


async def test_bad_messages_are_refused_before_anything_is_written(store: Storage) -> None:
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    hand, state = await store.start_hand(table.id, 5, 0)
    (a1, s1) = play_out(state, 4)[0]
    with pytest.raises(InvalidInput):  # a message without its table
        await store.log_action(hand.id, a1, s1.version, posts=[Post(7, "x")])
    with pytest.raises(InvalidInput):
        await store.add_posts(table.id, [Post(7, "")])
    with pytest.raises(InvalidInput):
        await store.save_seats(table.id, [SeatPlay(0, auto=True)], [Post(2**70, "x")])
    assert await store.unsent_posts() == []
    assert not any(p.auto for r in await store.restore() for p in r.seats)
    assert await store.log_action(hand.id, a1, s1.version) == 1  # nothing of the above was logged


async def test_a_migrated_group_takes_its_unsent_messages(store: Storage) -> None:
    """A group that became a supergroup: what was not sent to it yet goes to its new id."""
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    await store.add_posts(table.id, [Post(-100, "a note"), Post(7, "in private")])
    await store.migrate_chat(-100, -1_000_000_000_100)
    assert texts(await store.unsent_posts()) == [(-1_000_000_000_100, "a note"), (7, "in private")]


async def test_a_press_answer_is_written_with_its_action_and_pruned_after_a_day(store: Storage) -> None:
    """Schema v13: the answer of a press goes with the action it applied (a refused action writes none), is
    read back by the update's id, raises the highest update id, and goes after a day."""
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    hand, state = await store.start_hand(table.id, 5, 0)
    moves = play_out(state, 3)
    assert await store.last_update() == 0 and await store.press_answer(41) is None
    (a1, s1), (a2, s2) = moves[0], moves[1]
    await store.log_action(hand.id, a1, s1.version, answer=PressAnswer(41, "✔ Discard 3m"))
    with pytest.raises(VersionConflict):  # refused: its answer is not written
        await store.log_action(hand.id, a2, s2.version + 1, answer=PressAnswer(42, "✔ Pong"))
    assert await store.press_answer(41) == "✔ Discard 3m" and await store.press_answer(42) is None
    assert await store.last_update() == 41
    with pytest.raises(InvalidInput):
        await store.log_action(hand.id, a2, s2.version, answer=PressAnswer(42, ""))
    await store.prune_answers(keep=86_400)
    assert await store.press_answer(41) == "✔ Discard 3m"
    await store.prune_answers(keep=-1)  # as if a day had passed
    assert await store.press_answer(41) is None and await store.last_update() == 0


async def test_every_update_handled_is_recorded_once(store: Storage) -> None:
    """One process records every update it handled (bot/table/service.py ``handled``): a press with its
    answer, anything else without one; a record already there (a move's, written with the move) is kept."""
    table = await store.create_table(-100, "changsha", seats=[7, None, None, None])
    hand, state = await store.start_hand(table.id, 5, 0)
    (a1, s1) = play_out(state, 1)[0]
    await store.log_action(hand.id, a1, s1.version, answer=PressAnswer(41, "✔ Discard 3m"))
    assert await store.update_seen(40) is None
    await store.mark_seen(40)  # a command
    await store.mark_seen(41, "✔ OK")  # recorded with its move already: kept
    await store.mark_seen(43, "You're seated")
    seen = [await store.update_seen(u) for u in (40, 41, 42, 43)]
    assert seen == ["", "✔ Discard 3m", None, "You're seated"]
    assert await store.last_update() == 43
    await store.prune_answers(keep=-1)
    assert await store.update_seen(40) is None and await store.last_update() == 0
