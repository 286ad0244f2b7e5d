"""The game night over the fake Bot API: a whole room of 4 hands in every variant through its
大结算, Ready between hands and the ready timer, host-only and locked settings, remembered settings, /stop
with the summary of the hands played, "play again", the first dealer a variant names (湘阴's
creator deals first), and the provable shuffle (commitment, reveal, the wall rebuilt from the seed).

Hands run without waiting: a player who lets his timer run out twice is on auto-play, and a ready phase
that runs out deals with him on auto-play, so the clock and the timer job (run by hand) drive them."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.text.texts import t
from engine.verify import deal

from .bot_support import (
    Clock,
    Player,
    bot_running,
    command,
    lobby_message,
    open_table,
    press,
    quiet,
    run_timer_settled,
    seated_and_dealt,
    service,
    setting,
    until_hands,
)
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser

ROOT = Path(__file__).resolve().parent.parent


async def set_rounds(
    tg: FakeTelegramServer, host: FakeUser, group: FakeChat, tid: int, svc: Any, n: int
) -> None:
    lobby = await lobby_message(tg, group, tid)
    assert await press(tg, host, lobby, f"L|{tid}|s") == "OK"
    assert await press(tg, host, lobby, setting(svc, tid, "rounds")) == "OK"  # its choices, then one
    assert await press(tg, host, lobby, setting(svc, tid, "rounds", n)) == "OK"
    assert svc.tables[tid].settings.rounds == n
    assert await press(tg, host, lobby, f"L|{tid}|b") == "OK"


def finals(tg: FakeTelegramServer, chat: FakeChat | FakeUser) -> list[str]:
    return [m.text or "" for m in tg.bot_messages(chat) if "Final summary" in (m.text or "")]


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
async def test_a_room_of_four_hands_ends_with_its_final_summary(
    tg: FakeTelegramServer, tmp_path: Path, variant: str
) -> None:
    """局数 4: after the fourth hand the group and the player get the 大结算, whose totals are the sums of
    the hands' deltas, whose big winner has the largest, and whose 胡 counts are the hands' winners; the
    table closes and "play again" opens the same room."""
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=300) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, variant)
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        await set_rounds(tg, alice, group, tid, svc, 4)
        lobby = await lobby_message(tg, group, tid)
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 4)
        assert tid not in svc.tables  # closed after its last hand

        hands = await svc.storage.table_hands(tid)
        assert [h.number for h in hands] == [1, 2, 3, 4] and all(h.finished for h in hands)
        totals: dict[str, int] = {}
        wins: dict[str, int] = {}
        for h in hands:
            assert h.result is not None
            for seat, d in enumerate(h.result["deltas"]):
                key = "Alice" if h.seats[seat] == alice.id else f"AI {seat + 1}"  # by its seat, all night
                totals[key] = totals.get(key, 0) + int(d)
                wins[key] = wins.get(key, 0) + (seat in h.result["winners"])
        [text] = finals(tg, group)
        assert f"table #{tid} · hands played: 4" in text
        for name, total in totals.items():
            assert f". {name} {total:+d}\n   wins {wins[name]} ·" in text, (name, total, text)
        best = max(totals.values())
        winners = ", ".join(n for n in sorted(totals, key=lambda n: (-totals[n], n)) if totals[n] == best)
        assert "Big winner: " in text and f"({best:+d})" in text.split("\n")[1]
        assert all(w in text.split("\n")[1] for w in winners.split(", "))
        assert finals(tg, alice), "the player gets the summary in private too"

        # play again: one press opens a new table with the same room (not a bot account's: a forged press)
        [summary] = [m for m in tg.bot_messages(group) if "Final summary" in (m.text or "")]
        robot = tg.add_user("Robo", started=True, is_bot=True)
        group.members[robot.id] = "member"
        assert await press(tg, robot, summary, f"N|{tid}") == "Bot accounts can't take a seat"
        assert svc.table_in(group.id) is None
        assert await press(tg, alice, summary, f"N|{tid}") == "A new table is open"
        new = svc.table_in(group.id)
        assert new is not None and new.id != tid
        assert (new.table.variant, new.settings.rounds, dict(new.options)) == (
            variant,
            4,
            dict(hands[0].options),
        )
        await tg.wait_for(lambda _: alice.id in new.seats, what="the presser seated")
        assert await press(tg, alice, summary, f"N|{tid}") == "This group already has a table"


async def test_ready_timer_host_only_locked_and_remembered_settings(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=40) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        lobby = await lobby_message(tg, group, tid, "j")
        assert await press(tg, bob, lobby, f"L|{tid}|j") == "You're seated"
        # the host (Alice, who opened it) changes the room; Bob, seated but not host, cannot
        for op in ("v|0|1", "o|0", "s", "go"):
            assert await press(tg, bob, lobby, f"L|{tid}|{op}") == (
                "Only the table's host or a group admin can change settings or start"
            )
        assert rt.settings.rounds == 8 and rt.settings.ready_s == 30
        assert await press(tg, alice, lobby, setting(svc, tid, "rounds", 16)) == "OK"
        assert await press(tg, alice, lobby, setting(svc, tid, "ready_s", 60)) == "OK"
        assert await press(tg, alice, lobby, f"L|{tid}|v|0|1") == "OK"  # a room option of the variant
        assert (rt.settings.rounds, rt.settings.ready_s) == (16, 60)
        option = dict(rt.options)
        await quiet(app, tg)
        text = tg.message(group, lobby.message_id).text or ""
        assert "Hands in the room: 16" in text and "Ready timer 60s" in text

        # hand 1: Alice plays it out; Bob lets his timer run out twice (then auto-play ends it)
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        pa = Player(tg, alice, tid)

        async def alice_only() -> None:
            while rt.playing:
                d = pa.decision()
                if d is not None:
                    pa.press(d[0], d[1][0])
                    await tg.wait_for(lambda _: pa.decision() is None or not rt.playing)
                    await quiet(app, tg)
                    continue
                if rt.live.pending:
                    await run_timer_settled(app, svc, clock, tid, tg)
                else:
                    await quiet(app, tg)

        await alice_only()
        assert rt.hands_played == 1 and rt.settings.ready_until is not None
        # the settings are locked now, for the host too; the lobby says so and offers Ready
        lobby2 = await lobby_message(tg, group, tid, "y")
        for op in ("v|0|1", "o|0", "m|0", "s", "a"):
            assert await press(tg, alice, lobby2, f"L|{tid}|{op}") == (
                "Settings are locked once the first hand has started"
            )
        text = lobby2.text or ""
        assert "Settings are locked" in text and "hand 2 of 16" in text
        assert "Alice ⏳" in text and "Bob ⏳" in text
        assert await press(tg, bob, lobby2, f"L|{tid}|y") == "You're ready"
        assert await press(tg, bob, lobby2, f"L|{tid}|y") == "You're already ready"
        await quiet(app, tg)
        assert "Bob ✅" in (tg.message(group, lobby2.message_id).text or "")
        assert not rt.playing
        # the ready timer runs out: the hand starts anyway, Alice (not ready) on auto-play
        await run_timer_settled(app, svc, clock, tid, tg)
        assert rt.hands_played >= 1 and (rt.playing or rt.hands_played == 2)
        if rt.playing:
            assert rt.live.auto == frozenset({rt.seats.index(alice.id)})
        await until_hands(app, svc, clock, tid, tg, 2)
        # everyone ready: the next hand starts at once
        lobby3 = await lobby_message(tg, group, tid, "y")
        assert await press(tg, alice, lobby3, f"L|{tid}|y") == "You're ready"
        assert not rt.playing
        assert await press(tg, bob, lobby3, f"L|{tid}|y") == "You're ready"
        assert rt.playing or rt.hands_played == 3
        if rt.playing:
            assert rt.live.auto == frozenset()
        # /stop (a vote of both) ends the room with the summary of the hands finished
        assert "asks to stop" in await command(tg, alice, group, "/stop")
        assert "stopped" in await command(tg, bob, group, "/stop")
        await quiet(app, tg)
        [text] = finals(tg, group)
        done = [h for h in await svc.storage.table_hands(tid) if h.result and "deltas" in h.result]
        assert f"hands played: {len(done)} (stopped early)" in text

        # the group's room of this variant is remembered for its next /newtable
        tid2, _ = await open_table(tg, bob, group, "changsha")
        rt2 = svc.tables[tid2]
        assert (rt2.settings.rounds, rt2.settings.ready_s, dict(rt2.options)) == (16, 60, option)
        assert rt2.settings.host == bob.id
        # another variant has its own (the defaults here)
        assert "stopped" in await command(tg, bob, group, "/stop")
        tid3, _ = await open_table(tg, bob, group, "sichuan")
        assert svc.tables[tid3].settings.rounds == 8
    # and a restart keeps the remembered room
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=40) as app:
        svc = service(app)
        room = await svc.storage.remembered_room(group.id, "changsha")
        assert room is not None and (room.rounds, room.ready_s) == (16, 60)


async def test_ready_phase_survives_a_restart(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Who is ready survives a restart, and so does the phase's deadline (the timer armed for it)."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=7) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "hongzhong")
        lobby = await lobby_message(tg, group, tid, "j")
        await press(tg, bob, lobby, f"L|{tid}|j")
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 1)
        rt = svc.tables[tid]
        lobby2 = await lobby_message(tg, group, tid, "y")
        assert await press(tg, bob, lobby2, f"L|{tid}|y") == "You're ready"
        until = rt.settings.ready_until
        assert until is not None and until >= clock.now + rt.settings.ready_s - 1
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=7) as app:
        svc = service(app)
        rt = svc.tables[tid]
        assert rt.settings.ready_until == until and rt.settings.ready == (rt.seats.index(bob.id),)
        assert svc.timers.deadline(tid) == until  # type: ignore[attr-defined]
        await run_timer_settled(app, svc, clock, tid, tg)
        assert rt.playing or rt.hands_played == 2
        await until_hands(app, svc, clock, tid, tg, 2)


async def test_the_ready_deadline_does_not_run_while_the_bot_is_down(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The bot is down past the ready phase's deadline: after the restart the phase gets a fresh full
    period (nobody is dealt in on auto-play because the bot restarted), Bob's Ready is kept, and Alice's
    Ready, pressed now, deals the next hand with both at the keyboard. A restart with the deadline near is
    given the full period too."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    db = tmp_path / "bot.db"
    async with bot_running(tg, db, clock, seed_base=7) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "hongzhong")
        lobby = await lobby_message(tg, group, tid, "j")
        await press(tg, bob, lobby, f"L|{tid}|j")
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 1)
        lobby2 = await lobby_message(tg, group, tid, "y")
        assert await press(tg, bob, lobby2, f"L|{tid}|y") == "You're ready"
        period = svc.tables[tid].settings.ready_s
    clock.advance(period + 60)  # down past the deadline
    async with bot_running(tg, db, clock, seed_base=7) as app:
        svc = service(app)
        rt = svc.tables[tid]
        await quiet(app, tg)
        assert not rt.playing and rt.hands_played == 1, "dealt at the restart"
        assert rt.settings.ready_until == clock.now + period
        assert svc.timers.deadline(tid) == clock.now + period  # type: ignore[attr-defined]
        assert (await svc.storage.table_settings(tid)).ready_until == clock.now + period
        assert rt.settings.ready == (rt.seats.index(bob.id),)
        clock.advance(period - 2)  # near its end when the bot stops again
    async with bot_running(tg, db, clock, seed_base=7) as app:
        svc = service(app)
        rt = svc.tables[tid]
        await quiet(app, tg)
        assert not rt.playing and rt.settings.ready_until == clock.now + period
        lobby3 = await lobby_message(tg, group, tid, "y")
        assert await press(tg, alice, lobby3, f"L|{tid}|y") == "You're ready"
        await quiet(app, tg)
        assert rt.playing and rt.live.auto == frozenset(), "nobody on auto-play"


async def test_first_dealer_is_the_xiangyin_host(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """docs/rules/xiangyin.md §2.1, 裁定 1: the table's creator deals the first hand, wherever he sits; in
    Changsha the first dealer is drawn from the hand's seed (docs/rules/changsha.md §2.1)."""
    alice = tg.add_user("Alice")  # the creator, without a private chat at first
    bob, erin = tg.add_user("Bob", started=True), tg.add_user("Erin")
    group = tg.add_group("Mahjong", members=[alice, bob], admins=[erin])
    async with bot_running(tg, tmp_path / "bot.db", seed_base=11) as app:
        svc = service(app)
        for variant in ("xiangyin", "changsha"):
            tid, _ = await open_table(tg, alice, group, variant)
            rt = svc.tables[tid]
            lobby = await lobby_message(tg, group, tid, "j")
            await quiet(app, tg)
            if alice.id in rt.seats:  # the second time she has a private chat, and sat down at once
                assert await press(tg, alice, lobby, f"L|{tid}|l") == "You left the table"
            await press(tg, bob, lobby, f"L|{tid}|j")
            assert rt.seats[0] == bob.id
            tg.send_text(alice, None, f"/start {svc.links.payload(tid)}")
            await tg.wait_for(lambda _, rt=rt: alice.id in rt.seats, what="Alice seated")
            host_seat = rt.seats.index(alice.id)
            assert host_seat == 1
            assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
            [hand] = await svc.storage.table_hands(tid)
            if variant == "xiangyin":
                assert hand.dealer == host_seat and not hand.dealer_drawn
            else:
                assert hand.dealer_drawn
            assert "stopped" in await command(tg, erin, group, "/stop")  # an admin
            await quiet(app, tg)


