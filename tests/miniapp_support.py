"""Helpers for the Mini App's tests: a real headless Chromium (Debian's ``chromium``, driven by Playwright),
Telegram's ``telegram-web-app.js`` replaced by a stand-in that hands the page a signed initData, and browser
players who read the screen and tap it as a person would.

Chromium is the machine's (``make test`` installs Debian's ``chromium`` and ``chromium-driver`` when they are
missing, as it installs PostgreSQL); its absence fails the tests, it is never a skip. Playwright never
downloads a browser here (``executable_path``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from bot.miniapp.auth import sign
from bot.miniapp.server import TELEGRAM_JS, MiniApp

from .fake_telegram import FakeTelegramServer, FakeUser

CHROMIUM = os.environ.get("MINIAPP_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 390, "height": 844}

# Telegram's script, as much of it as the page uses: the signed initData the test put in the page's window,
# theme, haptics and confirmations (recorded, so a test can see the buzz and what was asked; a confirmation
# is accepted)
STUB_JS = """
window.__haptics = [];
window.__confirms = [];
window.Telegram = { WebApp: {
  initData: window.__TG_INIT__ || "",
  initDataUnsafe: { start_param: window.__TG_START__ || undefined },
  colorScheme: window.__TG_SCHEME__ || "light",
  ready() {}, expand() {},
  showConfirm(message, callback) { window.__confirms.push(message); callback(true); },
  HapticFeedback: {
    impactOccurred(s) { window.__haptics.push("impact:" + s); },
    notificationOccurred(s) { window.__haptics.push("notify:" + s); },
  },
} };
"""


def init_data(tg: FakeTelegramServer, user: FakeUser, *, auth_date: float, start: str | None = None,
              token: str | None = None, **extra: str) -> str:  # fmt: skip
    """initData for ``user`` signed as Telegram signs it (with the bot's token unless told)."""
    fields = {
        "auth_date": str(int(auth_date)),
        "query_id": "AAF" + str(user.id),
        "user": json.dumps(
            {"id": user.id, "first_name": user.first_name, "language_code": user.language_code or "en"},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        **extra,
    }
    if start is not None:
        fields["start_param"] = start
    return sign(fields, token or tg.token)


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """One headless Chromium for a test (several contexts in it: one per player)."""
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(
            f"{CHROMIUM} is missing: `make test` installs Debian's chromium (apt-get install chromium)"
        )
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(browser: Browser, web: MiniApp, init: str, token: str, *, via_start: bool = False,
                    scheme: str = "light") -> tuple[BrowserContext, Page]:  # fmt: skip
    """A phone-sized page of the Mini App, signed in with ``init``, showing table ``token`` (as the web_app
    button's URL carries it, or ``via_start``: as the direct link's ``startapp`` does)."""
    context = await browser.new_context(
        viewport=VIEWPORT,
        device_scale_factor=1,
        color_scheme=scheme,  # type: ignore[arg-type]
        reduced_motion="reduce",  # no animation to wait for before a tap
    )
    setup = {"__TG_INIT__": init, "__TG_SCHEME__": scheme}
    if via_start:
        setup["__TG_START__"] = token
    await context.add_init_script("".join(f"window.{k} = {json.dumps(v)};" for k, v in setup.items()))

    async def stub(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/javascript", body=STUB_JS)

    await context.route(TELEGRAM_JS, stub)
    page = await context.new_page()
    url = f"http://127.0.0.1:{web.port}/" + ("" if via_start else f"?t={token}")
    await page.goto(url)
    return context, page


STATE_JS = """(policy) => {
  const at = (e) => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const one = (sel) => document.querySelector(sel);
  let plan = null;
  if (document.body.dataset.dec && !document.body.classList.contains('busy')) {
    const confirm = one('#actions .big.confirm');
    const pickable = one('#my-hand .tile.can:not(.picked)');
    const picking = one('#actions .big.suggest');
    const claim = one('#actions .big.win') || (policy === 'pass' && one('#actions .big.pass'))
      || one('#actions .big.claim');
    const tiles = document.querySelectorAll('#my-hand .tile.can');
    const tile = one('#my-hand .tile.can.drawn') || tiles[tiles.length - 1];
    if (confirm) plan = {kind: 'pick', at: [at(confirm)]};
    else if (picking && pickable) plan = {kind: 'pick-tile', at: [at(pickable)],
      picked: document.querySelectorAll('#my-hand .tile.picked').length};
    else if (claim) plan = {kind: claim.dataset.act || 'claim', at: [at(claim)]};
    else if (tile) plan = {kind: 'discard', at: [at(tile), at(tile)]};
    else if (one('#actions .big')) plan = {kind: 'choice', at: [at(one('#actions .big'))]};
  }
  return {
    view: document.body.dataset.view || "",
    dec: document.body.dataset.dec || "",
    hid: document.body.dataset.hid || "",
    result: !!document.querySelector('#overlay:not([hidden]) .card.result'),
    busy: document.body.classList.contains('busy'),
    marks: [...document.querySelectorAll('.seat .mark')].map((e) => e.textContent),
    hint: (document.querySelector('#actions .hint') || {}).textContent || "",
    ask: (document.querySelector('#actions .hint.ask') || {}).textContent || "",
    plan,
  };
}"""


async def screen(page: Page, policy: str = "first") -> dict[str, Any]:
    """What the page shows (its view, open decision, result card) and where a player would tap next."""
    state: dict[str, Any] = await page.evaluate(STATE_JS, policy)
    return state


class Stream:
    """A page's stream read by a test (no browser): the frames as they come, and waits on them."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self._new = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, web: MiniApp, init: str, token: str) -> Stream:
        ws = await http.ws_connect(f"http://127.0.0.1:{web.port}/ws")
        await ws.send_str(json.dumps({"op": "hello", "init": init, "t": token}))
        return cls(ws)

    async def _read(self) -> None:
        async for msg in self.ws:
            self.frames.append(json.loads(msg.data))
            self._new.set()
        self._new.set()

    @property
    def last(self) -> dict[str, Any]:
        return self.frames[-1] if self.frames else {}

    async def wait(
        self, check: Callable[[dict[str, Any]], Any], what: str, timeout: float = 5.0
    ) -> dict[str, Any]:
        """The latest frame once ``check(frame)`` holds for it."""
        async with asyncio.timeout(timeout):
            while not (self.frames and check(self.frames[-1])):
                if self.ws.closed and self._task.done():
                    raise AssertionError(f"stream closed waiting for {what}")
                self._new.clear()
                await self._new.wait()
        return self.frames[-1]

    async def send(self, obj: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(obj))

    async def close(self) -> None:
        await self.ws.close()
        self._task.cancel()
