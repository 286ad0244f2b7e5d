"""The Mini App's web server (aiohttp), run by the bot process itself beside its webhook or its polling.

* ``GET /``          the page (bot/miniapp/web/): one HTML document with the tiles' SVG inlined, its script
                     and style, and Telegram's ``telegram-web-app.js`` (the only script from elsewhere)
* ``GET /ws``        the live stream (WebSocket): the page's first message is ``hello`` with its initData and
                     the table token; it gets the current frame at once and a new one whenever what it may see
                     changes (bot/miniapp/protocol.py); it reports whether it is in front (``vis``)
* ``POST /api/act``  an action (``act``, ``pick``, ``ready``, ``start``, ``back``, ``auto``, ``stop``,
                     ``vote``) with the initData again: answered with the table service's own answer (the
                     toast a button would show)

Every connection and every action is authenticated by its initData (bot/miniapp/auth.py). The viewer is the
authenticated user's seat at the table; anyone else must be a member of the table's group (the membership
port of bot/members/access.py, cached) and sees what the group sees, while a member: once his membership was
last confirmed ``WATCH_CHECK_S`` ago, his next frame waits for it to be confirmed again (one who left or was
removed is refused and his stream closed); everyone else is refused with a reason the page shows. Frames are
built under the table's lock by the feed's listener (bot/table/feed.py), once per (seat, language) and
publish, and a connection is sent a frame only when it differs from its last one.

Several workers (PostgreSQL): a move applied by one worker reaches the streams another worker holds through
``Relay`` (bot/miniapp/relay.py): the worker that published notifies, the others refresh the table from the
database and push.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from bot.members.access import MEMBER
from bot.miniapp import protocol, replay
from bot.miniapp.auth import DEFAULT_MAX_AGE, AuthError, TableTokens, WebUser, tokens_key, validate
from bot.miniapp.sockets import shared_socket
from bot.miniapp.texts import tx as t
from bot.miniapp.tiles import sprite_sheet
from bot.table.feed import stored_table
from bot.table.runtime import Reply, TableRuntime
from bot.table.service import TableService
from bot.text.texts import lang_of

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent / "web"
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
HELLO_TIMEOUT = 10.0  # seconds a new connection has to say who it is
MAX_BACKLOG = 64  # frames queued for one slow connection before it gets only the latest
HEARTBEAT = 25.0  # WebSocket pings (proxies close idle connections)

# A member who watches is asked about again (getChatMember) once his membership is this old, when a frame is
# due: a removed member sees the public table for at most this long. Not every minute as a button's check
# (bot/members/access.py MEMBER_TTL): PTB's rate limiter counts getChatMember against the group's 20 requests
# a minute, which the group's table edits need, and a table may have dozens of watchers.
WATCH_CHECK_S = 600.0


async def _refuse(ws: web.WebSocketResponse, why: str, text: str) -> None:
    """A stream refused: the reason the page shows, then the socket closed (a closed one: nothing)."""
    with contextlib.suppress(Exception):
        await ws.send_str(protocol.dumps({"k": "refused", "why": why, "text": text}))
        await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=why.encode())


@dataclass(eq=False)
class Conn:
    """One page's stream."""

    key: int
    ws: web.WebSocketResponse
    user: int
    table_id: int
    lang: str
    seat: int | None = None
    last: str = ""
    queue: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = 0  # frames sent (the benchmark reads it)
    bytes: int = 0
    member_at: float = 0.0  # when his membership of the group was last confirmed (a member who watches)
    checking: bool = False  # it is being confirmed again: his frames wait

    def push(self, frame: str) -> None:
        if frame == self.last:
            return
        self.last = frame
        if len(self.queue) >= MAX_BACKLOG:
            self.queue.clear()  # frames are whole snapshots: the latest one is enough
        self.queue.append(frame)
        self.wake.set()


