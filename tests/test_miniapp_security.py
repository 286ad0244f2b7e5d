"""Who may open the Mini App, and what each connection may learn (docs/miniapp.md, docs/security.md).

* initData is checked as Telegram specifies: forged, expired, re-signed for another user, signed by another
  bot, missing and malformed sign-ins are refused, on the stream and on every action;
* table tokens cannot be guessed from table ids;
* a seated player acts only for his own seat; a non-member of the group cannot watch, a member watches the
  public table;
* swapping one concealed tile of seat A changes no byte of any frame seat B or a spectator is sent;
* malformed and oversized frames are refused, and the server goes on serving.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.miniapp import protocol
from bot.miniapp.auth import AuthError, TableTokens, sign, tokens_key, validate
from bot.miniapp.server import WATCH_CHECK_S, Config, MiniApp
from bot.miniapp.texts import tx
from bot.table.runtime import TableRuntime
from bot.telegram.app import miniapp_from_env
from engine import Phase

from .bot_support import Clock, Player, bot_running, lobby_message, open_table, run_timer, service
from .fake_telegram import FakeTelegramServer, FakeUser
from .miniapp_support import init_data
from .playout import swap_hidden

TOKEN = "123:ABC"
LANGS = ("zh", "en")
NOW = 1_750_000_000


def fields(user_id: int = 42, **extra: str) -> dict[str, str]:
    return {
        "auth_date": str(NOW - 10),
        "query_id": "AAH1",
        "user": json.dumps({"id": user_id, "first_name": "李雷", "language_code": "zh-hans"}),
        **extra,
    }


def test_a_sign_in_telegram_made_is_accepted() -> None:
    user = validate(sign(fields(start_param="12-abc"), TOKEN), TOKEN, NOW)
    assert (user.id, user.name, user.language, user.start_param) == (42, "李雷", "zh-hans", "12-abc")


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: "", "missing"),
        (lambda: None, "missing"),
        (lambda: sign(fields(), "999:OTHER-BOT"), "forged"),  # signed by another bot
        (
            lambda: sign(fields(), TOKEN).replace("query_id=AAH1", "query_id=AAH2"),
            "forged",
        ),  # a field changed
        (lambda: sign(fields(), TOKEN)[:-1] + "0", "forged"),  # the hash changed
        (lambda: sign(fields(), TOKEN).split("&hash=")[0], "forged"),  # no hash
        (lambda: sign({**fields(), "auth_date": str(NOW - 86_401)}, TOKEN), "expired"),
        (lambda: sign({**fields(), "auth_date": str(NOW + 3600)}, TOKEN), "expired"),  # from the future
        (lambda: sign(fields(user_id=0), TOKEN), "malformed"),
        (lambda: sign({**fields(), "user": "{not json"}, TOKEN), "malformed"),
        (
            lambda: sign(
                {**fields(), "user": json.dumps({"id": 7, "first_name": "b", "is_bot": True})}, TOKEN
            ),
            "malformed",
        ),  # fmt: skip
        (lambda: sign({**fields(), "auth_date": "1e9"}, TOKEN), "malformed"),
        (lambda: sign(fields(start_param="../x"), TOKEN), "malformed"),
        (lambda: sign(fields(), TOKEN) + "&auth_date=1", "malformed"),  # a field twice
        (lambda: "x" * 5000, "malformed"),
    ],
)
def test_sign_ins_refused(make: Any, reason: str) -> None:
    with pytest.raises(AuthError) as e:
        validate(make(), TOKEN, NOW)
    assert e.value.reason == reason


def test_re_signed_for_another_user_is_refused() -> None:
    """Alice's signed initData with Bob's user put in: the hash no longer matches."""
    alice = sign(fields(user_id=1), TOKEN)
    bob_user = json.dumps({"id": 2, "first_name": "李雷", "language_code": "zh-hans"})
    forged = "&".join(
        p if not p.startswith("user=") else "user=" + aiohttp.helpers.quote(bob_user, safe="")  # type: ignore[attr-defined]
        for p in alice.split("&")
    )
    with pytest.raises(AuthError, match="forged"):
        validate(forged, TOKEN, NOW)


def test_table_tokens_cannot_be_guessed_from_ids() -> None:
    tokens = TableTokens(tokens_key(TOKEN))
    token = tokens.token(7)
    assert tokens.table(token) == 7
    assert tokens.table("7") is None and tokens.table("8" + token[1:]) is None
    assert TableTokens(tokens_key("9:OTHER")).table(token) is None  # another bot's
    assert len(token.split("-")[1]) >= 22


# ------------------------------------------------------------------ against the running bot


def config() -> Config:
    return Config(url="https://mahjong.example/app", port=0)


async def started_table(tg: FakeTelegramServer, app: Any, group: Any, alice: FakeUser, bob: FakeUser) -> int:
    tid, lobby = await open_table(tg, alice, group, "changsha")
    rt = service(app).tables[tid]
    await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
    tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
    await tg.wait_for(lambda _: bob.id in rt.seats, what="Bob seated")
    lobby = await lobby_message(tg, group, tid)
    tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
    await tg.wait_for(lambda _: rt.playing, what="the hand dealt")
    return tid


async def hello(web: MiniApp, init: Any, token: str) -> list[dict[str, Any]]:
    """Connect, say hello, and read what the server sends until the first frame of the table (or a
    refusal and the close)."""
    async with aiohttp.ClientSession() as http, http.ws_connect(f"http://127.0.0.1:{web.port}/ws") as ws:
        await ws.send_str(json.dumps({"op": "hello", "init": init, "t": token}))
        got = []
        async for msg in ws:
            frame = json.loads(msg.data)
            got.append(frame)
            if frame["k"] in ("hand", "lobby", "refused"):
                break
        return got


async def test_the_stream_admits_players_and_members_and_refuses_the_rest(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    carol = tg.add_user("Carol")  # a member who watches
    mallory = tg.add_user("Mallory")  # not in the group
    group = tg.add_group("Mahjong", members=[alice, bob, carol])
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=config()) as app:
        web: MiniApp = app.bot_data["miniapp"]
        tid = await started_table(tg, app, group, alice, bob)
        token = web.tokens.token(tid)
        mine = await hello(web, init_data(tg, alice, auth_date=clock.now), token)
        assert [f["k"] for f in mine] == ["hi", "hand"] and mine[1]["me"] == 0 and "hand" in mine[1]
        watching = await hello(web, init_data(tg, carol, auth_date=clock.now), token)
        assert watching[-1]["k"] == "hand" and watching[-1]["me"] is None and "hand" not in watching[-1]
        assert all("h" not in s for s in watching[-1]["seats"])  # no concealed hand, anyone's
        refusals = {
            "not a member": init_data(tg, mallory, auth_date=clock.now),
            "expired": init_data(tg, carol, auth_date=clock.now - 2 * 86_400),
            "forged": init_data(tg, carol, auth_date=clock.now, token="1:ANOTHER-BOT"),
            "missing": "",
        }
        for what, init in refusals.items():
            [refused] = await hello(web, init, token)
            assert refused["k"] == "refused" and refused["text"], what
        [refused] = await hello(web, init_data(tg, carol, auth_date=clock.now), web.tokens.token(tid + 1))
        assert refused["k"] == "refused"
        [refused] = await hello(web, init_data(tg, carol, auth_date=clock.now), str(tid))
        assert refused["k"] == "refused"


async def test_a_member_who_watches_is_refused_once_he_leaves_the_group(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """A member watches through the stream; he is removed from the group: once his membership was confirmed
    ``WATCH_CHECK_S`` ago, his next frame waits for the group to confirm it, which it does not - he is refused
    and his stream closed, with no frame of the table after his removal. A member goes on watching."""
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    carol, dave = tg.add_user("Carol"), tg.add_user("Dave")  # members who watch
    group = tg.add_group("Mahjong", members=[alice, bob, carol, dave])
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=config()) as app:
        web: MiniApp = app.bot_data["miniapp"]
        tid, lobby = await open_table(tg, alice, group, "changsha")
        token = web.tokens.token(tid)
        url = f"http://127.0.0.1:{web.port}/ws"
        async with aiohttp.ClientSession() as http:
            pages = {}
            for user in (carol, dave):
                ws = await http.ws_connect(url)
                await ws.send_str(json.dumps({"op": "hello", "init": init_data(tg, user, auth_date=clock.now),
                                              "t": token}))  # fmt: skip
                assert [(await ws.receive_json())["k"] for _ in range(2)] == ["hi", "lobby"]
                pages[user.first_name] = ws
            tg.set_member(group, carol, "kicked")
            clock.advance(WATCH_CHECK_S + 1)
            tg.press(alice, group, lobby.message_id, f"L|{tid}|go")

            async def rest(ws: aiohttp.ClientWebSocketResponse) -> list[dict[str, Any]]:
                return [json.loads(m.data) async for m in ws]

            got = await asyncio.wait_for(rest(pages["Carol"]), 10)  # (before: the hand, and no end)
            assert [f["k"] for f in got] == ["refused"] and got[0]["text"], got
            assert pages["Carol"].closed
            frame = await pages["Dave"].receive_json()
            assert frame["k"] == "hand" and frame["me"] is None
            await pages["Dave"].close()


async def test_a_stream_is_told_when_the_bot_is_removed_from_the_group(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """The bot is removed from the group mid-hand: the table closes, and a player's open page is told so (a
    closed lobby frame) instead of showing the hand as if it went on."""
    clock = Clock()
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=config()) as app:
        web: MiniApp = app.bot_data["miniapp"]
        tid = await started_table(tg, app, group, alice, bob)
        hello_frame = {
            "op": "hello",
            "init": init_data(tg, alice, auth_date=clock.now),
            "t": web.tokens.token(tid),
        }
        async with aiohttp.ClientSession() as http, http.ws_connect(f"http://127.0.0.1:{web.port}/ws") as ws:
            await ws.send_str(json.dumps(hello_frame))
            assert [(await ws.receive_json())["k"] for _ in range(2)] == ["hi", "hand"]
            tg.remove_bot(group, by=alice)

            async def closed() -> dict[str, Any]:
                while not (frame := await ws.receive_json()).get("closed"):
                    pass
                return dict(frame)

            frame = await asyncio.wait_for(closed(), 10)
            assert frame["k"] == "lobby" and frame["tid"] == tid


async def post(web: MiniApp, body: Any) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    async with aiohttp.ClientSession() as http:
        async with http.post(f"http://127.0.0.1:{web.port}/api/act", data=data) as resp:
            return resp.status, await resp.json()


async def test_a_player_acts_only_for_his_own_seat(tg: FakeTelegramServer, tmp_path: Path) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    mallory = tg.add_user("Mallory")
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=config()) as app:
        web: MiniApp = app.bot_data["miniapp"]
        tid = await started_table(tg, app, group, alice, bob)
        rt = service(app).tables[tid]
        token = web.tokens.token(tid)
        seat = next(s for s in rt.live.pending if s in (0, 1))
        p, owner = rt.live.pending[seat], (alice, bob)[seat]
        other = (bob, alice)[seat]
        assert rt.hand is not None
        move = {"op": "act", "hid": rt.hand.id, "since": p.since, "i": 0, "t": token}
        version = rt.state.version if rt.state else -1
        for who in (other, mallory):  # his decision, pressed by someone else
            status, answer = await post(web, {**move, "init": init_data(tg, who, auth_date=clock.now)})
            assert not answer["ok"]
        assert rt.state is not None and rt.state.version == version
        status, answer = await post(
            web, {**move, "init": init_data(tg, owner, auth_date=clock.now, token="1:X")}
        )
        assert status == 403 and not answer["ok"]
        # not signed in, so his language is unknown: said in both (it was Chinese alone, also to Bob)
        key = f"app.auth.{answer['why']}"
        assert answer["text"] == tx(key, "zh") + "\n" + tx(key, "en")
        await tg.wait_idle()
        panel = next(
            m
            for m in reversed(tg.bot_messages(owner))
            if f"g|{tid}|{rt.hand.id}|{p.since}|0" in m.callback_data
        )
        status, answer = await post(web, {**move, "init": init_data(tg, owner, auth_date=clock.now)})
        assert answer["ok"], answer
        version = rt.state.version
        status, answer = await post(web, {**move, "init": init_data(tg, owner, auth_date=clock.now)})
        assert not answer["ok"]  # the same decision twice: one action
        # ... and its button in the chat, pressed after the app answered it: out of date, nothing moves
        q = tg.press_raw(owner, panel, f"g|{tid}|{rt.hand.id}|{p.since}|0")  # (its keyboard is gone since)
        call = await tg.wait_for_call("answerCallbackQuery", callback_query_id=q.id)
        await tg.wait_idle()
        assert rt.state.version == version and "out of date" in call.params.get("text", ""), call


async def test_malformed_and_oversized_frames_are_refused(tg: FakeTelegramServer, tmp_path: Path) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=config()) as app:
        web: MiniApp = app.bot_data["miniapp"]
        tid = await started_table(tg, app, group, alice, bob)
        token = web.tokens.token(tid)
        init = init_data(tg, alice, auth_date=clock.now)
        url = f"http://127.0.0.1:{web.port}/ws"
        async with aiohttp.ClientSession() as http:
            # an op that is not a string, JSON nested too deep: these were a 1006 close and a traceback
            odd = ("{not json", '{"op":{}}', '{"op":[]}', "[" * 1500)
            for first in (*odd, json.dumps({"op": "act", "hid": 1, "since": 1, "i": 0}), "x" * 5000):
                async with http.ws_connect(url) as ws:
                    await ws.send_str(first)
                    msgs = [m async for m in ws]
                    assert ws.closed and ws.close_code not in (None, 1000), first[:20]
                    assert all(
                        json.loads(m.data)["k"] == "refused" for m in msgs if m.type == aiohttp.WSMsgType.TEXT
                    )
            async with http.ws_connect(url) as ws:  # admitted, then garbage: closed
                await ws.send_str(json.dumps({"op": "hello", "init": init, "t": token}))
                assert (await ws.receive_json())["k"] == "hi"
                assert (await ws.receive_json())["k"] == "hand"
                await ws.send_str(json.dumps({"op": "act", "hid": -1, "since": "1", "i": 10**30}))
                rest = [m async for m in ws]
                assert ws.closed and ws.close_code == 1003 and not [m for m in rest if m.type == 1]
            async with http.ws_connect(url) as ws:  # admitted, then an op that is not a string: closed too
                await ws.send_str(json.dumps({"op": "hello", "init": init, "t": token}))
                assert (await ws.receive_json())["k"] == "hi"
                await ws.send_str('{"op":{}}')
                rest = [m async for m in ws]
                assert ws.closed and ws.close_code == 1003
        no_move = json.dumps({"op": "act", "init": init, "t": token}).encode()
        a_hello = json.dumps({"op": "hello", "init": init, "t": token}).encode()
        for body in (b"{", b"[]", b'{"op":[]}', b"[" * 1500, no_move, b"x" * 100_000, a_hello):
            status, answer = await post(web, body)
            assert status in (400, 413) and not answer.get("ok"), body[:30]
        mine = await hello(web, init, token)  # still serving
        assert mine[-1]["k"] == "hand"


async def test_a_hidden_tile_of_one_seat_changes_no_byte_sent_to_another(
    tg: FakeTelegramServer, tmp_path: Path
) -> None:
    """At every publish of a whole hand (claim pauses included), seat A's concealed tile swapped with a wall
    tile leaves the frames of seat B and of a spectator, in both languages, byte for byte the same."""
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    rng = random.Random(7)
    checked = paused = 0

    leaks: list[str] = []

    def check(rt: TableRuntime) -> None:
        try:
            compare(rt)
        except AssertionError as e:  # the feed keeps the table going past a failing listener: noted here
            leaks.append(str(e))

    def compare(rt: TableRuntime) -> None:
        nonlocal checked, paused
        state = rt.state
        if (
            not rt.playing or state is None or rt.closed or state.phase == Phase.ENDED
        ):  # the end shows every hand
            return
        feed = service(app).feed
        for a in range(state.num_seats):
            swapped = swap_hidden(state, a, rng)
            pause = rt.live.pause
            before = swap_hidden(pause.before, a, rng) if pause is not None else None
            if swapped is None:
                continue
            viewers = [(s, lang) for s in [*range(state.num_seats), None] if s != a for lang in LANGS]
            frames = [protocol.frame(feed.hand_view(rt, s, lang)) for s, lang in viewers]
            rt.live.state = swapped
            if pause is not None and before is not None:
                rt.live.pause = type(pause)(pause.until, before, pause.moment, pause.recent)
            try:
                again = [protocol.frame(feed.hand_view(rt, s, lang)) for s, lang in viewers]
            finally:
                rt.live.state, rt.live.pause = state, pause
            assert frames == again, f"seat {a}'s hidden tile shows in another's frame"
            checked += 1
        if (
            rt.live.pause is not None
        ):  # the claim pause: who has no decision sees the moment, whatever came after
            idle = [
                (s, lang)
                for s in [*range(state.num_seats), None]
                if s not in rt.live.pending
                for lang in LANGS
            ]
            frames = [protocol.frame(feed.hand_view(rt, s, lang)) for s, lang in idle]
            rt.live.state = rt.live.pause.before
            try:
                again = [protocol.frame(feed.hand_view(rt, s, lang)) for s, lang in idle]
            finally:
                rt.live.state = state
            assert frames == again, "a frame during the claim pause tells what came after the moment"
            paused += 1

    async with bot_running(tg, tmp_path / "bot.db", clock, claim_pause=2, miniapp=config()) as app:
        svc = service(app)
        svc.feed.listen(check)
        tid = await started_table(tg, app, group, alice, bob)
        rt = svc.tables[tid]
        players = [Player(tg, alice, tid), Player(tg, bob, tid)]
        for _ in range(400):
            if not rt.playing:
                break
            moved = False
            for p in players:
                d = p.decision()
                if d is not None:
                    p.press(*d[:1], d[1][0])
                    moved = True
            if moved:
                await tg.wait_idle()
            elif rt.live.pause is not None or rt.live.pending:
                await run_timer(app, svc, clock, tid)
            else:
                await tg.wait_idle()
        assert not rt.playing, "the hand did not end"
    assert not leaks, leaks[:3]
    assert checked > 50 and paused > 5, (checked, paused)


def test_miniapp_settings_from_the_environment() -> None:
    assert miniapp_from_env({}) is None
    cfg = miniapp_from_env(
        {"MINIAPP_URL": "https://m.example/app/", "MINIAPP_PORT": "9000", "MINIAPP_NAME": "t"}
    )
    assert cfg is not None and (cfg.url, cfg.port, cfg.name, cfg.max_age) == (
        "https://m.example/app/",
        9000,
        "t",
        86400,
    )
    for bad in ({"MINIAPP_URL": "http://m.example/"}, {"MINIAPP_URL": "https://m/", "MINIAPP_PORT": "x"},
                {"MINIAPP_URL": "https://m/", "MINIAPP_MAX_AGE": "-1"}):  # fmt: skip
        with pytest.raises(SystemExit):
            miniapp_from_env(bad)


async def test_the_table_message_and_the_panels_open_the_app(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """The group's table message: a URL button with the direct link (``startapp=<token>``: web_app buttons are
    refused outside private chats); each private panel: a web_app button with the page and the token."""
    clock = Clock()
    alice = tg.add_user("Alice", started=True)
    bob = tg.add_user("Bob", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, miniapp=config()) as app:
        web: MiniApp = app.bot_data["miniapp"]
        tid = await started_table(tg, app, group, alice, bob)
        await tg.wait_idle()
        token = web.tokens.token(tid)
        link = f"https://t.me/{app.bot.username}/table?startapp={token}"
        assert any(b.get("url") == link for m in tg.bot_messages(group) for b in m.buttons)
        assert not any("web_app" in b for m in tg.bot_messages(group) for b in m.buttons)
        for user in (alice, bob):
            apps = [b["web_app"]["url"] for m in tg.bot_messages(user) for b in m.buttons if "web_app" in b]
            assert apps and apps[-1] == f"https://mahjong.example/app?t={token}"
