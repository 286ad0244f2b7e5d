"""What the game night adds to the group's messages: the room (局数, ready), the shuffle commitment and its
check, the stop vote and the final summary (大结算). Pure text from values; ``bot/table/present.py``,
``bot/table/night.py`` and ``bot/table/vote.py`` call in. Nothing here shows a hand's seed or salt before
the hand has ended (``reveal_line`` asks for its final state, ``verify_text`` for a finished hand).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import engine
from bot.text import render
from bot.text.texts import ai_name, listed, t
from engine.verify import commitment
from storage import Hand, SeatStats, TableSettings


def room_lines(settings: TableSettings, hands_played: int, lang: str) -> list[str]:
    """The room's length and ready timer; once the first hand has started, that the settings are locked."""
    if settings.rounds:
        rounds = t("night.rounds", lang, n=settings.rounds)
        if hands_played:
            nxt = min(hands_played + 1, settings.rounds)
            rounds += " · " + t("night.progress", lang, n=nxt, total=settings.rounds)
    else:
        rounds = t("night.rounds.open", lang)
    lines = [rounds + " · " + t("night.ready_s", lang, n=settings.ready_s)]
    if hands_played:
        lines.append(t("night.locked", lang))
    return lines


def ready_line(
    settings: TableSettings, seats: Sequence[int | None], name: Callable[[int], str], left: int, lang: str
) -> list[str]:
    """Who is ready (✅) and who not yet (⏳) in the ready phase, and when the hand starts anyway."""
    if settings.ready_until is None:
        return []
    humans = [(i, u) for i, u in enumerate(seats) if u is not None]
    if not humans:
        return [t("night.no_player", lang)]
    marks = [f"{name(u)} {'✅' if i in settings.ready else '⏳'}" for i, u in humans]
    ready = t("night.ready", lang, names=listed(marks, lang, names=True))
    return [ready, t("night.ready_wait", lang, n=max(0, left))]


def commitment_of(table_id: int, hand: Hand) -> str | None:
    """The hand's shuffle commitment (None for a hand dealt without a salt)."""
    return commitment(table_id, hand.number, hand.seed, hand.salt) if hand.salt else None


SHORT_HEX = 8  # hex digits of a commitment a chat line shows (the whole of it is sent on request)


def commitment_line(table_id: int, hand: Hand, lang: str) -> str | None:
    """The lobby's line as a hand starts: its shuffle is sealed (the commitment's first digits; the button
    beside it sends the whole commitment)."""
    digest = commitment_of(table_id, hand)
    return t("shuffle.commit", lang, short=digest[:SHORT_HEX]) if digest else None


def verify_command(variant: str, hand: Hand, digest: str) -> str:
    """The command that checks a finished hand's commitment and deals it again (docs/verify.md)."""
    rs = engine.get_variant(variant)
    parts = [f"python -m engine.verify {hand.seed} --variant {variant}"]
    if len(hand.seats) != max(rs.seat_counts):
        parts.append(f"--seats {len(hand.seats)}")
    if hand.dealer_arg is not None:
        parts.append(f"--dealer {hand.dealer_arg}")
    defaults = rs.make_options()
    for name, value in sorted(hand.options.items()):
        if defaults.get(name) != value:
            shown = str(value).lower() if isinstance(value, bool) else value
            parts.append(f"--option {name}={shown}")
    parts.append(f"--table {hand.table_id} --hand {hand.number} --salt {hand.salt} --commitment {digest}")
    return " ".join(parts)


def reveal_line(variant: str, hand: Hand, final: engine.State, lang: str) -> str | None:
    """After the hand (``final``, its last state, has ended): a short line that its shuffle can be checked
    now (the check itself, seed and salt included, is sent on request: ``verify_text``). None while it is
    being played (the seed stays secret) and for hands dealt without a commitment."""
    if final.phase != engine.Phase.ENDED or final.seed != hand.seed or not hand.salt:
        return None
    digest = commitment(hand.table_id, hand.number, hand.seed, hand.salt)
    return t("shuffle.reveal", lang, short=digest[:SHORT_HEX])


def verify_text(variant: str, hand: Hand, problem: str | None, lang: str) -> str | None:
    """The shuffle check a player asked for (in his private chat): the whole commitment; once the hand has
    ended, its seed and salt, the bot's own check (``problem``: None when it passed, else the key of what
    failed) and the command that checks it independently (docs/verify.md). None for a hand dealt without a
    commitment."""
    if not hand.salt:
        return None
    digest = commitment(hand.table_id, hand.number, hand.seed, hand.salt)
    lines = [
        t("verify.title", lang, tid=hand.table_id, n=hand.number, code=hand.code),
        t("verify.commitment", lang, hex=digest),
    ]
    if not hand.finished:
        lines.append(t("verify.sealed", lang))
        return "\n".join(lines)
    lines.append(t("verify.revealed", lang, seed=hand.seed, salt=hand.salt))
    lines.append(t("verify.ok", lang) if problem is None else t("verify.bad", lang, why=t(problem, lang)))
    lines.append(t("verify.cmd", lang, cmd=verify_command(variant, hand, digest)))
    return "\n\n".join(lines)


