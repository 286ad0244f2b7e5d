"""Building and running the Telegram Application.

``build_application(token, db_path, base_url=None, ...)`` wires python-telegram-bot 22 (concurrent updates,
AIORateLimiter, post_init / post_stop / post_shutdown, an error handler; the turn timers of
bot/table/timers.py) to the table service. Tests and the benchmark pass ``base_url`` (a local fake Bot API
server), a clock and a seed function; ``running(app)`` starts and stops an application exactly as
``run_polling`` does, inside an ``async with``.

The token only ever comes from the environment or ``.env`` (``load_token``) and is never logged.

One bot process per database: building the application takes an exclusive OS lock on ``<db>.lock``
(storage/lock.py; held until shutdown, released by the OS if the process dies), so a second process stops
with ``AlreadyRunning`` before it sends anything to Telegram. Shutdown is bounded: every step has a time
limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from functools import partial
from pathlib import Path
from typing import Any

from telegram import BotCommand, Update
from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, BaseRateLimiter

from bot.members.access import link_key
from bot.miniapp.relay import Relay
from bot.miniapp.server import Config as MiniAppConfig
from bot.miniapp.server import MiniApp
from bot.miniapp.sockets import ListenError
from bot.pictures.worker import Painter
from bot.table.service import TableService
from bot.table.sidefile import import_side_file, side_file
from bot.table.timers import Timers
from bot.telegram import handlers, lifecycle
from bot.telegram.cluster import Cluster, ClusterTables, ClusterTimers
from bot.telegram.cluster import install as install_cluster
from bot.telegram.http import AiohttpRequest, LeanBot
from bot.telegram.outbox import Outbox, may_have_arrived, retry_seconds
from bot.telegram.webhook import WebhookConfig, start_webhook, webhook_from_env
from bot.text.texts import t
from storage import MAX_PAUSE_S, OpenError, Storage, StorageError
from storage.changes import TableChanges, channel_for
from storage.lock import AlreadyRunning, DatabaseLock
from storage.postgres import PgStorage, redact
from storage.store import is_postgres_url

log = logging.getLogger(__name__)

DEFAULT = object()
AnyApp = Application[Any, Any, Any, Any, Any, Any]

# Telegram may take long to answer a request it has received; a send that timed out on our side may still
# be carried out, so waiting long is what keeps a message from being sent twice (a retry is only made when
# it cannot have arrived: see ``outbox.may_have_arrived``).
READ_TIMEOUT = 60.0
CONNECT_TIMEOUT = 10.0
SHUTDOWN_STEP = 10.0  # seconds each shutdown step may take (outbox, storage)
GC_THRESHOLDS = (2_000, 10, 100)  # the cyclic collector after start-up (Python's default: 700, 10, 10)


ENV_FILE_KEYS = ("TELEGRAM_", "MAHJONG_", "WEBHOOK_", "MINIAPP_")


SEND_RATE = 30.0  # Telegram: about 30 messages a second for one bot over all its chats (edits count)
LAZY_INTERVAL = 3.0  # a panel that only follows the table is edited at most this often


def read_env_file(dotenv: str | os.PathLike[str] = ".env") -> dict[str, str]:
    """A ``.env`` file's KEY=VALUE lines (``export`` and quotes allowed, comment lines skipped, and a comment
    after an unquoted value: ``KEY=value  # why``; the first line of a key counts); empty when there is no
    file."""
    path = Path(dotenv)
    if not path.is_file():
        return {}
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, raw = line.strip().removeprefix("export ").partition("=")
        key, value = key.strip(), raw.strip()
        if not sep or key.startswith("#"):
            continue
        if value[:1] in ("'", '"') and value[1:].find(value[0]) >= 0:  # a quoted value: as quoted
            value = value[1 : 1 + value[1:].find(value[0])]
        else:  # unquoted: up to a comment (a # after white space, as shells and python-dotenv read it)
            value = re.split(r"(?:^\s+|\s)#", raw, maxsplit=1)[0].strip()
        found.setdefault(key, value)
    return found


def load_env_file(
    env: MutableMapping[str, str] | None = None, dotenv: str | os.PathLike[str] = ".env"
) -> list[str]:
    """The bot's settings from a ``.env`` file (as in .env.example) into the environment, so an operator can
    keep them all in one file; a variable already set in the environment wins. Only the bot's own keys
    (TELEGRAM_*, MAHJONG_*, WEBHOOK_*, MINIAPP_*) are read. Returns the keys it set."""
    environ: MutableMapping[str, str] = os.environ if env is None else env
    values = read_env_file(dotenv)
    taken = [k for k in values if k.startswith(ENV_FILE_KEYS) and k not in environ]
    for key in taken:
        environ[key] = values[key]
    return taken


def load_token(env: dict[str, str] | None = None, dotenv: str | os.PathLike[str] = ".env") -> str | None:
    """TELEGRAM_BOT_TOKEN from the environment, else from a ``.env`` file (KEY=VALUE lines)."""
    environ = os.environ if env is None else env
    token = environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if token:
        return token
    return read_env_file(dotenv).get("TELEGRAM_BOT_TOKEN") or None


def claim_pause_from_env(env: dict[str, str] | None = None) -> int | None:
    """MAHJONG_CLAIM_PAUSE: the claim pause of new tables in whole seconds (docs/security.md), else None
    (the room default). 0 turns the pause off: for test runs such as bench/crash_soak.py, never players."""
    raw = (os.environ if env is None else env).get("MAHJONG_CLAIM_PAUSE", "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and int(raw) <= MAX_PAUSE_S):
        raise SystemExit(f"MAHJONG_CLAIM_PAUSE must be whole seconds, 0 to {MAX_PAUSE_S}: not {raw[:16]!r}")
    return int(raw)


def pictures_from_env(env: dict[str, str] | None = None) -> bool:
    """MAHJONG_DISPLAY: how chats that chose nothing (/view) see a game: ``pictures`` (the default) or
    ``text``."""
    raw = (os.environ if env is None else env).get("MAHJONG_DISPLAY", "").strip().lower()
    if raw not in ("", "pictures", "text"):
        raise SystemExit(f"MAHJONG_DISPLAY must be pictures or text, not {raw[:16]!r}")
    return raw != "text"


def paid_broadcast_from_env(env: dict[str, str] | None = None) -> bool:
    """MAHJONG_PAID_BROADCAST=1: new messages that would wait for the send budget go as Telegram's paid
    broadcast instead (docs/deploy.md: it costs Stars per message); off by default."""
    raw = (os.environ if env is None else env).get("MAHJONG_PAID_BROADCAST", "").strip().lower()
    if raw not in ("", "0", "1", "false", "true", "no", "yes"):
        raise SystemExit(f"MAHJONG_PAID_BROADCAST must be 0 or 1, not {raw[:16]!r}")
    return raw in ("1", "true", "yes")


class HandledFloodLimit(logging.Filter):
    """AIORateLimiter logs a 429 that outlasts its retries as an ERROR with a traceback, then raises it to
    the request's sender - and every sender handles it (the outbox waits and sends again, a button's answer
    is retried, a reply gives up with a warning). A flood limit is a normal moment of a busy bot, not a
    fault: an operator who reads ERROR looks for a bug. The record becomes one WARNING line."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if isinstance(record.exc_info, tuple) else None
        if isinstance(exc, RetryAfter) and record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            retries = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "flood limit (429) after %s retries, handed back to its sender: %s"
            record.args = (retries, exc.message)
            record.exc_info, record.exc_text = None, None
        return True


