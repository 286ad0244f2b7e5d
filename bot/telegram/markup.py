"""A plain keyboard (bot/messages/content.py) as PTB's markup, for the requests PTB makes itself."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.messages.content import Keyboard


def to_markup(kb: Keyboard | None) -> InlineKeyboardMarkup | None:
    if not kb:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(b.label, url=b.url)
                if b.url is not None
                else InlineKeyboardButton(b.label, callback_data=b.data)
                for b in row
            ]
            for row in kb
        ]
    )