# ------------------------------------------------------------------ the stop vote (申请解散)


def vote_text(
    table_id: int,
    asker: str,
    yes: Sequence[str],
    no: Sequence[str],
    waiting: Sequence[str],
    need: int,
    until: str,
    silence_agrees: bool,
    lang: str,
    *,
    outcome: str = "",
    dm: str = "",
) -> str:
    """A stop vote as a chat shows it (bot/table/vote.py): who asked, who agreed, refused, or has not
    answered, what it takes, the time left and what silence counts as; once it is over (``outcome``, a
    line), that line instead of the clock. ``dm``: the first line for a player asked in private."""
    sep = "、" if lang == "zh" else ", "
    lines = [dm or t("vote.title", lang, tid=table_id)]
    if not dm:
        lines.append(t("vote.asked", lang, name=asker))
    lines.append(t("vote.need", lang, need=need, n=len(yes) + len(no) + len(waiting)))
    if yes:
        lines.append(t("vote.yes", lang, names=sep.join(yes)))
    if no:
        lines.append(t("vote.no", lang, names=sep.join(no)))
    if waiting:
        lines.append(t("vote.waiting", lang, names=sep.join(waiting)))
    if outcome:
        lines.append(outcome)
    else:
        rule = t("vote.rule.agree" if silence_agrees else "vote.rule.refuse", lang)
        lines.append(t("vote.left", lang, until=until, rule=rule))
    return "\n".join(lines)


# ------------------------------------------------------------------ 大结算


@dataclass
class PlayerNight:
    """One player's (or AI seat's) room."""

    key: str
    name: str
    points: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    kongs: int = 0
    best: tuple[str, ...] = ()
    best_value: int | None = None
    biggest: int = 0  # the largest single-hand delta (0: never gained)
    hands: list[int] = field(default_factory=list)


def night_totals(rows: Sequence[SeatStats], names: Mapping[str, str]) -> list[PlayerNight]:
    """Per player (``u<id>``) or AI seat (``ai<seat>``): the room's totals from its hands' seat rows, best
    first. ``names``: key -> display name."""
    out: dict[str, PlayerNight] = {}
    for r in rows:
        key = f"u{r.user_id}" if r.user_id is not None else f"ai{r.seat}"
        p = out.setdefault(key, PlayerNight(key, names.get(key, key)))
        p.points += r.delta
        p.wins += r.win
        p.self_draws += r.self_draw
        p.deal_ins += r.deal_ins
        p.kongs += r.kongs
        p.biggest = max(p.biggest, r.delta)
        p.hands.append(r.hand_id)
        if r.best_value is not None and (p.best_value is None or r.best_value > p.best_value):
            p.best, p.best_value = r.best, r.best_value
    return sorted(out.values(), key=lambda p: (-p.points, -p.wins, p.key))


def room_final(
    rs: engine.Variant,
    table_id: int,
    rows: Sequence[SeatStats],
    name_of: Callable[[int], str],
    stopped: bool,
    lang: str,
) -> str:
    """The 大结算 of a room from its hands' seat rows: the players by name (``name_of``: their names loaded),
    the AI seats by their seat, as the hands named them (``ai_name``)."""
    names = {
        f"u{r.user_id}" if r.user_id is not None else f"ai{r.seat}": (
            name_of(r.user_id) if r.user_id is not None else ai_name(r.seat, lang)
        )
        for r in rows
    }
    hands = len({r.hand_id for r in rows})
    return final_text(rs, table_id, hands, night_totals(rows, names), stopped, lang)


def final_text(
    rs: engine.Variant, table_id: int, hands: int, players: Sequence[PlayerNight], stopped: bool, lang: str
) -> str:
    """The 大结算: the title, the big winner(s), then each player's total and figures."""
    variant = rs.name_zh if lang == "zh" else rs.name_en
    title = t("final.title", lang, variant=variant, tid=table_id, n=hands)
    if stopped:
        title += t("final.stopped", lang)
    lines = [title]
    if not players or hands == 0:
        lines.append(t("final.none", lang))
        return "\n".join(lines)
    top = players[0].points
    winners = [p.name for p in players if p.points == top]
    lines.append(t("final.winner", lang, names=listed(winners, lang, names=True), points=top))
    rank = 0
    for i, p in enumerate(players):
        if i == 0 or p.points != players[i - 1].points:
            rank = i + 1
        lines.append(t("final.line", lang, rank=rank, name=p.name, points=p.points))
        lines.append(
            t("final.detail", lang, wins=p.wins, self_draws=p.self_draws, deal_ins=p.deal_ins, kongs=p.kongs)
        )
        if p.best_value is not None:
            hand = render.hand_names(rs, p.best, lang) if p.best else "—"
            lines.append(t("final.best", lang, hand=hand, value=p.best_value))
        if p.biggest > 0:
            lines.append(t("final.biggest", lang, value=p.biggest))
    return "\n".join(lines)
