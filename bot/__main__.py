"""`python -m bot`: the Telegram bot when TELEGRAM_BOT_TOKEN is set (environment or .env), else the
console game (you against three AI seats)."""

from __future__ import annotations

import sys

USAGE = """usage: python -m bot

With TELEGRAM_BOT_TOKEN set (environment or .env) it runs the Telegram bot; its settings are environment
variables, all listed in .env.example (database, display, claim pause, webhook, Mini App) - README.md and
docs/deploy.md say more. Without a token it starts the console game (python -m bot.console --help)."""


def main() -> int:
    from bot.telegram.app import load_env_file, load_token

    load_env_file()  # .env's settings (MAHJONG_DB, WEBHOOK_URL, ...) as if exported; the environment wins
    if load_token() and any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(USAGE)
        return 0
    if not load_token():
        print("No TELEGRAM_BOT_TOKEN set: starting the console game (you vs three AI seats).")
        from bot.console import main as console_main

        return console_main()
    from bot.telegram.app import main as bot_main

    return bot_main()


if __name__ == "__main__":
    sys.exit(main())
