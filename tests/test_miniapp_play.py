"""The Mini App played in a real headless Chromium: two browser players and AI seats play whole hands against
the real bot (the fake Bot API server underneath), tapping the screen as a person would - select a tile and
tap it again, claim, kong, win, pass, 换三张 and 定缺 - then Ready between hands and the stop vote. A
screenshot of each variant's screen (390 × 844) is kept for docs/miniapp.md (``MINIAPP_SHOTS=dir``)."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.miniapp.server import Config, MiniApp

from .bot_support import Clock, bot_running, lobby_message, open_table, service
from .fake_telegram import FakeChat, FakeTelegramServer, FakeUser
from .miniapp_support import chromium, init_data, open_page, screen
from .pgcluster import free_port

SHOTS = os.environ.get("MINIAPP_SHOTS")


def config() -> Config:
    return Config(url="https://mahjong.example/app", name="table", port=0)


async def seat_two(tg: FakeTelegramServer, group: FakeChat, alice: FakeUser, bob: FakeUser, variant: str,
                   app: Any, preset: str = "") -> int:  # fmt: skip
    tid, lobby = await open_table(tg, alice, group, f"{variant} {preset}".strip())
    rt = service(app).tables[tid]
    await tg.wait_for(lambda _: alice.id in rt.seats, what="Alice seated")
    tg.press(bob, group, lobby.message_id, f"L|{tid}|j")
    await tg.wait_for(lambda _: bob.id in rt.seats, what="Bob seated")
    return tid


async def tap_through(pages: list[Page], until: Callable[[list[dict[str, Any]]], bool], policy: str = "first",
                      limit: int = 2000, most: int | None = None) -> dict[str, int]:  # fmt: skip
    """Every page answers each decision it shows, by tapping, until ``until(screens)``. A discard: the drawn
    tile (else the last one), tapped twice; a claim or a choice: the first big button (``policy`` "pass":
    pass claims when a pass is offered; a win is always taken). A pick (换三张): tiles one by one, then the
    confirmation. The page says where to tap (``PLAN_JS``, one look per page and round); the taps are real
    mouse input. Returns the taps by kind (after ``most`` decisions at the latest)."""
    taps: dict[str, int] = {}
    for _ in range(limit):
        screens = [await screen(p, policy) for p in pages]
        if until(screens) or (most is not None and sum(taps.values()) >= most):
            return taps
        acted = False
        for page, s in zip(pages, screens, strict=True):
            plan = s["plan"]
            if not s["dec"] or s["busy"] or plan is None:
                continue
            for x, y in plan["at"]:
                await page.mouse.click(x, y)
            if plan["kind"] == "pick-tile":  # one more tile picked: the frame that shows it
                await page.wait_for_function(
                    "(n) => document.querySelectorAll('#my-hand .tile.picked').length !== n",
                    arg=plan["picked"],
                    timeout=5000,
                )
            else:  # a decision answered: its frame goes
                await page.wait_for_function(
                    "(d) => document.body.dataset.dec !== d || document.body.dataset.view !== 'hand'",
                    arg=s["dec"],
                    timeout=5000,
                )
            taps[plan["kind"]] = taps.get(plan["kind"], 0) + 1
            acted = True
        if not acted:
            await pages[0].wait_for_timeout(10)  # the next frame: a bounded poll of the screen
    raise AssertionError(f"no end after {limit} rounds: {taps}")


def never(screens: list[dict[str, Any]]) -> bool:
    return False


def ended(screens: list[dict[str, Any]]) -> bool:
    return all(s["result"] or s["view"] != "hand" for s in screens)


async def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


async def signed_in(
    browser: Browser, app: Any, tg: FakeTelegramServer, clock: Clock, tid: int, users: Sequence[FakeUser]
) -> list[Page]:
    """A page of table ``tid`` for each of ``users``, signed in now (opened from the table's button)."""
    web: MiniApp = app.bot_data["miniapp"]
    token = web.tokens.token(tid)
    pages = []
    for user in users:
        _, page = await open_page(browser, web, init_data(tg, user, auth_date=clock.now), token)
        pages.append(page)
    return pages


# `make test` plays two variants whole (the claim-and-kong one and the one with 换三张 and 定缺); `make soak`
# plays the other five as well (the browser's time per hand does not fit all seven in the 2.5 minutes)
# (variant, room, seed base, the moves the browser players must make in that hand): the seeds were chosen so
# that the players' own taps include a win, a kong, claims, 换三张 and 定缺
VARIANTS = [
    pytest.param("changsha", "", 5, {"win", "chow", "pung", "discard"}, id="changsha"),
    pytest.param("sichuan", "血战换三张", 2, {"pick", "choose", "kong", "win", "discard"}, id="sichuan-swap"),
    *(
        pytest.param(v, "", 0, {"discard"}, id=v, marks=pytest.mark.soak)
        for v in ("hengyang", "xiangyin", "shaoyang", "zhuanzhuan", "hongzhong")
    ),
    pytest.param("sichuan", "三人两房", 0, {"discard"}, id="sichuan-three", marks=pytest.mark.soak),
]


@pytest.mark.parametrize(("variant", "preset", "seed", "moves"), VARIANTS)
async def test_two_browser_players_play_whole_hands(
    tg: FakeTelegramServer, tmp_path: Path, variant: str, preset: str, seed: int, moves: set[str]
) -> None:
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("王小明", language_code="zh-hans", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    db = tmp_path / "bot.db"
    async with bot_running(tg, db, clock, seed_base=seed, miniapp=config()) as app, chromium() as browser:
        web: MiniApp = app.bot_data["miniapp"]
        tid = await seat_two(tg, group, alice, bob, variant, app, preset)
        token = web.tokens.token(tid)
        pages = []
        for user, via_start, scheme in ((alice, True, "light"), (bob, False, "dark")):  # Telegram's theme
            init = init_data(tg, user, auth_date=clock.now, start=token)
            _, page = await open_page(browser, web, init, token, via_start=via_start, scheme=scheme)
            pages.append(page)
        for page in pages:
            await page.wait_for_function("document.body.dataset.view === 'lobby'")
        # who starts the hand, for the others; the room's preset in the bar
        assert await pages[1].locator(".lobby-title").inner_text() == "等 Alice 开局"
        assert await pages[0].locator(".lobby-title").inner_text() == "Waiting for the hand"  # she starts it
        if preset:
            assert f"（{preset}）" in await pages[1].locator("#title").inner_text()
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        for page in pages:
            await page.wait_for_function("document.body.dataset.view === 'hand'")
        await shot(pages[0], f"{variant}-start")
        marks: list[set[str]] = [set(), set()]  # the seats' marks each page showed
        hints: list[set[str]] = [set(), set()]  # … and the line under a hand with nothing to decide
        asks: list[set[str]] = [set(), set()]  # … and what a decision other than a discard asks

        def over(screens: list[dict[str, Any]]) -> bool:
            for seen, said, asked, s in zip(marks, hints, asks, screens, strict=True):
                seen.update(s["marks"])
                if not s["dec"]:
                    said.add(s["hint"])
                elif s["ask"]:
                    asked.add(s["ask"])
            return ended(screens)

        taps = await tap_through(pages, over)
        assert moves <= set(taps), taps
        await shot(pages[1], f"{variant}-result")
        assert "Dealer" in marks[0] and "庄" in marks[1], marks
        # a player waiting is told for whom (轮到 电脑1 出牌 / AI 1 to play), in his language
        assert any(h.endswith(" to play") for h in hints[0]), hints
        assert any(h.startswith("轮到 ") for h in hints[1]), hints
        if variant == "sichuan" and preset != "三人两房":  # each seat's 定缺 in words (缺筒 / void dots)
            en, zh = marks
            assert any(m.startswith("void ") for m in en) and any(m.startswith("缺") for m in zh), marks
            # … and its buttons say what they ask, as the chat does
            assert any(a.startswith("定缺：选一门这局不要的花色") for a in asks[1]), asks
        if preset == "血战换三张":  # the tiles to pick: what for, and where they go
            assert any(a.startswith("Swap three: pick three tiles of one suit") for a in asks[0]), asks
        assert any(asks), asks  # a claim or a choice asked in words
        assert await pages[0].locator(".card.result pre.lines").inner_text()
        # the replay viewer, on the hand just played (its code, as /history shows it)
        [hand] = await service(app).storage.table_hands(tid)
        viewer = pages[0]
        await viewer.locator(".card.result .big.close").click()
        await viewer.wait_for_function("document.body.dataset.view === 'lobby'")
        await viewer.locator("#menu-btn").click()  # the menu closes on a tap elsewhere, as menus do
        await viewer.locator("#table").click()
        assert await viewer.locator("#menu").is_hidden()
        await viewer.locator("#menu-btn").click()  # the last hand is one tap away, no code to type
        assert await viewer.locator("#menu .big.replay.last").inner_text() == "Replay the last hand"
        await viewer.locator("#menu .big.replay.last").click()
        await viewer.wait_for_function("document.body.classList.contains('replaying')")
        for _ in range(5):
            await viewer.locator("#actions .big.step").nth(2).click()  # ›: the next step
        await shot(viewer, f"{variant}-replay")
        assert "5" in await viewer.locator("#wall").inner_text()
        await viewer.locator("#actions .big.pass").click()  # close the viewer
        await viewer.wait_for_function("!document.body.classList.contains('replaying')")
        # Ready between hands: the second page from the result it is still reading (Ready and the time left
        # are on it), the first from the lobby after closing it; the next hand is dealt
        await pages[1].locator(".card.result .ready-row .big.ready").click()
        left = "document.querySelector('.card.result .ready-row .ready-left').textContent"
        await pages[1].wait_for_function(f"{left}.endsWith('秒后自动开局')")
        await pages[1].locator(".card.result .ready-row").get_by_text("已准备").wait_for()
        for page, title in zip(pages, ("🏁 Hand 1 is over", "🏁 第 1 局结束"), strict=True):
            if await page.locator(".card.result .big.close").is_visible():
                await page.locator(".card.result .big.close").click()
            await page.wait_for_function("document.body.dataset.view === 'lobby'")
            # the last hand's result above the lobby, in the page's language (the group reads English)
            assert (await page.locator("pre.summary").inner_text()).startswith(title)
        # the standings beside the names: the table's totals, as the hand's result left them
        [first] = await service(app).storage.table_hands(tid)
        pts = [await li.inner_text() for li in await pages[0].locator(".lobby-seats .pts").all()]
        assert pts == [f"{d:+d}" if d else "0" for d in first.result["deltas"]], pts
        await shot(pages[1], f"{variant}-lobby")
        assert (await pages[0].locator("#actions .ready-left").inner_text()).startswith("Next hand in ")
        await pages[0].locator("#actions .big.ready").click()
        for page in pages:
            await page.wait_for_function("document.body.dataset.view === 'hand' && document.body.dataset.hid")
        rt = service(app).tables[tid]
        assert rt.hand is not None and rt.hand.number == 2
        # Alice, with nothing to decide, watches hand 1 again: her next decision brings her back to the table
        await tap_through(pages[:1], lambda s: not s[0]["dec"])
        viewer.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept(hand.code)))
        await viewer.locator("#menu-btn").click()
        await viewer.locator("#menu .big.replay:not(.last)").click()  # another hand, by its code
        await viewer.wait_for_function("document.body.classList.contains('replaying')")
        await tap_through(pages, lambda s: bool(s[0]["dec"]), limit=500)
        assert not await viewer.evaluate("document.body.classList.contains('replaying')")
        # the stop vote: both players agree, and the table closes
        for i, page in enumerate(pages):
            await page.locator("#menu-btn").click()
            await page.locator("#menu .big.stop").click()
            if i == 0:  # the other sees whom the vote waits for, its time left and what a silence counts as
                await pages[1].locator(".votes .vote-left").wait_for()
                assert await pages[1].locator(".votes .vote-wait").inner_text() == "⏳ 未表态：王小明"
                left = await pages[1].locator(".vote-left").inner_text()
                assert re.fullmatch(r"⏱ \d+ 秒后，未表态的算(同意|拒绝)", left), left
        # … each asked first: one tap must not close a table
        assert await pages[0].evaluate("window.__confirms") == [
            "Ask to stop this table? It closes, with its final summary, once a majority agree."
        ]
        assert await pages[1].evaluate("window.__confirms") == ["同意解散本桌？"]  # the vote was open
        for page in pages:
            await page.wait_for_function("document.body.dataset.view === 'closed'")
            await page.locator(".card.final").wait_for()  # the 大结算
            # a closed room shows no Ready and no clock
            assert not await page.locator("#actions .big.ready, #actions .ready-left").count()
            assert await page.locator("#clock").inner_text() == ""
        # the bar: the hands the closed room played (the one stopped does not count, as in its 大结算)
        assert [await p.locator("#wall").inner_text() for p in pages] == ["Hands played: 1", "共 1 局"]
        await shot(pages[1], f"{variant}-final")
        # back later (the page opened again, or its stream cut): the 大结算 again, not only "closed"
        await pages[1].reload()
        await pages[1].locator(".card.final").wait_for()
        assert await pages[1].evaluate("document.body.dataset.view") == "closed"
        assert tid not in service(app).tables


