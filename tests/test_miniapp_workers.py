"""The Mini App with several workers (PostgreSQL): a move applied on one worker reaches the streams another
worker holds (bot/miniapp/relay.py: NOTIFY after each published change, the other workers read the table
again and push). Two workers in one process, one webhook port, a Mini App port each."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.miniapp.server import Config, MiniApp
from bot.telegram.app import running

from .bot_support import Clock, lobby_message, loopback_webhook, make_app, open_table
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser
from .miniapp_support import Stream, init_data
from .pgcluster import Cluster as PgCluster


@asynccontextmanager
async def _workers(tg: FakeTelegramServer, pg_cluster: PgCluster, n: int) -> AsyncIterator[Room]:
    """``n`` workers (one webhook port, a Mini App port each) and a 长沙 table Alice and Bob were dealt at,
    in a group where Carol is a member too."""
    url = await pg_cluster.database()
    hook = loopback_webhook()
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="en", started=True)
    carol = tg.add_user("Carol", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob, carol])
    config = Config(url="https://mahjong.example/app", port=0)
    apps = [make_app(tg, url, clock, miniapp=config) for _ in range(n)]  # type: ignore[arg-type]
    async with AsyncExitStack() as stack, aiohttp.ClientSession() as http:
        for app in apps:
            await stack.enter_async_context(running(app, webhook=hook))
        webs: list[MiniApp] = [app.bot_data["miniapp"] for app in apps]
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
        await tg.wait_idle()
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        await tg.wait_idle()
        yield Room(apps, webs, http, clock, group, alice, bob, carol, webs[0].tokens.token(tid))


@dataclass
class Room:
    apps: list[Any]
    webs: list[MiniApp]
    http: aiohttp.ClientSession
    clock: Clock
    group: FakeChat
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    token: str


async def test_a_move_on_one_worker_reaches_streams_on_the_other(tg: FakeTelegramServer,
                                                                 pg_cluster: PgCluster) -> None:  # fmt: skip
    async with _workers(tg, pg_cluster, 2) as room:
        apps, webs, http, clock, alice, bob, token = (
            room.apps, room.webs, room.http, room.clock, room.alice, room.bob, room.token
        )  # fmt: skip
        streams: dict[int, tuple[int, Stream]] = {}
        for user, worker in ((alice, 1), (bob, 0)):  # each player's stream on a worker of its own
            init = init_data(tg, user, auth_date=clock.now)
            streams[user.id] = (worker, await Stream.open(http, webs[worker], init, token))
        moves = 0
        pages = [page for _, page in streams.values()]

        async def next_mover() -> tuple[object, int, dict] | None:
            """The player with a decision on his page, or None once neither page shows the hand. A page may
            show the hand between two decisions (a claim window closing, another worker's frame on its
            way): then wait for the next frame rather than take the hand for over."""
            for _ in range(50):
                for user in (alice, bob):
                    worker, page = streams[user.id]
                    f = page.frames[-1] if page.frames else {}
                    if f.get("k") == "hand" and "dec" in f:
                        return user, worker, f
                if all(p.frames and p.frames[-1].get("k") != "hand" for p in pages):
                    return None
                seen = [len(p.frames) for p in pages]
                waits = [
                    asyncio.create_task(p.wait(lambda _, p=p, n=n: len(p.frames) > n, "a new frame"))
                    for p, n in zip(pages, seen, strict=True)
                ]
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                for w in waits:
                    w.cancel()
            raise AssertionError(f"no decision and no end: {[p.frames[-1] for p in pages]}")

        # a dozen decisions, each made on the worker that does not hold its player's stream
        for _ in range(12):
            mover = await next_mover()
            if mover is None:  # the hand is over
                break
            user, worker, f = mover
            other = webs[1 - worker]
            dec = f["dec"]
            i = 0 if "acts" in dec else dec.get("sug", [0])[0]
            body = {"op": "act", "hid": dec["hid"], "since": dec["since"], "i": i, "t": token,
                    "init": init_data(tg, user, auth_date=clock.now)}  # fmt: skip
            async with http.post(f"http://127.0.0.1:{other.port}/api/act", json=body) as resp:
                answer = await resp.json()
            assert answer["ok"], answer
            moves += 1
            # his own stream, on the worker that did not apply the move, shows the move
            await streams[user.id][1].wait(
                lambda g, d=dec: g.get("dec", {}).get("since") != d["since"] or g["k"] != "hand",
                "the move, across workers",
            )
        assert moves >= 4, [p.frames[-1].get("k") for p in pages]
        relays = [app.bot_data["relay"] for app in apps]
        assert sum(r.refreshed for r in relays) >= moves and all(r.sent for r in relays), [
            (r.sent, r.refreshed) for r in relays
        ]
        for _, page in streams.values():
            await page.close()


async def test_a_stream_that_joins_as_a_move_commits_is_shown_it(tg: FakeTelegramServer,
                                                                  pg_cluster: PgCluster) -> None:  # fmt: skip
    """A worker shows a stream that joins the table as it read it before listing the stream; a move committed
    in between pushed to no stream of it (bot/miniapp/relay.py): the table is read again once the stream is
    listed. Here the watcher's membership check holds his hello after the read while the move is made on
    the same worker."""
    async with _workers(tg, pg_cluster, 1) as room:
        app, web, http, clock, alice, carol, token = (
            room.apps[0], room.webs[0], room.http, room.clock, room.alice, room.carol, room.token
        )  # fmt: skip
        page = await Stream.open(http, web, init_data(tg, alice, auth_date=clock.now), token)
        f = await page.wait(lambda g: "dec" in g, "Alice's decision")
        tg.hold("getChatMember", room.group, fail=False)
        carol_page = await Stream.open(http, web, init_data(tg, carol, auth_date=clock.now), token)
        await tg.wait_for(lambda _: tg.held_calls(), what="Carol's membership check")
        dec = f["dec"]
        relay = app.bot_data["relay"]
        refreshed = relay.refreshed
        i = 0 if "acts" in dec else dec.get("sug", [0])[0]
        body = {"op": "act", "hid": dec["hid"], "since": dec["since"], "i": i, "t": token,
                "init": init_data(tg, alice, auth_date=clock.now)}  # fmt: skip
        async with http.post(f"http://127.0.0.1:{web.port}/api/act", json=body) as resp:
            assert (await resp.json())["ok"]
        await page.wait(lambda g: g.get("cur") == 1 and "dec" not in g, "Bob's turn")  # the table waits
        # … and this worker has read the move again for its streams (Alice's alone: Carol's is not listed yet)
        await page.wait(lambda _: relay.refreshed > refreshed, "the relay's read after the move")
        assert tg.held_calls(), "Carol's hello went on before the move"
        tg.release()

        def board(g: dict) -> object:
            return g.get("k"), g.get("wall"), g.get("cur"), [(s["d"], s["m"]) for s in g.get("seats", [])]

        # Carol watches: her last frame shows the table as Alice's own page does, after the move
        await carol_page.wait(lambda g: board(g) == board(page.last), "the move")
        assert board(page.last) != board(f)
        for p in (page, carol_page):
            await p.close()
