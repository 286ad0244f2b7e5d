"""PTB handlers: parse the update, call the table service, answer. Nothing here knows the rules.

Every button press gets exactly one short callback answer, whatever happens (a foreign, stale or unknown
press is answered and changes nothing); an update Telegram delivers again changes nothing, and a press
gets the answer it had (``first_delivery``, ``TableService.delivered_again``). A press's data is read by
one typed decoder (``keyboards.decode``).
Commands run from new messages only: an edited message never runs one, channel posts are ignored. What a
user typed is cleaned and capped before it is stored (names) or quoted back (``texts.clean``), and every
command gets a reply. Handlers run concurrently; the service serialises per table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from telegram import Bot, CallbackQuery, Chat, ChatMember, InputFile, Message, Update, User
from telegram.error import BadRequest, Conflict, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    TypeHandler,
    filters,
)

import engine
from bot.members.access import MemberProbe
from bot.messages import keyboards as kb
from bot.messages import presses
from bot.messages.content import Keyboard
from bot.table.service import Reply, TableService, Who
from bot.telegram.markup import to_markup
from bot.telegram.outbox import retry_seconds
from bot.text import rulebook, views
from bot.text.fit import MAX_TEXT, split_text
from bot.text.texts import QUOTE_LIMIT, clean, lang_of, t

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
COMMANDS = (
    "newtable", "rules", "score", "history", "replay", "export", "stats", "hand", "stop", "lang", "view",
    "help",
)  # fmt: skip


def service_of(context: Context) -> TableService:
    svc = context.bot_data.get("service")
    if not isinstance(svc, TableService):
        raise RuntimeError("the table service is not running (post_init did not run)")
    return svc


def find_variant(word: str | None) -> str | None:
    """A variant id from what a user typed: the id, or its Chinese or English name (or a prefix)."""
    variants = engine.VARIANTS
    if not word:
        return next(iter(variants), None)  # the engine lists its default variant first
    word = word[:64]  # no variant name is longer; a 10 KB argument is simply unknown
    w = word.strip().lower()
    if not w:
        return None
    for rid, rs in variants.items():
        if w == rid or w == rs.name_zh.lower() or w == rs.name_en.lower():
            return rid
    for rid, rs in variants.items():
        if rid.startswith(w) or rs.name_zh.startswith(word) or rs.name_en.lower().startswith(w):
            return rid
    return None


def _preset(rs: engine.Variant, words: str) -> engine.Preset | None:
    """The preset of ``rs`` named exactly by ``words`` (its id, Chinese or English label)."""
    w = words.strip().lower()
    return next((p for p in rs.presets if w in (p.id, p.label_zh.lower(), p.label_en.lower())), None)


def find_room(words: str | None) -> tuple[str, engine.Preset | None] | None:
    """What ``/newtable`` names: a variant, a preset by its own name (Chinese or English: the
    variant it belongs to), or a variant then one of its presets (``<variant> <preset>``); None if unknown."""
    variant = find_variant(words)
    text = (words or "")[:128].strip()
    exact = variant is not None and text.lower() in (
        variant,
        engine.get_variant(variant).name_zh.lower(),
        engine.get_variant(variant).name_en.lower(),
    )
    if variant is not None and (exact or not text):
        return variant, None
    for rid, rs in engine.VARIANTS.items():  # a preset's own name
        preset = _preset(rs, text)
        if preset is not None:
            return rid, preset
    head, _, rest = text.partition(" ")
    first = find_variant(head) if rest else None
    if first is not None:  # "<variant> <preset>"
        preset = _preset(engine.get_variant(first), rest)
        if preset is not None:
            return first, preset
    return (variant, None) if variant is not None else None


def _args(context: Context) -> str:
    """A command's arguments as typed (at most a few hundred characters of them are ever looked at)."""
    return " ".join(context.args or ())[:512]


def _who(user: User) -> Who:
    return Who(clean(user.full_name) or str(user.id), user.language_code)


