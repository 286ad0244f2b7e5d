"""`python -m bot`: the Telegram bot when a token is configured, else the console game."""

from __future__ import annotations

import os
import sys


def main() -> int:
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token and os.path.exists(".env"):
        for line in open(".env", encoding="utf-8"):
            key, _, value = line.strip().partition("=")
            if key == "TELEGRAM_BOT_TOKEN":
                token = value.strip()
    if not token:
        print("No TELEGRAM_BOT_TOKEN set: starting the console game (you vs three AI seats).")
        from .console import main as console_main

        return console_main()
    print("The Telegram front end is not built yet (issue 6); starting the console game instead.")
    from .console import main as console_main

    return console_main()


if __name__ == "__main__":
    sys.exit(main())
