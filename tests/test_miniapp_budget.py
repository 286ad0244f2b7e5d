"""Telegram's budget with the Mini App (bot/table/feed.py ``spares_panel``): while a player's page is open and
in front, his private panel is not edited (the page shows everything); while it is open but hidden, a
decision that waits for him is one short private nudge; once his last page closes, his panel is brought up
to date and followed again."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.miniapp.server import Config, MiniApp

from .bot_support import Clock, Player, bot_running, lobby_message, open_table, service
from .fake_telegram import FakeTelegramServer
from .miniapp_support import Stream, init_data

PANEL = ("editMessageText", "editMessageCaption", "editMessageMedia", "sendMessage", "sendPhoto")


async def test_an_open_page_spares_the_panel_and_a_hidden_one_nudges(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    config = Config(url="https://mahjong.example/app", port=0)
    async with (
        bot_running(tg, tmp_path / "bot.db", clock, miniapp=config, seed_base=1) as app,
        aiohttp.ClientSession() as http,
    ):
        web: MiniApp = app.bot_data["miniapp"]
        svc = service(app)
        tid, lobby = await open_table(tg, alice, group, "changsha")
        rt = svc.tables[tid]
        await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_for(lambda _: bob.id in rt.seats, what="Bob seated")
        token = web.tokens.token(tid)
        page = await Stream.open(http, web, init_data(tg, alice, auth_date=clock.now), token)
        await page.wait(lambda f: f["k"] == "lobby", "the lobby on the page")
        start = tg.mark()
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        bob_player = Player(tg, bob, tid)

        async def step(hidden: bool) -> str:
            """One decision, whoever's: Alice's on her page, Bob's in his chat ("" once the hand is over)."""
            await tg.wait_idle()
            if not rt.playing:
                return ""
            mine = page.last if page.last.get("k") == "hand" else None
            if mine is not None and "dec" in mine:
                if hidden:  # she comes back to the page to answer
                    await page.send({"op": "vis", "on": True})
                dec = mine["dec"]
                body = {"op": "act", "hid": dec["hid"], "since": dec["since"], "i": 0, "t": token,
                        "init": init_data(tg, alice, auth_date=clock.now)}  # fmt: skip
                async with http.post(f"http://127.0.0.1:{web.port}/api/act", json=body) as resp:
                    assert (await resp.json())["ok"]
                if hidden:
                    await page.send({"op": "vis", "on": False})
                await page.wait(lambda f: f.get("dec", {}).get("since") != dec["since"], "her move")
                return "alice"
            d = bob_player.decision()
            if d is not None:
                bob_player.press(d[0], d[1][0])
                return "bob"
            await tg.wait_for(
                lambda _: bob_player.decision() is not None or "dec" in page.last or not rt.playing,
                what="a decision",
            )
            return "wait"

        moves = 0
        while moves < 6 and await step(hidden=False):
            moves += 1
        assert moves == 6
        shown = [c.method for c in tg.calls_to(*PANEL, chat_id=alice.id) if c.seq >= start]
        assert not shown, f"her panel was sent or edited while her page was in front: {shown}"
        # the page goes to the background: each decision of hers is one nudge, nothing else
        await page.send({"op": "vis", "on": False})
        hidden_from = tg.mark()
        decisions = 0
        while moves < 18 and (who := await step(hidden=True)):
            moves += 1
            decisions += who == "alice"
        calls = [c for c in tg.calls_to(*PANEL, chat_id=alice.id) if c.seq >= hidden_from]
        assert decisions and calls and all(c.method == "sendMessage" for c in calls), [
            c.method for c in calls
        ]
        assert len(calls) <= decisions + 1, (len(calls), decisions)
        # the page closes: her panel is brought up to date once
        closed = tg.mark()
        await page.close()
        await tg.wait_idle()
        assert rt.playing  # (seed_base 1: the hand is longer than this at the AI's default level)
        shown = [c for c in tg.calls_to(*PANEL, chat_id=alice.id) if c.seq >= closed]
        # (never sent this hand: it is sent now, as a new message, and followed from then on)
        assert shown and f"table #{tid}" in shown[0].params.get("text", ""), [c.method for c in shown]
