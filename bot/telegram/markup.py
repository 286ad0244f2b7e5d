"""A plain keyboard (bot/messages/content.py) as PTB's markup, for the requests PTB makes itself."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.messages.content import Button, Keyboard


def to_markup(kb: Keyboard | None) -> InlineKeyboardMarkup | None:
    if not kb:
        return None
    return InlineKeyboardMarkup([[_button(b) for b in row] for row in kb])


def _button(b: Button) -> InlineKeyboardButton:
    if b.web_app is not None:
        return InlineKeyboardButton(b.label, web_app=WebAppInfo(b.web_app))
    if b.url is not None:
        return InlineKeyboardButton(b.label, url=b.url)
    return InlineKeyboardButton(b.label, callback_data=b.data)