FLOOD_LOGGER = "telegram.ext.AIORateLimiter"  # PTB's logger of AIORateLimiter (telegram._utils.logging)
_FLOOD_FILTER = HandledFloodLimit()


def miniapp_from_env(env: dict[str, str] | None = None) -> MiniAppConfig | None:
    """MINIAPP_URL (the page's public https URL) turns the Mini App on (docs/miniapp.md); MINIAPP_NAME is its
    short name at BotFather (the direct link ``t.me/<bot>/<name>``), MINIAPP_LISTEN / MINIAPP_PORT where its
    server listens (behind the reverse proxy), MINIAPP_MAX_AGE how long a sign-in is good (seconds)."""
    environ = os.environ if env is None else env
    url = environ.get("MINIAPP_URL", "").strip()
    if not url:
        return None
    if not url.startswith("https://"):
        raise SystemExit("MINIAPP_URL must be an https:// URL (Telegram opens Mini Apps over https only)")
    port, age = environ.get("MINIAPP_PORT", "8081").strip(), environ.get("MINIAPP_MAX_AGE", "86400").strip()
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise SystemExit(f"MINIAPP_PORT must be a port number, not {port[:16]!r}")
    if not (age.isascii() and age.isdigit() and int(age) > 0):
        raise SystemExit(f"MINIAPP_MAX_AGE must be whole seconds, not {age[:16]!r}")
    name = environ.get("MINIAPP_NAME", "table").strip() or "table"
    listen = environ.get("MINIAPP_LISTEN", "127.0.0.1").strip() or "127.0.0.1"
    return MiniAppConfig(url=url, name=name, listen=listen, port=int(port), max_age=float(age))


