"""Press answers (schema v13): the answer a button press got, kept with its update's id.

Telegram delivers an update again until the bot confirms it (the next ``getUpdates`` offset, or the
webhook's 200). A bot killed after a press was applied and before that confirmation gets the same press
again after its restart; the decision it answered is closed by then, so the press would be told "out of
date" although it was applied. So the answer (``✔ Discard 3m``) is written with the update id in the
transaction of the action (``Storage.log_action``'s ``answer``), and a second delivery is answered with it
(``press_answer``). The rows live in v10's ``updates_seen``: the workers of a PostgreSQL cluster record
every update applied there, in the same transaction; one process records every update it handled as well
(``mark_seen``, once handled: a button's with its answer), so that a second delivery of a lobby press or
a command changes nothing either (``update_seen``). They are pruned after a day (``prune_answers``):
Telegram keeps an update no longer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidInput
from .runner import Db, Runner, check_int64, scalar

KEEP_S = 86_400.0  # Telegram keeps an undelivered update for 24 hours

INSERT_ANSWER = """
    INSERT INTO updates_seen (update_id, seen, answer) VALUES (?, ?, ?)
    ON CONFLICT (update_id) DO UPDATE SET answer = excluded.answer
"""

MAX_ANSWER = 200  # what a callback answer shows (Telegram's limit)


@dataclass(frozen=True, slots=True)
class PressAnswer:
    """A button press being applied: its update's id and the answer it gets."""

    update_id: int
    text: str


def answer_params(answer: PressAnswer, now: float) -> tuple[Any, ...]:
    """``answer`` as ``INSERT_ANSWER``'s parameters, checked."""
    check_int64("update_id", answer.update_id)
    if not isinstance(answer.text, str) or not answer.text:
        raise InvalidInput("a press answer needs a text")
    return (answer.update_id, now, answer.text[:MAX_ANSWER])


class Answers(Runner):
    """The answers of presses applied (``updates_seen.answer``)."""

    async def press_answer(self, update_id: int) -> str | None:
        """The answer the press of update ``update_id`` got when it was applied (None: not applied here, or
        forgotten)."""
        check_int64("update_id", update_id)

        async def run(db: Db) -> str | None:
            v = await scalar(db, "SELECT answer FROM updates_seen WHERE update_id = ?", (update_id,))
            return str(v) if v is not None else None

        return await self._single(run)

    async def update_seen(self, update_id: int) -> str | None:
        """Whether update ``update_id`` was recorded as handled: the answer its press got ("" for none), or
        None (not recorded here, or forgotten)."""
        check_int64("update_id", update_id)

        async def run(db: Db) -> str | None:
            rows = list(
                await db.execute_fetchall("SELECT answer FROM updates_seen WHERE update_id = ?", (update_id,))
            )
            return (rows[0][0] or "") if rows else None

        return await self._single(run)

    async def mark_seen(self, update_id: int, answer: str | None = None) -> None:
        """Record update ``update_id`` as handled, with the answer its press got (a record already there,
        a move's, is kept)."""
        check_int64("update_id", update_id)
        params = answer_params(PressAnswer(update_id, answer), self._now()) if answer else None
        now = self._now()

        async def run(db: Db) -> None:
            await db.execute(
                "INSERT INTO updates_seen (update_id, seen, answer) VALUES (?, ?, ?) "
                "ON CONFLICT (update_id) DO NOTHING",
                params or (update_id, now, None),
            )

        await self._single(run)

    async def last_update(self) -> int:
        """The highest update id recorded (0: none): an update with a higher id is not a second delivery."""

        async def run(db: Db) -> int:
            v = await scalar(db, "SELECT max(update_id) FROM updates_seen")
            return int(v) if v is not None else 0

        return await self._single(run)

    async def prune_answers(self, keep: float = KEEP_S) -> None:
        """Forget the updates recorded more than ``keep`` seconds ago (Telegram does not send them again)."""
        before = self._now() - keep

        async def run(db: Db) -> None:
            await db.execute("DELETE FROM updates_seen WHERE seen < ?", (before,))

        await self._single(run)