def _service_sender(update: Update) -> bool:
    """A message sent on behalf of a chat rather than by a person: a channel writing in the group (a member
    posting as his channel, or a linked channel's post) or an anonymous admin of the group. Telegram marks it
    with ``sender_chat`` and puts a stand-in bot user in ``from`` (Channel_Bot, GroupAnonymousBot), shared by
    every such sender: it is no player - nothing of it is stored and it takes no seat."""
    message = update.effective_message
    return message is not None and message.sender_chat is not None


def _anonymous_admin(update: Update) -> bool:
    """An anonymous admin of the group: Telegram says so by a ``sender_chat`` that is the group itself."""
    message, chat = update.effective_message, update.effective_chat
    sender = message.sender_chat if message is not None else None
    return sender is not None and chat is not None and sender.id == chat.id


async def _see(svc: TableService, update: Update) -> tuple[User | None, Chat | None]:
    """Remember who wrote (name cleaned and capped) and the group's title. A press stores nothing of a user
    who is not seated: joining stores him once he may join (``join(who=...)``)."""
    user, chat = update.effective_user, update.effective_chat
    who = _who(user) if user is not None and not user.is_bot and not _service_sender(update) else None
    # a press by someone the bot knows as he is (the usual case) looks through no table for his seat
    if user is not None and who is not None and not svc.people.known(user.id, who.name, who.language):
        if update.message is not None or svc.registry.of_user(user.id):
            await svc.see_user(user.id, who.name, who.language)
        elif user.language_code:  # answer him in his language; nothing is stored
            svc.people.user_langs.setdefault(user.id, lang_of(user.language_code))
    if chat is not None and chat.type != Chat.PRIVATE:
        svc.see_chat(chat.id, clean(chat.title))
    return user, chat


def _lang(svc: TableService, user: User | None, chat: Chat | None) -> str:
    if chat is not None and chat.type == Chat.PRIVATE and user is not None:
        return svc.dm_lang(user.id)
    rt = svc.table_in(chat.id) if chat is not None else None
    fallback = lang_of(user.language_code) if user is not None else None
    if rt is not None:
        return svc.chat_lang(rt.chat_id, rt.settings.lang)
    return svc.chat_lang(chat.id, fallback) if chat is not None else (fallback or "zh")


async def _in_group(
    update: Update, context: Context, note: str = "note.in_group"
) -> tuple[TableService, User, Chat, str] | None:
    """A group command's service, sender, group and language; in a private chat the sender is told that it
    is a group's command (``note``), and there is nothing more to do (None)."""
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None:
        return None
    lang = _lang(svc, user, chat)
    if chat.type == Chat.PRIVATE:
        await _reply(update, t(note, lang))
        return None
    return svc, user, chat, lang


async def _reply(update: Update, text: str, keyboard: Keyboard | None = None) -> None:
    """Reply to a command (a text over 4,096 characters in several messages, the keyboard on the last); if
    Telegram refuses the quote (the message is gone), reply without it."""
    message = update.effective_message
    if message is None:
        return
    parts = split_text(text)
    for i, part in enumerate(parts):
        markup = to_markup(keyboard) if i == len(parts) - 1 else None
        for quote in (None, False):
            try:
                await message.reply_text(part, reply_markup=markup, do_quote=quote)
                break
            except BadRequest as e:
                log.info("reply refused in chat %s: %s", message.chat_id, e.message)
            except TelegramError as e:
                log.warning("could not reply in chat %s: %s", message.chat_id, e.message)
                return


def member_probe(bot: Bot) -> MemberProbe:
    """The service's membership port: getChatMember's status ("restricted" only while still in the chat)."""

    async def probe(chat_id: int, user_id: int) -> str:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (BadRequest, Forbidden) as e:  # no such user or chat, or the bot is not in it
            log.info("membership check in chat %s: %s", chat_id, e.message)
            return "left"
        except TelegramError as e:
            log.info("membership check failed in chat %s: %s", chat_id, e.message)
            return ""
        except Exception:  # an answer PTB cannot read: unknown, asked again next time
            log.warning("membership check in chat %s: unreadable answer", chat_id, exc_info=True)
            return ""
        if member.status == ChatMember.RESTRICTED:
            return "restricted" if getattr(member, "is_member", False) else "left"
        return str(member.status)

    return probe


