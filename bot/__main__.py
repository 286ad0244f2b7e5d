"""`python -m bot`: the Telegram bot when TELEGRAM_BOT_TOKEN is set (environment or .env), else the
console game (you against three AI seats)."""

from __future__ import annotations

import sys


def main() -> int:
    from bot.telegram.app import load_env_file, load_token

    load_env_file()  # .env's settings (MAHJONG_DB, WEBHOOK_URL, ...) as if exported; the environment wins
    if not load_token():
        print("No TELEGRAM_BOT_TOKEN set: starting the console game (you vs three AI seats).")
        from bot.console import main as console_main

        return console_main()
    from bot.telegram.app import main as bot_main

    return bot_main()


if __name__ == "__main__":
    sys.exit(main())