async def test_commitment_is_the_hash_of_the_revealed_seed_and_the_wall_is_rebuilt(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The shuffle proof as players meet it (docs/verify.md): the lobby says the shuffle is sealed, with the
    commitment's first 8 hex digits and a button that sends the whole commitment in private (before the
    hand ends: nothing of the seed); once the hand is over, the group's line and its button send the seed,
    the salt, the bot's own check and the command, which checks it independently. No command and no 64-hex
    digest in the group."""
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=90) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "zhuanzhuan")
        rt = svc.tables[tid]
        lobby = await lobby_message(tg, group, tid)
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        assert rt.state is not None and rt.hand is not None
        dealt_wall = rt.state.wall.tiles
        seed, code = rt.live.row.seed, rt.live.row.code
        await quiet(app, tg)
        shown = tg.message(group, lobby.message_id)
        [short] = re.findall(r"Shuffle sealed · checkable · ([0-9a-f]{8})$", shown.text or "", re.M)
        assert f"C|{code}" in shown.callback_data
        assert await press(tg, alice, shown, f"C|{code}") == "The check was sent to you in private"
        sealed = tg.bot_messages(alice)[-1].text or ""
        [commit] = re.findall(r"^([0-9a-f]{64})$", sealed, re.M)
        assert commit.startswith(short) and "revealed when it ends" in sealed
        # nothing of the seed anywhere before the end
        everything = [v.text or "" for c in (group, alice) for m in tg.bot_messages(c) for v in m.versions]
        assert not any(str(seed) in text for text in everything)
        await until_hands(app, svc, clock, tid, tg, 1)
        after = await lobby_message(tg, group, tid, "y")
        assert f"Shuffle revealed · checkable · {short}" in (after.text or "")
        group_texts = [v.text or "" for m in tg.bot_messages(group) for v in m.versions]
        assert not any("python -m" in x or re.search(r"[0-9a-f]{64}", x) for x in group_texts)
        assert await press(tg, alice, after, f"C|{code}") == "The check was sent to you in private"
        check = tg.bot_messages(alice)[-1].text or ""
        found = re.search(r"The seed: (\d+)\nThe salt: ([0-9a-f]+)", check)
        assert found is not None, check
        got_seed, salt = found.groups()
        assert int(got_seed) == seed and "✅ The bot's own check" in check
        payload = f"mahjong-shuffle/1|{tid}|1|{got_seed}|{salt}".encode()
        assert hashlib.sha256(payload).hexdigest() == commit
        hand = (await svc.storage.table_hands(tid))[0]
        state = deal("zhuanzhuan", int(got_seed), dealer=hand.dealer_arg, seats=len(hand.seats))
        assert state.wall.tiles == dealt_wall
        # the command it gives checks it independently
        [cmd] = [line for line in check.split("\n") if line.startswith("python -m engine.verify ")]
        out = subprocess.run(
            [sys.executable, "-m", *cmd.split()[2:]], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0 and f"commitment OK: {commit}" in out.stdout
        bad = subprocess.run(
            [sys.executable, "-m", *cmd.replace(salt, salt[::-1]).split()[2:]],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert bad.returncode == 1 and "MISMATCH" in bad.stdout


async def test_a_player_removed_from_the_group_is_not_dealt_the_next_hand(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Bob is removed from the group after hand 1: his Ready is refused and he leaves his seat; Carol left
    the group and never presses: when the ready timer runs out, hand 2 is dealt without either (AI players
    take their seats). Before, Join was the only check: Bob pressed Ready, was dealt hand 2 and saw its
    tiles."""
    clock = Clock()
    alice, bob, carol = (tg.add_user(n, started=True) for n in ("Alice", "Bob", "Carol"))
    group = tg.add_group("Mahjong", members=[alice, bob, carol])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=40) as app:
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        for user in (bob, carol):
            assert await press(tg, user, lobby, f"L|{tid}|j") == "You're seated"
        rt = svc.tables[tid]
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 1)
        assert rt.hands_played == 1 and rt.settings.ready_until is not None
        tg.set_member(group, bob, "kicked")
        tg.set_member(group, carol, "left")
        clock.advance(61)  # what Telegram said of them at Join is no longer trusted
        ready = await lobby_message(tg, group, tid, "y")
        assert await press(tg, bob, ready, f"L|{tid}|y") == "Only members of this group can join this table"
        assert bob.id not in rt.seats and not rt.playing
        assert await press(tg, alice, ready, f"L|{tid}|y") == "You're ready"
        assert not rt.playing  # Carol is seated, not ready
        await run_timer_settled(app, svc, clock, tid, tg)  # the ready timer runs out: dealt
        [*_, hand] = await svc.storage.table_hands(tid)
        assert hand.number == 2 and bob.id not in hand.seats and carol.id not in hand.seats
        assert alice.id in hand.seats


