"""What a delivery channel other than the chats (the Mini App, bot/miniapp/) may read of a table and when.

The chats are the table's first front end: ``present`` renders them. A channel that shows the table by other
means reads it here, in the same terms and from the same sources, so that it can never show more than the
chats do:

* a seated player's view is his panel's: ``observe(state, seat)``, and during a claim pause, while he has no
  decision of his own, the table frozen at the moment (``present.paused_observation``), exactly as his panel;
* anyone else's view is the group's: the public observation (``present.paused_public`` during a pause);
* the open decision is the one his buttons carry (the hand's id and ``since``), with its legal actions in
  their order, so an answer from the channel and a button in the chat for the same decision are one press;
* the clock is the one each of them is shown: a player his own deadline, everyone the group's clock (never
  during a claim window: who may claim stays hidden).

``Feed`` is the subscription: ``present`` calls ``changed(rt)`` (under the table's lock) whenever it
publishes the table (a move, the lobby, the ready phase, the table's close), and each listener then reads
the views it needs. A channel also tells the feed who is looking at the table through it (``watching``): a
player who follows the hand in the channel has his private panel spared its edits (one short nudge when a
decision waits for him and the channel is hidden) - Telegram's budget goes to those who need the chat.

Actions go through the table service's own methods (``press``, ``pick``, ``lobby``, ``im_back`` ...): the
same checks, the same answers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.members.people import People
from bot.messages import keyboards as kb
from bot.table.present import Presenter, paused_observation, paused_public
from bot.table.restore import hand_live, load_totals, reopen
from bot.table.runtime import TableRuntime, Tables, score_key
from bot.table.settings import ai_level_label
from bot.table.vote import VoteView, vote_view
from bot.text import render, views
from bot.text.texts import t
from engine import Action, Observation, Phase, observe
from storage import Storage, StorageError

log = logging.getLogger(__name__)

Listener = Callable[[TableRuntime], None]


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat's open decision as its buttons carry it: ``press(table, user, hand_id, since, i)`` answers it
    with ``legal[i]`` (``labels[i]`` its label in the viewer's language); a pick-tiles choice (换三张) has
    ``pick`` tiles to choose, ``picked`` the hand positions chosen so far (``pick(..., i)`` toggles one)."""

    hand_id: int
    since: int
    deadline: float
    legal: tuple[Action, ...]
    labels: tuple[str, ...]
    pick: int = 0
    picked: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class HandView:
    """One viewer's view of a hand in play (``seat`` None: a spectator, who sees what the group sees)."""

    table_id: int
    hand_id: int
    hand_no: int
    variant: str
    title: str  # the variant's name in the viewer's language
    lang: str
    seat: int | None
    obs: Observation
    names: tuple[str, ...]
    auto: frozenset[int]  # seats on auto-play (the group is told of them too)
    decision: Decision | None
    clock: tuple[tuple[int, ...], float] | None  # who is on the clock as the viewer may see it, and until
    recent: tuple[str, ...]  # the latest moves, as lines
    note: str = ""  # his own panel's note (what the bot played for him, 换三张's tiles received)
    result: tuple[str, ...] = ()  # the hand's end: the settlement, line by line
    vote: VoteView | None = None  # a stop vote in progress


@dataclass(frozen=True, slots=True)
class LobbyView:
    """A table between hands (or before its first): seats, who is ready and until when, the last result."""

    table_id: int
    variant: str
    title: str
    lang: str
    seat: int | None
    seats: tuple[str, ...]  # names, AI seats and empty ones labelled
    seated: tuple[bool, ...]  # a player sits there
    ready: tuple[int, ...]
    ready_until: float | None
    hands_played: int
    rounds: int
    summary: str
    closed: bool = False
    host: bool = False
    vote: VoteView | None = None  # a stop vote in progress
    ai_level: str = ""  # the strength of the AI players that take the empty seats at the start (its label)
    starter: str = ""  # the host's name, for the others: who starts the hand
    totals: tuple[int, ...] = ()  # each seat's points at this table so far (none before its first hand)
    last_code: str = ""  # the last hand's code, for its replay


@dataclass(slots=True)
class Watch:
    """A player looking at his table through a channel: ``visible`` while its page is in front."""

    visible: bool = True
    nudged: tuple[int, int] = (-1, -1)  # the decision (hand, since) he was last nudged about