async def test_a_restart_mid_hand_resumes_both_pages(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """The bot stops mid-hand with two pages open: each page reconnects by itself to the restarted bot and
    shows the same decision it showed before (nothing lost), then answered once (nothing doubled)."""
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("Bob", language_code="zh-hans", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    cfg = Config(url="https://mahjong.example/app", port=free_port())
    db = tmp_path / "bot.db"
    async with chromium() as browser:
        async with bot_running(tg, db, clock, miniapp=cfg) as app:
            tid = await seat_two(tg, group, alice, bob, "changsha", app)
            pages = await signed_in(browser, app, tg, clock, tid, (alice, bob))
            # the lobby says who takes the two empty seats: AI players of the room's strength (docs/ai.md);
            # Alice reads English, Bob Chinese
            empty = ["empty · AI player (Expert)", "空位 · 开局补电脑（高手）"]
            for page, seat in zip(pages, empty, strict=True):
                await page.wait_for_function("document.body.dataset.view === 'lobby'")
                assert await page.locator(".lobby-seats li.empty").all_inner_texts() == [seat, seat]
            lobby = await lobby_message(tg, group, tid)
            tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
            taps = await tap_through(pages, never, most=4)
            before = [await screen(p) for p in pages]
            version = service(app).tables[tid].state.version  # type: ignore[union-attr]
        for page in pages:  # the bot is gone: the pages say they are reconnecting
            await page.wait_for_function("document.body.classList.contains('offline')")
        async with bot_running(tg, db, clock, miniapp=cfg) as app:
            after = []
            for page, was in zip(pages, before, strict=True):
                await page.wait_for_function(
                    "(d) => !document.body.classList.contains('offline') && document.body.dataset.dec === d",
                    arg=was["dec"],
                    timeout=10_000,
                )
                after.append(await screen(page))
            assert [s["dec"] for s in after] == [s["dec"] for s in before]
            rt = service(app).tables[tid]
            assert rt.state is not None and rt.state.version == version
            moved = await tap_through(pages, never, most=2)
            assert sum(moved.values()) >= 1 and rt.state.version > version
    assert taps


@asynccontextmanager
async def changsha_started(
    tg: FakeTelegramServer, tmp_path: Path, seed: int
) -> AsyncIterator[tuple[Any, list[Page]]]:
    """Alice (English) and 王小明 (Chinese) at a Changsha table on wall ``seed``, a page each, the hand
    started by Alice from the group's lobby: the running bot and the two pages."""
    clock = Clock()
    alice = tg.add_user("Alice", language_code="en", started=True)
    bob = tg.add_user("王小明", language_code="zh-hans", started=True)
    group = tg.add_group("Mahjong", members=[alice, bob])
    async with bot_running(tg, tmp_path / "bot.db", clock, seed_base=seed, miniapp=config()) as app:
        async with chromium() as browser:
            tid = await seat_two(tg, group, alice, bob, "changsha", app)
            pages = await signed_in(browser, app, tg, clock, tid, (alice, bob))
            for page in pages:
                await page.wait_for_function("document.body.dataset.view === 'lobby'")
            tg.press(alice, group, (await lobby_message(tg, group, tid)).message_id, f"L|{tid}|go")
            yield app, pages


async def test_a_declared_opening_hand_is_shown_face_up(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """docs/rules/changsha.md §6: AI 3 declares a 起手小胡 at the deal (seed 7) and shows its tiles. Both
    pages draw them face up on its seat beside its hidden tiles (the page named the hand only), with its
    mark."""
    async with changsha_started(tg, tmp_path, 7) as (app, pages):
        rt = next(iter(service(app).tables.values()))
        await tg.wait_for(lambda _: rt.state is not None and bool(rt.state.seats[2].revealed))
        assert rt.state is not None
        want = len(rt.state.seats[2].revealed)
        for page, mark in zip(pages, ("declared ", "起手 "), strict=True):
            shown = "document.querySelectorAll('.seat .hidden-hand .tile.shown').length"
            await page.wait_for_function(f"(n) => {shown} === n", arg=want)
            seat = page.locator(".seat", has=page.locator(".hidden-hand .tile.shown"))
            assert any(m.startswith(mark) for m in await seat.locator(".mark").all_inner_texts())
        await shot(pages[1], "changsha-opening")


async def test_a_long_decision_fits_a_small_phone(tg: FakeTelegramServer, tmp_path: Path) -> None:
    """docs/rules/changsha.md §6: Alice may declare 起手小胡 three ways (seed 94), four buttons under a
    paragraph. On a 360×740 phone the felt gives up room so that the last button is on screen (it was
    below the fold, under half a screen of empty felt)."""
    async with changsha_started(tg, tmp_path, 94) as (_, pages):
        await pages[0].set_viewport_size({"width": 360, "height": 740})
        await pages[0].wait_for_function("document.querySelectorAll('#actions .big').length >= 3")
        await shot(pages[0], "changsha-opening-360")
        box = await pages[0].locator("#actions .big").last.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 740, box
