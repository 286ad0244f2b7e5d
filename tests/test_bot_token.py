"""A token Telegram refuses is never printed: PTB's InvalidToken message quotes it, and it used to
reach stderr in an uncaught traceback. `python -m bot` runs in a subprocess against the fake Bot API server
(TELEGRAM_BASE_URL), which refuses any token but its own."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from .fake_telegram import FakeTelegramServer

ROOT = Path(__file__).resolve().parent.parent


async def test_a_refused_token_is_never_printed(tmp_path: Path) -> None:
    secret = "AAH-not-the-real-secret-0123456789abcdef"
    token = f"987654321:{secret}"
    async with FakeTelegramServer() as tg:
        assert token != tg.token
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("TELEGRAM_")},
            "TELEGRAM_BOT_TOKEN": token,
            "TELEGRAM_BASE_URL": tg.base_url,
            "MAHJONG_DB": str(tmp_path / "bot.db"),
            "PYTHONPATH": str(ROOT),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,  # no .env here
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
        assert tg.calls_to("getMe") and not tg.calls_to("getMe", ok=True)  # it asked, and was refused
    text = (out + err).decode(errors="replace")
    assert proc.returncode == 2, text
    assert "refused the bot token" in text
    for part in (token, secret, secret[:12]):
        assert part not in text
    assert "Traceback" not in text and " ERROR " not in text, text  # one line: not PTB's "Invalid token" too


async def test_the_database_password_is_never_printed(tmp_path: Path) -> None:
    """The start's log line named the database as given, a PostgreSQL URL's password with it (the failure's
    own message hid it). Nothing listens on the URL's port: the bot stops with its one line (exit 5)."""
    secret = "S3CRET-pw-0123456789"
    async with FakeTelegramServer() as tg:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "MAHJONG_"))},
            "TELEGRAM_BOT_TOKEN": tg.token,
            "TELEGRAM_BASE_URL": tg.base_url,
            "MAHJONG_DB": f"postgresql://mahjong:{secret}@127.0.0.1:9/mahjong",
            "PYTHONPATH": str(ROOT),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    text = (out + err).decode(errors="replace")
    assert proc.returncode == 5, text
    assert "starting the bot (database postgresql://mahjong:***@127.0.0.1:9/mahjong)" in text, text
    assert secret not in text