class Feed:
    """The subscription of delivery channels to a table's changes, and who watches through them."""

    def __init__(self, present: Presenter, tables: Tables) -> None:
        self.present = present
        self.tables = tables
        self.listeners: list[Listener] = []
        self.watches: dict[tuple[int, int], dict[int, Watch]] = {}  # (table, user) -> by connection
        # the channel's link to a table (``private``: for a button in a private chat), set by the channel
        self.link: Callable[[int, bool], str | None] = lambda table_id, private: None

    # ------------------------------------------------------------------ subscription

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(rt)`` whenever a table is published (under its lock; it must not block)."""
        self.listeners.append(listener)

        def stop() -> None:
            if listener in self.listeners:
                self.listeners.remove(listener)

        return stop

    def changed(self, rt: TableRuntime) -> None:
        for listener in list(self.listeners):
            try:
                listener(rt)
            except Exception:  # a channel's failure never stops the table
                log.exception("table %s: a feed listener failed", rt.id)

    # ------------------------------------------------------------------ who watches (the panel's budget)

    def watch(self, table_id: int, user_id: int, key: int, visible: bool) -> None:
        """Connection ``key`` of ``user_id`` shows table ``table_id`` (``visible``: in front)."""
        self.watches.setdefault((table_id, user_id), {}).setdefault(key, Watch()).visible = visible

    def unwatch(self, table_id: int, user_id: int, key: int) -> bool:
        """Connection ``key`` closed; True when it was the user's last one at that table."""
        mine = self.watches.get((table_id, user_id))
        if mine is None:
            return False
        mine.pop(key, None)
        if mine:
            return False
        del self.watches[(table_id, user_id)]
        return True

    def spares_panel(self, rt: TableRuntime, seat: int) -> bool:
        """True when the seat's player follows the hand in a channel: his panel is not edited. While no page
        of his is in front and a decision waits for him, he gets one short private note per decision."""
        user = rt.hand_seats()[seat]
        mine = self.watches.get((rt.id, user)) if user is not None else None
        if not mine or user is None:
            return False
        if any(w.visible for w in mine.values()):
            return True
        p = rt.live.pending.get(seat)
        if p is not None and rt.hand is not None and seat not in rt.live.auto:
            decision = (rt.hand.id, p.since)
            if all(w.nudged != decision for w in mine.values()):
                for w in mine.values():
                    w.nudged = decision
                lang = self.present.people.dm_lang(user)
                url = self.link(rt.id, True)
                keyboard = kb.app_keyboard(url, lang) if url else None
                self.present.out.post(user, t("dm.app_nudge", lang, tid=rt.id), keyboard)
        return True

    async def panel_again(self, table_id: int, user_id: int) -> None:
        """The user's last page at the table closed: his panel shows the table again, as it is now."""
        rt = self.tables.open(table_id)
        if rt is None:
            return
        async with rt.lock:
            seat = rt.seat_of(user_id)
            if rt.playing and seat is not None and (table_id, user_id) not in self.watches:
                self.present.publish_seat(rt, seat)

    # ------------------------------------------------------------------ views

    def view(self, rt: TableRuntime, user_id: int, lang: str) -> HandView | LobbyView:
        """What ``user_id`` may see of table ``rt`` now: his seat's view, or the group's."""
        seat = rt.seat_of(user_id)
        if rt.playing and not rt.closed:
            return self.hand_view(rt, seat, lang)
        return self.lobby_view(rt, seat if seat is not None and seat < len(rt.seats) else None, lang, user_id)

    def hand_view(self, rt: TableRuntime, seat: int | None, lang: str) -> HandView:
        state, hand = rt.state, rt.hand
        assert state is not None and hand is not None
        present = self.present
        p = rt.live.pending.get(seat) if seat is not None else None
        pause = rt.live.pause
        if seat is None:
            obs = paused_public(pause) if pause is not None else views.public_observation(state)
        elif pause is not None and p is None:  # frozen at the moment, like his panel
            obs = paused_observation(observe(pause.before, seat), pause.moment)
        else:
            obs = observe(state, seat)
        names = tuple(present.seat_names(rt, lang))
        decision = None
        if p is not None and seat is not None and seat not in rt.live.auto and obs.phase != Phase.ENDED:
            pick = render.tile_pick(obs)
            decision = Decision(
                hand_id=hand.id,
                since=p.since,
                deadline=p.deadline,
                legal=p.legal,
                labels=tuple(render.action_label(obs, a, lang) for a in p.legal),
                pick=pick.count if pick is not None else 0,
                picked=rt.live.picked(seat),
            )
        recent_events = list(pause.recent) if pause is not None else list(rt.live.recent)
        recent = tuple(views.event_lines(recent_events[-4:], lang, names, rt.table.variant))
        note = self.present.moves_note(rt, seat, lang, names) if seat is not None else ""
        result: tuple[str, ...] = ()
        if obs.phase == Phase.ENDED:
            public = views.public_observation(state)
            ways = rt.live.facts.ways
            result = tuple(render.result_view(public, lang, list(names), ways, seat).split("\n"))
        return HandView(
            table_id=rt.id,
            hand_id=hand.id,
            hand_no=hand.number,
            variant=rt.table.variant,
            title=views.variant_name(rt.variant, lang),
            lang=lang,
            seat=seat,
            obs=obs,
            names=names,
            auto=rt.live.auto,
            decision=decision,
            clock=self._clock(rt, obs, seat),
            recent=recent,
            note=note,
            result=result,
            vote=self._vote(rt, names, seat),
        )

    @staticmethod
    def _clock(rt: TableRuntime, obs: Observation, seat: int | None) -> tuple[tuple[int, ...], float] | None:
        """A player's own deadline while he decides; else the group's clock (``Presenter.group_clock``):
        the seat to play, or those still choosing before the hand - never in a claim window or pause."""
        p = rt.live.pending.get(seat) if seat is not None else None
        if p is not None and seat not in rt.live.auto and obs.phase != Phase.ENDED:
            return (seat,), p.deadline  # type: ignore[return-value]
        if (
            rt.live.pause is not None
            or obs.phase in (Phase.CLAIM, Phase.ENDED, Phase.HAIDI)
            or obs.kong_tiles
        ):
            return None
        pending = {s: q.deadline for s, q in rt.live.pending.items()}
        if obs.phase == Phase.CHOOSE:
            seats = tuple(sorted(pending))
        else:
            seats = (obs.current,) if obs.current in pending else ()
        if not seats:
            return None
        return seats, min(pending[s] for s in seats)

    def lobby_view(self, rt: TableRuntime, seat: int | None, lang: str, user_id: int = 0) -> LobbyView:
        present = self.present
        labels = [label for label, _ in present.lobby_seats(rt, lang)]
        host = rt.settings.host
        return LobbyView(
            table_id=rt.id,
            variant=rt.table.variant,
            title=views.room_name(rt.variant, rt.options, len(rt.hand_seats()), lang),  # with its preset
            lang=lang,
            seat=seat,
            seats=tuple(labels),
            seated=tuple(u is not None for u in rt.seats),
            ready=rt.settings.ready,
            ready_until=rt.settings.ready_until,
            hands_played=rt.hands_played,
            rounds=rt.settings.rounds,
            summary=rt.summaries.get(lang, rt.summary),
            closed=rt.closed,
            host=rt.settings.host == user_id,
            vote=self._vote(rt, tuple(present.seat_names(rt, lang)), seat),
            ai_level=ai_level_label(rt.settings, lang),
            starter=present.people.name(host) if host is not None and host != user_id else "",
            totals=tuple(rt.totals.get(score_key(u, i), 0) for i, u in enumerate(rt.seats))
            if rt.hands_played
            else (),
            last_code=rt.last_code,
        )

    def _vote(self, rt: TableRuntime, names: tuple[str, ...], seat: int | None) -> VoteView | None:
        asker = rt.settings.vote_by
        return vote_view(rt, names, seat, self.present.people.name(asker) if asker is not None else "")


