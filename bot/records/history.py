"""战绩: a group's finished hands (/history), one hand step by step (/replay), its full record (/export),
and a player's figures (/stats). Read from storage; nothing here changes a table.

Hands are named by their public code (``Hand.code``: random, so a group cannot guess another group's
hands). Who may open one (docs/security.md): in a group, only that group's hands; in private, a hand the
user played in or one of a group he is a member of. Only a hand that has ended is ever shown: a hand in
progress is refused (its seed, hands and wall stay secret), and so is an abandoned one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import engine
from bot.members.access import MEMBER, Access
from bot.members.people import People
from bot.messages.content import Keyboard
from bot.messages.keyboards import history_keyboard, replay_keyboard
from bot.records.export import HandRecord, hand_jsonl
from bot.text import nightview, render, views
from bot.text.texts import ai_name, listed, t
from engine import Act, Phase, verify
from storage import Hand, Storage, StorageError, Table, clean_code

PAGE = 5  # hands per /history page


@dataclass(frozen=True, slots=True)
class Found:
    """A hand a user may open, with its table and its logged actions."""

    hand: Hand
    table: Table
    actions: tuple[str, ...]


class History:
    def __init__(self, storage: Storage, people: People, access: Access) -> None:
        self.storage = storage
        self.people = people
        self.access = access

    async def _names(self, seats: Sequence[int | None], lang: str) -> list[str]:
        """Seat names as the hand showed them (players by name, AI seats by their seat: ai_name)."""
        await self.people.load(u for u in seats if u is not None and u not in self.people.names)
        return [self.people.name(u) if u is not None else ai_name(i, lang) for i, u in enumerate(seats)]

    # ------------------------------------------------------------------ /history

    async def page(self, chat_id: int, page: int, lang: str) -> tuple[str, Keyboard | None]:
        """Page ``page`` (0: the newest) of the group's finished hands, with its paging buttons."""
        rows = await self.storage.chat_hands(chat_id, page * PAGE, PAGE + 1)
        more = len(rows) > PAGE
        rows = rows[:PAGE]
        if not rows:
            text = t("hist.empty", lang)
            return (text, history_keyboard(page, False, lang)) if page else (text, None)
        lines = [t("hist.title", lang, page=page + 1)]
        for row in rows:
            h, rs = row.hand, engine.get_variant(row.variant)
            names = await self._names(h.seats, lang)
            lines.append("")
            variant = rs.name_zh if lang == "zh" else rs.name_en
            lines.append(t("hist.line", lang, code=h.code, tid=h.table_id, n=h.number, variant=variant))
            result = h.result or {}
            wins = [s for s in result.get("settlements", []) if s.get("kind") == "win"]
            if wins:
                who = []
                for s in wins:
                    hands = dict((int(seat), names_) for seat, names_ in s.get("hands", []))
                    for w in s.get("winners", []):
                        shown = render.hand_names(rs, hands.get(int(w), []), lang)
                        who.append(f"{names[int(w)]}（{shown}）" if lang == "zh" and shown else
                                   f"{names[int(w)]} ({shown})" if shown else names[int(w)])  # fmt: skip
                lines.append(t("hist.win", lang, who=listed(who, lang, names=True)))
            else:
                lines.append(t("hist.draw", lang))
            deltas = render.points_text([int(d) for d in result.get("deltas", [])], names, lang)
            lines.append(t("hist.deltas", lang, deltas=deltas))
        lines.append("")
        lines.append(t("hist.hint", lang))
        return "\n".join(lines), history_keyboard(page, more, lang)

    # ------------------------------------------------------------------ opening a hand by its code

    async def find(self, typed: str, user_id: int, chat_id: int | None, cmd: str, lang: str) -> Found | str:
        """The hand ``typed`` names if this user may open it here (``chat_id``: the group, None in
        private), else the refusal to send."""
        code = clean_code(typed) if typed else None
        if code is None:
            return t("code.usage", lang, cmd=cmd)
        try:
            found = await self.storage.hand_by_code(code)
        except StorageError:
            return t("ans.error", lang)
        if found is None:
            return t("code.unknown", lang, code=code)
        hand, table = found
        if chat_id is not None and table.chat_id != chat_id:
            return t("code.foreign", lang)
        if chat_id is None and user_id not in hand.seats:
            if await self.access.status(table.chat_id, user_id) not in MEMBER:
                return t("code.not_yours", lang)
        if not hand.finished:
            return t("code.live", lang)
        if not isinstance((hand.result or {}).get("deltas"), list):
            return t("code.abandoned", lang)
        try:
            rec = await self.storage.hand_replay(hand.id)
        except StorageError:
            return t("ans.error", lang)
        return Found(hand, table, tuple(a.action for a in rec.actions))

    # ------------------------------------------------------------------ /replay

    @staticmethod
    def steps(found: Found) -> list[int]:
        """The replay's steps: the number of actions applied at each (0: the deal). A pass on a claim shows
        nothing, so it joins the next step."""
        out = [0]
        for i, text in enumerate(found.actions, 1):
            action = engine.Action.parse(text)
            if action.act != Act.PASS or i == len(found.actions):
                out.append(i)
        return out

    async def replay_view(self, found: Found, step: int, lang: str) -> tuple[str, Keyboard]:
        """Step ``step`` of the hand: what happened, then every seat's hand (revealed), melds and discards;
        the last step adds the settlement."""
        h = found.hand
        rs = engine.get_variant(found.table.variant)
        names = await self._names(h.seats, lang)
        steps = self.steps(found)
        step = max(0, min(step, len(steps) - 1))
        upto = steps[step]
        state = engine.new_hand(rs, h.seed, h.options, h.dealer_arg, len(h.seats))
        events: list[engine.Event] = []
        prev = steps[step - 1] if step else upto
        for i, text in enumerate(found.actions[:upto], 1):
            state, evs = engine.apply(state, engine.Action.parse(text))
            if i > prev:
                events.extend(evs)
        variant = rs.name_zh if lang == "zh" else rs.name_en
        lines = [
            t("replay.header", lang, code=h.code, variant=variant, tid=h.table_id, n=h.number),
            t("replay.step", lang, i=step, total=len(steps) - 1),
        ]
        if step == 0:
            lines.append(t("replay.deal", lang))
        else:
            lines += ["• " + line for line in views.replay_lines(events, lang, names, rs.id)]
        lines.append(t("replay.wall", lang, n=state.wall.remaining))
        lines.extend(self._seats(state, names, lang))
        if state.phase == Phase.ENDED:
            lines.append("")
            lines.append(t("replay.end", lang))
            lines.append(render.result_view(engine.observe_public(state), lang, names))
        return "\n".join(lines), replay_keyboard(h.code, step, len(steps) - 1, lang)

    @staticmethod
    def _seats(state: engine.State, names: Sequence[str], lang: str) -> Iterable[str]:
        for i, seat in enumerate(state.seats):
            mark = f" [{t('replay.dealer', lang)}]" if i == state.dealer else ""
            # in players' words, as the live table shows them (一二三万 [五五五筒]), not the engine's notation
            tiles = [x for x in range(len(seat.counts)) for _ in range(seat.counts[x])]
            melds = " ".join(render.meld_label(m, lang) for m in seat.melds)
            lines = [f"{names[i]}{mark}: {render.tiles_text(tiles, lang)}" + (f"  {melds}" if melds else "")]
            if seat.discards:
                river = " ".join(render.tile_short(x, lang) for x in seat.discards)
                lines.append(f"   {t('replay.discards', lang)}: {river}")
            yield from lines

    # ------------------------------------------------------------------ /export

    # ------------------------------------------------------------------ the shuffle check (docs/verify.md)

    async def shuffle_check(self, typed: str, user_id: int, chat_id: int | None, lang: str) -> str | None:
        """What a shuffle-check button of hand ``typed`` sends the presser in private: the hand's whole
        commitment; once it has ended, its seed and salt, the bot's own check (the commitment they give, the
        hand's log replayed on the deal from that seed, with the same result) and the command to check it
        independently. The same who-may-open-it rule as /replay, but a hand in progress may be asked for
        (its commitment only). None when it is not a hand he may see."""
        code = clean_code(typed)
        try:
            found = await self.storage.hand_by_code(code) if code else None
        except StorageError:
            return None
        if found is None:
            return None
        hand, table = found
        if chat_id is not None and table.chat_id != chat_id:
            return None
        if chat_id is None and user_id not in hand.seats:
            if await self.access.status(table.chat_id, user_id) not in MEMBER:
                return None
        problem = None
        if hand.finished:
            problem = await self._replays(hand, table)
        return nightview.verify_text(table.variant, hand, problem, lang)

    async def _replays(self, hand: Hand, table: Table) -> str | None:
        """The bot's own check of a finished hand: the commitment its seed and salt give (what was shown
        when it started), and its log played again on the deal that seed gives, ending as stored. None
        when it holds, else the catalogue key of what failed."""
        if nightview.commitment_of(hand.table_id, hand) is None:
            return "verify.bad.commitment"
        try:
            rec = await self.storage.hand_replay(hand.id)
            state = verify.deal(table.variant, hand.seed, seats=len(hand.seats), dealer=hand.dealer_arg,
                                options=hand.options)  # fmt: skip
            for a in rec.actions:
                state, _ = engine.apply(state, engine.Action.parse(a.action))
        except (StorageError, engine.EngineError, ValueError):
            return "verify.bad.replay"
        stored = (hand.result or {}).get("deltas")
        if isinstance(stored, list) and (state.result is None or list(state.result.deltas) != stored):
            return "verify.bad.replay"
        return None

    async def export(self, found: Found) -> tuple[str, bytes]:
        """The hand's JSON Lines record and its file name."""
        h = found.hand
        names = await self._names(h.seats, "en")
        rec = HandRecord(
            variant=found.table.variant,
            code=h.code,
            table=h.table_id,
            number=h.number,
            names=tuple(names),
            seed=h.seed,
            salt=h.salt,
            options=dict(h.options),
            dealer=h.dealer_arg,
            seats=len(h.seats),
            actions=found.actions,
        )
        return f"hand-{h.code}.jsonl", hand_jsonl(rec).encode()

    # ------------------------------------------------------------------ /stats

    async def stats(self, user_id: int, name: str, chat_id: int | None, lang: str) -> str:
        """A player's figures per variant: in a group, there (with his rating); in private, everywhere."""
        rows = await self.storage.player_stats(user_id, chat_id)
        if not rows:
            return t("stats.empty", lang, name=name)
        where = t("stats.here" if chat_id is not None else "stats.all", lang)
        lines = [t("stats.title", lang, name=name, where=where)]
        for r in rows:
            rs = engine.get_variant(r.variant) if r.variant in engine.VARIANTS else None
            variant = (rs.name_zh if lang == "zh" else rs.name_en) if rs is not None else r.variant
            rate = round(100 * r.wins / r.hands) if r.hands else 0
            avg = f"{r.points / r.hands:+.1f}" if r.hands else "0"
            lines.append(
                t(
                    "stats.variant",
                    lang,
                    variant=variant,
                    hands=r.hands,
                    wins=r.wins,
                    rate=rate,
                    self_draws=r.self_draws,
                    deal_ins=r.deal_ins,
                    avg=avg,
                )  # fmt: skip
            )
            if r.best_value is not None and rs is not None:
                lines.append(t("stats.best", lang, hand=render.hand_names(rs, r.best, lang) or "—",
                               value=r.best_value))  # fmt: skip
            if r.rating is not None:
                lines.append(t("stats.rating", lang, rating=r.rating.ordinal, n=r.rating.hands))
        return "\n".join(lines)
