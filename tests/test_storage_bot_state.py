"""Schema v4 and v5: the bot's own state (chat, table and seat settings, display modes, message ids, open
decisions, result delivery) lives in the database, typed and checked, written in the same transaction as
what causes it."""

from __future__ import annotations

import pytest

import engine
from storage import InvalidInput, SeatPlay, Storage, TableSettings

from .pgcluster import RAW_REFUSED, raw_sql
from .storage_helpers import random_moves as play_out


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("UPDATE table_settings SET claim_s = '30s'", "a timer that is not a number"),
        ("UPDATE table_settings SET claim_s = NULL", "no timer"),
        ("UPDATE table_settings SET discard_s = 0", "a timer out of range"),
        ("UPDATE table_settings SET pause_s = 61", "a claim pause out of range"),
        ("UPDATE table_settings SET pause_s = NULL", "no claim pause"),
        ("UPDATE table_settings SET lang = 'fr'", "a language the bot does not speak"),
        ("UPDATE table_settings SET editing = 2", "a flag that is not 0/1"),
        ("UPDATE table_settings SET lobby_msg = -5", "a message id that is not one"),
        ("UPDATE table_seats SET auto = NULL", 'auto-play seats as null (the bot.json "auto": null)'),
        ("UPDATE table_seats SET since = 3", "a decision without a deadline"),
        ("UPDATE table_seats SET seat = 4", "a fifth seat"),
        ("UPDATE chat_settings SET language = 'xx'", "a chat language the bot does not speak"),
        ("UPDATE chat_settings SET display = 'photos'", "a display mode the bot does not have"),
        ("UPDATE players SET language = 'zh-hans'", "a language code instead of the bot's language"),
    ],
)
async def test_bad_values_are_impossible_by_schema(store: Storage, sql: str, why: str) -> None:
    """A settings file with wrong types stopped the bot; the database refuses them outright."""
    await store.create_table(-100, "changsha", settings=TableSettings(host=7))
    await store.set_chat_language(-100, "en")
    await store.upsert_player(7, "Ann", "zh")
    with pytest.raises(RAW_REFUSED):
        await raw_sql(store, sql)


async def test_table_settings_are_stored_with_the_table(store: Storage) -> None:
    table = await store.create_table(
        -100, "changsha", seats=[7, None, None, None], settings=TableSettings(lang="en", host=7, ai=(2,))
    )
    s = await store.table_settings(table.id)
    assert (s.lang, s.host, s.ai, s.claim_s, s.discard_s, s.pause_s) == ("en", 7, (2,), 30, 60, 3)
    s = await store.update_settings(table.id, claim_s=45, pause_s=5, ai=(1, 3), editing=True, lobby_msg=12)
    assert (s.claim_s, s.pause_s, s.ai, s.editing, s.lobby_msg) == (45, 5, (1, 3), True, 12)
    table2, s2 = await store.update_lobby(table.id, seats=[7, 8, None, None], ai=(3,))
    assert table2.seats == (7, 8, None, None) and s2.ai == (3,)
    bads = ({"claim_s": "30"}, {"lang": "fr"}, {"ai": [None]}, {"auto": 1}, {"lobby_msg": 0}, {"pause_s": -1})
    for bad in bads:
        with pytest.raises(InvalidInput):
            await store.update_settings(table.id, **bad)
    assert await store.table_settings(table.id) == s2


async def test_a_chosen_language_is_stored_once_and_kept(store: Storage) -> None:
    """A user's language was stored twice (players and the side file); now players only."""
    assert (await store.upsert_player(7, "Ann", "en")).language == "en"
    await store.set_player_language(7, "zh")
    p = await store.upsert_player(7, "Annie", "en")  # his client still says English
    assert (p.name, p.language, p.language_chosen) == ("Annie", "zh", True)
    with pytest.raises(InvalidInput):
        await store.upsert_player(8, "Bo", "zh-hans")
    await store.set_chat_language(-100, "en")
    await store.set_chat_language(-200, "zh")
    assert await store.chat_languages() == {-100: "en", -200: "zh"}


async def test_decisions_and_auto_play_are_written_with_the_action(store: Storage) -> None:
    rs = engine.get_variant("changsha")
    table = await store.create_table(-100, "changsha", seats=[7, 8, None, None])

    def first(state: engine.State) -> list[SeatPlay]:
        return [SeatPlay(s, since=0, deadline=1000.0) for s in engine.to_act(state)]

    hand, state = await store.start_hand(table.id, 5, 0, seats_for=first, ai=(2, 3))
    assert state == engine.new_hand(rs, 5, hand.options, 0)
    (r,) = await store.restore()
    assert {p.seat for p in r.seats if p.since is not None} == set(engine.to_act(state))
    assert r.settings.ai == (2, 3)
    moves = play_out(state, 1)
    action, nxt = moves[0]
    opened = SeatPlay(1, auto=True, timeouts=2, since=nxt.version, deadline=2000.0)
    await store.log_action(hand.id, action, nxt.version, table_id=table.id, seats=[opened])
    (r,) = await store.restore()
    assert r.seats[1] == opened and r.state == nxt
    # a refused action writes no seat either (one transaction)
    with pytest.raises(Exception, match="version"):
        await store.log_action(
            hand.id, action, nxt.version, table_id=table.id, seats=[SeatPlay(0, auto=True)]
        )
    (r,) = await store.restore()
    assert not r.seats[0].auto
    # the hand's end clears every seat's play state and leaves its result to be delivered
    for i, (a, st) in enumerate(moves[1:], 2):
        final = st if i == len(moves) else None
        await store.log_action(hand.id, a, st.version, final=final)
    (r,) = await store.restore()
    assert r.hand is None and all(p == SeatPlay(p.seat) for p in r.seats)
    [done] = await store.table_hands(table.id)
    assert done.finished and not done.result_delivered
    await store.result_delivered([done.id], lobby_msg=41)
    [done] = await store.table_hands(table.id)
    assert done.result_delivered and (await store.table_settings(table.id)).lobby_msg == 41