# ------------------------------------------------------------------ commands


async def cmd_start(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None:
        return
    if chat.type != Chat.PRIVATE:
        lang = _lang(svc, user, chat)
        await _reply(update, t("help", lang, variants=_variants(lang)))
        return
    if user.is_bot:  # a deep link seats whoever follows it: never a bot account
        await _reply(update, t("ans.no_bots", lang_of(user.language_code)))
        return
    payload = context.args[0][:64] if context.args else ""  # Telegram's deep-link payloads: 64 at most
    await _reply(update, await svc.private_start(user.id, payload, _who(user)))


async def cmd_newtable(update: Update, context: Context) -> None:
    asked = await _in_group(update, context, "note.group_only")
    if asked is None:
        return
    svc, user, chat, lang = asked
    if _service_sender(update) or user.is_bot:  # the opener takes the first seat: a person's own account
        await _reply(update, t("note.as_yourself", lang))
        return
    word = _args(context) or None
    found = find_room(word)
    if found is None:
        quoted = clean(word, QUOTE_LIMIT)
        await _reply(update, t("note.unknown_variant", lang, name=quoted, known=_variants(lang)))
        return
    variant, preset = found
    rt, created = await svc.new_table(chat.id, user.id, variant, lang_of(user.language_code), preset)
    if not created or isinstance(rt, int):
        tid = rt if isinstance(rt, int) else rt.id
        lang = svc.chat_lang(chat.id, None if isinstance(rt, int) else rt.settings.lang)
        await _reply(update, t("note.table_exists", lang, tid=tid))
        return
    await svc.join(rt.id, user.id, who=_who(user))


async def cmd_rules(update: Update, context: Context) -> None:
    """/rules [variant]: the room's options at a glance (what the lobby offers), then - in private - the rules
    page itself, in the reader's language, in as many messages as it takes. In a group only the summary, with
    a button that sends the whole page to the presser in private (a page is several long messages)."""
    svc = service_of(context)
    user, chat = await _see(svc, update)
    lang = _lang(svc, user, chat)
    word = _args(context) or None
    page: str | None
    if word is not None and word.strip().lower() in COMMON_WORDS:
        page = rulebook.COMMON
    elif word is None and chat is not None and (rt := svc.table_in(chat.id)) is not None:
        page = rt.table.variant
    else:  # a variant, or one of its rooms by name (血流成河: 四川's page)
        room = find_room(word)
        page = room[0] if room is not None else None
    if page is None:
        quoted = clean(word, QUOTE_LIMIT)
        await _reply(update, t("note.unknown_variant", lang, name=quoted, known=_variants(lang)))
        return
    summary = views.rules_text(engine.get_variant(page), lang) if page in engine.VARIANTS else ""
    if chat is not None and chat.type != Chat.PRIVATE:
        text = "\n\n".join(x for x in (summary, t("rules.more", lang)) if x)
        await _reply(update, text, kb.rules_keyboard(page, lang))
        return
    messages = [*([summary] if summary else []), *_rules_pages(page, lang)]
    common = kb.rules_keyboard(rulebook.COMMON, lang) if page != rulebook.COMMON else None
    for i, part in enumerate(messages):  # the common rules a page refers to, a button under its last part
        await _reply(update, part, common if i == len(messages) - 1 else None)


COMMON_WORDS = frozenset({"common", "通用", "通用规则"})


def _rules_pages(page: str, lang: str) -> list[str]:
    """A rules page for a reader of ``lang``, in messages (the summary's note where it is not installed)."""
    parts = rulebook.parts(page, lang, t("rules.part", lang, i="{i}", n="{n}"))
    return parts if parts is not None else [t("rules.missing", lang)]


async def cmd_view(update: Update, context: Context) -> None:
    """/view [pictures|text]: how this chat (a group, or the private chat) shows the game; no argument
    switches."""
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if chat is None:
        return
    lang = _lang(svc, user, chat)
    if chat.type != Chat.PRIVATE and not await _may_set_group(svc, update, chat, user):
        await _reply(update, t("note.view_denied", svc.dm_lang(user.id) if user is not None else lang))
        return
    word = context.args[0][:16].lower() if context.args else ""
    if word.startswith(("pic", "img", "图")):
        display = "pictures"
    elif word.startswith(("text", "txt", "文")):
        display = "text"
    else:
        display = "text" if svc.people.pictures(chat.id) else "pictures"
    await svc.set_display(chat.id, display)
    await _reply(update, t(f"view.{display}", lang))


async def cmd_help(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    lang = _lang(svc, user, chat)
    await _reply(update, t("help", lang, variants=_variants(lang)))


async def cmd_score(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if chat is None:
        return
    lang = _lang(svc, user, chat)
    period, variant = "all", None  # /score [variant] [all|week|month], in any order; unknown words ignored
    for word in (context.args or [])[:2]:
        if word[:8].lower() in presses.PERIODS:
            period = word[:8].lower()
        elif (found := find_variant(word)) is not None:
            variant = found
    text = await svc.leaderboard(chat.id, period, lang, variant)
    await _reply(update, text, kb.score_keyboard(lang, variant))


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
    found = await _in_group(update, context)
    if found is None:
        return
    svc, user, chat, _ = found
    is_admin = _anonymous_admin(update) or await svc.access.is_admin(chat.id, user.id)
    await _reply(update, await svc.stop(chat.id, user.id, is_admin))


async def _may_set_group(svc: TableService, update: Update, chat: Chat, user: User | None) -> bool:
    """How a group shows its table - its language (the lobby's language button is the host's), pictures or
    text - is for the table's host and the group's admins (an anonymous admin too): /lang and /view there,
    not for any member, bot or channel."""
    if _anonymous_admin(update):
        return True
    if user is None or user.is_bot or _service_sender(update):
        return False
    rt = svc.table_in(chat.id)
    if rt is not None and rt.settings.host == user.id:
        return True
    return await svc.access.is_admin(chat.id, user.id)


async def cmd_lang(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if chat is None:
        return
    current = _lang(svc, user, chat)
    if chat.type != Chat.PRIVATE and not await _may_set_group(svc, update, chat, user):
        asker = svc.dm_lang(user.id) if user is not None else current  # a refusal is read by him
        await _reply(update, t("note.lang_denied", asker))
        return
    word = context.args[0][:16].lower() if context.args else ""
    if word.startswith("zh") or word in ("中文", "cn", "chinese"):
        lang = "zh"
    elif word.startswith("en") or word == "english":
        lang = "en"
    else:
        lang = "en" if current == "zh" else "zh"
    await svc.set_lang(chat.id, lang)
    await _reply(update, t("note.lang", lang))


# ------------------------------------------------------------------ 战绩: /history /replay /export /stats


async def cmd_history(update: Update, context: Context) -> None:
    found = await _in_group(update, context)
    if found is None:
        return
    svc, _, chat, lang = found
    text, keyboard = await svc.history.page(chat.id, 0, lang)
    await _reply(update, text, keyboard)


async def _found(update: Update, context: Context, cmd: str) -> tuple[Any, Any, Any, str] | None:
    """The hand a /replay or /export names, if the user may open it here; else the refusal is sent."""
    svc = service_of(context)
    user, chat = await _see(svc, update)
    if user is None or chat is None:
        return None
    lang = _lang(svc, user, chat)
    private = chat.type == Chat.PRIVATE
    typed = context.args[0][:64] if context.args else ""
    found = await svc.history.find(typed, user.id, None if private else chat.id, cmd, lang)
    if isinstance(found, str):
        await _reply(update, clean(found, MAX_TEXT))
        return None
    return svc, user, found, lang


async def cmd_replay(update: Update, context: Context) -> None:
    got = await _found(update, context, "replay")
    if got is None:
        return
    svc, user, found, lang = got
    dlang = svc.dm_lang(user.id)
    text, keyboard = await svc.history.replay_view(found, 0, dlang)
    try:
        await context.bot.send_message(user.id, text[:MAX_TEXT], reply_markup=to_markup(keyboard))
    except Forbidden:
        await _reply(update, t("replay.no_dm", lang))
        return
    except TelegramError as e:
        log.info("replay not sent: %s", e.message)
        await _reply(update, t("ans.error", lang))
        return
    chat = update.effective_chat
    if chat is not None and chat.type != Chat.PRIVATE:
        await _reply(update, t("replay.sent", lang))


async def cmd_export(update: Update, context: Context) -> None:
    got = await _found(update, context, "export")
    if got is None:
        return
    svc, _, found, lang = got
    name, data = await svc.history.export(found)
    message = update.effective_message
    if message is None:
        return
    try:
        await message.reply_document(
            InputFile(data, filename=name), caption=t("export.caption", lang, code=found.hand.code)
        )
    except TelegramError as e:
        log.info("export not sent in chat %s: %s", message.chat_id, e.message)


async def cmd_stats(update: Update, context: Context) -> None:
    svc = service_of(context)
    user, chat = await _see(svc, update)
    message = update.effective_message
    if user is None or chat is None or message is None:
        return
    lang = _lang(svc, user, chat)
    target = user
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None:
        if replied.from_user.is_bot:
            await _reply(update, t("stats.usage", lang))
            return
        target = replied.from_user
    name = clean(target.full_name) or str(target.id)
    chat_id = None if chat.type == Chat.PRIVATE else chat.id
    await _reply(update, await svc.history.stats(target.id, name, chat_id, lang))


def _variants(lang: str) -> str:
    """Every variant, with its presets (each may be typed after /newtable too), in the reader's language."""
    out = []
    for rid, rs in engine.VARIANTS.items():
        if lang == "zh":
            presets = "/".join(p.label_zh for p in rs.presets)
            out.append(f"{rid} {rs.name_zh}" + (f"（{presets}）" if presets else ""))
        else:
            presets = " / ".join(p.label_en for p in rs.presets)
            out.append(f"{rid} ({rs.name_zh})" + (f" [{presets}]" if presets else ""))
    return "，".join(out) if lang == "zh" else ", ".join(out)


# ------------------------------------------------------------------ buttons: one route per press kind


@dataclass(slots=True)
class Pressed:
    """A button press being handled: the service, the query, the presser, and what to do once the press is
    answered (``after``: the table moves on, an old panel loses its buttons)."""

    svc: TableService
    query: CallbackQuery
    user: User
    update_id: int
    after: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    @property
    def uid(self) -> int:
        return self.user.id

    @property
    def lang(self) -> str:
        """The presser's language: a toast is read by him, not by the group."""
        return self.svc.dm_lang(self.uid)

    @property
    def message(self) -> Message | None:
        message = self.query.message
        return message if isinstance(message, Message) else None

    def group_lang(self, chat_id: int) -> str:
        """The language of a group message the press edits (its table's, else the group's, else his)."""
        rt = self.svc.table_in(chat_id)
        fallback = rt.settings.lang if rt is not None else lang_of(self.user.language_code)
        return self.svc.chat_lang(chat_id, fallback)

    async def edit(self, text: str, keyboard: Keyboard | None, what: str) -> None:
        """The pressed message shows ``text`` now (a score board, a page, a replay step)."""
        try:
            await self.query.edit_message_text(text[:MAX_TEXT], reply_markup=to_markup(keyboard))
        except TelegramError as e:
            log.debug("%s edit: %s", what, e.message)


P = TypeVar("P", bound=presses.Press)
Route = Callable[[Pressed, P], Awaitable[Reply]]


async def _game(c: Pressed, press: presses.GamePress) -> Reply:
    reply = await c.svc.press(press.table, c.uid, press.hand, press.decision, press.index, c.update_id)
    message = c.message
    if message is not None and c.svc.old_panel(c.uid, press.table, message.chat.id, message.message_id):
        # his live panel is another message: this one's buttons are out of date from now on
        async def strip() -> None:
            try:
                await c.query.edit_message_reply_markup(reply_markup=None)
            except TelegramError as e:
                log.debug("old panel keyboard: %s", e.message)

        c.after.append(strip)
    if reply.ok:
        c.after.append(lambda: c.svc.settle(press.table))
    return reply


async def _pick(c: Pressed, press: presses.PickPress) -> Reply:
    return await c.svc.pick(press.table, c.uid, press.hand, press.decision, press.index)


async def _lobby(c: Pressed, press: presses.LobbyPress) -> Reply:
    if press.op == "j":
        return await c.svc.join(press.table, c.uid, who=_who(c.user))
    if press.op == "go":
        return await c.svc.start(press.table, c.uid)
    if press.op == "y":
        return await c.svc.ready(press.table, c.uid)
    return await c.svc.lobby(press.table, c.uid, press.op, press.a, press.b)


async def _hand(c: Pressed, press: presses.HandPress) -> Reply:
    rt = c.svc.tables.get(press.table)
    count = await c.svc.resend(c.uid, rt.chat_id) if rt is not None else 0
    return Reply(t("ans.hand_sent" if count else "ans.not_seated", c.lang))


async def _back(c: Pressed, press: presses.BackPress) -> Reply:
    return await c.svc.im_back(press.table, c.uid)


async def _auto(c: Pressed, press: presses.AutoPress) -> Reply:
    reply = await c.svc.auto_play(press.table, c.uid)
    if reply.ok:
        c.after.append(lambda: c.svc.settle(press.table))
    return reply


async def _vote(c: Pressed, press: presses.VotePress) -> Reply:
    if press.vote == 0:  # 申请解散: ask for a vote (or agree to the one in progress)
        return await c.svc.ask_stop(press.table, c.uid)
    return await c.svc.stop_vote(press.table, c.uid, press.vote, press.agree == 1)


async def _private(c: Pressed, parts: list[str], keyboard: Keyboard | None = None) -> Reply | None:
    """Send ``parts`` to the presser in private (the keyboard under the last); None when sent, else the
    answer that says why not (he never started the bot: a link that opens the private chat)."""
    bot = c.query.get_bot()
    for i, part in enumerate(parts):
        try:
            markup = to_markup(keyboard) if i == len(parts) - 1 else None
            await bot.send_message(c.uid, part[:MAX_TEXT], reply_markup=markup)
        except Forbidden:
            return Reply(t("ans.open_dm", c.lang), url=c.svc.present.deep_link("hi"))
        except TelegramError as e:
            log.info("private message not sent: %s", e.message)
            return Reply(t("ans.error", c.lang))
    return None


async def _rules(c: Pressed, press: presses.RulesPress) -> Reply:
    """The whole rules page, in the presser's private chat and language."""
    common = kb.rules_keyboard(rulebook.COMMON, c.lang) if press.variant != rulebook.COMMON else None
    refused = await _private(c, _rules_pages(press.variant, c.lang), common)
    return refused or Reply(t("ans.rules_sent", c.lang))


async def _verify(c: Pressed, press: presses.VerifyPress) -> Reply:
    """A hand's shuffle check, in the presser's private chat and language (docs/verify.md)."""
    message = c.message
    group = message.chat.id if message is not None and message.chat.type != Chat.PRIVATE else None
    text = await c.svc.history.shuffle_check(press.code, c.uid, group, c.lang)
    if text is None:
        return Reply(t("ans.unknown", c.lang))
    refused = await _private(c, [text])
    return refused or Reply(t("ans.verify_sent", c.lang))


async def _score(c: Pressed, press: presses.ScorePress) -> Reply:
    message = c.message
    if not _has_button(message, presses.ScorePress) or message is None:
        return Reply(t("ans.unknown", c.lang))
    lang = c.group_lang(message.chat.id)
    text = await c.svc.leaderboard(message.chat.id, press.period, lang, press.variant)
    await c.edit(text, kb.score_keyboard(lang, press.variant), "score")
    return Reply(t("ans.ok", c.lang))


async def _history(c: Pressed, press: presses.HistoryPress) -> Reply:
    message = c.message
    if not _has_button(message, presses.HistoryPress) or message is None:
        return Reply(t("ans.unknown", c.lang))
    lang = c.svc.chat_lang(message.chat.id, lang_of(c.user.language_code))
    text, keyboard = await c.svc.history.page(message.chat.id, press.page, lang)
    await c.edit(text, keyboard, "history")
    return Reply(t("ans.ok", c.lang))


async def _replay(c: Pressed, press: presses.ReplayPress) -> Reply:
    message = c.message
    if not _has_button(message, presses.ReplayPress, press.code) or message is None:
        return Reply(t("ans.unknown", c.lang))
    found = await c.svc.history.find(press.code, c.uid, None, "replay", c.lang)
    if isinstance(found, str):
        return Reply(found)
    if message.chat.id != c.uid:
        return Reply(t("ans.unknown", c.lang))
    text, keyboard = await c.svc.history.replay_view(found, press.step, c.lang)
    await c.edit(text, keyboard, "replay")
    return Reply(t("ans.ok", c.lang))


async def _reopen(c: Pressed, press: presses.ReopenPress) -> Reply:
    message = c.message
    if not _has_button(message, presses.ReopenPress, press.table) or message is None:
        return Reply(t("ans.unknown", c.lang))
    lang = c.svc.chat_lang(message.chat.id, lang_of(c.user.language_code))
    return await c.svc.reopen(press.table, c.uid, message.chat.id, lang)


ROUTES: dict[type[presses.Press], Route[Any]] = {
    presses.GamePress: _game,
    presses.PickPress: _pick,
    presses.LobbyPress: _lobby,
    presses.HandPress: _hand,
    presses.BackPress: _back,
    presses.AutoPress: _auto,
    presses.VotePress: _vote,
    presses.RulesPress: _rules,
    presses.VerifyPress: _verify,
    presses.ScorePress: _score,
    presses.HistoryPress: _history,
    presses.ReplayPress: _replay,
    presses.ReopenPress: _reopen,
}


def _route(kind: type[P], route: Route[P]) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
    """The handler of one press kind: its data parsed by the kind, the route called, the press answered
    exactly once whatever happens (data the kind does not parse: "out of date"), then the route's
    follow-ups."""

    async def handler(update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None:
            return
        svc = service_of(context)
        c = Pressed(svc, query, query.from_user, update.update_id)
        reply = Reply(t("ans.unknown", svc.dm_lang(c.uid)))
        try:
            await _see(svc, update)
            reply = Reply(t("ans.unknown", c.lang))  # in his language, now that it is known
            press = kind.parse(query.data) if isinstance(query.data, str) else None
            if press is not None and c.user.is_bot:  # Telegram passes no bot's presses: a forged update
                reply = Reply(t("ans.no_bots", lang_of(c.user.language_code)))  # seats, hosts: persons
            elif press is not None:
                reply = await route(c, press)
        finally:
            await svc.handled(update.update_id, reply.text)  # first: delivered again after a kill, gets this
            await answer(query, reply)
        for step in c.after:
            await step()

    return handler


async def first_delivery(update: object, context: Context) -> None:
    """Before any other handler (one bot process): an update Telegram delivers again (a restart before it
    was confirmed, a webhook answer lost) is not handled twice; a press is answered again with what it did
    (``TableService.delivered_again``). The workers of a cluster check in the table's transaction."""
    svc = context.bot_data.get("service")
    if not isinstance(update, Update) or not isinstance(svc, TableService) or not svc.once:
        return
    done = await svc.delivered_again(update.update_id)
    if done is None:
        return
    query = update.callback_query
    if query is not None:
        await answer(query, Reply(done or t("ans.stale", svc.dm_lang(query.from_user.id))))
    raise ApplicationHandlerStop


async def handled(update: object, context: Context) -> None:
    """After every other handler (one bot process): the update is recorded as handled (a press's handler
    records it with its answer)."""
    svc = context.bot_data.get("service")
    if isinstance(update, Update) and isinstance(svc, TableService):
        await svc.handled(update.update_id)


async def on_unknown_button(update: Update, context: Context) -> None:
    """A press no route takes (data the bot never made, or an old format): answered, nothing changes."""
    query = update.callback_query
    if query is not None:
        await answer(query, Reply(t("ans.unknown", service_of(context).dm_lang(query.from_user.id))))


def _has_button(message: object, kind: type, key: object = None) -> bool:
    """Only a message's own buttons turn it into a score board, a history page, a replay viewer or a
    final summary (not a forged press on another message): it must carry a button of ``kind`` (for
    ``key``: of that hand code or table)."""
    if not isinstance(message, Message) or message.reply_markup is None:
        return False
    for row in message.reply_markup.inline_keyboard:
        for b in row:
            press = presses.decode(b.callback_data)
            if isinstance(press, kind) and (
                key is None or getattr(press, "code", None) == key or getattr(press, "table", None) == key
            ):
                return True
    return False


async def answer(query: Any, reply: Reply) -> None:
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


CONFLICT_EVERY_S = 60.0


async def on_error(update: object, context: Context) -> None:
    """Log and carry on: one bad update never stops the bot. Update contents are not logged (hands). Another
    process polling the same bot (Telegram answers getUpdates with a conflict, every few seconds) is one
    warning line that says what to do, not a traceback each time."""
    if isinstance(context.error, Conflict):
        now = time.monotonic()
        said = context.bot_data.get("conflict_said", -CONFLICT_EVERY_S)  # the last warning of it, logged then
        if now >= said + CONFLICT_EVERY_S:  # it comes again at every poll: once a minute
            context.bot_data["conflict_said"] = now
            log.warning(
                "another process is polling this bot's updates (%s): one bot per token polls; several "
                "workers need WEBHOOK_URL (docs/deploy.md)", context.error.message,
            )  # fmt: skip
        return
    kind = type(update).__name__ if update is not None else "the polling of updates"
    log.error("error while handling %s", kind, exc_info=context.error)


# Commands come from new messages only: not from an edited message (editing an old message into /stop must
# not cast a vote) and not from channel posts.
COMMAND_UPDATES = filters.UpdateType.MESSAGE


HANDLED_GROUP = 1_000  # after every other group


def install(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    for name, callback in (
        ("start", cmd_start),
        ("newtable", cmd_newtable),
        ("rules", cmd_rules),
        ("help", cmd_help),
        ("score", cmd_score),
        ("history", cmd_history),
        ("replay", cmd_replay),
        ("export", cmd_export),
        ("stats", cmd_stats),
        ("hand", cmd_hand),
        ("stop", cmd_stop),
        ("lang", cmd_lang),
        ("view", cmd_view),
    ):
        app.add_handler(CommandHandler(name, callback, filters=COMMAND_UPDATES))
    for kind, route in ROUTES.items():
        app.add_handler(CallbackQueryHandler(_route(kind, route), pattern=kind.pattern()))
    app.add_handler(CallbackQueryHandler(on_unknown_button))
    # each update handled once: checked before everything (lifecycle's handlers are in group -1), recorded
    # after everything
    app.add_handler(TypeHandler(Update, first_delivery), group=-3)
    app.add_handler(TypeHandler(Update, handled), group=HANDLED_GROUP)
    app.add_error_handler(on_error)
