"""What each chat shows: the group's lobby and table messages, each player's private panel, and notes.

Texts and keyboards are built here from Observations (``views``, ``render``, ``keyboards``) and pushed
through the ``Out`` port (the outbox edits a live message in place, or sends it afresh). Nothing here
changes a table: callers hold the table's lock and call in after memory has changed (engine → storage →
memory → render). The group only ever sees ``views.public_observation``; a panel only its seat's
``engine.observe``.

Live messages have one key each in the outbox: ``l<table>`` the group's lobby, ``g<table>`` the group's
table during a hand, ``p<table>`` a player's panel (in his private chat). Each one's message id is stored
as soon as Telegram has sent it (``on_message``: the group's two in the table's settings, panels per table
and player), so that a restart edits them in place instead of posting new ones.

During a claim pause (``runtime.Pause``) every chat shows the table as it was right after the discard (or
the kong that may be robbed), built from the state before it and the public moment alone - so what anyone
sees cannot depend on whether someone may claim. Only open claim decisions show their live panel.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from bot import pictures
from bot.members.access import Clock
from bot.members.people import People
from bot.messages import keyboards as kb
from bot.messages.content import Content, Keyboard, Priority, from_stored_markup, stored_markup
from bot.pictures import Display, Mode, Picture
from bot.table import settings
from bot.table.runtime import Moment, Out, Pause, TableRuntime
from bot.text import nightview, render, views
from bot.text.fit import MAX_CAPTION, MAX_TEXT, split_text
from bot.text.texts import ai_name, listed, t
from engine import Action, ClaimKind, Event, Observation, Phase, State, Variant, observe, observe_public
from storage import Post, Storage, StorageError, WinWay

if TYPE_CHECKING:
    from bot.table.feed import Feed

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class View:
    """What one live message shows: its text (a photo's caption), its buttons, and its picture if any."""

    text: str
    kb: Keyboard | None = None
    photo: Picture | None = None


@dataclass(frozen=True, slots=True)
class GroupSnap:
    """What the group's table message shows, taken when it is published: the immutable State (or the claim
    pause, whose parts are immutable), copies of what changes in place (the recent moves, the wins' tiles,
    the pending decisions' deadlines), and the names, language and display mode as they are then. It is
    rendered (``Presenter.render_group``) only when the outbox sends it (``Out.live_lazy``): a burst of
    moves merged by the group's pace is rendered once, exactly as its last publish would have been."""

    table_id: int
    hand_no: int
    variant: Variant
    state: State
    pause: Pause | None
    recent: tuple[Event, ...]
    auto: frozenset[int]
    deadlines: tuple[tuple[int, float], ...]  # (seat, deadline) of each pending decision
    lang: str
    names: tuple[str, ...]
    display: Display  # the pictures' display data (language, seat labels, the hand's winning tiles)
    pictures: bool
    closed: str = ""
    humans: frozenset[int] = frozenset()  # seats a player sits in
    ways: tuple[WinWay, ...] = ()  # how the hand's wins were made


def lobby_key(table_id: int) -> str:
    return f"l{table_id}"


def group_key(table_id: int) -> str:
    return f"g{table_id}"


def panel_key(table_id: int) -> str:
    return f"p{table_id}"


def vote_key(table_id: int) -> str:
    """A stop vote's message: the group's tally, and each player's prompt in private (bot/table/vote.py)."""
    return f"v{table_id}"


def _without(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    out = list(tiles)
    if tile in out:
        out.remove(tile)
    return tuple(out)


def paused_observation(obs: Observation, m: Moment) -> Observation:
    """``obs`` (taken just before the moment) moved on by the public moment alone, as the engine shows a
    claim window on it, with nothing to decide: the same whether or not anyone may claim. A window opened
    by public events (``Moment.shown``: 开杠's tiles, 海底) shows ``obs`` as it was, its events being the
    latest moves."""
    if m.shown:
        return dataclasses.replace(obs, to_act=(), legal=())
    seats = list(obs.seats)
    ps = seats[m.seat]
    shown = _without(ps.hand, m.tile) if ps.hand is not None else None
    last: tuple[int, int] | None
    if m.kind == ClaimKind.DISCARD:
        seats[m.seat] = dataclasses.replace(
            ps, hand_size=ps.hand_size - 1, discards=(*ps.discards, m.tile), hand=shown
        )
        last = (m.seat, m.tile)
    else:  # a kong that may be robbed: its tile waits in the window, out of the konger's hand
        seats[m.seat] = dataclasses.replace(ps, hand_size=ps.hand_size - 1, hand=shown)
        last = obs.last_discard
    own = obs.seat == m.seat
    return dataclasses.replace(
        obs,
        phase=Phase.CLAIM,
        version=obs.version + 1,
        hand=_without(obs.hand, m.tile) if own else obs.hand,
        drawn=None,
        seats=tuple(seats),
        claim_tile=m.tile,
        claim_from=m.seat,
        claim_kind=m.kind,
        to_act=(),
        legal=(),
        last_discard=last,
    )


def paused_public(pause: Pause) -> Observation:
    """What the group sees during a claim pause."""
    return paused_observation(observe_public(pause.before), pause.moment)


class Presenter:
    def __init__(
        self, out: Out, people: People, storage: Storage, clock: Clock, bot_username: str = ""
    ) -> None:
        self.out = out
        self.people = people
        self.storage = storage
        self.clock = clock
        self.bot_username = bot_username
        self._queued: set[int] = set()  # outbox rows queued in this process and not deleted yet
        # ids of live messages sent anew that the database refused to store (a full disk), with the hands
        # whose result a lobby message delivered: tried again at each move of their table (``store_ids``)
        self._unstored: dict[tuple[int, int, str], tuple[int, list[int]]] = {}
        # outbox rows sent whose deletion the database refused (a restart, a full disk): deleted again later
        # (``delete_sent``), so that no later start sends them a second time
        self._undeleted: set[int] = set()
        self.feed: Feed | None = None  # other channels (the Mini App): told of each publish (table/feed.py)

    # ------------------------------------------------------------------ names, labels, links

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    def seat_names(self, rt: TableRuntime, lang: str, viewer: int | None = None) -> list[str]:
        out = []
        for i, user in enumerate(rt.hand_seats()):
            if user is None:
                name = ai_name(i, lang)
            else:
                name = self.people.name(user)
            if viewer == i:
                name += t("you", lang)
            out.append(name)
        return out

    def seat_lang(self, rt: TableRuntime, seat: int) -> str:
        user = rt.hand_seats()[seat]
        return self.people.dm_lang(user) if user is not None else self.people.table_lang(rt)

    @staticmethod
    def action_label(obs: Observation, action: Action, lang: str) -> str:
        return render.action_label(obs, action, lang)

    # ------------------------------------------------------------------ the lobby (group)

    def lobby_seats(self, rt: TableRuntime, lang: str) -> list[tuple[str, bool]]:
        """The lobby's seats for every channel: each one's label and whether an AI plays it - a player's
        name; the AI's (电脑3) on a seat given to an AI, or on any empty one once the room has played a hand
        (the next deal fills it); an empty seat's label is ""."""
        out = []
        for i, user in enumerate(rt.seats):
            if user is not None:
                out.append((self.people.name(user), False))
            elif i in rt.settings.ai or rt.hands_played:
                out.append((ai_name(i, lang), True))
            else:
                out.append(("", False))
        return out

    def _seat_labels(self, rt: TableRuntime, lang: str) -> list[str]:
        """The group lobby's seats: 🤖 marks an AI seat."""
        empty = t("lobby.empty", lang)
        return ["🤖 " + label if ai else label or empty for label, ai in self.lobby_seats(rt, lang)]

    def lobby_content(self, rt: TableRuntime) -> tuple[str, Keyboard]:
        lang = self.people.table_lang(rt)
        rs = rt.variant
        text = views.lobby_text(
            rs,
            rt.id,
            rt.options,
            rt.settings,
            self._seat_labels(rt, lang),
            rt.hands_played + 1,
            lang,
            len(rt.seats),
            waiting=[self.people.name(u) for u in sorted(rt.waiting_dm)],  # not seated yet: no number
            ai_level=settings.ai_level_label(rt.settings, lang),
        )
        lines = text.split("\n")  # the claim pause goes with the timers, just above the hint
        room = nightview.room_lines(rt.settings, rt.hands_played, lang)  # 局数, ready (bot/table/night.py)
        left = int((rt.settings.ready_until or 0) - self.clock() + 0.5)
        room += nightview.ready_line(rt.settings, rt.seats, self.people.name, left, lang)
        pause = (
            t("lobby.pause", lang, n=rt.settings.pause_s)
            if rt.settings.pause_s
            else t("lobby.no_pause", lang)
        )
        text = "\n".join([*lines[:-1], pause, *room, lines[-1]])
        open_row = None  # the setting whose choices the settings page lists now
        if rt.settings.editing:
            rows = settings.rows(rt.variant, rt.options, rt.settings, len(rt.seats), lang)
            if rt.setting_open is not None and rt.setting_open < len(rows):
                open_row = rt.setting_open
            keyboard = self.settings_keyboard(rt, lang, rows, open_row)
        else:
            keyboard = kb.lobby_keyboard(rt.id, lang, rt.hands_played > 0, rt.last_code)
        if rt.summary:  # the last hand's result stays above the lobby until the next hand starts
            text = rt.summary + "\n\n" + text
        if open_row is not None and rows[open_row].name == "ai_level":  # what each strength does, while
            notes = "\n".join(settings.ai_level_notes(lang))  # choosing one, where it fits in the message
            if len(text) + len(notes) + 2 <= MAX_TEXT:
                text += "\n\n" + notes
        return text, keyboard

    def settings_keyboard(
        self, rt: TableRuntime, lang: str, rows: Sequence[settings.Row], open_row: int | None
    ) -> Keyboard:
        """The lobby's settings page: presets, one button per setting (``rows``), or the choices of the
        one open (``open_row``)."""
        current = rt.variant.preset_of(rt.options, len(rt.seats))
        presets = [(p.label(lang), p == current) for p in rt.variant.presets]
        choices = []
        if open_row is not None:
            row = rows[open_row]
            choices = [
                (label, value == row.current) for value, label in zip(row.choices, row.labels, strict=True)
            ]
        return kb.settings_keyboard(
            rt.id, lang, presets, [(r.label, r.value_label) for r in rows], open_row, choices
        )

    def show_lobby(self, rt: TableRuntime, *, fresh: bool = False) -> None:
        text, keyboard = self.lobby_content(rt)
        self.out.live(rt.chat_id, lobby_key(rt.id), text, keyboard, fresh=fresh)
        self._changed(rt)

    def show_lobby_started(self, rt: TableRuntime, *, fresh: bool = False) -> None:
        """The lobby message once a hand starts: its last line says so, its buttons go, and its shuffle is
        sealed (the commitment's first digits, and a button that sends the whole of it: docs/verify.md)."""
        text, _ = self.lobby_content(rt)
        lang = self.people.table_lang(rt)
        lines = text.split("\n")
        committed = nightview.commitment_line(rt.id, rt.hand.row, lang) if rt.hand is not None else None
        text = "\n".join(lines[:-1] + [t("lobby.started", lang)] + ([committed] if committed else []))
        keyboard = None
        if committed and rt.hand is not None and rt.hand.row.code:
            keyboard = ((kb.verify_button(rt.hand.row.code, lang, sealed=True),),)
        self.out.live(rt.chat_id, lobby_key(rt.id), text, keyboard, fresh=fresh)
        self._changed(rt)

    # ------------------------------------------------------------------ a hand (group table, DM panels)

    def _display(self, rt: TableRuntime, lang: str) -> Display:
        """The pictures' display data: the language, every seat's name as the captions give it (AI seats'
        too; drawn in any script the pictures' font covers)."""
        labels = tuple(self.seat_names(rt, lang))
        return Display(lang=lang, labels=labels)

    def _clock(self, rt: TableRuntime, seat: int, lang: str) -> str | None:
        """A seat's clock for its panel: the deadline and the decision's limit (after the warning: 10 s)."""
        p = rt.live.pending.get(seat)
        if p is None or rt.state is None:
            return None
        limit = rt.settings.claim_s if rt.state.phase == Phase.CLAIM else rt.settings.discard_s
        return views.clock_text(p.deadline, self.clock(), limit, p.warned, lang)

    def group_clock(self, snap: GroupSnap, obs: Observation) -> str:
        """Who the group sees on the clock: the seat to play (or the seats still choosing before the hand),
        with the deadline. Never during a claim window or a claim pause: who may claim stays hidden."""
        if snap.pause is not None or obs.phase in (Phase.CLAIM, Phase.ENDED, Phase.HAIDI):
            return ""
        if obs.kong_tiles:  # the konger's answer to 开杠's tiles: like a claim, never shown
            return ""
        lang, names, pending = snap.lang, snap.names, dict(snap.deadlines)
        if obs.phase == Phase.CHOOSE:
            seats = sorted(pending)
            deciding = listed((names[s] for s in seats), lang, names=True)
            who = t("clock.deciding", lang, names=deciding) if seats else ""
        else:
            seats = [obs.current] if obs.current in pending else []
            who = t("clock.turn", lang, name=names[obs.current]) if seats else ""
        if not seats:
            return ""
        deadline = min(pending[s] for s in seats)
        return t("clock.group", lang, who=who, until=views.until_text(deadline, self.clock(), lang))

    def group_snap(self, rt: TableRuntime, closed: str = "") -> GroupSnap:
        """What the group's table message depends on, as it is now (a few copies: cheap beside rendering)."""
        assert rt.state is not None and rt.hand is not None
        lang = self.people.table_lang(rt)
        return GroupSnap(
            table_id=rt.id,
            hand_no=rt.hand.number,
            variant=rt.variant,
            state=rt.state,
            pause=rt.live.pause,
            recent=tuple(rt.live.recent),
            auto=rt.live.auto,
            deadlines=tuple((s, p.deadline) for s, p in rt.live.pending.items()),
            lang=lang,
            names=tuple(self.seat_names(rt, lang)),
            display=self._display(rt, lang),
            pictures=self.people.pictures(rt.chat_id),
            closed=closed,
            humans=frozenset(i for i, u in enumerate(rt.hand_seats()) if u is not None),
            ways=rt.live.facts.ways,
        )

    def group_view(self, rt: TableRuntime, closed: str = "") -> View:
        """The group's table message as it is now (``render_group`` of its snapshot)."""
        return self.render_group(self.group_snap(rt, closed))

    def render_group(self, snap: GroupSnap) -> View:
        """The group's table message: the public table (during a claim pause, as it was right after the
        moment), who is on the clock, recent moves; at the end of the hand the end picture. A picture with
        a caption where the group sees pictures, else the whole table as text."""
        lang, names, closed = snap.lang, snap.names, snap.closed
        if snap.pause is not None:
            obs, recent = paused_public(snap.pause), list(snap.pause.recent)
        else:
            obs, recent = views.public_observation(snap.state), list(snap.recent)
        auto = [names[s] for s in sorted(snap.auto) if s < len(names)]
        clock = "" if closed else self.group_clock(snap, obs)  # a closed table has no clock
        ended = obs.phase == Phase.ENDED
        app = self.feed.link(snap.table_id, False) if self.feed is not None else None
        keyboard = None
        if not ended and not closed:
            keyboard = kb.table_keyboard(snap.table_id, lang, app, auto=bool(snap.auto & snap.humans))
        if not snap.pictures:
            text = views.group_table_text(
                obs, lang, names, snap.table_id, snap.hand_no, recent, auto, clock, closed
            )
            return View(text, keyboard)
        legend = pictures.legend(obs, names, lang)
        if ended:
            title = t("note.result_title", lang, n=snap.hand_no)
            caption = views.end_caption(obs, lang, names, title, legend, snap.ways, recent)
            picture = Picture(obs, Mode.END, snap.display)
        else:
            title = t(
                "group.title", lang, variant=views.variant_name(snap.variant, lang), tid=snap.table_id,
                n=snap.hand_no,
            )  # fmt: skip
            caption = views.group_caption(
                obs, lang, names, title, legend, recent, auto, clock, turn=not closed
            )
            picture = Picture(obs, Mode.TABLE, snap.display)
        if closed:
            caption = views.fit([(closed, views.REQUIRED), (caption, views.REQUIRED)], MAX_CAPTION)
        return View(caption, keyboard, picture)

    def _render_group_content(self, snap: GroupSnap) -> Content:
        view = self.render_group(snap)
        return Content(view.text, view.kb, view.photo)

    def group_content(self, rt: TableRuntime) -> tuple[str, Keyboard | None]:
        view = self.group_view(rt)
        return view.text, view.kb

    def panel_view(self, rt: TableRuntime, seat: int, closed: str = "") -> View:
        """A player's private panel: his hand (a picture where his chat sees pictures), the table around him,
        what he is asked with its buttons, the clock. During a claim pause a panel without a decision is
        frozen at the moment, like everyone's. At the end of the hand: the end picture and his points."""
        assert rt.state is not None and rt.hand is not None
        user = rt.hand_seats()[seat]
        assert user is not None
        lang = self.people.dm_lang(user)
        p = rt.live.pending.get(seat)
        if rt.live.pause is not None and p is None:  # frozen at the moment, like everyone without a claim
            obs = paused_observation(observe(rt.live.pause.before, seat), rt.live.pause.moment)
        else:
            obs = observe(rt.state, seat)
        names = self.seat_names(rt, lang, viewer=seat)
        room = views.room_name(rt.variant, rt.options, len(rt.hand_seats()), lang)  # 四川麻将（血流成河）
        header = t("dm.header", lang, variant=room, tid=rt.id, n=rt.hand.number)
        auto = seat in rt.live.auto
        clock = None if closed else self._clock(rt, seat, lang)  # a closed table has no clock
        note = self._panel_note(rt, seat, obs, lang, names)
        keyboard = None if obs.phase == Phase.ENDED or closed else self._panel_keyboard(rt, seat, obs, lang)
        if not self.people.pictures(user):
            return View(views.panel_text(obs, lang, names, header, clock, auto, note, closed), keyboard)
        display = self._display(rt, lang)
        legend = pictures.legend(obs, names, lang)
        caption = views.panel_caption(obs, lang, names, header, legend, clock, auto, note, closed)
        mode = Mode.END if obs.phase == Phase.ENDED else Mode.HAND
        return View(caption, keyboard, Picture(obs, mode, display))

    @staticmethod
    def _panel_note(rt: TableRuntime, seat: int, obs: Observation, lang: str, names: list[str]) -> str:
        """The panel's note: ``moves_note``, then the tiles he has picked so far of a pick-tiles choice."""
        note = Presenter.moves_note(rt, seat, lang, names)
        picked = rt.live.picked(seat)
        p = rt.live.pending.get(seat)
        pick = render.tile_pick(obs) if p is not None and seat not in rt.live.auto else None
        if pick is not None and picked:
            tiles = render.tiles_label([obs.hand[i] for i in picked if i < len(obs.hand)], lang)
            note = "\n".join(
                x for x in (note, t("dm.picked", lang, n=len(picked), k=pick.count, tiles=tiles)) if x
            )
        return note

    def _panel_keyboard(self, rt: TableRuntime, seat: int, obs: Observation, lang: str) -> Keyboard | None:
        """A hand in play's panel buttons: his decision's, if any, and 托管 (only "back" while on auto), and
        the table in the Mini App."""
        assert rt.hand is not None
        keyboard: Keyboard | None
        if seat in rt.live.auto:
            keyboard = kb.back_keyboard(rt.id, lang)
        else:  # his decision's buttons, if any, and 托管
            p = rt.live.pending.get(seat)
            legal, since = (p.legal, p.since) if p is not None else (None, 0)
            keyboard = kb.panel_keyboard(obs, legal, rt.id, rt.hand.id, since, lang, rt.live.picked(seat))
        app = self.feed.link(rt.id, True) if self.feed is not None else None
        if app is not None:  # the table in the Mini App
            keyboard = (*(keyboard or ()), (kb.app_button(app, lang),))
        return keyboard

    def panel_content(self, rt: TableRuntime, seat: int) -> tuple[str, Keyboard | None]:
        view = self.panel_view(rt, seat)
        return view.text, view.kb

    def publish_seat(self, rt: TableRuntime, seat: int, *, fresh: bool = False) -> None:
        """One player's private panel (not sent to a player the bot cannot reach in private)."""
        self._panel(rt, seat, fresh=fresh)
        self._changed(rt)

    def _changed(self, rt: TableRuntime) -> None:
        if self.feed is not None:
            self.feed.changed(rt)

    def changed(self, rt: TableRuntime) -> None:
        """Tell the other channels (the Mini App) the table changed outside a publish (a stop vote)."""
        self._changed(rt)

    def _panel(self, rt: TableRuntime, seat: int, *, fresh: bool = False) -> None:
        user = rt.hand_seats()[seat]
        if user is None or user in rt.live.dm_lost:
            return
        if self.feed is not None and self.feed.spares_panel(rt, seat):  # he follows it in the Mini App
            return
        view = self.panel_view(rt, seat)
        self.out.live(
            user,
            panel_key(rt.id),
            view.text,
            view.kb,
            fresh=fresh,
            photo=view.photo,
            priority=self.urgency(rt, seat),
        )

    @staticmethod
    def urgency(rt: TableRuntime, seat: int) -> Priority:
        """A panel with a decision the player has not been shown yet goes first; the end of the hand is
        always shown; a panel that only follows the table - or shows again a decision it showed already,
        with the moves made since and the time left - waits for the budget, merged (docs/deploy.md,
        "Telegram's budget")."""
        if rt.state is not None and rt.state.phase == Phase.ENDED:
            return Priority.NORMAL
        live = rt.live
        p = live.pending.get(seat)
        if p is None or seat in live.auto:
            return Priority.LAZY
        if live.prompted.get(seat) == p.since:
            return Priority.LAZY
        live.prompted[seat] = p.since
        return Priority.URGENT

    def publish(self, rt: TableRuntime, fresh_seats: set[int], *, fresh_group: bool = False) -> None:
        """The group's table and every player's panel; ``fresh`` ones are sent as new messages."""
        if rt.state is None:
            return
        # rendered when the outbox sends it: a group is sent one request per 3 s, and a burst merged by that
        # pace is rendered once
        snap = self.group_snap(rt)
        ended = rt.state.phase == Phase.ENDED  # the final position is always shown
        self.out.live_lazy(
            rt.chat_id,
            group_key(rt.id),
            partial(self._render_group_content, snap),
            fresh=fresh_group,
            priority=Priority.NORMAL if ended else Priority.LAZY,
        )
        for seat, user in enumerate(rt.hand_seats()):
            if user is not None:
                self._panel(rt, seat, fresh=seat in fresh_seats)
        self._changed(rt)

    def refresh(self, rt: TableRuntime) -> None:
        """Show the table again as it is (after a language or display change): the hand if one is on, else
        the lobby."""
        if rt.playing:
            self.publish(rt, set())
        else:
            self.show_lobby(rt)

    def result_text(self, rt: TableRuntime, lang: str, viewer: int | None = None) -> str:
        """A finished hand (still in ``rt``), explained: every settlement with its payments' arithmetic, the
        hands, the points, the next dealer."""
        assert rt.state is not None
        names = self.seat_names(rt, lang, viewer)
        return render.result_view(views.public_observation(rt.state), lang, names, rt.live.facts.ways, viewer)

    def hand_summary(self, rt: TableRuntime, lang: str | None = None) -> str:
        """The group's note on a finished hand (still in ``rt``): the result and the table's totals (in
        ``lang``; the table's language by default)."""
        state, hand = rt.live.state, rt.live.row
        lang = lang or self.people.table_lang(rt)
        names = self.seat_names(rt, lang)
        lines = [t("note.result_title", lang, n=hand.number), self.result_text(rt, lang)]
        totals = _totals(rt, names, lang)
        lines.append(t("note.totals", lang, totals=totals))
        reveal = nightview.reveal_line(rt.table.variant, hand, state, lang)  # the shuffle's seed, now
        if reveal:
            lines.append(reveal)
        return "\n".join(lines)

    def hand_summaries(self, rt: TableRuntime) -> str:
        """The group's note on a finished hand (still in ``rt``), kept in ``rt.summaries`` in every language
        too: the Mini App's lobby shows it in each viewer's."""
        rt.summaries = {lang: self.hand_summary(rt, lang) for lang in settings.LANGS}
        return rt.summaries[self.people.table_lang(rt)]

    def hand_line(self, rt: TableRuntime) -> str:
        """A finished hand (still in ``rt``) in one line for the group: who won (or a draw) and the points."""
        result = rt.live.state.result
        assert result is not None
        lang = self.people.table_lang(rt)
        names = self.seat_names(rt, lang)
        wins = {w: result.winners.count(w) for w in result.winners}  # 血流成河: a seat wins again
        who = listed((names[w] + (f" ×{k}" if k > 1 else "") for w, k in wins.items()), lang, names=True)
        how = t("note.hand_won", lang, who=who) if wins else t("note.hand_drawn", lang)
        deltas = render.points_text(result.deltas, names, lang)
        return t("note.hand_line", lang, n=rt.live.number, how=how, deltas=deltas)

    def set_summary(self, rt: TableRuntime, latest: str, latest_line: str) -> None:
        """What the group's next lobby shows above it (``rt.summary``): ``latest`` (the last hand's
        ``hand_summary``; ``latest_line``: its ``hand_line``) when that is the only result the group has not
        seen and it fits in one message with the lobby. Else one summary: each due hand's line
        (``rt.hand_lines``) - or the last hand's line, when its result alone is too long (血流成河) - then
        the table's totals; each player has the full settlement in private. A backlog of results (the
        group's messages were paced, or restarts cut them off) is so shown once, in one message: a long
        text is never split into parts that a restart could send again."""
        due = [rt.hand_lines[h] for h in rt.result_due if h in rt.hand_lines]
        rt.summary = ""
        room = MAX_TEXT - len(self.lobby_content(rt)[0]) - 2
        if len(due) <= 1 and len(latest) <= room:
            rt.summary = latest
            return
        lang = self.people.table_lang(rt)
        if len(due) > 1:
            head = t("note.backlog", lang, k=len(due))
        else:
            head = t("note.result_title", lang, n=rt.hands_played) + "\n" + t("note.in_private", lang)
            due = [latest_line]
        names = self.seat_names(rt, lang)
        totals = _totals(rt, names, lang)
        tail = t("note.totals", lang, totals=totals)
        while len(due) > 1 and len(head) + len(tail) + sum(len(x) + 1 for x in due) + 1 > room:
            due.pop(0)  # dozens of hands behind: the latest ones (the totals say the rest)
        rt.summary = "\n".join([head, *due, tail])

    def result_posts(self, rt: TableRuntime, final: State, ways_so_far: Sequence[WinWay] = ()) -> list[Post]:
        """Each player's result of the hand ``final`` ends (``rt`` still before it: its totals without it),
        for his private chat, as a new message that stays (the panel above it shows the end of the hand): the
        settlement explained (each win with how it was made: ``ways_so_far``), his points and his total at
        the table, and while the room goes on its Ready (and the host's Next hand) as in the group, and the
        shuffle check. Written to the outbox with the final action (bot/table/play.py), sent once that is
        committed."""
        hand, result = rt.hand, final.result
        assert hand is not None and result is not None
        public = views.public_observation(final)
        rounds = rt.settings.rounds
        goes_on = not rounds or hand.number < rounds  # Ready / Next hand while the room goes on
        code = hand.row.code if hand.row.salt else None
        ways = tuple(ways_so_far)
        posts = []
        for seat, user in enumerate(rt.hand_seats()):
            if user is None or user in rt.live.dm_lost:
                continue
            lang = self.people.dm_lang(user)
            total = rt.totals.get(rt.score_key(seat), 0) + result.deltas[seat]
            lines = [
                t("dm.result_title", lang, tid=rt.id, n=hand.number),
                render.result_view(public, lang, self.seat_names(rt, lang, seat), ways, seat),
                t("dm.your_total", lang, delta=result.deltas[seat], total=total),
            ]
            keyboard = kb.result_keyboard(
                rt.id, lang, goes_on=goes_on, host=user == rt.settings.host, was_auto=seat in rt.live.auto,
                code=code,
            )  # fmt: skip
            posts.append(post_of(user, "\n".join(lines), keyboard))
        return one_part_each(posts)

    def show_closed(self, rt: TableRuntime) -> None:
        """A stopped table: its messages stay, with their buttons gone and a line saying it is closed."""
        lang = self.people.table_lang(rt)
        if rt.state is not None and rt.hand is not None:
            view = self.group_view(rt, closed=t("lobby.closed", lang))
            self.out.live(rt.chat_id, group_key(rt.id), view.text, None, photo=view.photo)
            for seat, user in enumerate(rt.hand_seats()):
                if user is not None and user not in rt.live.dm_lost:
                    self.close_panel(rt, seat, t("dm.closed", self.people.dm_lang(user)))
        title = self.lobby_content(rt)[0].removeprefix(rt.summary).strip().split("\n")[0]
        if rt.summary:
            title = rt.summary + "\n\n" + title
        self.out.live(rt.chat_id, lobby_key(rt.id), title + "\n" + t("lobby.closed", lang), None)
        self._changed(rt)

    def close_panel(self, rt: TableRuntime, seat: int, note: str) -> None:
        """A player's panel once its table is gone: as it was, without buttons, with ``note`` (why)."""
        user = rt.hand_seats()[seat]
        assert user is not None
        view = self.panel_view(rt, seat, closed=note)
        self.out.live(user, panel_key(rt.id), view.text, None, photo=view.photo)

    # ------------------------------------------------------------------ notes (new messages)
    #
    # One-off messages go through the database's outbox (schema v9): a ``Post`` is rendered, written in the
    # transaction of what it reports (``*_post``: the caller stores it) or in one of its own (``send_posts``,
    # ``note_*``), and only then queued (``queue_posts``); its row is deleted once it is sent. A restart or
    # a worker taking the table over sends the rows left (bot/table/restore.py).

    def no_dm_post(self, rt: TableRuntime, user: int, url: str) -> Post:
        """Someone pressed Join but never started the bot in private: a link for him in the group."""
        lang = self.people.table_lang(rt)
        name = self.people.name(user)
        return post_of(rt.chat_id, t("note.no_dm", lang, name=name), kb.deep_link_keyboard(url, lang))

    def dm_lost_post(self, rt: TableRuntime, user: int, url: str) -> Post:
        lang = self.people.table_lang(rt)
        name = self.people.name(user)
        return post_of(rt.chat_id, t("note.dm_lost", lang, name=name), kb.deep_link_keyboard(url, lang))

    def auto_post(self, rt: TableRuntime, seat: int, on: bool, *, chosen: bool = False) -> Post:
        user = rt.hand_seats()[seat]
        name = self.people.name(user) if user is not None else ""
        key = ("note.auto_chosen" if chosen else "note.auto_on") if on else "note.auto_off"
        return Post(rt.chat_id, t(key, self.people.table_lang(rt), name=name))

    async def note_no_dm(self, rt: TableRuntime, user: int, url: str) -> None:
        await self.send_posts(rt, [self.no_dm_post(rt, user, url)])

    async def send_posts(self, rt: TableRuntime, posts: Sequence[Post]) -> None:
        """One-off messages that no other write causes: written to the outbox in a transaction of their
        own, then queued. If the database refuses them they are still sent, once, from memory."""
        if not posts:
            return
        posts = one_part_each(posts)
        try:
            await self.storage.add_posts(rt.id, posts)
        except StorageError as e:
            log.warning("table %s: messages not written to the outbox (%s): sent from memory", rt.id, e)
            for p in posts:
                self.out.post(p.chat_id, p.text, from_stored_markup(p.keyboard))
            return
        await self.queue_posts(rt.id)

    async def queue_posts(self, table_id: int) -> None:
        """Queue the table's one-off messages not sent yet, in the order they were written (those this
        process has queued already are not queued twice)."""
        try:
            rows = await self.storage.unsent_posts(table_id)
        except StorageError as e:
            log.warning("table %s: unsent messages not read: %s", table_id, e)
            return
        self.queue_rows(rows)

    def queue_rows(self, rows: Sequence[Post]) -> None:
        """Queue outbox rows (in the order given); each row is deleted once it is sent."""
        for row in rows:
            if row.id in self._queued:
                continue
            self._queued.add(row.id)
            keyboard = from_stored_markup(row.keyboard)
            self.out.post(row.chat_id, row.text, keyboard, on_sent=partial(self._sent, row.id))

    async def _sent(self, row_id: int) -> None:
        try:
            await self.storage.post_sent(row_id)
        except StorageError as e:  # kept out of this process's queue; deleted again at the next move
            log.warning("a sent message stays in the outbox for now: %s", e)
            self._undeleted.add(row_id)
            return
        self._queued.discard(row_id)

    async def delete_sent(self) -> None:
        """Delete the outbox rows sent whose deletion the database refused, now that it may answer: left
        there, a restart would send them again. Tried at every move and, with several workers, at every
        sweep of the cluster (bot/telegram/cluster.py)."""
        for row_id in sorted(self._undeleted):
            try:
                await self.storage.post_sent(row_id)
            except StorageError as e:
                log.warning("a sent message stays in the outbox for now: %s", e)
                return
            self._undeleted.discard(row_id)
            self._queued.discard(row_id)

    def note_timeout(self, rt: TableRuntime, seat: int, label: str) -> None:
        """Tell a player what the bot played for him when his time ran out: on his panel (edited, not a new
        message), until he next presses a button."""
        rt.live.notes[seat] = ("dm.timeout", label)

    def note_forced(self, rt: TableRuntime, seat: int, obs: Observation, action: Action) -> None:
        """Tell a player the move the bot made for him because it was his only one (a 定缺 forced by his
        hand, the one void-suit tile he must throw): on his panel, until he next presses a button."""
        rt.live.notes[seat] = ("dm.forced", self.action_label(obs, action, self.seat_lang(rt, seat)))

    @staticmethod
    def moves_note(rt: TableRuntime, seat: int, lang: str, names: Sequence[str]) -> str:
        """What a player's panel (and his Mini App screen) says of his own hand beside the table: the tiles
        he received (换三张, until his own first move of play), the move made for him and why."""
        key, label = rt.live.notes.get(seat, ("", ""))
        note = t(key, lang, label=label) if key else ""
        news = rt.live.news.get(seat)
        if news is not None:
            line = render.event_line(news, seat, lang, list(names), rt.table.variant)
            note = "\n".join(x for x in (line or "", note) if x)
        return note

    async def note_group(self, rt: TableRuntime, key: str) -> None:
        """A one-line note to the group (``note.restored``, ``note.restore_failed``)."""
        await self.send_posts(rt, [Post(rt.chat_id, t(key, self.people.table_lang(rt)))])

    # ------------------------------------------------------------------ live message ids

    def adopt(self, rt: TableRuntime, panels: dict[int, int] | None = None) -> None:
        """After a restart: the group's messages and the players' panels of before are edited in place."""
        if rt.settings.table_msg is not None:
            self.out.adopt(rt.chat_id, group_key(rt.id), rt.settings.table_msg)
        if rt.settings.lobby_msg is not None:
            self.out.adopt(rt.chat_id, lobby_key(rt.id), rt.settings.lobby_msg)
        if rt.settings.vote_msg is not None and rt.settings.vote_until is not None:
            self.out.adopt(rt.chat_id, vote_key(rt.id), rt.settings.vote_msg)
        for user, message_id in (panels or {}).items():
            self.out.adopt(user, panel_key(rt.id), message_id)

    def adopt_vote_prompts(self, rt: TableRuntime) -> None:
        """After a restart, or on a worker that takes the table over: the players' private prompts of the
        stop vote in progress are edited as it goes on, and lose their buttons at its end
        (``rt.vote_dms``), as the group's tally does."""
        if rt.settings.vote_until is None or rt.closed:
            return
        users = rt.hand_seats()
        for seat, message_id in rt.settings.vote_prompts:
            user = users[seat] if seat < len(users) else None
            if user is not None:
                self.out.adopt(user, vote_key(rt.id), message_id)
                rt.vote_dms.add(user)

    async def on_message(self, rt: TableRuntime, chat_id: int, key: str, message_id: int) -> None:
        """A live message was sent anew: store its id at once, so that a restart edits it in place. The
        lobby message sent after a hand carries its result: that result is now delivered."""
        hands: list[int] = []
        if key == lobby_key(rt.id) and rt.result_due:
            hands, rt.result_due = rt.result_due, []
            for h in hands:
                rt.hand_lines.pop(h, None)
        _, before = self._unstored.get((rt.id, chat_id, key), (None, []))  # results an unstored one delivered
        self._unstored[rt.id, chat_id, key] = (message_id, before + hands)
        await self.store_ids(rt)

    async def store_ids(self, rt: TableRuntime) -> None:
        """Store the ids of the table's live messages sent anew that are not stored yet. One the database
        refused (a full disk) is tried again at the table's next move, until it is stored: a restart then
        edits the message the chat shows last, not an older one beside it with live buttons. Sent messages
        the database would not delete are deleted again too (``delete_sent``)."""
        if self._undeleted:
            await self.delete_sent()
        if not self._unstored:  # every move asks: nearly always nothing to do
            return
        for (table_id, chat_id, key), (message_id, hands) in list(self._unstored.items()):
            if table_id != rt.id:
                continue
            try:
                await self._store_id(rt, chat_id, key, message_id, hands)
            except StorageError as e:
                log.warning("table %s: message id not stored (tried again at the next move): %s", rt.id, e)
                return
            if self._unstored.get((table_id, chat_id, key)) == (message_id, hands):
                del self._unstored[table_id, chat_id, key]

    async def _store_id(
        self, rt: TableRuntime, chat_id: int, key: str, message_id: int, hands: list[int]
    ) -> None:
        if key == group_key(rt.id):
            rt.settings = await self.storage.update_settings(rt.id, table_msg=message_id)
        elif key == lobby_key(rt.id) and hands:
            await self.storage.result_delivered(hands, lobby_msg=message_id)
            rt.settings = dataclasses.replace(rt.settings, lobby_msg=message_id)
        elif key == lobby_key(rt.id):
            rt.settings = await self.storage.update_settings(rt.id, lobby_msg=message_id)
        elif key == vote_key(rt.id) and chat_id == rt.chat_id:
            rt.settings = await self.storage.update_settings(rt.id, vote_msg=message_id)
        elif key == vote_key(rt.id) and chat_id in rt.vote_dms and chat_id in rt.hand_seats():
            # asked in the vote in progress: a prompt sent after its vote ended, or for an earlier vote, is
            # not one to edit into the next vote's tally after a restart
            await self.storage.set_vote_prompt(rt.id, rt.hand_seats().index(chat_id), message_id)
        elif key == panel_key(rt.id) and chat_id > 0:
            await self.storage.set_panel(rt.id, chat_id, message_id)


def one_part_each(posts: Sequence[Post]) -> list[Post]:
    """``posts`` with each text over one message's limit split into posts of one part each (the keyboard
    under the last): each part is a row of the outbox, deleted once sent, so a restart sends only the
    parts not sent yet - never a part twice (the outbox would otherwise send a long text's parts in one
    go, and a restart all of them again)."""
    out: list[Post] = []
    for p in posts:
        parts = split_text(p.text)
        if len(parts) == 1:
            out.append(p)
            continue
        out += [Post(p.chat_id, part) for part in parts[:-1]]
        out.append(dataclasses.replace(p, text=parts[-1]))
    return out


def post_of(chat_id: int, text: str, keyboard: Keyboard | None = None) -> Post:
    """A one-off message as the outbox stores it (its keyboard as the Bot API's JSON)."""
    return Post(chat_id, text, stored_markup(keyboard))


def _totals(rt: TableRuntime, names: Sequence[str], lang: str) -> str:
    """The table's running totals, by seat: ``Alice +12，Bob -4``."""
    return render.points_text([rt.totals.get(rt.score_key(s), 0) for s in range(len(names))], names, lang)