async def test_panels_are_remembered_per_table_and_player(store: Storage) -> None:
    table = await store.create_table(-100, "changsha", seats=[7, 8, None, None])
    await store.set_panel(table.id, 7, 10)
    await store.set_panel(table.id, 8, 11)
    await store.set_panel(table.id, 7, 15)
    (r,) = await store.restore()
    assert r.panels == {7: 15, 8: 11}


async def test_a_stop_votes_private_prompts_are_remembered_per_seat(store: Storage) -> None:
    """Each seat's private prompt of the stop vote in progress (bot/table/vote.py): stored as it is sent, read
    back with the settings (a restart, another worker), forgotten all at once when the vote ends."""
    table = await store.create_table(-100, "changsha", seats=[7, 8, 9, None])
    await store.update_settings(table.id, vote=1, vote_until=1000.0, vote_yes=(0,))
    await store.set_vote_prompt(table.id, 1, 20)
    await store.set_vote_prompt(table.id, 2, 21)
    await store.set_vote_prompt(table.id, 2, 22)  # sent again (the first one was deleted)
    (r,) = await store.restore()
    assert r.settings.vote_prompts == ((1, 20), (2, 22))
    settings = await store.update_settings(table.id, vote_until=None, vote_yes=(), vote_prompts=())
    assert settings.vote_prompts == () and (await store.table_settings(table.id)).vote_prompts == ()
    for bad in ((4, 20), (1, 0), (1, True)):
        with pytest.raises(InvalidInput):
            await store.set_vote_prompt(table.id, *bad)
    with pytest.raises(InvalidInput):
        await store.update_settings(table.id, vote_prompts=((1, 5), (1, 6)))


async def test_a_deal_forgets_the_last_hands_panels(store: Storage) -> None:
    """The new hand's panels are new messages, below the last result: a restart between the deal and their
    sending (a kill) used to edit hand 1's panel, above its result, into hand 2's - no notification, the
    live buttons out of sight."""
    table = await store.create_table(-100, "changsha", seats=[7, 8, None, None])
    await store.set_panel(table.id, 7, 10)
    await store.update_settings(table.id, table_msg=6)
    await store.start_hand(table.id, 3, 0)
    (r,) = await store.restore()
    assert r.panels == {} and r.settings.table_msg is None


async def test_a_migrated_group_takes_its_tables_scores_and_settings(store: Storage) -> None:
    """After ``migrate_to_chat_id`` the table stayed bound to the old id; now everything moves."""
    old, new = -4_000_000_001, -1_001_000_000_001
    await store.upsert_player(7, "Ann", "en")
    await store.set_chat_language(old, "en")
    t1 = await store.create_table(
        old, "changsha", seats=[7, None, None, None], settings=TableSettings(host=7)
    )
    hand, state = await store.start_hand(t1.id, 3, 0)
    moves = play_out(state, 2)
    for i, (a, st) in enumerate(moves, 1):
        await store.log_action(hand.id, a, st.version, final=st if i == len(moves) else None)
    await store.update_settings(t1.id, lobby_msg=5, table_msg=6)
    before = [(x.user_id, x.points, x.hands) for x in await store.leaderboard(old)]
    assert before and await store.open_tables(new) == []
    assert await store.migrate_chat(old, new) == [t1.id]
    assert await store.migrate_chat(old, new) == []  # told twice (both service messages): nothing more
    assert [t.id for t in await store.open_tables(new)] == [t1.id] and await store.open_tables(old) == []
    assert [(x.user_id, x.points, x.hands) for x in await store.leaderboard(new)] == before
    assert await store.leaderboard(old) == []
    assert [h.chat_id for h in await store.player_history(7)] == [new]
    assert await store.chat_languages() == {new: "en"}
    s = await store.table_settings(t1.id)
    assert (s.lobby_msg, s.table_msg, s.host) == (None, None, 7)  # old message ids mean nothing there
    with pytest.raises(RAW_REFUSED, match="history"):
        await raw_sql(store, "UPDATE score_deltas SET delta = delta + 1")


async def test_a_chats_display_mode_is_stored_checked_and_follows_a_migrated_group(store: Storage) -> None:
    """Schema v5: each chat - a group, or a player's private chat - shows pictures (the default)
    or text; the choice is a checked column of chat_settings and moves with a group to its supergroup."""
    assert await store.chat_displays() == {}
    await store.set_chat_language(-100, "en")
    await store.set_chat_display(-100, "text")
    await store.set_chat_display(7, "text")  # a private chat: its id is the user's
    await store.set_chat_display(7, "pictures")
    assert await store.chat_displays() == {-100: "text", 7: "pictures"}
    assert await store.chat_languages() == {-100: "en"}  # the language stays as it was
    with pytest.raises(InvalidInput):
        await store.set_chat_display(-100, "photos")
    await store.migrate_chat(-100, -1_000_000_000_100)
    assert await store.chat_displays() == {-1_000_000_000_100: "text", 7: "pictures"}
    await store.set_chat_display(7, None)
    assert await store.chat_displays() == {-1_000_000_000_100: "text"}
