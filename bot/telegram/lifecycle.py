"""Telegram's lifecycle of a group, as it concerns a table: the group becomes a supergroup
(``migrate_to_chat_id``), or the bot is removed from it (``my_chat_member``: left or kicked).

A migration moves the table, its scores and settings to the new chat id; a removal closes the table (scores
of finished hands kept, the hand in progress abandoned and the players told in private). Re-added, the bot
answers /newtable as in any group without a table. A player who blocks the bot is met by the outbox (his
seat goes on auto-play), not here.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import ChatMember, Update
from telegram.ext import Application, ChatMemberHandler, ContextTypes, MessageHandler, filters

from bot.table.service import TableService

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
GONE = (ChatMember.LEFT, ChatMember.BANNED)


def _service(context: Context) -> TableService | None:
    svc = context.bot_data.get("service")
    return svc if isinstance(svc, TableService) else None


async def on_migrate(update: Update, context: Context) -> None:
    """Both service messages: ``migrate_to_chat_id`` in the old group, ``migrate_from_chat_id`` in the new
    supergroup (either may come first; the second changes nothing)."""
    message = update.effective_message
    svc = _service(context)
    if message is None or svc is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    log.info("chat %s is now the supergroup %s", old, new)
    await svc.chat_migrated(old, new)


async def on_my_member(update: Update, context: Context) -> None:
    change = update.my_chat_member
    svc = _service(context)
    if change is None or svc is None or change.chat.type == "private":
        return
    if change.new_chat_member.status in GONE and change.old_chat_member.status not in GONE:
        log.info("the bot was removed from chat %s", change.chat.id)
        await svc.bot_removed(change.chat.id)


def install(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    # group -1: seen before (and besides) the command and button handlers of ``bot.handlers``
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate), group=-1)
    app.add_handler(ChatMemberHandler(on_my_member, ChatMemberHandler.MY_CHAT_MEMBER), group=-1)