async def stored_table(
    storage: Storage, people: People, table_id: int, clock: Callable[[], float]
) -> TableRuntime | None:
    """Table ``table_id`` as the database has it, built only to be read by a channel (nothing shown, moved or
    armed): a worker whose streams follow a table another worker moved reads it so (bot/miniapp/relay.py).
    A closed table comes back closed; None if there is no such table."""
    found = await storage.restore(table_id)
    if not found:
        try:
            table = await storage.get_table(table_id)
            settings = await storage.table_settings(table_id)
        except StorageError:
            return None
        rt = TableRuntime(table, settings, list(table.seats), dict(table.options), closed=True)
        await load_totals(storage, rt)
        return rt
    r = found[0]
    rt = TableRuntime(r.table, r.settings, list(r.table.seats), dict(r.table.options))
    users = {u for u in r.table.seats if u is not None}
    users |= {u for u in r.hand.seats if u is not None} if r.hand is not None else set()
    missing = [u for u in users if u not in people.names]
    if missing:
        await people.load(missing)
    await load_totals(storage, rt)
    if r.error is None and r.hand is not None and r.state is not None and r.state.phase != Phase.ENDED:
        rt.hand = hand_live(r.hand, r.state, r.facts)
        reopen(rt, r, clock(), keep=True)
    return rt
