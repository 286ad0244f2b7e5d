"""PTB handlers: parse the update, call the table service, answer. Nothing here knows the rules.

Every button press gets exactly one short callback answer, whatever happens (a foreign or stale press is
answered and changes nothing). Handlers run concurrently; the service serialises per table.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram import Chat, Update, User
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

import engine

from . import keyboards as kb
from . import views
from .outbox import retry_seconds
from .service import Reply, TableService
from .texts import lang_of, t

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
COMMANDS = ("newtable", "rules", "score", "hand", "stop", "lang", "help")


def service_of(context: Context) -> TableService:
    svc = context.bot_data.get("service")
    if not isinstance(svc, TableService):
        raise RuntimeError("the table service is not running (post_init did not run)")
    return svc


def find_variant(word: str | None) -> str | None:
    """A variant id from what a user typed: the id, or its Chinese or English name (or a prefix)."""
    rulesets = engine.RULESETS
    if not word:
        return next(iter(rulesets), None)  # the engine lists its default variant first
    w = word.strip().lower()
    for rid, rs in rulesets.items():
        if w == rid or w == rs.name_zh.lower() or w == rs.name_en.lower():
            return rid
    for rid, rs in rulesets.items():
        if rid.startswith(w) or rs.name_zh.startswith(word) or rs.name_en.lower().startswith(w):
            return rid
    return None


async def _see(svc: TableService, update: Update) -> tuple[User | None, Chat | None]:
    user, chat = update.effective_user, update.effective_chat
    if user is not None:
        await svc.see_user(user.id, user.full_name, user.language_code)
    if chat is not None and chat.type != Chat.PRIVATE:
        svc.see_chat(chat.id, chat.title)
    return user, chat


def _lang(svc: TableService, user: User | None, chat: Chat | None) -> str:
    if chat is not None and chat.type == Chat.PRIVATE and user is not None:
        return svc.dm_lang(user.id)
    rt = svc.table_in(chat.id) if chat is not None else None
    fallback = lang_of(user.language_code) if user is not None else None
    if rt is not None:
        return svc.chat_lang(rt.chat_id, rt.settings.lang)
    return svc.chat_lang(chat.id, fallback) if chat is not None else (fallback or "zh")


async def _reply(update: Update, text: str, keyboard: kb.Keyboard | None = None) -> None:
    message = update.effective_message
    if message is None:
        return
    try:
        await message.reply_text(text, reply_markup=kb.to_markup(keyboard))
    except TelegramError as e:
        log.warning("could not reply in chat %s: %s", message.chat_id, e.message)


# ------------------------------------------------------------------ commands


async def cmd_start(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None:
        return
    if chat.type != Chat.PRIVATE:
        await _reply(update, t("help", _lang(svc, user, chat), variants=_variants()))
        return
    payload = context.args[0] if context.args else ""
    await _reply(update, await svc.private_start(user.id, payload))


async def cmd_newtable(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None:
        return
    lang = _lang(svc, user, chat)
    if chat.type == Chat.PRIVATE:
        await _reply(update, t("note.group_only", lang))
        return
    word = " ".join(context.args) if context.args else None
    variant = find_variant(word)
    if variant is None:
        await _reply(update, t("note.unknown_variant", lang, name=word or "", known=_variants()))
        return
    rt, created = await svc.new_table(chat.id, user.id, variant, lang_of(user.language_code))
    if not created:
        await _reply(update, t("note.table_exists", svc.chat_lang(chat.id, rt.settings.lang), tid=rt.id))
        return
    await svc.join(rt.id, user.id)


async def cmd_rules(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    lang = _lang(svc, user, chat)
    word = " ".join(context.args) if context.args else None
    if word is None and chat is not None and (rt := svc.table_in(chat.id)) is not None:
        variant: str | None = rt.table.variant
    else:
        variant = find_variant(word)
    if variant is None:
        await _reply(update, t("note.unknown_variant", lang, name=word or "", known=_variants()))
        return
    await _reply(update, views.rules_text(engine.get_ruleset(variant), lang))


async def cmd_help(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    await _reply(update, t("help", _lang(svc, user, chat), variants=_variants()))


async def cmd_score(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if chat is None:
        return
    lang = _lang(svc, user, chat)
    period = context.args[0].lower() if context.args else "all"
    text = await svc.leaderboard(chat.id, period, lang)
    await _reply(update, text, kb.score_keyboard(lang))


async def cmd_hand(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None:
        return
    lang = _lang(svc, user, chat)
    private = chat.type == Chat.PRIVATE
    count = await svc.resend(user.id, None if private else chat.id)
    if count == 0:
        await _reply(update, t("dm.not_seated", lang))
    elif not private:
        await _reply(update, t("ans.hand_sent", lang))


async def cmd_stop(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None or chat.type == Chat.PRIVATE:
        return
    is_admin = False
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
        is_admin = member.status in ("creator", "administrator")
    except TelegramError as e:
        log.info("admin check failed in chat %s: %s", chat.id, e.message)
    await _reply(update, await svc.stop(chat.id, user.id, is_admin))


async def cmd_lang(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if chat is None:
        return
    current = _lang(svc, user, chat)
    word = context.args[0].lower() if context.args else ""
    if word.startswith("zh") or word in ("中文", "cn", "chinese"):
        lang = "zh"
    elif word.startswith("en") or word == "english":
        lang = "en"
    else:
        lang = "en" if current == "zh" else "zh"
    await svc.set_lang(chat.id, lang)
    await _reply(update, t("note.lang", lang))


def _variants() -> str:
    return ", ".join(f"{rid} {rs.name_zh}" for rid, rs in engine.RULESETS.items())


# ------------------------------------------------------------------ buttons


async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None:
        return
    svc = service_of(context)
    user, _ = await _see(svc, update)
    uid = query.from_user.id
    kind, args = kb.parse(query.data)
    reply = Reply(t("ans.stale", svc.dm_lang(uid)))
    settle: int | None = None
    try:
        if kind == "g" and len(args) == 3 and all(a.lstrip("-").isdigit() for a in args):
            tid = int(args[0])
            reply = await svc.press(tid, uid, int(args[1]), int(args[2]))
            settle = tid if reply.ok else None
        elif kind == "L" and len(args) >= 2 and args[0].isdigit():
            tid = int(args[0])
            if args[1] == "j":
                reply = await svc.join(tid, uid)
            else:
                reply = await svc.lobby(tid, uid, args[1], args[2] if len(args) > 2 else "")
        elif kind == "h" and len(args) == 1 and args[0].isdigit():
            rt = svc.tables.get(int(args[0]))
            lang = svc.chat_lang(rt.chat_id, rt.settings.lang) if rt is not None else svc.dm_lang(uid)
            count = await svc.resend(uid, rt.chat_id) if rt is not None else 0
            reply = Reply(t("ans.hand_sent" if count else "ans.not_seated", lang))
        elif kind == "b" and len(args) == 1 and args[0].isdigit():
            reply = await svc.im_back(int(args[0]), uid)
        elif kind == "S" and len(args) == 1 and query.message is not None:
            chat_id = query.message.chat.id
            rt = svc.table_in(chat_id)
            lang = svc.chat_lang(
                chat_id, rt.settings.lang if rt else (lang_of(user.language_code) if user else None)
            )
            text = await svc.leaderboard(chat_id, args[0], lang)
            reply = Reply(t("ans.ok", lang))
            try:
                await query.edit_message_text(text, reply_markup=kb.to_markup(kb.score_keyboard(lang)))
            except TelegramError as e:
                log.debug("score edit: %s", e.message)
    finally:
        await _answer(query, reply)
    if settle is not None:
        await svc.settle(settle)


async def _answer(query: Any, reply: Reply) -> None:
    """Answer a press; a lost answer (5xx, 429) is retried a few times, an expired query is not."""
    for attempt in range(4):
        try:
            await query.answer(reply.text[:200], show_alert=reply.alert, url=reply.url)
            return
        except RetryAfter as e:
            await asyncio.sleep(retry_seconds(e))
        except BadRequest as e:
            log.info("callback answer refused: %s", e.message)
            return
        except NetworkError as e:
            log.info("callback answer failed (%s), attempt %d", e.message, attempt + 1)
            await asyncio.sleep(0.05 * 2**attempt)
        except TelegramError as e:
            log.info("callback answer failed: %s", e.message)
            return


# ------------------------------------------------------------------ errors


async def on_error(update: object, context: Context) -> None:
    """Log and carry on: one bad update never stops the bot. Update contents are not logged (hands)."""
    kind = type(update).__name__ if update is not None else "job"
    log.error("error while handling %s", kind, exc_info=context.error)


def install(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    app.add_handler(CommandHandler("start", cmd_start))
    app.add_handler(CommandHandler("newtable", cmd_newtable))
    app.add_handler(CommandHandler("rules", cmd_rules))
    app.add_handler(CommandHandler("help", cmd_help))
    app.add_handler(CommandHandler("score", cmd_score))
    app.add_handler(CommandHandler("hand", cmd_hand))
    app.add_handler(CommandHandler("stop", cmd_stop))
    app.add_handler(CommandHandler("lang", cmd_lang))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_error_handler(on_error)
