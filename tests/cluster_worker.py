"""One bot worker process for the multi-worker tests and benchmark: the bot on a PostgreSQL database, served
by webhook on a port it shares with the other workers (SO_REUSEPORT), against the fake Bot API, with the
settings tests use (no flood pacing, no claim pause, seeded shuffles; ``MAHJONG_DISPLAY`` as for the bot,
pictures by default). Prints ``ready`` once it serves; stops on SIGTERM.

    python -m tests.cluster_worker <database url> <fake Bot API base url> <port> <secret>
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from telegram.ext import AIORateLimiter

from bot.telegram.app import build_application, pictures_from_env, running
from bot.telegram.webhook import WebhookConfig

from .fake_telegram import DEFAULT_TOKEN


async def serve(db: str, base_url: str, port: int, secret: str) -> None:
    app = build_application(
        DEFAULT_TOKEN,
        db,
        base_url,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3),
        group_interval=0,
        send_rate=0,
        lazy_interval=0,
        claim_pause=0,
        seed_fn=lambda table_id, number: 1000 * table_id + number,
        pictures=pictures_from_env(),
    )
    hook = WebhookConfig(f"http://127.0.0.1:{port}/hook", secret, "127.0.0.1", port)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with running(app, webhook=hook):
        print("ready", flush=True)
        await stop.wait()


def main() -> None:
    fmt = "worker %(process)d %(levelname)s %(name)s: %(message)s"
    logging.basicConfig(level=logging.WARNING, format=fmt)
    db, base_url, port, secret = sys.argv[1:5]
    asyncio.run(serve(db, base_url, int(port), secret))


if __name__ == "__main__":
    main()