async def test_a_player_comes_back_from_auto_play_the_natural_ways(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """Alice was away: the ready timer dealt hand 2 with her on auto-play. Back, she presses "I'm back ·
    Ready" on her last result - the natural button - and plays again (it answered "The game has already
    started" and left her on auto-play). Then on 托管 again, she types /start in private: "Welcome back!",
    and she plays (it said so and left her on auto-play, unless a lost private chat had put her there)."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=300) as app:
        svc = service(app)
        tid = await seated_and_dealt(tg, app, group, alice, (bob,))
        await until_hands(app, svc, clock, tid, tg, 1)
        rt = svc.tables[tid]
        result = next(m for m in reversed(tg.bot_messages(alice)) if f"L|{tid}|y" in m.callback_data)
        bobs = next(m for m in reversed(tg.bot_messages(bob)) if f"L|{tid}|y" in m.callback_data)
        assert await press(tg, bob, bobs, f"L|{tid}|y") == "You're ready"
        await run_timer_settled(app, svc, clock, tid, tg)  # the ready timer deals hand 2, Alice on auto
        seat = rt.seat_of(alice.id)
        assert rt.playing and seat in rt.live.auto
        assert await press(tg, alice, result, f"L|{tid}|y") == t("ans.back", "en")
        await quiet(app, tg)
        assert rt.playing and seat not in rt.live.auto
        panel = next(m for m in reversed(tg.bot_messages(alice)) if f"A|{tid}" in m.callback_data)
        await press(tg, alice, panel, f"A|{tid}")  # 托管
        await quiet(app, tg)
        assert rt.playing and seat in rt.live.auto
        assert await command(tg, alice, None, "/start") == t("ans.back", "en")
        await quiet(app, tg)
        assert rt.playing and seat not in rt.live.auto


async def test_an_ai_seat_keeps_its_name_all_night(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """Bob sits down between hands in a seat an AI played: the AI seats kept their numbers by counting the
    hand's AI seats, so 'AI 1' became another seat's AI; the running totals then named the wrong points and
    the 大结算 listed an AI too many. An AI is named by its seat (AI 3 plays seat 3) all night."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=300) as app:
        svc = service(app)
        tid, _ = await open_table(tg, alice, group, "changsha")
        await tg.wait_for(lambda _: alice.id in svc.tables[tid].seats)
        lobby = await lobby_message(tg, group, tid)
        await press(tg, alice, lobby, f"L|{tid}|s")
        await press(tg, alice, lobby, setting(svc, tid, "rounds", 4))
        await press(tg, alice, lobby, f"L|{tid}|b")
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 1)
        # Bob sits down between hands (seat 2, played by AI 2 in hand 1)
        lobby2 = await lobby_message(tg, group, tid, "y")
        assert await press(tg, bob, lobby2, f"L|{tid}|j") == "You're seated"
        # he leaves and sits down again: the seat he left is the AI's at the next deal, and the lobby says
        # so as the Mini App's does (it said "(empty)")
        assert await press(tg, bob, lobby2, f"L|{tid}|l") == "You left the table"
        await tg.wait_idle()
        text = tg.message(group, lobby2.message_id).text or ""
        assert all(f"🤖 AI {i}" in text for i in (2, 3, 4)) and "(empty)" not in text, text
        assert await press(tg, bob, lobby2, f"L|{tid}|j") == "You're seated"
        await until_hands(app, svc, clock, tid, tg, 4)
        assert tid not in svc.tables
        hands = await svc.storage.table_hands(tid)
        # the last hand's 'Table totals' line, as the group read it
        res4 = [m.text for m in tg.bot_messages(group) if "Table totals" in (m.text or "")][-1]
        line = next(x for x in res4.splitlines() if "Table totals" in x)
        running = dict(
            (n.strip(), int(v)) for n, v in re.findall(r"([^,:]+?) ([+-]\d+)", line.split(":", 1)[1])
        )
        final = next(m.text for m in tg.bot_messages(group) if "Final summary" in (m.text or ""))
        finals = dict((n, int(v)) for n, v in re.findall(r"\d+\. (.+?) ([+-]\d+)\n", final + "\n"))
        assert all(finals.get(n) == v for n, v in running.items()), (hands[-1].seats, running, finals)
        assert set(finals) == {"Alice", "Bob", "AI 2", "AI 3", "AI 4"}  # AI 2 played seat 2 in hand 1