def build_application(
    token: str,
    db_path: str | os.PathLike[str],
    base_url: str | None = None,
    *,
    base_file_url: str | None = None,
    clock: Callable[[], float] = time.time,
    seed_fn: Callable[[int, int], int] | None = None,
    rate_limiter: BaseRateLimiter[Any] | None | object = DEFAULT,
    concurrent_updates: int = 256,
    connection_pool_size: int = 16,
    group_interval: float = 3.0,
    send_rate: float = SEND_RATE,
    lazy_interval: float = LAZY_INTERVAL,
    paid_broadcast: bool = False,
    restore: bool = True,
    read_timeout: float = READ_TIMEOUT,
    claim_pause: int | None = None,
    pictures: bool = True,
    picture_workers: int | None = None,
    miniapp: MiniAppConfig | None = None,
) -> AnyApp:
    """The bot as a PTB Application; the service is created in post_init (``app.bot_data["service"]``).
    ``pictures``: how chats that chose nothing (/view) see a game - pictures, or text only.
    ``miniapp``: the Mini App's server (bot/miniapp/), started with the bot; None: chats only.
    ``picture_workers``: processes that draw the pictures (bot/pictures/worker.py); default one with
    pictures on, none (a thread) with text (a chat may still ask for pictures with /view).
    ``send_rate``: Telegram's budget for the bot's messages, per second, spent on the most urgent first
    (0: none, for a local Bot API or tests); ``lazy_interval``: seconds between the edits of a player's
    panel that only follow the table (his decisions go at once); ``paid_broadcast``: docs/deploy.md.

    Raises ``AlreadyRunning`` if another process runs a bot on ``db_path`` (nothing is sent then)."""
    # SQLite: one bot process per file (the lock). PostgreSQL: several worker processes may share the
    # database (bot/telegram/cluster.py keeps them apart per table), so there is no file and no lock.
    pg = is_postgres_url(db_path)
    db: str | Path = str(db_path) if pg else Path(db_path)
    lock = DatabaseLock(db) if not pg else None
    if lock is not None:
        lock.acquire()
    # HTTP over aiohttp (bot/telegram/http.py): a fraction of httpx's CPU per request. The pool is sized for
    # the outbox's requests in flight plus button answers; the long poll has its own connection.
    timeouts: dict[str, float] = {
        "read_timeout": read_timeout,
        "write_timeout": read_timeout,
        "connect_timeout": CONNECT_TIMEOUT,
        "pool_timeout": 30,
    }
    requests = (AiohttpRequest(connection_pool_size, **timeouts), AiohttpRequest(1, **timeouts))
    flood_log = logging.getLogger(FLOOD_LOGGER)
    if _FLOOD_FILTER not in flood_log.filters:
        flood_log.addFilter(_FLOOD_FILTER)
    # the bot's overall budget is the outbox's (it orders requests by urgency); PTB's limiter keeps a group's
    limiter = AIORateLimiter(overall_max_rate=0, max_retries=3) if rate_limiter is DEFAULT else rate_limiter
    assert limiter is None or isinstance(limiter, BaseRateLimiter)
    if base_url is None:
        bot = LeanBot(token, request=requests[0], get_updates_request=requests[1], rate_limiter=limiter)
    else:
        bot = LeanBot(
            token,
            base_url=base_url,
            base_file_url=base_file_url or base_url.replace("/bot", "/file/bot"),
            request=requests[0],
            get_updates_request=requests[1],
            rate_limiter=limiter,
        )
    # no JobQueue: the turn timers are the event loop's own (bot/table/timers.py)
    builder = ApplicationBuilder().bot(bot).concurrent_updates(concurrent_updates).job_queue(None)

    async def post_init(app: AnyApp) -> None:
        # Every accepted action waits for the database thread (aiosqlite). While the event loop is busy that
        # thread waits for the GIL for up to the switch interval (5 ms) at each step, and writes queue up
        # behind it: a shorter interval keeps a busy bot's writes (and so its answers) quick.
        sys.setswitchinterval(min(sys.getswitchinterval(), 0.0005))
        storage = await Storage.open(db, clock=clock)
        app.bot_data["storage"] = storage  # closed by post_shutdown even if the rest of this fails
        if isinstance(db, Path):
            await import_side_file(storage, side_file(db))
        holder: dict[str, TableService] = {}

        async def on_forbidden(user_id: int) -> None:
            await holder["service"].dm_forbidden(user_id)

        async def on_message(chat_id: int, key: str, message_id: int) -> None:
            await holder["service"].on_message(chat_id, key, message_id)

        async def on_migrated(old_chat: int, new_chat: int) -> None:
            await holder["service"].chat_migrated(old_chat, new_chat)

        workers = picture_workers if picture_workers is not None else int(pictures)
        painter = Painter(workers)
        app.bot_data["painter"] = painter  # closed by post_shutdown
        outbox = Outbox(
            app.bot,
            on_forbidden=on_forbidden,
            on_message=on_message,
            on_migrated=on_migrated,
            group_interval=group_interval,
            draw=painter,
            send_rate=send_rate,
            lazy_interval=lazy_interval,
            paid_broadcast=paid_broadcast,
        )
        app.bot_data["outbox"] = outbox

        async def on_due(table_id: int) -> None:
            await holder["service"].on_due(table_id)

        # PostgreSQL: this process may be one worker of several (bot/telegram/cluster.py)
        cluster = await Cluster.connect(storage, clock) if isinstance(storage, PgStorage) else None
        registry = None
        if cluster is not None:
            app.bot_data["cluster"] = cluster
            registry = ClusterTables()
            registry.cluster = cluster
            timers: Timers = ClusterTimers(on_due, clock, store=cluster.store)
        else:
            timers = Timers(on_due, clock)
        service = TableService(
            storage,
            outbox,
            timers,
            dm_probe=_dm_probe(app),
            clock=clock,
            seed_fn=seed_fn,
            bot_username=app.bot.username,
            member_probe=handlers.member_probe(app.bot),
            link_key=link_key(token),
            claim_pause=claim_pause,
            pictures=pictures,
            registry=registry,
        )
        holder["service"] = service
        app.bot_data.update(service=service, storage=storage, outbox=outbox, timers=timers)
        if miniapp is not None:  # before the tables are restored: their buttons open it
            web = MiniApp(service, token, app.bot.username, miniapp, clock)
            app.bot_data["miniapp"] = web  # stopped by post_shutdown
            if cluster is not None and isinstance(storage, PgStorage):  # one worker of several
                web.bring_in = partial(_bring_in, cluster)
                changes = await TableChanges.connect(storage.dsn, channel_for(str(app.bot.id)))
                relay = Relay(web, changes)
                app.bot_data["relay"] = relay  # closed by post_shutdown
                relay.start()
            await web.start()
        if pictures:  # every tile sprite drawn once now, so that no player waits for the first picture
            await painter.start()
        if cluster is not None:
            cluster.service, cluster.outbox = service, outbox
            service.once = False  # an update delivered twice is caught in its table's transaction
            cluster.limiter = limiter if isinstance(limiter, AIORateLimiter) else None
            install_cluster(app, cluster)
            if restore:  # tables are loaded when an update or a deadline needs them; the upkeep shows
                # again those whose last worker is gone (a restart of every worker included)
                try:
                    await storage.derive_pending()
                except StorageError as e:
                    log.warning("hand facts not derived: %s", e)
                cluster.start()
        elif restore:
            await service.restore()
        app.bot_data["health"] = _health(app, cluster)
        await _set_commands(app)
        # Everything loaded so far (libraries, variants, restored tables) lives as long as the bot: keep it
        # out of the cyclic collector's full scans, which otherwise stall the event loop for tens of ms.
        gc.collect()
        gc.freeze()
        # Young objects are mostly freed by reference counting (immutable engine states, update objects):
        # look for cycles among them a third as often, and scan the long-lived rest (tables, connections)
        # ten times more rarely: a full scan is the longest pause a press can meet (bench/bot_bench.py
        # prints the collections and pauses; BOT_BENCH_GC compares other thresholds).
        gc.set_threshold(*GC_THRESHOLDS)

    async def post_stop(app: AnyApp) -> None:
        """No timer fires once the bot has stopped taking updates (as PTB stops its JobQueue here); then
        sending stops before the HTTP clients close: a one-off message cut off keeps its outbox row and is
        sent after the restart, rather than failing as "maybe sent" (bot/telegram/outbox.py)."""
        timers = app.bot_data.get("timers")
        if isinstance(timers, Timers):
            await _bounded("stopping the turn timers", timers.close())
        outbox = app.bot_data.get("outbox")
        if isinstance(outbox, Outbox):
            await _bounded("closing the outbox", outbox.close())

    async def post_shutdown(app: AnyApp) -> None:
        """Each step bounded in time and independent of the others: shutdown always ends."""
        try:
            web = app.bot_data.pop("miniapp", None)
            if isinstance(web, MiniApp):
                await _bounded("stopping the Mini App", web.stop())
            relay = app.bot_data.pop("relay", None)
            if isinstance(relay, Relay):
                await _bounded("stopping the Mini App's relay", relay.close())
            outbox = app.bot_data.pop("outbox", None)
            if isinstance(outbox, Outbox):
                await _bounded("closing the outbox", outbox.close())
            painter = app.bot_data.pop("painter", None)
            if isinstance(painter, Painter):
                await _bounded("stopping the picture worker", asyncio.to_thread(painter.close))
            cluster = app.bot_data.pop("cluster", None)
            if isinstance(cluster, Cluster):
                await _bounded("leaving the cluster", cluster.close())
            storage = app.bot_data.pop("storage", None)
            if isinstance(storage, Storage):
                await _bounded("closing the database", storage.close())
            app.bot_data.pop("service", None)
        finally:
            if lock is not None:
                lock.release()
            # PTB shuts its clients down only after a start that succeeded: a refused token leaves them open
            for request in requests:
                await request.shutdown()

    try:
        app: AnyApp = builder.post_init(post_init).post_stop(post_stop).post_shutdown(post_shutdown).build()
        handlers.install(app)
        lifecycle.install(app)
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    return app


