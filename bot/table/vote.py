"""The stop vote (申请解散): a seated player asks to end the room, every seated player is asked to agree or
refuse, and the group watches the tally - as the mahjong apps do it.

* Who: the seated players (the hand's seats during a hand, the lobby's between hands). A group admin's
  /stop closes the table at once, and so does the /stop of the only player at the table. Anyone else is
  refused.
* One vote at a time. The one who asks agrees; a /stop (or the ask button) during a vote is an agreement.
  Every other seated player gets agree / refuse buttons in private, and the group one message with the
  tally (who agreed, who refused, who has not answered, the time left) and the same buttons, edited in place
  as answers come.
* A majority of the seated players (more than half) agreeing closes the table with its 大结算
  (bot/table/night.py); as soon as a majority can no longer be reached (a majority refused, or enough did),
  the vote fails and the room goes on. At the countdown's end (``VOTE_S``) whoever has not answered counts
  as the room's setting says (解散投票超时: agree unless the host chose refuse), and the count decides.
* A vote's buttons carry its number (``VotePress``): once it is over they are out of date.
* Stored (``TableSettings``: its number, deadline, who asked, the tally message, each seat's answer), so a
  restart goes on with it: the tally is edited in place, the countdown is the table's timer (with the hand's
  deadlines or the ready phase's, ``Play._arm`` / ``Night.arm``), and a countdown that ended while the bot was
  down starts again (nobody could answer meanwhile). The players' private prompts are stored by seat too
  (``vote_prompts``): after a restart, or on another worker, they are edited as the vote goes on and lose
  their buttons at its end.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.members.access import Clock
from bot.members.people import People
from bot.messages import keyboards as kb
from bot.messages.content import Priority
from bot.table.lobby import Lobby
from bot.table.night import Night
from bot.table.play import Play
from bot.table.present import Presenter, vote_key
from bot.table.runtime import Reply, TableRuntime, Tables
from bot.text import nightview, views
from bot.text.texts import t
from storage import Storage, StorageError

log = logging.getLogger(__name__)

VOTE_S = 60  # seconds a stop vote stays open
VOTE_SLACK = 0.001  # a vote this close to its end is over (the timer may wake a hair early)


@dataclass(frozen=True, slots=True)
class Tally:
    """The vote in progress as counted now: the seated players' seats, who agreed and who refused (seat
    numbers), and how many agreements close the table."""

    seats: tuple[int, ...]
    yes: frozenset[int]
    no: frozenset[int]

    @property
    def need(self) -> int:
        return len(self.seats) // 2 + 1

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.yes and s not in self.no)

    def outcome(self) -> bool | None:
        """True: it passed; False: a majority can no longer be reached; None: not decided yet."""
        if len(self.yes) >= self.need:
            return True
        if len(self.seats) - len(self.no) < self.need:
            return False
        return None


def tally(rt: TableRuntime, *, timeout: bool = False) -> Tally:
    """The vote of ``rt`` as it stands (``timeout``: its countdown is over, whoever has not answered counts
    as the room's setting says)."""
    seats = tuple(i for i, u in enumerate(rt.hand_seats()) if u is not None)
    yes = frozenset(rt.settings.vote_yes) & set(seats)
    no = frozenset(rt.settings.vote_no) & set(seats) - yes
    if timeout:
        silent = set(seats) - yes - no
        if rt.settings.vote_agree:
            yes |= silent
        else:
            no |= silent
    return Tally(seats, yes, no)


def is_open(rt: TableRuntime) -> bool:
    return rt.settings.vote_until is not None


@dataclass(frozen=True, slots=True)
class VoteView:
    """A vote in progress as a channel other than the chats shows it (the Mini App, bot/table/feed.py)."""

    number: int
    asker: str
    yes: tuple[str, ...]
    no: tuple[str, ...]
    waiting: tuple[str, ...]
    need: int
    until: float
    mine: bool | None  # the viewer's answer (None: not answered, or not seated)
    may_answer: bool
    silent_agree: bool = False  # at the deadline, whoever has not answered counts as agreeing (else refusing)


def vote_view(rt: TableRuntime, names: tuple[str, ...], seat: int | None, asker: str) -> VoteView | None:
    """The vote in progress for a viewer at ``seat`` (None: a spectator), with ``names`` by seat."""
    until = rt.settings.vote_until
    if until is None or rt.closed:
        return None
    c = tally(rt)
    mine = True if seat in c.yes else False if seat in c.no else None
    return VoteView(
        rt.settings.vote,
        asker,
        tuple(names[s] for s in sorted(c.yes)),
        tuple(names[s] for s in sorted(c.no)),
        tuple(names[s] for s in c.waiting),
        c.need,
        until,
        mine,
        seat is not None and seat in c.seats and mine is None,
        bool(rt.settings.vote_agree),
    )


class Votes:
    def __init__(
        self,
        tables: Tables,
        storage: Storage,
        people: People,
        present: Presenter,
        lobby: Lobby,
        play: Play,
        night: Night,
        clock: Clock,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.people = people
        self.present = present
        self.lobby = lobby
        self.play = play
        self.night = night
        self.clock = clock
        lobby.closing = self.closing

    # ================================================================== entry points (take the table lock)

    async def stop(self, chat_id: int, user_id: int, is_admin: bool) -> str:
        """/stop in a group: an admin closes the table at once; a seated player asks for a vote (or agrees
        to the one in progress). The reply is in the table's language (the group reads it)."""
        rt = self.tables.in_chat(chat_id)
        if rt is None:
            return t("note.no_table", self.people.chat_lang(chat_id, self.people.user_langs.get(user_id)))
        lang = self.people.table_lang(rt)
        async with rt.lock:
            if rt.closed:
                return t("note.no_table", lang)
            if is_admin:
                await self.lobby.close(rt, stopped=True)
                return t("note.stopped", lang)
            return (await self._ask(rt, user_id, lang, group=True)).text

    async def ask(self, table_id: int, user_id: int) -> Reply:
        """The ask button (申请解散) or the Mini App: as /stop by a seated player; answered in his own
        language."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        gone = await self._gone(rt, user_id)
        async with rt.lock:
            if rt.closed:
                return Reply(t("ans.closed", lang))
            if gone and not rt.playing and user_id in rt.seats:
                return await self._unseat_gone(rt, user_id, lang)
            return await self._ask(rt, user_id, lang)

    async def answer(self, table_id: int, user_id: int, vote: int, agree: bool) -> Reply:
        """An answer to vote number ``vote`` (a button of it, or the Mini App)."""
        rt = self.tables.open(table_id)
        lang = self.people.dm_lang(user_id)
        if rt is None:
            return Reply(t("ans.closed", lang))
        gone = await self._gone(rt, user_id)
        async with rt.lock:
            if rt.closed:
                return Reply(t("ans.closed", lang))
            if not is_open(rt) or rt.settings.vote != vote:
                return Reply(t("ans.stale", lang))
            if gone and not rt.playing and user_id in rt.seats:
                return await self._unseat_gone(rt, user_id, lang)
            seat = rt.seat_of(user_id)
            if seat is None:
                return Reply(t("ans.not_seated", lang))
            if seat in rt.settings.vote_yes or seat in rt.settings.vote_no:
                return Reply(t("ans.vote.already", lang))
            if not await self._record(rt, seat, agree):
                return Reply(t("ans.error", lang), alert=True)
            return Reply(t("ans.vote.yes" if agree else "ans.vote.no", lang), ok=True)

    async def on_due(self, table_id: int) -> None:
        """The table's timer: a vote whose countdown is over is decided (silence counting as the room's
        setting says)."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            until = rt.settings.vote_until
            if rt.closed or until is None:
                return
            if until > self.clock() + VOTE_SLACK:
                self.arm(rt)  # woke early (or for another deadline of the table)
                return
            await self._decide(rt, timeout=True)

    async def renew(self, rt: TableRuntime) -> None:
        """After a restart, before the table is rebuilt and its timer armed (under the table's lock): a vote
        whose countdown ran out while the bot was down gets a new one (nobody could answer meanwhile), so
        the rebuilt table's timer does not decide it at once."""
        until = rt.settings.vote_until
        if until is None or until > self.clock():
            return
        try:
            rt.settings = await self.storage.update_settings(rt.id, vote_until=self.clock() + VOTE_S)
        except StorageError as e:
            log.warning("table %s: the stop vote's countdown not renewed: %s", rt.id, e)

    async def restored(self, rt: TableRuntime) -> None:
        """After a restart, once the table is rebuilt (under its lock): a vote in progress shows its tally
        again (with its new countdown) and its deadline is armed."""
        if rt.closed or rt.settings.vote_until is None:
            return
        self.show(rt)
        self.arm(rt)

    # ================================================================== under the table lock

    def arm(self, rt: TableRuntime) -> None:
        """The table's timer, the vote's deadline included (the hand's timer during a hand)."""
        if rt.playing:
            self.play._arm(rt)
        else:
            self.night.arm(rt)

    async def _gone(self, rt: TableRuntime, user_id: int) -> bool:
        """Between hands, whether Telegram says a seated presser has left the group (asked before the table's
        lock is taken). During a hand he is still one of its players, and may ask and answer."""
        if rt.playing or user_id not in rt.seats:
            return False
        return await self.lobby.access.left(rt.chat_id, user_id)

    async def _unseat_gone(self, rt: TableRuntime, user_id: int, lang: str) -> Reply:
        """A player no longer in the group neither asks for nor answers a vote between hands: he leaves his
        seat, as at Ready - but not while a vote is open, whose voters are those seated when it was asked
        (he stays out of it, and leaves at Ready or the ready timer's deal)."""
        if rt.settings.vote_until is None:
            await self.lobby.unseat(rt, {user_id})
            self.present.show_lobby(rt)
        return Reply(t("ans.vote.not_member", lang))

    async def _ask(self, rt: TableRuntime, user_id: int, lang: str, *, group: bool = False) -> Reply:
        seat = rt.seat_of(user_id)
        if seat is None:
            return Reply(t("note.stop_denied" if group else "ans.not_seated", lang))
        if is_open(rt):
            if seat in rt.settings.vote_yes or seat in rt.settings.vote_no:
                c = tally(rt)
                text = "note.vote_open" if group else "ans.vote.already"
                return Reply(t(text, lang, yes=len(c.yes), need=c.need))
            if not await self._record(rt, seat, True):
                return Reply(t("ans.error", lang), alert=True)
            if rt.closed:
                return Reply(t("note.stopped", lang), ok=True)
            c = tally(rt)
            name = self.people.name(user_id)
            return Reply(t("note.vote_agreed" if group else "ans.vote.yes", lang, name=name, yes=len(c.yes),
                           need=c.need), ok=True)  # fmt: skip
        if len(tally(rt).seats) <= 1:  # the only player at the table: nobody to ask
            await self.lobby.close(rt, stopped=True)
            return Reply(t("note.stopped", lang), ok=True)
        try:
            rt.settings = await self.storage.update_settings(
                rt.id, vote=rt.settings.vote + 1, vote_until=self.clock() + VOTE_S, vote_by=user_id,
                vote_yes=(seat,), vote_no=(), vote_prompts=(),
            )  # fmt: skip
        except StorageError as e:
            log.warning("table %s: stop vote not stored: %s", rt.id, e)
            return Reply(t("ans.error", lang), alert=True)
        rt.vote_dms = set()
        self.show(rt, fresh=True)
        self.arm(rt)
        name = self.people.name(user_id)
        return Reply(
            t("note.vote_opened" if group else "ans.vote.opened", lang, name=name, n=VOTE_S), ok=True
        )

    async def _record(self, rt: TableRuntime, seat: int, agree: bool) -> bool:
        """A seat's answer, stored; then the vote is decided if it can be. False if it was not stored."""
        yes = tuple(sorted({*rt.settings.vote_yes, seat})) if agree else rt.settings.vote_yes
        no = rt.settings.vote_no if agree else tuple(sorted({*rt.settings.vote_no, seat}))
        try:
            rt.settings = await self.storage.update_settings(rt.id, vote_yes=yes, vote_no=no)
        except StorageError as e:
            log.warning("table %s: stop vote answer not stored: %s", rt.id, e)
            return False
        await self._decide(rt)
        return True

    async def _decide(self, rt: TableRuntime, *, timeout: bool = False) -> None:
        """Close the table if the vote passed, end the vote if it failed, else show the tally."""
        passed = tally(rt, timeout=timeout).outcome()
        if passed is None:
            self.show(rt)
            return
        final = self._texts(rt, tally(rt), "vote.passed" if passed else "vote.failed", timeout=timeout)
        try:
            rt.settings = await self.storage.update_settings(
                rt.id, vote_until=None, vote_by=None, vote_yes=(), vote_no=(), vote_prompts=()
            )
        except StorageError as e:
            log.warning("table %s: the stop vote's end not stored: %s", rt.id, e)
            return
        self._show_over(rt, final)
        if passed:
            await self.lobby.close(rt, "stopped by a vote of its players", stopped=True)
        else:
            self.arm(rt)  # its deadline is no longer the table's

    def closing(self, rt: TableRuntime) -> None:
        """The table closes (a vote, an admin, its last hand): a vote in progress ends with it, its buttons
        go (nothing to store: a closed table is not restored)."""
        if not is_open(rt):
            return
        self._show_over(rt, self._texts(rt, tally(rt), "vote.closed"))

    # ------------------------------------------------------------------ what the chats show

    def _texts(
        self, rt: TableRuntime, c: Tally, outcome: str = "", *, timeout: bool = False
    ) -> dict[int, str]:
        """The vote's text for each chat that shows it: the group (its language) and each seated player
        (his own), keyed by chat id. ``outcome``: the key of how it ended (``timeout``: at its countdown's
        end, said first)."""
        users = rt.hand_seats()
        out: dict[int, str] = {}
        chat_title = self.people.chat_titles.get(rt.chat_id, "") or "—"
        asker = rt.settings.vote_by
        until = rt.settings.vote_until
        for chat in (rt.chat_id, *(u for u in users if u is not None)):
            lang = self.people.table_lang(rt) if chat == rt.chat_id else self.people.dm_lang(chat)
            names = self.present.seat_names(rt, lang)
            left = views.until_text(until, self.clock(), lang) if until is not None else ""
            who = self.people.name(asker) if asker is not None else ""
            dm = "" if chat == rt.chat_id else t("vote.asked_dm", lang, name=who, chat=chat_title, tid=rt.id)
            end = t(outcome, lang) if outcome else ""
            if timeout:
                rule = t("vote.rule.agree" if rt.settings.vote_agree else "vote.rule.refuse", lang)
                end = t("vote.timeout", lang, rule=rule) + "\n" + end
            text = nightview.vote_text(
                rt.id, who, [names[s] for s in sorted(c.yes)], [names[s] for s in sorted(c.no)],
                [names[s] for s in c.waiting], c.need, left, rt.settings.vote_agree, lang, outcome=end,
                dm=dm,
            )  # fmt: skip
            seat = users.index(chat) if chat in users else None
            if seat is not None and not outcome and (seat in c.yes or seat in c.no):
                answer = t("vote.you.yes" if seat in c.yes else "vote.you.no", lang)
                text += "\n" + t("vote.you", lang, answer=answer)
            out[chat] = text
        return out

    def show(self, rt: TableRuntime, *, fresh: bool = False) -> None:
        """The vote in progress: the group's tally with its buttons, and a private prompt for each seated
        player who has not answered (sent once per vote: ``fresh``), edited when he has."""
        c = tally(rt)
        texts = self._texts(rt, c)
        vote = rt.settings.vote
        key = vote_key(rt.id)
        group_lang = self.people.table_lang(rt)
        self.present.out.live(rt.chat_id, key, texts[rt.chat_id], kb.vote_keyboard(rt.id, vote, group_lang),
                              fresh=fresh)  # fmt: skip
        users = rt.hand_seats()
        lost = rt.live.dm_lost if rt.playing else set()
        for seat in c.seats:
            user = users[seat]
            assert user is not None
            if user in lost:  # the bot cannot reach him in private: the group's buttons are his
                continue
            answered = seat in c.yes or seat in c.no
            if fresh and answered:
                continue  # the one who asked is not asked back
            if not fresh and user not in rt.vote_dms:
                continue
            keyboard = None if answered else kb.vote_keyboard(rt.id, vote, self.people.dm_lang(user))
            priority = Priority.NORMAL if answered else Priority.URGENT
            self.present.out.live(user, key, texts[user], keyboard, fresh=fresh, priority=priority)
            rt.vote_dms.add(user)
        self.present.changed(rt)

    def _show_over(self, rt: TableRuntime, texts: dict[int, str]) -> None:
        """The vote is over: its messages say how it ended, without buttons."""
        key = vote_key(rt.id)
        self.present.out.live(rt.chat_id, key, texts[rt.chat_id], None)
        for user in sorted(rt.vote_dms):
            if user in texts:
                self.present.out.live(user, key, texts[user], None)
        rt.vote_dms = set()
        self.present.changed(rt)
