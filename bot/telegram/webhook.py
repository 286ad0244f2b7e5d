"""Webhook mode: Telegram POSTs each update to ``WEBHOOK_URL`` instead of the bot polling for it.

Polling stays the default (``make run``: nothing to expose). With ``WEBHOOK_URL`` set, a webhook server
(tornado, which PTB's own webhook uses) listens on ``WEBHOOK_LISTEN:WEBHOOK_PORT`` and answers only requests
that carry the secret token in ``X-Telegram-Bot-Api-Secret-Token``: ``WEBHOOK_SECRET``, or by default one
derived from the bot token, so every worker of one bot agrees on it without sharing another secret
(docs/deploy.md).

Unlike PTB's webhook server, which answers Telegram as soon as an update is queued, this one answers once
the update has been handled (``Application.process_update``): an update whose worker dies before it is
handled is never answered, so Telegram sends it again, to a worker alive. Nothing is lost with a worker.

An update may be delivered twice (Telegram resends one whose answer it did not get). With several workers
(bot/telegram/cluster.py, the ``gate``) an update is applied once: one recorded as applied is answered 200
and not handled again; one whose database work could not be done (the database away, every connection
taken, a table's row locked too long) is answered 503, and Telegram sends it again.

``GET /healthz`` (no secret needed: it tells nothing about players) answers 200 when the worker reaches the
database and Telegram, else 503, with a JSON body saying which (for a proxy's health checks).

Several worker processes on one machine may listen on the same port: the socket is bound with
``SO_REUSEPORT``, so the kernel spreads Telegram's connections over the workers alive, and a worker that dies
drops out by itself (Telegram retries what it did not answer). Between machines, a reverse proxy spreads them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

import tornado.web
from telegram import Update
from telegram.ext import Application
from tornado.httpserver import HTTPServer

from bot.miniapp.sockets import shared_socket
from storage.postgres import failures

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]

DEFAULT_LISTEN = "127.0.0.1"
DEFAULT_PORT = 8080
MAX_CONNECTIONS = 40  # Telegram's default: connections it may open to the webhook at once
# An update is a few KB (a message's text is at most 4,096 characters, a caption 1,024): a body larger than
# this is refused from its Content-Length, before it is read (tornado's default lets each connection send
# 100 MB, read in full before the secret is even checked)
MAX_BODY = 1 << 20
MAX_UPDATE_ID = 1 << 53  # an update_id is a positive integer that fits a double (Telegram's own bound)
HEALTH_PATH = "/healthz"


@dataclass(slots=True)
class UpdateCtx:
    """The update being handled in this task (``current_update``), as the workers' code marks it:
    ``recorded``: a table's transaction recorded it as applied; ``duplicate``: it was applied before;
    ``failed``: its database work could not be done (answer 5xx: Telegram sends it again)."""

    update_id: int
    recorded: bool = False
    duplicate: bool = False
    failed: bool = False


current_update: ContextVar[UpdateCtx | None] = ContextVar("mahjong_update", default=None)


class Gate(Protocol):
    """Updates applied, as the database of several workers records them (bot/telegram/cluster.py)."""

    async def applied(self, update_id: int) -> bool: ...
    async def mark_applied(self, update_id: int) -> None: ...


Health = Callable[[], Awaitable[dict[str, bool]]]


@dataclass(frozen=True, slots=True)
class WebhookConfig:
    url: str  # the public URL Telegram posts to (https://host/path)
    secret: str  # X-Telegram-Bot-Api-Secret-Token: 1-256 of A-Z a-z 0-9 _ -
    listen: str = DEFAULT_LISTEN
    port: int = DEFAULT_PORT

    @property
    def path(self) -> str:
        """The path the local server answers on: the public URL's (a proxy forwards it unchanged)."""
        return urlsplit(self.url).path or "/"


def derived_secret(token: str) -> str:
    """A webhook secret only this bot's token gives: the same in every worker, useless to guess from it."""
    return hmac.new(token.encode(), b"mahjong webhook secret", hashlib.sha256).hexdigest()


