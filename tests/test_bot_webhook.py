"""Webhook mode (bot/telegram/webhook.py): the fake Bot API POSTs updates to PTB's webhook server with the
secret token; a request without it changes nothing; the environment names the URL, port and secret."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from bot.telegram.app import running
from bot.telegram.webhook import DEFAULT_PORT, WebhookConfig, derived_secret, webhook_from_env
from bot.text.texts import t

from .bot_support import Clock, Player, hand_over, lobby_message, make_app, open_table, play_hand
from .fake_telegram import FakeTelegramServer
from .pgcluster import free_port


def test_the_environment_chooses_polling_or_a_webhook() -> None:
    token = "123:abc"
    assert webhook_from_env(token, {}) is None  # polling stays the default
    cfg = webhook_from_env(token, {"WEBHOOK_URL": "https://bot.example/tg/hook"})
    secret = derived_secret(token)
    assert cfg == WebhookConfig("https://bot.example/tg/hook", secret, "127.0.0.1", DEFAULT_PORT)
    assert cfg.path == "/tg/hook" and derived_secret(token) != derived_secret("123:abd")
    cfg = webhook_from_env(
        token,
        {
            "WEBHOOK_URL": "https://h/x",
            "WEBHOOK_PORT": "9000",
            "WEBHOOK_SECRET": "s-1",
            "WEBHOOK_LISTEN": "::",
        },  # fmt: skip
    )
    assert (cfg.port, cfg.secret, cfg.listen) == (9000, "s-1", "::")
    for bad in ({"WEBHOOK_URL": "bot.example"}, {"WEBHOOK_URL": "https://h/", "WEBHOOK_PORT": "http"},
                {"WEBHOOK_URL": "https://h/", "WEBHOOK_SECRET": "no spaces"}):  # fmt: skip
        with pytest.raises(SystemExit):
            webhook_from_env(token, bad)


async def test_a_hand_is_played_over_the_webhook(tg: FakeTelegramServer, tmp_path: Path) -> None:
    port = free_port()
    hook = WebhookConfig(f"http://127.0.0.1:{port}/telegram/hook", "s3cret_token-1", "127.0.0.1", port)
    alice = tg.add_user("Alice", language_code="en", started=True)
    group = tg.add_group("Mahjong", members=[alice])
    app = make_app(tg, tmp_path / "bot.db", Clock())
    async with running(app, webhook=hook):
        assert (tg.webhook_url, tg.webhook_secret) == (hook.url, hook.secret)
        # without the secret (or with a wrong one) PTB refuses the request: nothing reaches the bot
        async with httpx.AsyncClient() as client:
            for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "guess"}):
                forged = {"update_id": 999, "message": {"message_id": 1, "date": 0, "text": "/newtable",
                          "chat": {"id": group.id, "type": "group"}, "from": alice.to_api()}}  # fmt: skip
                assert (await client.post(hook.url, json=forged, headers=headers)).status_code == 403
            # with the secret, a body that is not an update is refused (400: not sent again), not a 500
            secret = {"X-Telegram-Bot-Api-Secret-Token": hook.secret}
            press = {"id": "1", "from": alice.to_api(), "chat_instance": "1", "data": "x"}
            for body in (b"null", b"[]", b"5", b'"x"', b"[" * 5000, b'{"update_id":7,"message":5}',
                         b'{"update_id":1e400}', b'{"update_id":-1}', json.dumps({"update_id": "abc",
                         "callback_query": press}).encode()):  # fmt: skip
                answer = await client.post(hook.url, content=body, headers=secret)
                assert answer.status_code == 400, body[:40]
            # a body larger than any update is refused from its length, before it is sent (without the
            # secret: tornado read every byte before the handler looked at the secret)
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST /telegram/hook HTTP/1.1\r\nHost: x\r\nContent-Length: 90000000\r\n\r\n")
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), 5)
            assert status.split()[1] == b"400", status
            writer.close()
        tid, _ = await open_table(tg, alice, group, "changsha")
        lobby = await lobby_message(tg, group, tid)
        tg.press(alice, group, lobby.message_id, f"L|{tid}|go")
        done = hand_over(tg, group, t("note.result_title", "en", n=1))
        assert await play_hand([Player(tg, alice, tid)], done) > 0
        await tg.wait_idle()
    assert not any(c.method == "getUpdates" for c in tg.calls)
    assert tg.webhook_posts and all(status == 200 for _, status in tg.webhook_posts)
    assert len({uid for uid, _ in tg.webhook_posts}) == len(tg.updates)  # each delivered, once
