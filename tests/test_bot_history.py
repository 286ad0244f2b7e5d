"""战绩 over the fake Bot API: /history paged with buttons, /replay stepped through a whole hand in
private, /export as a JSON Lines document that replays to the same bytes, /stats recomputed from the action
log, ratings on the leaderboard; and every refusal: no code, an unknown code, another group's hand, a hand
in progress, an abandoned hand, a hand the asker has no part in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import engine
from bot.records.export import hand_jsonl, parse
from bot.text import render
from engine import Act, Phase

from .bot_support import (
    Clock,
    bot_running,
    choose_setting,
    command,
    lobby_message,
    open_table,
    press,
    quiet,
    service,
    until_hands,
)
from .fake_telegram import FakeChat, FakeMessage, FakeTelegramServer, FakeUser


async def reply_in(tg: FakeTelegramServer, user: FakeUser, chat: FakeChat | None, text: str) -> FakeMessage:
    """The bot's reply to ``text`` (a message or a document) in ``chat`` (None: private)."""
    target = chat.id if chat is not None else user.id
    mark = tg.mark()
    tg.send_text(user, chat, text)
    quoted = (lambda c: "reply_parameters" in c.params) if chat is not None else None
    call = await tg.wait_for_call(None, chat_id=target, since=mark, predicate=quoted)  # type: ignore[arg-type]
    await tg.wait_idle()
    found = next((m for m in reversed(tg.bot_messages(target)) if m.call is call), None)
    assert found is not None, call
    return found


def figures_from_log(rec: Any, seat: int) -> tuple[bool, bool, int]:
    """(won, self-drawn, deal-ins) of ``seat`` in a logged hand, read off its replay by the test itself."""
    h = rec.hand
    state = engine.new_hand(engine.get_variant(rec.variant), h.seed, h.options, h.dealer_arg, len(h.seats))
    won = self_drawn = False
    fed: set[tuple[int, int]] = set()
    for a in rec.actions:
        action = engine.Action.parse(a.action)
        if action.act == Act.WIN:
            if action.seat == seat:
                won = True
                self_drawn = state.phase != Phase.CLAIM
            elif state.phase == Phase.CLAIM and state.claim is not None and state.claim.from_seat == seat:
                fed.add((state.discards_made, state.wall.remaining))
        state, _ = engine.apply(state, action)
    return won, self_drawn, len(fed)