def webhook_from_env(token: str, env: dict[str, str] | None = None) -> WebhookConfig | None:
    """``WEBHOOK_URL`` (+ ``WEBHOOK_LISTEN``, ``WEBHOOK_PORT``, ``WEBHOOK_SECRET``), or None: poll."""
    environ = os.environ if env is None else env
    url = environ.get("WEBHOOK_URL", "").strip()
    if not url:
        return None
    if not url.startswith(("https://", "http://")) or not urlsplit(url).hostname:
        raise SystemExit(f"WEBHOOK_URL must be a URL Telegram can reach (https://host/path): {url[:60]!r}")
    raw_port = environ.get("WEBHOOK_PORT", "").strip() or str(DEFAULT_PORT)
    if not (raw_port.isascii() and raw_port.isdigit() and 0 < int(raw_port) < 65536):
        raise SystemExit(f"WEBHOOK_PORT must be a TCP port number, not {raw_port[:16]!r}")
    secret = environ.get("WEBHOOK_SECRET", "").strip() or derived_secret(token)
    if not (1 <= len(secret) <= 256 and all(c.isascii() and (c.isalnum() or c in "_-") for c in secret)):
        raise SystemExit("WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
    listen = environ.get("WEBHOOK_LISTEN", "").strip() or DEFAULT_LISTEN
    return WebhookConfig(url, secret, listen, int(raw_port))


class _Hook(tornado.web.RequestHandler):
    """POST <path>: one update, handled before it is answered (200), else 5xx (Telegram sends it again)."""

    def initialize(self, app: AnyApp, secret: str) -> None:  # tornado passes the route's arguments here
        self.app, self.secret = app, secret

    async def post(self) -> None:
        given = self.request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            self.set_status(403)
            return
        try:
            data = json.loads(self.request.body)
            uid = data.get("update_id") if isinstance(data, dict) else None
            if type(uid) is not int or not 0 <= uid < MAX_UPDATE_ID:
                raise ValueError("not an update")
            update = Update.de_json(data, self.app.bot)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            self.set_status(400)  # not an update: sending it again will not help
            return
        gate: Gate | None = self.app.bot_data.get("gate")
        ctx = UpdateCtx(update.update_id)
        token = current_update.set(ctx)
        watched = failures.set(ctx)  # the database failing under it (storage/postgres.py)
        try:
            # a button's update is checked in its table's transaction (one round trip less per press)
            check = gate is not None and update.callback_query is None
            if check and gate is not None and await gate.applied(update.update_id):
                self.set_status(200)  # a second delivery of an update applied already
                return
            await self.app.process_update(update)
            if ctx.failed:
                self.set_status(503)
                return
            if gate is not None and not ctx.recorded and not ctx.duplicate:
                await gate.mark_applied(update.update_id)
        except Exception as e:
            # the database could not even say whether it was applied, or PTB failed: sent again
            log.warning("an update is answered 503; Telegram will send it again (%s)", type(e).__name__)
            self.set_status(503)
            return
        finally:
            failures.reset(watched)
            current_update.reset(token)
        self.set_status(200)

    def log_exception(self, *args: Any) -> None:  # a request's body holds private data: not in the logs
        log.warning("webhook request failed")


class _Health(tornado.web.RequestHandler):
    """GET /healthz: whether this worker reaches the database and Telegram (200), else 503."""

    def initialize(self, app: AnyApp) -> None:
        self.app = app

    async def get(self) -> None:
        check: Health | None = self.app.bot_data.get("health")
        status = await check() if check is not None else {}
        self.set_status(200 if all(status.values()) else 503)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(status))

    def log_exception(self, *args: Any) -> None:
        log.warning("health check failed")


def _access_log(handler: tornado.web.RequestHandler) -> None:
    """One line per request, never its body; a 5xx is a warning (Telegram sends the update again), not an
    error of the bot."""
    status = handler.get_status()
    level = logging.DEBUG if status < 400 else logging.WARNING
    log.log(
        level,
        "webhook %s %s in %.1f ms",
        handler.request.method,
        status,
        1000 * handler.request.request_time(),
    )


class WebhookServer:
    """The webhook: tornado serving ``config.path`` on a shared socket; ``start`` also tells Telegram."""

    def __init__(self, app: AnyApp, config: WebhookConfig) -> None:
        self.app, self.config = app, config
        routes: list[Any] = [(config.path, _Hook, {"app": app, "secret": config.secret})]
        if config.path != HEALTH_PATH:
            routes.append((HEALTH_PATH, _Health, {"app": app}))
        self._server = HTTPServer(
            tornado.web.Application(routes, log_function=_access_log),
            xheaders=True,
            max_body_size=MAX_BODY,  # refused (400) from its Content-Length, before it is read
        )

    async def start(self) -> None:
        """Listen, then tell Telegram; a refusal of the webhook closes the socket again."""
        sock = shared_socket(self.config.listen, self.config.port, "WEBHOOK_LISTEN, WEBHOOK_PORT")
        self._server.add_socket(sock)
        try:
            await self.app.bot.set_webhook(
                self.config.url,
                secret_token=self.config.secret,
                allowed_updates=Update.ALL_TYPES,
                max_connections=MAX_CONNECTIONS,
            )
        except BaseException:
            self._server.stop()
            raise

    async def stop(self) -> None:
        """Stop taking updates; those being handled finish (the caller stops the application after)."""
        self._server.stop()
        await self._server.close_all_connections()


async def start_webhook(app: AnyApp, config: WebhookConfig) -> WebhookServer:
    """Serve updates on the webhook (and tell Telegram its URL and secret): ``running(app, webhook=...)``."""
    server = WebhookServer(app, config)
    await server.start()
    return server