async def _bring_in(cluster: Cluster, table_id: int) -> None:
    await cluster.bring_in({table_id})


async def _bounded(what: str, step: Awaitable[None]) -> None:
    try:
        await asyncio.wait_for(step, SHUTDOWN_STEP)
    except TimeoutError:
        log.error("shutdown: %s took more than %.0f s; going on without it", what, SHUTDOWN_STEP)
    except Exception:
        log.exception("shutdown: %s failed", what)


HEALTH_TELEGRAM_S = 10.0  # a health check asks Telegram (getMe) at most this often


def _health(app: AnyApp, cluster: Cluster | None) -> Callable[[], Awaitable[dict[str, bool]]]:
    """``GET /healthz`` (bot/telegram/webhook.py): whether this process reaches the database and Telegram."""
    last: dict[str, float | bool] = {"at": -1e18, "ok": False}

    async def check() -> dict[str, bool]:
        if cluster is not None:
            db = await cluster.health()
        else:
            storage = app.bot_data.get("storage")
            try:
                db = isinstance(storage, Storage) and bool(await asyncio.wait_for(storage.settings(), 2.0))
            except (StorageError, TimeoutError):
                db = False
        now = time.monotonic()
        if now - float(last["at"]) >= HEALTH_TELEGRAM_S or not last["ok"]:
            try:
                await asyncio.wait_for(app.bot.get_me(), 5.0)
                last["ok"] = True
            except (TelegramError, TimeoutError):
                last["ok"] = False
            last["at"] = now
        return {"database": db, "telegram": bool(last["ok"])}

    return check