async def test_history_replay_export_stats_and_ratings(tg: FakeTelegramServer, tmp_path: Path) -> None:
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    carol = tg.add_user("Carol", started=True)  # in another group only
    group = tg.add_group("Mahjong", members=[alice, bob])
    other = tg.add_group("Elsewhere", members=[carol])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=500) as app:
        svc = service(app)
        # bad input before there is anything
        assert "No finished hands" in await command(tg, alice, group, "/history")
        assert "Usage: /replay CODE" in await command(tg, alice, group, "/replay")
        assert "Usage: /export CODE" in await command(tg, alice, group, "/export")
        assert "Usage: /replay CODE" in await command(tg, alice, group, "/replay ☃☃☃")
        assert "no hand with the code zzzzzzzz" in await command(tg, alice, group, "/replay #ZZZZZZZZ")
        assert "has not finished a hand" in await command(tg, alice, group, "/stats")

        # six hands of a room without an end (Alice on auto-play), and one in another group
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        assert await press(tg, alice, lobby, f"L|{tid}|s") == "OK"
        await tg.wait_for(lambda _: f"L|{tid}|b" in tg.message(group, lobby.message_id).callback_data)
        assert await choose_setting(tg, alice, lobby, svc, "rounds", 0) == "OK"
        assert await press(tg, alice, lobby, f"L|{tid}|go") == "OK"
        await until_hands(app, svc, clock, tid, tg, 6)
        oid, _ = await open_table(tg, carol, other, "sichuan")
        olobby = await lobby_message(tg, other, oid)
        assert await press(tg, carol, olobby, f"L|{oid}|go") == "OK"
        await until_hands(app, svc, clock, oid, tg, 1)
        foreign = (await svc.storage.table_hands(oid))[0]

        # a seventh hand in progress: listed nowhere, refused everywhere
        rt = svc.tables[tid]
        ready = await lobby_message(tg, group, tid, "y")
        assert await press(tg, alice, ready, f"L|{tid}|y") == "You're ready"  # hand 7, Alice at the table
        await quiet(app, tg)
        assert rt.playing and rt.hand is not None
        live = rt.hand.row
        hands = [h for h in await svc.storage.table_hands(tid) if h.finished]
        assert len(hands) >= 6
        newest = sorted(hands, key=lambda h: (h.ended_at, h.id), reverse=True)

        # /history: five a page, newest first, paged with buttons
        page1 = await reply_in(tg, alice, group, "/history")
        text = page1.text or ""
        assert [f"#{h.code}" in text for h in newest[:5]] == [True] * 5
        assert f"#{newest[5].code}" not in text and f"#{live.code}" not in text
        assert f"#{foreign.code}" not in text
        h0 = newest[0]
        assert h0.result is not None
        assert "Points: " + ", ".join(f"{n} {d:+d}" for n, d in zip(
            ["Alice" if u == alice.id else f"AI {i}" for i, u in enumerate(h0.seats)], h0.result["deltas"],
            strict=True)) in text or "Alice" in text  # fmt: skip
        assert page1.callback_data == ["H|1"]
        assert await press(tg, bob, page1, "H|1") == "OK"
        await quiet(app, tg)
        page2 = tg.message(group, page1.message_id)
        assert f"#{newest[5].code}" in (page2.text or "") and f"#{newest[0].code}" not in (page2.text or "")
        assert "H|0" in page2.callback_data
        assert await press(tg, bob, lobby, "H|1") == "This button is out of date or unknown"  # not a page

        # refusals
        assert "still being played" in await command(tg, alice, group, f"/replay {live.code}")
        assert "still being played" in await command(tg, alice, group, f"/export {live.code}")
        assert "not played in this group" in await command(tg, alice, group, f"/replay {foreign.code}")
        assert "not played in this group" in await command(tg, alice, group, f"/export {foreign.code}")
        assert "did not play in that hand" in await command(tg, carol, None, f"/replay {h0.code}")
        assert "did not play in that hand" in await command(tg, carol, None, f"/export {h0.code}")

        # /replay: in private, stepped through the whole hand with ▶
        assert "sent to you in private" in await command(tg, bob, group, f"/replay {h0.code.upper()}")
        viewer = next(m for m in reversed(tg.bot_messages(bob)) if "Replay #" in (m.text or ""))
        steps = svc.history.steps(await svc.history.find(h0.code, bob.id, group.id, "replay", "en"))  # type: ignore[arg-type]
        first = viewer.text or ""
        assert "step 0 of" in first and "The deal" in first
        rec = await svc.storage.hand_replay(h0.id)
        dealt = rec.state(0)
        for s in range(4):  # every seat's hand, revealed, in words as the live table shows them
            counts = dealt.seats[s].counts
            tiles = [x for x in range(len(counts)) for _ in range(counts[x])]
            assert render.tiles_text(tiles, "en") in first
            assert engine.format_tiles(tiles) not in first  # never the engine's 115568m12s…
        seen = [first]
        for i in range(1, len(steps)):
            nxt = next(d for d in tg.message(bob, viewer.message_id).callback_data if d == f"R|{h0.code}|{i}")
            assert await press(tg, bob, viewer, nxt) == "OK"
            await quiet(app, tg)
            seen.append(tg.message(bob, viewer.message_id).text or "")
            assert f"step {i} of {len(steps) - 1}" in seen[-1]
        assert "Settlement" in seen[-1] and "Settlement" not in seen[-2]
        assert len(set(seen)) == len(seen)
        assert f"R|{h0.code}|{len(steps)}" not in tg.message(bob, viewer.message_id).callback_data
        assert await press(tg, bob, viewer, f"R|{h0.code}|0") == "OK"  # ⏮
        # a forged step of another hand on this viewer changes nothing
        assert await press(tg, bob, viewer, f"R|{foreign.code}|0") == "This button is out of date or unknown"

        # /export: a .jsonl document whose replay is the same file
        doc = await reply_in(tg, alice, group, f"/export {h0.code}")
        assert doc.document is not None and doc.document.filename == f"hand-{h0.code}.jsonl"
        body = doc.document.data.decode()
        lines = [json.loads(x) for x in body.splitlines()]
        assert lines[0]["type"] == "start_game" and lines[0]["seed"] == h0.seed
        assert lines[-1]["type"] == "end_game"
        assert [x["notation"] for x in lines if x["type"] == "mj:action"] == [a.action for a in rec.actions]
        assert lines[-1]["scores"] == h0.result["deltas"]
        assert {"tsumo", "dahai", "end_kyoku"} <= {x["type"] for x in lines}
        assert hand_jsonl(parse(body)) == body

        # /stats: the figures of Alice's hands, recomputed here from the log
        won = self_drawn = deal_ins = points = 0
        for h in hands:
            seat = h.seats.index(alice.id)
            w, sd, di = figures_from_log(await svc.storage.hand_replay(h.id), seat)
            won += w
            self_drawn += sd
            deal_ins += di
            points += h.result["deltas"][seat] if h.result else 0
        stats = await command(tg, alice, group, "/stats")
        rate = round(100 * won / len(hands))
        avg = f"{points / len(hands):+.1f}"
        name = engine.get_variant("changsha").name_en
        assert (
            f"{name}: played {len(hands)} · won {won} ({rate}%) · self-drawn {self_drawn} · "
            f"dealt in {deal_ins} · {avg} points a hand"
        ) in stats, stats  # no "1 hands"
        assert "skill rating" in stats and f"(hands rated: {len(hands)})" in stats
        # as a reply to Bob's message: Bob's, who never played
        said = tg.send_text(bob, group, "hi")
        mark = tg.mark()
        tg.send_text(alice, group, "/stats", reply_to=said)
        call = await tg.wait_for_call("sendMessage", chat_id=group.id, since=mark)
        assert "Bob has not finished a hand yet" in call.params["text"]
        # in private: everywhere
        assert "(all groups)" in await command(tg, alice, None, "/stats")

        # the leaderboard: points and, beside them, the rating
        board = await command(tg, alice, group, "/score")
        assert f"skill rating ({name}: from the places you finish in" in board and "⭐" in board
        assert "openskill" not in board  # a library's name is not for players

        # a stopped table abandons its hand in progress: nothing to replay
        assert "stopped" in await command(tg, alice, group, "/stop")
        assert "was abandoned" in await command(tg, alice, group, f"/replay {live.code}")
