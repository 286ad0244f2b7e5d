"""Outgoing messages: one ordered queue per chat, live messages edited in place, flood-friendly.

The service says *what* a chat should show; the outbox decides *when* it is sent:

* ``live(chat, key, text, keyboard, photo=)`` sets the content of a message that is edited in place (the
  table in a group, a player's hand in private). While an earlier request for the same message waits its
  turn, a new one replaces its content: a burst of moves is one edit, so a busy table stays within
  Telegram's flood limits (AIORateLimiter paces what is sent). ``fresh=True`` sends a new message instead
  (a new hand) and strips the keyboard off the old one.
* ``live_lazy(chat, key, render)`` is ``live`` with its content made by ``render()`` only when the request
  is made: a group's table published on every move but sent at most once per ``group_interval`` is
  rendered once per merged burst, not once per move. ``render`` renders a snapshot taken by the caller
  (never the live table), so what is sent is what ``live`` would have sent for the latest call.
* With a ``photo`` (anything with ``png()``: a picture of the table) the message is a photo and ``text``
  its caption. The picture is drawn only when the request is made - in a worker thread, so the event loop
  goes on answering buttons - which is once per merged burst, not once per move. A new picture is an
  ``editMessageMedia``; a new caption or keyboard alone an ``editMessageCaption``. A message that changes
  between photo and text is sent anew.
* ``post(chat, text)`` sends a new message. A post that stands for a row of the database's outbox (a
  hand's result, a note: written in the transaction of what caused it) carries ``on_sent``, awaited once
  its sending is over - sent, or given up as below - and never when the outbox is closed first: the row is
  then deleted, and a row still there after a restart or a worker's death is sent by the next one
  (bot/table/restore.py, bot/telegram/cluster.py).
* A text over Telegram's 4,096 characters is split at line ends into several messages, never cut: a
  posted one is sent in parts; a live one keeps its keyboard on its last part and its earlier parts are
  edited (or, if their number changes, the whole message is sent anew). A caption over 1,024 characters
  (the caller keeps them shorter) ends with "…".
* Requests to one group are spaced by ``group_interval`` (Telegram's ~20 messages a minute per group,
  edits included; every request counts); at most ``max_in_flight`` requests are in flight at once over all
  chats. A worker of several (bot/telegram/cluster.py) also books each group request in the database
  (``shared_pace``: the group's pace for all workers), waits for the bot's shared budget before each request
  (``budget``), and checks a live message before sending it (``stamp``, ``claim_live``, ``live_done``): an
  edit showing an older state of the table than the message shows already is dropped, one worker sends a
  live message at a time, and the message's current id comes from the database.

Errors never reach the caller: 429 RetryAfter waits and retries, "message is not modified" counts as done,
a vanished message is sent anew, a 403 from a private chat is reported through ``on_forbidden`` (the player
blocked the bot, or never started it) and a group that became a supergroup through ``on_migrated``.

Nothing is sent twice: a request is retried (with a short backoff) only when it cannot have reached
Telegram (no connection, or an error answer such as a 5xx) - or when it is an edit, which is the same
however often it lands. A new message whose fate is unknown (a timeout after it was sent, a dropped
connection) is not sent again. The id of every live message sent anew goes to ``on_message`` before the
chat's next request, so that it can be stored at once. Message texts are never logged: a hand is private.

Across a stop or a worker's death a post of the database's outbox is sent at least once: the one window
where it is sent twice is a kill after Telegram took it and before its row was deleted (Telegram has no
idempotency key to tell a resent message from a new one).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, InputFile, InputMediaPhoto
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from bot.messages.content import Content, Keyboard, Photo, Priority, Render, markup_json
from bot.telegram.http import NOT_SENT, call
from bot.telegram.ptb_private import retry_after_seconds
from bot.text.fit import caption_of, split_text

log = logging.getLogger(__name__)


URGENT, NORMAL, LAZY = Priority.URGENT, Priority.NORMAL, Priority.LAZY


@dataclass(slots=True)
class _Op:
    live: bool
    key: str
    content: Content | None  # None: not rendered yet (``render``)
    fresh: bool = False
    render: Render | None = None  # a live_lazy content, rendered when the op is sent
    requests: int = 0  # made so far (the first to a group is paced by the queue, the others one by one)
    done: list[tuple[int, str]] = field(default_factory=list)  # parts of a long text already sent: no
    # retry sends them twice
    on_sent: Callable[[], Awaitable[None]] | None = None  # a post's sending is over (its outbox row goes)
    priority: int = NORMAL  # URGENT, NORMAL or LAZY (``Budget``)
    paid: bool = False  # its next request's token is taken already (the queue took it)
    version: int | None = None  # a live message: the table rev it shows (workers of several), if known
    booked: bool = False  # its next request's slot in the group's shared pace is booked already


@dataclass(slots=True)
class _Slot:
    message_id: int | None = None  # the message that carries the keyboard (a long text's last part)
    content: Content | None = None
    heads: list[tuple[int, str]] = field(default_factory=list)  # a long text's earlier parts: (id, text)


def retry_seconds(e: RetryAfter) -> float:
    """How long Telegram asked to wait, in seconds (bot/telegram/ptb_private.py reads it)."""
    return retry_after_seconds(e)


def may_have_arrived(e: NetworkError) -> bool:
    """Whether a request that failed this way may still have reached Telegram (and been carried out):
    a timeout or a broken connection after the request went out. An error answer (5xx: PTB raises it
    without a cause), a refused connection or a wait for a free connection prove it did not."""
    cause = e.__cause__
    if cause is None:
        return False
    return not isinstance(cause, NOT_SENT)


async def _over(op: _Op) -> None:
    """A post's sending is over: its ``on_sent`` (which must not fail the chat's queue)."""
    if op.on_sent is None:
        return
    done, op.on_sent = op.on_sent, None
    try:
        await done()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("a sent message was not recorded as sent")


class Budget:
    """Telegram's send budget for the whole bot (~30 requests a second over all chats): ``rate`` tokens a
    second, at most ``burst`` saved up. A request waits for a token; when tokens are short the most urgent
    waiting request gets the next one, then the oldest. ``rate <= 0``: no budget (tests, a local Bot API).

    A waiting request may become more urgent (``raise_to``): a player's panel that was only catching up
    becomes his decision. Answers to button presses (answerCallbackQuery) carry no chat and never wait here:
    Telegram limits messages, not answers."""

    def __init__(self, rate: float, burst: float = 3.0) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self._tokens = self.burst
        self._stamp: float | None = None
        self._waiting: list[list[Any]] = []  # heap of [priority, seq, future]
        self._seq = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.waits: dict[int, int] = {URGENT: 0, NORMAL: 0, LAZY: 0}  # requests that had to wait (bench)

    def _refill(self, now: float) -> None:
        if self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def ticket(self, priority: int) -> list[Any]:
        """A place in the line (``take`` waits on it; ``raise_to`` moves it up)."""
        return [priority, next(self._seq), None]

    async def take(self, ticket: list[Any]) -> None:
        if self.rate <= 0:
            return
        loop = asyncio.get_running_loop()
        self._refill(loop.time())
        if not self._waiting and self._tokens >= 1:
            self._tokens -= 1
            return
        self.waits[ticket[0]] = self.waits.get(ticket[0], 0) + 1
        ticket[2] = loop.create_future()
        heapq.heappush(self._waiting, ticket)
        self._schedule(loop)
        try:
            await ticket[2]
        except asyncio.CancelledError:
            if ticket[2].done() and not ticket[2].cancelled():
                self._tokens += 1  # granted as it was cancelled: the token goes back
            raise

    def raise_to(self, ticket: list[Any], priority: int) -> None:
        """The request became more urgent: it takes its place among those of its new priority from now on
        (behind the ones that were that urgent before it - not ahead of them by its older place in line)."""
        if priority < ticket[0]:
            ticket[0], ticket[1] = priority, next(self._seq)
            heapq.heapify(self._waiting)

    def refund(self) -> None:
        """A token taken for a request that was not made after all (nothing new to show)."""
        if self.rate > 0:
            self._tokens = min(self.burst, self._tokens + 1)

    @property
    def backlog(self) -> int:
        return len(self._waiting)

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None and self._waiting:
            wait = max(0.0, (1 - self._tokens) / self.rate)
            self._timer = loop.call_later(wait, self._grant)

    def _grant(self) -> None:
        self._timer = None
        loop = asyncio.get_running_loop()
        self._refill(loop.time())
        while self._waiting and self._tokens >= 1:
            ticket = heapq.heappop(self._waiting)
            future = ticket[2]
            if future is None or future.done():
                continue  # its request was cancelled
            self._tokens -= 1
            future.set_result(None)
        self._schedule(loop)


class Outbox:
    def __init__(
        self,
        bot: Bot,
        *,
        on_forbidden: Callable[[int], Awaitable[None]] | None = None,
        on_message: Callable[[int, str, int], Awaitable[None]] | None = None,
        on_migrated: Callable[[int, int], Awaitable[None]] | None = None,
        retries: int = 6,
        backoff: float = 0.05,
        max_in_flight: int = 8,
        group_interval: float = 3.0,
        draw: Callable[[Photo], Awaitable[bytes]] | None = None,
        send_rate: float = 0.0,
        lazy_interval: float = 0.0,
        paid_broadcast: bool = False,
    ) -> None:
        self.bot = bot
        self._draw = draw  # how a photo is drawn (bot/pictures/worker.py); default: in a thread
        self.on_forbidden = on_forbidden
        self.on_message = on_message
        self.on_migrated = on_migrated
        self.retries = retries
        self.backoff = backoff
        self._queues: dict[int, deque[_Op]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._slots: dict[tuple[int, str], _Slot] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False
        # Requests in flight at once, over all chats: the rest wait here, cheaply, rather than in httpcore's
        # connection pool (which rescans its queue for every request) - and button answers, which do not go
        # through the outbox, always find a free connection.
        self._slots_free = asyncio.Semaphore(max_in_flight)
        # Telegram allows a bot about 20 messages a minute in one group (edits included): requests to a group
        # are spaced by this much, and what piles up meanwhile is merged, so the table message stays current.
        self.group_interval = group_interval
        self._last_group_send: dict[int, float] = {}
        self.sent = 0  # requests made (for the benchmark)
        self.group_sends: dict[int, list[float]] = {}  # per group, when each request went (benchmark)
        self.count_group_sends = False
        # awaited before each request: the bot's send budget shared by several workers
        # (bot/telegram/cluster.py)
        self.budget: Callable[[], Awaitable[None]] | None = None
        # The bot's own budget, spent on what players need now (``Budget``): the panel of a player who must
        # decide goes first; the group's table and the panels of players with nothing to decide wait, merged,
        # and a private chat's such edits are spaced by ``lazy_interval``.
        self.tokens = Budget(send_rate)
        self.lazy_interval = lazy_interval
        self._last_private_send: dict[int, float] = {}
        self._tickets: dict[int, list[Any]] = {}  # chat -> its queue's place in the budget's line
        self._changed: dict[int, asyncio.Event] = {}  # chat -> set when its queue changes (a merge, a post)
        # Operator setting (docs/deploy.md): new messages that would wait for the budget are sent at once
        # with Telegram's paid broadcast instead (up to 1,000 a second, paid in Stars per message); edits
        # cannot be (the Bot API has the flag on sends only).
        self.paid_broadcast = paid_broadcast
        self.paid_sends = 0  # requests sent as paid broadcast (an operator's cost)
        # workers of several (bot/telegram/cluster.py): a group request booked for all workers (seconds to
        # wait), the table rev a live message published now shows, and the live-message guard
        self.shared_pace: Callable[[int, float], Awaitable[float]] | None = None
        self.stamp: Callable[[], int | None] | None = None
        self.claim_live: Callable[[int, str, int], Awaitable[tuple[str, int | None]]] | None = None
        self.live_done: Callable[[int, str, int | None], Awaitable[None]] | None = None
        # what is published inside a table's transaction waits for its COMMIT (and goes with a ROLLBACK):
        # the list to put it on, when the caller holds one
        self.held: Callable[[], list[Callable[[], None]] | None] | None = None

    # ------------------------------------------------------------------ what to show

    def live(
        self,
        chat_id: int,
        key: str,
        text: str,
        kb: Keyboard | None = None,
        *,
        fresh: bool = False,
        photo: Photo | None = None,
        priority: int = NORMAL,
    ) -> None:
        """Set what a message edited in place shows (sent when the chat's turn and the budget allow; a
        later call for the same message before then replaces it, and keeps the more urgent priority)."""
        self._live(chat_id, key, Content(text, kb, photo), None, fresh, priority)

    def live_lazy(
        self, chat_id: int, key: str, render: Render, *, fresh: bool = False, priority: int = LAZY
    ) -> None:
        """``live`` with the content rendered by ``render()`` when it is sent: a later call for the same
        message before then replaces it unrendered (``render`` must render a snapshot, not live state)."""
        self._live(chat_id, key, None, render, fresh, priority)

    def _live(
        self,
        chat_id: int,
        key: str,
        content: Content | None,
        render: Render | None,
        fresh: bool,
        priority: int,
    ) -> None:
        version = self.stamp() if self.stamp is not None else None
        held = self.held() if self.held is not None else None
        if held is not None:
            held.append(lambda: self._live_now(chat_id, key, content, render, fresh, priority, version))
            return
        self._live_now(chat_id, key, content, render, fresh, priority, version)

    def _live_now(
        self,
        chat_id: int,
        key: str,
        content: Content | None,
        render: Render | None,
        fresh: bool,
        priority: int,
        version: int | None,
    ) -> None:
        q = self._queues.setdefault(chat_id, deque())
        last = next((op for op in reversed(q) if op.live and op.key == key), None)
        # a later state of the same message replaces one not sent yet - but a new message (a new hand's)
        # never swallows the last edit of the one it replaces: that edit shows the end of a hand
        if last is not None and (last.fresh or not fresh):
            last.content, last.render = content, render
            last.version = version
            self._urge(chat_id, last, priority)
            return
        if last is not None:
            q.append(_Op(True, key, content, fresh, render, priority=priority, version=version))
            self._want(chat_id, priority)
            return
        first = _Op(True, key, None, fresh, priority=priority)
        if (
            render is not None
            and not q
            and chat_id not in self._workers
            and self._pace_wait(chat_id, first.priority) <= 0
        ):
            content, render = render(), None  # it goes at once: rendered now (and not sent if shown already)
        slot = self._slots.get((chat_id, key))
        if (
            content is not None
            and not fresh
            and not q
            and slot is not None
            and slot.content == content
            and chat_id not in self._workers
        ):
            return  # already shown
        q.append(_Op(True, key, content, fresh, render, priority=priority, version=version))
        self._want(chat_id, priority)
        self._kick(chat_id)

    def _urge(self, chat_id: int, op: _Op, priority: int) -> None:
        """``op`` is wanted at ``priority`` now: it and its chat's place in the budget's line move up."""
        if priority < op.priority:
            op.priority = priority
            self._want(chat_id, priority)

    def _want(self, chat_id: int, priority: int) -> None:
        """Something of ``priority`` waits in the chat: whatever the chat waits for now (its next request's
        token, or the next token of a request in flight that it queues behind) moves up to it."""
        ticket = self._tickets.get(chat_id)
        if ticket is not None:
            self.tokens.raise_to(ticket, priority)
        self._poke(chat_id)

    def _poke(self, chat_id: int) -> None:
        event = self._changed.get(chat_id)
        if event is not None:
            event.set()

    def _pace_wait(self, chat_id: int, priority: int) -> float:
        """How long a request made now for something of ``priority`` must wait (> 0: it must): a group's
        pace, whatever it is; in a private chat, ``lazy_interval`` between edits that only catch up."""
        now = asyncio.get_running_loop().time()
        if chat_id < 0:
            if self.group_interval <= 0:
                return 0.0
            return self._last_group_send.get(chat_id, -1e18) + self.group_interval - now
        if priority < LAZY or self.lazy_interval <= 0:
            return 0.0
        return self._last_private_send.get(chat_id, -1e18) + self.lazy_interval - now

    def post(
        self,
        chat_id: int,
        text: str,
        kb: Keyboard | None = None,
        *,
        on_sent: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """A new message (a long text: several, the keyboard on the last); ``on_sent`` is awaited once its
        sending is over (sent or given up), never if the outbox closes first."""
        held = self.held() if self.held is not None else None
        if held is not None:
            held.append(lambda: self.post(chat_id, text, kb, on_sent=on_sent))
            return
        q = self._queues.setdefault(chat_id, deque())
        q.append(_Op(False, "", Content(text, kb), on_sent=on_sent))
        self._want(chat_id, NORMAL)  # behind a lazy edit of the chat: the post must not wait as long
        self._kick(chat_id)

    def adopt(self, chat_id: int, key: str, message_id: int) -> None:
        """A live message sent before a restart: edit it rather than send a new one. (The one this outbox
        shows already keeps what it knows it shows: a worker that catches a table up adopts its ids again.)"""
        slot = self._slots.get((chat_id, key))
        if slot is not None and slot.message_id == message_id:
            return
        self._slots[chat_id, key] = _Slot(message_id, None)

    def message_id(self, chat_id: int, key: str) -> int | None:
        slot = self._slots.get((chat_id, key))
        return slot.message_id if slot else None

    def forget(self, chat_id: int, key: str) -> None:
        self._slots.pop((chat_id, key), None)

    def move_chat(self, old_chat: int, new_chat: int) -> None:
        """A group got a new chat id: what waits for it goes there; its message ids are no longer valid."""
        for chat_id, key in [k for k in self._slots if k[0] == old_chat]:
            del self._slots[chat_id, key]
        old = self._queues.get(old_chat)
        if old:
            ops = list(old)
            old.clear()
            for op in ops:
                op.fresh = op.live
            self._queues.setdefault(new_chat, deque()).extend(ops)
            self._kick(new_chat)

    # ------------------------------------------------------------------ lifecycle

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until everything queued has been sent (or given up)."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    @property
    def idle(self) -> bool:
        return self._idle.is_set()

    def busy(self, chat_id: int) -> bool:
        """Whether anything for ``chat_id`` is queued or being sent (a worker of several waits for it)."""
        return chat_id in self._workers or bool(self._queues.get(chat_id))

    def paced_from(self, chat_id: int, sent: float | None) -> None:
        """Another worker last sent the group a request at ``sent`` (wall clock): keep its pace from there."""
        if sent is None:
            return
        last = asyncio.get_running_loop().time() - max(0.0, time.time() - sent)
        self._last_group_send[chat_id] = max(self._last_group_send.get(chat_id, -1e18), last)

    async def close(self) -> None:
        self._closed = True
        workers = list(self._workers.values())
        for w in workers:
            w.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._queues.clear()
        self._idle.set()

    # ------------------------------------------------------------------ the workers

    def _kick(self, chat_id: int) -> None:
        if self._closed or chat_id in self._workers:
            return
        self._idle.clear()
        self._workers[chat_id] = asyncio.get_running_loop().create_task(
            self._run(chat_id), name=f"outbox:{chat_id}"
        )

    async def _run(self, chat_id: int) -> None:
        q = self._queues[chat_id]
        loop = asyncio.get_running_loop()
        changed = self._changed.setdefault(chat_id, asyncio.Event())
        try:
            while q:
                changed.clear()
                wait = self._pace_wait(chat_id, min(op.priority for op in q))  # the most urgent sets it
                if wait > 0:  # requests queued meanwhile are merged; a more urgent one cuts the wait short
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), wait)
                    continue
                took = await self._admit(chat_id, q)
                if took is None:
                    continue
                op = q.popleft()
                op.paid = took
                if op.render is not None and not self._rendered(chat_id, op):
                    self.tokens.refund()  # nothing new to show: no request, and the group's pace is not spent
                    continue
                if op.live and not op.fresh and self._shown(chat_id, op):
                    self.tokens.refund()  # nothing is sent again unchanged
                    continue
                if chat_id < 0 and self.group_interval > 0:
                    self._last_group_send[chat_id] = loop.time()
                try:
                    if op.live and op.version is not None and self.claim_live is not None:
                        await self._deliver_guarded(chat_id, op, op.version)
                    else:
                        await self._deliver(chat_id, op)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("dropping a message to chat %s after an unexpected error", chat_id)
                await _over(op)
        finally:
            self._workers.pop(chat_id, None)
            self._changed.pop(chat_id, None)
            if not q:
                self._queues.pop(chat_id, None)
            if not self._workers:
                self._idle.set()

    async def _admit(self, chat_id: int, q: deque[_Op]) -> bool | None:
        """Wait for a token of the budget for the chat's next request, at the most urgent priority of what
        its queue holds: True once taken, None if nothing is left to send. With paid broadcast, a new
        message that would wait goes now instead, without a token (False; ``_request``)."""
        head = q[0]
        if self.paid_broadcast and self.tokens.backlog and self._sends_new(chat_id, head):
            return False
        ticket = self.tokens.ticket(min(op.priority for op in q))
        self._tickets[chat_id] = ticket
        try:
            await self.tokens.take(ticket)
        finally:
            self._tickets.pop(chat_id, None)
        if not q:
            self.tokens.refund()
            return None
        return True

    def _shown(self, chat_id: int, op: _Op) -> bool:
        slot = self._slots.get((chat_id, op.key))
        return slot is not None and slot.message_id is not None and slot.content == op.content

    async def _book(self, chat_id: int, op: _Op) -> None:
        """A group's next request, booked in the pace all workers share (and waited for), once per request."""
        if op.booked or chat_id >= 0 or self.group_interval <= 0 or self.shared_pace is None:
            return
        wait = await self.shared_pace(chat_id, self.group_interval)
        op.booked = True
        if wait > 0:
            await asyncio.sleep(wait)

    async def _deliver_guarded(self, chat_id: int, op: _Op, version: int) -> None:
        """A live message of a worker of several: sent only if no newer state of its table was shown, by one
        worker at a time, to the message id the database holds (another worker may have sent it anew)."""
        assert self.claim_live is not None and self.live_done is not None
        await self._book(chat_id, op)  # the group's pace first: the message is not held while it waits
        delay = 0.02
        while True:
            verdict, message_id = await self.claim_live(chat_id, op.key, version)
            if verdict == "old":
                return  # a newer state is shown already: this one would take the chat back
            if verdict == "send":
                break
            await asyncio.sleep(delay)  # another worker is sending it now
            delay = min(0.5, delay * 2)
        slot = self._slots.get((chat_id, op.key))
        if message_id is not None and (slot is None or slot.message_id != message_id):
            self._slots[chat_id, op.key] = _Slot(message_id, None)  # sent anew by another worker
        try:
            await self._deliver(chat_id, op)
        finally:
            slot = self._slots.get((chat_id, op.key))
            await self.live_done(chat_id, op.key, slot.message_id if slot is not None else None)

    def _rendered(self, chat_id: int, op: _Op) -> bool:
        """Render a lazy op's content now that it is sent; False if there is nothing to send: the message
        shows it already (or it could not be rendered, which is logged)."""
        assert op.render is not None
        try:
            op.content, op.render = op.render(), None
        except Exception:
            log.exception("dropping a message to chat %s: it could not be rendered", chat_id)
            return False
        slot = self._slots.get((chat_id, op.key))
        shown = slot is not None and slot.message_id is not None and slot.content == op.content
        return op.fresh or not shown

    async def _deliver(self, chat_id: int, op: _Op) -> None:
        delay = self.backoff
        for attempt in range(self.retries + 1):
            try:
                await self._send(chat_id, op)
                return
            except RetryAfter as e:
                wait = retry_seconds(e)
                log.info("chat %s: flood limit, retrying in %.2fs", chat_id, wait)
                await asyncio.sleep(wait)
            except ChatMigrated as e:
                log.info("chat %s is now the supergroup %s", chat_id, e.new_chat_id)
                if self.on_migrated is not None:
                    await self.on_migrated(chat_id, e.new_chat_id)
                return
            except Forbidden as e:
                log.info("chat %s refuses messages: %s", chat_id, e.message)
                dropped = self._queues.get(chat_id, deque())
                ops = [op, *dropped]  # its posts are over, in the chat's order
                dropped.clear()
                for other in ops:
                    await _over(other)
                if chat_id > 0 and self.on_forbidden is not None:
                    await self.on_forbidden(chat_id)
                return
            except BadRequest as e:
                msg = e.message.lower()
                if "not modified" in msg:
                    return
                if op.live and ("not found" in msg or "can't be edited" in msg or "no text in" in msg):
                    # gone, too old, or a photo that would have to become text: sent anew (the keyboard
                    # of one that is still there is taken off, if it can be)
                    op.fresh = True
                    if "not found" in msg:
                        self._slots.pop((chat_id, op.key), None)
                    continue
                log.warning("chat %s: request refused: %s", chat_id, e.message)
                return
            except NetworkError as e:  # timeouts, connection errors, 5xx answers
                if may_have_arrived(e) and self._sends_new(chat_id, op):
                    log.warning("chat %s: a new message may or may not have been sent (%s); not resent",
                                chat_id, e.message)  # fmt: skip
                    return
                if attempt == self.retries:
                    log.warning("chat %s: giving up after %d attempts: %s", chat_id, attempt + 1, e.message)
                    return
                log.info("chat %s: %s; retrying in %.2fs", chat_id, e.message, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except TelegramError as e:
                log.warning("chat %s: %s", chat_id, e.message)
                return

    def _sends_new(self, chat_id: int, op: _Op) -> bool:
        """Whether ``op`` is (now) a new message rather than an edit."""
        if not op.live:
            return True
        slot = self._slots.get((chat_id, op.key))
        return op.fresh or slot is None or slot.message_id is None

    async def _request(self, chat_id: int, op: _Op, *, new: bool = False) -> dict[str, Any]:
        """Before each request: to a group, keep ``group_interval`` since the last one (the first of an op
        was spaced by the queue already); take a token of the budget (the first of an op was taken by the
        queue) - unless a new message goes as paid broadcast, whose parameter is returned; wait for the
        bot's shared budget (a worker of several); count it. A group's interval runs from when its request
        goes, so a picture drawn before it, or a wait for the budget, never shortens the gap to the next."""
        loop = asyncio.get_running_loop()
        group = chat_id < 0 and self.group_interval > 0
        if group and op.requests:
            wait = self._pace_wait(chat_id, op.priority)
            if wait > 0:
                await asyncio.sleep(wait)
        paid = new and not op.paid and self.paid_broadcast and self.tokens.backlog > 0
        if op.paid:
            op.paid = False  # the queue took this one's token
        elif not paid:  # a later request of the op: it waits at the most urgent of what its chat holds
            q = self._queues.get(chat_id) or ()
            ticket = self.tokens.ticket(min([op.priority, *(o.priority for o in q)]))
            self._tickets[chat_id] = ticket
            try:
                await self.tokens.take(ticket)
            finally:
                self._tickets.pop(chat_id, None)
        if group:
            await self._book(chat_id, op)
        op.booked = False
        if self.budget is not None and not paid:
            await self.budget()
        if group:
            self._last_group_send[chat_id] = loop.time()
        elif chat_id > 0:
            self._last_private_send[chat_id] = loop.time()
        op.requests += 1
        self.sent += 1
        self.paid_sends += paid
        if self.count_group_sends and chat_id < 0:
            self.group_sends.setdefault(chat_id, []).append(asyncio.get_running_loop().time())
        return {"allow_paid_broadcast": True} if paid else {}

    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        """One request to the Bot API, among at most ``max_in_flight`` at once (held only while it is in
        flight: a request waiting for the budget holds no place)."""
        async with self._slots_free:
            return await call(self.bot, method, params)

    async def _send(self, chat_id: int, op: _Op) -> None:
        content = op.content
        assert content is not None  # rendered (``_rendered``) before it is sent
        markup = markup_json(content.kb)
        if not op.live:
            parts = split_text(content.text)
            for i, part in enumerate(parts[len(op.done) :], len(op.done)):
                last = i == len(parts) - 1
                paid = await self._request(chat_id, op, new=True)
                params = {"chat_id": chat_id, "text": part, "reply_markup": markup if last else None, **paid}
                sent = await self._call("sendMessage", params)
                op.done.append((sent["message_id"], part))
            return
        slot = self._slots.get((chat_id, op.key))
        parts = [caption_of(content.text)] if content.photo is not None else split_text(content.text)
        if not op.fresh and slot is not None and slot.message_id is not None:
            shown = slot.content
            same_kind = shown is not None and (shown.photo is None) == (content.photo is None)
            if shown is not None and not same_kind:
                op.fresh = True  # a photo cannot become text (nor the other way): sent anew
            elif len(parts) - 1 != len(slot.heads):
                op.fresh = True  # a long text's number of parts changed
            else:
                await self._edit(chat_id, op, slot, parts)
                return
        await self._send_new(chat_id, op, slot, parts)

    async def _edit(self, chat_id: int, op: _Op, slot: _Slot, parts: list[str]) -> None:
        """Edit a live message in place: its earlier parts that changed, then the one with the keyboard."""
        content, shown = op.content, slot.content
        assert slot.message_id is not None and content is not None
        if shown == content:
            return
        markup = markup_json(content.kb)
        for i, (head_id, head_text) in enumerate(slot.heads):
            if head_text != parts[i]:
                await self._request(chat_id, op)
                await self._call(
                    "editMessageText", {"chat_id": chat_id, "message_id": head_id, "text": parts[i]}
                )
                slot.heads[i] = (head_id, parts[i])
        text = parts[-1]
        edit = {"chat_id": chat_id, "message_id": slot.message_id, "reply_markup": markup}
        if content.photo is None:
            await self._request(chat_id, op)
            await self._call("editMessageText", {**edit, "text": text})
        elif shown is not None and shown.photo == content.photo:
            await self._request(chat_id, op)
            await self._call("editMessageCaption", {**edit, "caption": text})
        else:
            png = await self._png(content.photo)
            await self._request(chat_id, op)
            await self._call("editMessageMedia", {**edit, "media": InputMediaPhoto(png, caption=text)})
        slot.content = content

    async def _png(self, photo: Photo) -> bytes:
        return await (self._draw(photo) if self._draw is not None else asyncio.to_thread(photo.png))

    async def _send_new(self, chat_id: int, op: _Op, slot: _Slot | None, parts: list[str]) -> None:
        """Send a live message anew (its earlier parts first), strip the keyboard off the one it replaces,
        and report its id."""
        content = op.content
        assert content is not None
        if slot is not None and slot.message_id is not None and (slot.content is None or slot.content.kb):
            old = slot.message_id
            slot.content = Content(
                slot.content.text if slot.content else "", None, slot.content.photo if slot.content else None
            )
            try:
                await self._request(chat_id, op)
                await self._call("editMessageReplyMarkup", {"chat_id": chat_id, "message_id": old})
            except TelegramError as e:  # best effort: the old buttons answer "out of date" anyway
                log.debug("chat %s: could not strip the old keyboard: %s", chat_id, e)
        for part in parts[len(op.done) : -1]:
            paid = await self._request(chat_id, op, new=True)
            head = await self._call("sendMessage", {"chat_id": chat_id, "text": part, **paid})
            op.done.append((head["message_id"], part))
        heads = list(op.done)
        png = await self._png(content.photo) if content.photo is not None else None
        paid = await self._request(chat_id, op, new=True)
        if png is not None:
            params = {"chat_id": chat_id, "photo": InputFile(png), "caption": parts[-1]}
        else:
            params = {"chat_id": chat_id, "text": parts[-1]}
        # One request, buttons included; its id is stored before the chat's next request. (A kill in the
        # instant between Telegram taking it and its id stored leaves it with live buttons beside the stored
        # panel: they answer one decision once, and the first press on it takes its buttons off.)
        params.update(paid, reply_markup=markup_json(content.kb))
        sent = await self._call("sendPhoto" if png is not None else "sendMessage", params)
        message_id = sent["message_id"]
        self._slots[chat_id, op.key] = _Slot(message_id, content, heads)
        op.fresh = False
        if self.on_message is not None:
            await self.on_message(chat_id, op.key, message_id)