def _dm_probe(app: AnyApp) -> Callable[[int, str], Any]:
    async def probe(user_id: int, text: str) -> bool:
        """Send a private message; False only when Telegram refuses it (the user never started the bot)."""
        for attempt in range(4):
            try:
                await app.bot.send_message(user_id, text)
                return True
            except Forbidden:
                return False
            except RetryAfter as e:
                await asyncio.sleep(retry_seconds(e))
            except BadRequest as e:
                log.info("private message refused: %s", e.message)
                return False
            except NetworkError as e:
                if may_have_arrived(e):
                    return True  # it may have been sent: not again (a later 403 is handled by the outbox)
                log.info("private message failed (%s), attempt %d", e.message, attempt + 1)
                await asyncio.sleep(0.05 * 2**attempt)
        return True  # the network failed, not the user: seat him; a later 403 is handled by the outbox

    return probe


async def _set_commands(app: AnyApp) -> None:
    try:
        for lang, code in (("en", None), ("zh", "zh")):
            cmds = [BotCommand(c, t(f"cmd.{c}", lang)) for c in handlers.COMMANDS]
            await app.bot.set_my_commands(cmds, language_code=code)
    except TelegramError as e:
        log.info("could not set the command list: %s", e.message)


@contextlib.asynccontextmanager
async def running(
    app: AnyApp, *, poll_timeout: float = 10, webhook: WebhookConfig | None = None
) -> AsyncIterator[AnyApp]:
    """Start and stop ``app`` as ``run_polling`` does (initialize, post_init, polling, start; and back);
    with ``webhook``, as ``run_webhook`` does (bot/telegram/webhook.py)."""
    try:
        await app.initialize()
    except BaseException:  # a refused token, an unreachable Bot API: what was opened is closed all the same
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        raise
    try:
        if app.post_init is not None:
            await app.post_init(app)
        assert app.updater is not None
        if webhook is None:

            def polling_error(e: TelegramError) -> None:  # to the error handlers, as run_polling sends it
                app.create_task(app.process_error(update=None, error=e))

            timeout = int(poll_timeout)
            await app.updater.start_polling(poll_interval=0, timeout=timeout, error_callback=polling_error)
        await app.start()
        hook = None
        try:
            hook = await start_webhook(app, webhook) if webhook is not None else None
            yield app
        finally:
            if hook is not None:
                await hook.stop()
            if app.updater.running:
                await app.updater.stop()
            if app.running:
                await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)
    finally:
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)