@dataclass(frozen=True, slots=True)
class Config:
    url: str  # the page's public https URL (MINIAPP_URL)
    name: str = "table"  # the Mini App's short name at BotFather (the direct link's path)
    listen: str = "127.0.0.1"
    port: int = 8081
    max_age: float = DEFAULT_MAX_AGE  # seconds an initData stays valid
    telegram_js: str = TELEGRAM_JS  # tests serve a stand-in


class MiniApp:
    def __init__(
        self,
        service: TableService,
        bot_token: str,
        bot_username: str,
        config: Config,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.feed = service.feed
        self.bot_token = bot_token
        self.bot_username = bot_username
        self.config = config
        self.clock = clock
        self.tokens = TableTokens(tokens_key(bot_token))
        self.conns: dict[int, set[Conn]] = {}  # table id -> its streams
        self._keys = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._sock: socket.socket | None = None
        self._page: bytes | None = None
        self._stop_listening = self.feed.listen(self._changed)
        self.feed.link = self.link
        self.on_publish: Callable[[TableRuntime], None] | None = None  # the relay: tell the other workers
        # the relay: read a table again for this worker's streams. A worker of several shows a stream that
        # joins (or a watcher confirmed again) the table as read before; a change committed meanwhile found
        # no stream to push to, here or through the other workers' notification, so the stream is read for
        # once more after it is listed
        self.on_reread: Callable[[int], None] | None = None
        # a worker of several: bring a table in from the database before reading or moving it
        self.bring_in: Callable[[int], Awaitable[None]] | None = None
        self.port = config.port
        self._tasks: set[asyncio.Task[None]] = set()
        self._finals: set[int] = set()  # closed tables whose 大结算 went to their streams

    # ------------------------------------------------------------------ links

    def link(self, table_id: int, private: bool) -> str:
        """The URL that opens a table in the app: the page itself for a ``web_app`` button (private chats),
        the direct link ``t.me/<bot>/<app>?startapp=<token>`` elsewhere."""
        token = self.tokens.token(table_id)
        if private:
            sep = "&" if "?" in self.config.url else "?"
            return f"{self.config.url}{sep}t={token}"
        return f"https://t.me/{self.bot_username}/{self.config.name}?startapp={token}"

    # ------------------------------------------------------------------ serving

    def app(self) -> web.Application:
        app = web.Application(client_max_size=protocol.MAX_FRAME_IN * 4)
        app.router.add_get("/", self.page)
        app.router.add_get("/app.js", self.static("app.js", "text/javascript"))
        app.router.add_get("/app.css", self.static("app.css", "text/css"))
        app.router.add_get("/ws", self.stream)
        app.router.add_post("/api/act", self.act)
        app.router.add_get("/api/replay", self.replay)
        return app

    async def start(self) -> None:
        """Listen on ``listen:port`` (port 0: any free one, then ``self.port``); SO_REUSEPORT lets several
        workers of one machine share the port, as the webhook does."""
        sock = shared_socket(self.config.listen, self.config.port, "MINIAPP_LISTEN, MINIAPP_PORT")
        self._sock = sock
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        log.info("Mini App served on %s:%s", self.config.listen, self.port)

    async def stop(self) -> None:
        self._stop_listening()
        for conns in list(self.conns.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=WSCloseCode.GOING_AWAY, message=b"restart")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _page_bytes(self) -> bytes:
        if self._page is None:
            html = (WEB / "index.html").read_text("utf-8")
            html = html.replace("<!--TILES-->", sprite_sheet()).replace(
                "%TELEGRAM_JS%", self.config.telegram_js
            )
            self._page = html.encode()
        return self._page

    async def page(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self._page_bytes(),
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
        )

    @staticmethod
    def static(name: str, mime: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        body = (WEB / name).read_bytes()

        async def serve(request: web.Request) -> web.Response:
            return web.Response(body=body, content_type=mime, headers={"Cache-Control": "no-cache"})

        return serve

    # ------------------------------------------------------------------ who

    def _user(self, init: object) -> WebUser:
        return validate(init, self.bot_token, self.clock(), self.config.max_age)

    def _lang(self, user: WebUser) -> str:
        return self.service.people.user_langs.get(user.id) or (
            lang_of(user.language) if user.language else "zh"
        )

    async def _admit(
        self, user: WebUser, token: object, *, act: bool = False
    ) -> tuple[TableRuntime, int | None] | str:
        """The table and the user's seat there (None: a member who watches), or why not (the key of its text,
        bot/miniapp/texts.py). A worker of
        several reads a table to show as the database has it (another worker may hold it), and brings in a
        table to move (``act``) as an update would (bot/telegram/cluster.py)."""
        table_id = self.tokens.table(token)
        if table_id is None:
            return "app.bad_link"
        rt: TableRuntime | None
        if self.bring_in is not None and act:
            await self.bring_in(table_id)
            rt = self.service.registry.open(table_id)
        elif self.bring_in is not None:
            svc = self.service
            rt = await stored_table(svc.storage, svc.people, table_id, svc.clock)
        else:
            rt = self.service.registry.open(table_id)
        if rt is None or rt.closed:
            return "app.closed"
        seat = rt.seat_of(user.id)
        if seat is None and user.id not in rt.seats:
            status = await self.service.access.status(rt.chat_id, user.id)
            if status not in MEMBER:
                return "app.not_member" if status else "app.check_failed"
        if seat is None and user.id in rt.seats:
            seat = rt.seats.index(user.id)
        return rt, seat

    # ------------------------------------------------------------------ the stream

    async def stream(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=protocol.MAX_FRAME_IN)
        await ws.prepare(request)
        try:
            msg = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"hello")
            return ws
        conn = await self._hello(ws, msg)
        if conn is None:
            return ws
        sender = asyncio.create_task(self._send(conn))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                try:
                    req = protocol.parse(msg.data)
                except protocol.BadRequest:
                    await ws.close(code=WSCloseCode.UNSUPPORTED_DATA, message=b"bad request")
                    break
                if req["op"] == "vis":
                    self.feed.watch(conn.table_id, conn.user, conn.key, req["on"])
                    if req["on"] is False:
                        await self._nudge_now(conn)
                elif req["op"] == "ping":
                    await ws.send_str('{"k":"pong"}')
        finally:
            sender.cancel()
            await self._drop(conn)
        return ws

    async def _hello(self, ws: web.WebSocketResponse, msg: Any) -> Conn | None:
        if msg.type != WSMsgType.TEXT:
            await _refuse(ws, "bad", t("app.bad_request", "zh"))
            return None
        try:
            req = protocol.parse(msg.data)
            if req["op"] != "hello":
                raise protocol.BadRequest("hello first")
        except protocol.BadRequest:
            await _refuse(ws, "bad", t("app.bad_request", "zh"))
            return None
        try:
            user = self._user(req["init"])
        except AuthError as e:
            key = f"app.auth.{e.reason}"
            await _refuse(ws, e.reason, t(key, "zh") + "\n" + t(key, "en"))
            return None
        lang = self._lang(user)
        admitted = await self._admit(user, req["t"])
        if isinstance(admitted, str):
            final = await self._closed_final(user, req["t"], lang) if admitted == "app.closed" else None
            if final is not None:  # a player back after his room closed sees its 大结算, not just "closed"
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ws.send_str(protocol.dumps({"k": "final", "text": final}))
            await _refuse(ws, "refused", t(admitted, lang))
            return None
        rt, seat = admitted
        conn = Conn(next(self._keys), ws, user.id, rt.id, lang, seat, member_at=self.clock())
        await ws.send_str(
            protocol.dumps({"k": "hi", "now": round(self.clock(), 1), "lang": lang, "user": user.id})
        )
        lock = rt.lock if self.bring_in is None else contextlib.nullcontext()  # (a worker's copy: no lease)
        async with lock:
            self.conns.setdefault(rt.id, set()).add(conn)
            self.feed.watch(rt.id, user.id, conn.key, req["vis"])
            conn.push(protocol.frame(self.feed.view(rt, user.id, lang)))
        if self.bring_in is not None and self.on_reread is not None:
            self.on_reread(rt.id)
        return conn

    async def _closed_final(self, user: WebUser, token: object, lang: str) -> str | None:
        """The 大结算 of the closed room ``token`` names, for one of its last players or a member of its
        group; None for an open room, an unknown one, or anyone else."""
        table_id = self.tokens.table(token)
        if table_id is None:
            return None
        svc = self.service
        rt = await stored_table(svc.storage, svc.people, table_id, svc.clock)
        if rt is None or not rt.closed:
            return None
        if user.id not in rt.seats and await svc.access.status(rt.chat_id, user.id) not in MEMBER:
            return None
        return await replay.final(svc, rt, lang)

    async def _send(self, conn: Conn) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError, RuntimeError):
            while not conn.ws.closed:
                await conn.wake.wait()
                conn.wake.clear()
                while conn.queue:
                    frame = conn.queue.popleft()
                    await conn.ws.send_str(frame)
                    conn.sent += 1
                    conn.bytes += len(frame.encode())

    async def _drop(self, conn: Conn) -> None:
        conns = self.conns.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[conn.table_id]
        if self.feed.unwatch(conn.table_id, conn.user, conn.key):
            await self.feed.panel_again(conn.table_id, conn.user)

    async def _nudge_now(self, conn: Conn) -> None:
        """The page went to the background: if a decision waits for him, the nudge goes now."""
        rt = self.service.registry.open(conn.table_id)
        if rt is None:
            return
        async with rt.lock:
            seat = rt.seat_of(conn.user)
            if rt.hand is not None and seat is not None and seat in rt.hand.pending:
                self.feed.spares_panel(rt, seat)

    def _changed(self, rt: TableRuntime) -> None:
        """The feed's listener (under the table's lock): every stream of the table gets its new frame."""
        conns = self.conns.get(rt.id)
        if conns:
            made: dict[tuple[int | None, str, bool], str] = {}  # one frame per kind of viewer
            playing = rt.playing and not rt.closed
            host = rt.settings.host
            now = self.clock()
            for conn in conns:
                conn.seat = rt.seat_of(conn.user)
                if conn.user not in rt.seats and (conn.checking or now - conn.member_at >= WATCH_CHECK_S):
                    self._confirm_member(rt, conn)  # a member who watches: still one?
                    continue
                key = (conn.seat, conn.lang, not playing and conn.user == host)  # the lobby's host: Start
                frame = made.get(key)
                if frame is None:
                    frame = made[key] = protocol.frame(self.feed.view(rt, conn.user, conn.lang))
                conn.push(frame)
        if rt.closed and rt.id not in self._finals:
            self._finals.add(rt.id)
            self._final(rt)
        if self.on_publish is not None:
            self.on_publish(rt)

    def _confirm_member(self, rt: TableRuntime, conn: Conn) -> None:
        """A member who watches, last confirmed ``WATCH_CHECK_S`` ago: his frames wait until the group says he
        still is one (then he gets the latest), or his stream is closed with the reason (he left, or was
        removed). A check that fails (Telegram unreachable) lets him go on watching until the next one."""
        if conn.checking:
            return
        conn.checking = True

        async def confirm() -> None:
            try:
                if await self.service.access.left(rt.chat_id, conn.user):
                    await _refuse(conn.ws, "refused", t("app.not_member", conn.lang))
                    return
                conn.member_at = self.clock()
                lock = rt.lock if self.bring_in is None else contextlib.nullcontext()
                async with lock:
                    current = self.service.registry.open(rt.id) if self.bring_in is None else rt
                    if current is not None:
                        conn.push(protocol.frame(self.feed.view(current, conn.user, conn.lang)))
                if self.bring_in is not None and self.on_reread is not None:
                    self.on_reread(rt.id)  # changes while he was checked went by his stream
            finally:
                conn.checking = False

        task = asyncio.create_task(confirm())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _final(self, rt: TableRuntime) -> None:
        """A room that has closed: its 大结算 goes to its streams (read once per language)."""
        conns = list(self.conns.get(rt.id, ()))

        async def send() -> None:
            texts: dict[str, str | None] = {}
            for conn in conns:
                if conn.lang not in texts:
                    texts[conn.lang] = await replay.final(self.service, rt, conn.lang)
                text = texts[conn.lang]
                if text:
                    conn.push(protocol.dumps({"k": "final", "text": text}))

        if conns:
            task = asyncio.create_task(send())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def refresh(self, rt: TableRuntime) -> None:
        """Push the table's current frames (a worker that learnt of a change made by another)."""
        on_publish, self.on_publish = self.on_publish, None
        try:
            self._changed(rt)
        finally:
            self.on_publish = on_publish

    def streams(self) -> int:
        return sum(len(c) for c in self.conns.values())

    # ------------------------------------------------------------------ actions

    async def act(self, request: web.Request) -> web.Response:
        try:
            req = protocol.parse(await request.read())
            if req["op"] not in protocol.ACTIONS:
                raise protocol.BadRequest("op")
            init, token = req["init"], req["t"]
        except (protocol.BadRequest, web.HTTPException):
            return web.json_response({"ok": False, "text": t("app.bad_request", "zh")}, status=400)
        try:
            user = self._user(init)
        except AuthError as e:  # whose language is unknown until he is signed in: both, as the hello's
            key = f"app.auth.{e.reason}"
            return web.json_response(
                {"ok": False, "why": e.reason, "text": t(key, "zh") + "\n" + t(key, "en")}, status=403
            )
        lang = self._lang(user)
        admitted = await self._admit(user, token, act=True)
        if isinstance(admitted, str):
            return web.json_response({"ok": False, "text": t(admitted, lang)}, status=403)
        rt, _ = admitted
        reply = await self._do(rt, user, req)
        return web.json_response({"ok": reply.ok, "text": reply.text})

    async def _do(self, rt: TableRuntime, user: WebUser, req: dict[str, Any]) -> Reply:
        """The service's own entry points, as the buttons call them (bot/telegram/handlers.py)."""
        svc, op, uid = self.service, req["op"], user.id
        if op == "act":
            reply = await svc.press(rt.id, uid, req["hid"], req["since"], req["i"])
            if reply.ok:
                await svc.settle(rt.id)
            return reply
        if op == "pick":
            return await svc.pick(rt.id, uid, req["hid"], req["since"], req["i"])
        if op == "ready":
            return await svc.ready(rt.id, uid)
        if op == "start":
            return await svc.start(rt.id, uid)
        if op == "back":
            return await svc.im_back(rt.id, uid)
        if op == "auto":
            return await svc.auto_play(rt.id, uid)
        if op == "vote":
            return await svc.stop_vote(rt.id, uid, req["vote"], req["agree"] == 1)
        return await svc.ask_stop(rt.id, uid)  # "stop": 申请解散, as the button (or /stop) of a player

    # ------------------------------------------------------------------ replays

    async def replay(self, request: web.Request) -> web.Response:
        """A finished hand, step by step, for the replay viewer (``?code=``; the initData in a header)."""
        try:
            user = self._user(request.headers.get("X-Init-Data"))
        except AuthError as e:
            return web.json_response({"ok": False, "text": t(f"app.auth.{e.reason}", "zh")}, status=403)
        lang = self._lang(user)
        code = request.query.get("code", "")[:64]
        found = await replay.replay(self.service, code, user.id, lang)
        if isinstance(found, str):
            return web.json_response({"ok": False, "text": found}, status=404)
        return web.json_response({"ok": True, **found}, dumps=protocol.dumps)