# Library loggers that would leak: httpx logs request URLs (they hold the token), PTB's bot logs every
# request's parameters and answers at DEBUG (private hands), aiosqlite logs statements at DEBUG.
QUIET_LOGGERS = {
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "aiohttp": logging.WARNING,  # bot/telegram/http.py: request URLs hold the token
    "telegram": logging.INFO,
    "aiosqlite": logging.INFO,
}


def configure_logging(level: int = logging.INFO) -> None:
    """The bot's own loggers at ``level``; libraries capped so that no token or hand reaches a log."""
    logging.getLogger("bot").setLevel(level)
    logging.getLogger("storage").setLevel(level)
    for name, cap in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(cap)


START_LOGGER = "telegram.ext"  # PTB's network retry loop: it logs a start that failed, with its traceback


def not_a_failed_start(record: logging.LogRecord) -> bool:
    """A log filter: PTB's record of a start that could not reach the Bot API (an ERROR and its traceback)
    goes, as ``main`` says what happened in one line."""
    exc = record.exc_info[1] if isinstance(record.exc_info, tuple) else None
    if isinstance(exc, NetworkError | InvalidToken) and record.name == START_LOGGER:
        return False
    # PTB's retry loop says it gave up on a refused token as an ERROR of its own: ``main`` says it
    return not (record.name.startswith("telegram") and "Invalid token" in record.getMessage())


class TokenSafeFormatter(logging.Formatter):
    """Log lines with the token (and its secret half) blotted out, tracebacks included; and no traceback for
    a refused token at all (``main`` says so in one line). Defence in depth: nothing should log the token."""

    def __init__(self, fmt: str, token: str) -> None:
        super().__init__(fmt)
        self.secrets = sorted({token, token.partition(":")[2]} - {""}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        if isinstance(record.exc_info, tuple) and isinstance(record.exc_info[1], InvalidToken):
            record.exc_info, record.exc_text = None, None
        return self.scrub(super().format(record))

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<token>")
        return text


def main(db_path: str | None = None) -> int:
    """Run the bot until Ctrl-C (TELEGRAM_BOT_TOKEN from the environment or .env)."""
    token = load_token()
    if not token:
        raise SystemExit("TELEGRAM_BOT_TOKEN is not set (environment or .env)")
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    logging.basicConfig(format=fmt, level=logging.INFO)
    formatter = TokenSafeFormatter(fmt, token)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(formatter)
        handler.addFilter(not_a_failed_start)
    configure_logging()
    path = db_path or os.environ.get("MAHJONG_DB", "").strip() or "mahjong.db"  # set but empty: the default
    # A local Bot API server (https://github.com/tdlib/telegram-bot-api) or a test double; default Telegram's.
    base_url = os.environ.get("TELEGRAM_BASE_URL") or None
    try:
        app = build_application(
            token,
            path,
            base_url,
            claim_pause=claim_pause_from_env(),
            pictures=pictures_from_env(),
            paid_broadcast=paid_broadcast_from_env(),
            miniapp=miniapp_from_env(),
        )
    except AlreadyRunning as e:
        print(f"not starting: {e}", file=sys.stderr)
        return 3
    except OSError as e:  # the lock file beside the database cannot be made (a read-only directory)
        if not str(e.filename or "").endswith(".lock"):
            raise
        folder = Path(str(path)).resolve().parent
        print(
            f"not starting: the database's directory {folder} does not exist or is not writable: cannot "
            f"create {e.filename} ({e.strerror or e})",
            file=sys.stderr,
        )
        return 5
    log.info("starting the bot (database %s)", redact(path) if is_postgres_url(path) else path)
    try:
        webhook = webhook_from_env(token)
        if webhook is None:
            app.run_polling(allowed_updates=Update.ALL_TYPES)
        else:  # several workers may serve one webhook (docs/deploy.md)
            log.info("serving updates on a webhook (%s:%s)", webhook.listen, webhook.port)
            asyncio.run(_serve_webhook(app, webhook))
    except InvalidToken:  # PTB's message quotes the token: never print it
        print(
            "Telegram refused the bot token (TELEGRAM_BOT_TOKEN): check it with @BotFather.", file=sys.stderr
        )
        return 2
    except OpenError as e:  # storage's own words: read-only, corrupt, another application's, newer schema
        print(f"not starting: {e}", file=sys.stderr)
        return 5
    except NetworkError as e:  # only a start fails this way: once running, PTB retries on its own
        where = f" at {base_url}" if base_url else ""
        reason = formatter.scrub(e.message)
        print(f"not starting: the Telegram Bot API{where} cannot be reached: {reason}", file=sys.stderr)
        return 4
    except ListenError as e:  # the webhook's or the Mini App's port: taken, or an address not of this machine
        print(f"not starting: {e}", file=sys.stderr)
        return 6
    finally:
        _exit_within(SHUTDOWN_STEP)
    return 0


async def _serve_webhook(app: AnyApp, webhook: WebhookConfig) -> None:
    """Run until SIGINT or SIGTERM, serving the webhook (what ``run_webhook`` does, with our server)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with running(app, webhook=webhook):
        await stop.wait()


def _exit_within(seconds: float) -> None:
    """A last guard for a bounded shutdown: should anything still keep the process alive ``seconds`` from
    now (a stuck worker thread), end it."""

    def stop() -> None:
        time.sleep(seconds)
        logging.getLogger(__name__).error("shutdown did not finish in %.0f s: exiting", seconds)
        os._exit(1)

    threading.Thread(target=stop, name="exit-guard", daemon=True).start()
