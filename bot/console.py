"""The console game: you at seat 0 against three AI seats, Changsha rules (or ``--variant``'s), hand after
hand.

``python -m bot.console [--variant ID] [--seed N] [--lang zh|en] [--hands N] [--auto]``. Type the number of
a choice, or a tile such as ``5m`` to discard it; ``q`` quits. ``--auto`` lets the AI play seat 0 too.
Everything shown comes from seat 0's Observation (render.py); the AI seats see only their own.
"""

from __future__ import annotations

import argparse
import random
import sys
import unicodedata
from collections.abc import Sequence
from typing import TextIO

from bot.ai import choose
from bot.text import render
from bot.text.texts import LANGS, default_names
from bot.text.texts import t as tr
from bot.text.views import variant_name
from engine import Act, Action, Observation, Phase, State, apply, get_variant, new_hand, observe, to_act
from engine.tiles import parse_tile, tile_str
from engine.variants import DEFAULT_VARIANT, VARIANTS

HUMAN = 0
QUIT_WORDS = {"q", "quit", "exit", "退出"}


class Quit(Exception):
    """The player typed q, or stdin ended."""

    def __init__(self, eof: bool = False) -> None:
        super().__init__("eof" if eof else "quit")
        self.eof = eof


class ConsoleGame:
    def __init__(
        self,
        stdin: TextIO,
        stdout: TextIO,
        seed: int,
        lang: str = "zh",
        hands: int | None = None,
        auto: bool = False,
        variant: str = DEFAULT_VARIANT,
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.seed = seed
        self.lang = lang
        self.hands = hands
        self.auto = auto
        self.variant = get_variant(variant)
        self.names = default_names(lang, 4)
        self.names[HUMAN] = tr("console.me", lang)  # "You pays" is not English: "Player (you) pays"
        self.totals = [0, 0, 0, 0]
        self.played = 0

    # ------------------------------------------------------------ i/o

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, question: str) -> str:
        self.stdout.write(question)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise Quit(eof=True)
        text = line.strip()
        if not _isatty(self.stdin):
            self.say(text)  # piped input: echo it so the transcript reads like a session
        if text.lower() in QUIT_WORDS:
            raise Quit()
        return text

    # ------------------------------------------------------------ the game

    def run(self) -> int:
        lang = self.lang
        self.say(tr("console.welcome", lang, room=variant_name(self.variant, lang)))
        dealer: int | None = None
        try:
            while self.hands is None or self.played < self.hands:
                state = new_hand(self.variant, self.seed + self.played, dealer=dealer)
                self.say()
                self.say(tr("console.hand_no", lang, n=self.played + 1, dealer=self.names[state.dealer]))
                state = self.play_hand(state)
                assert state.result is not None
                self.played += 1
                for i, d in enumerate(state.result.deltas):
                    self.totals[i] += d
                end = observe(state, HUMAN)
                self.say(render.result_view(end, lang, self.names))
                self.say(tr("totals", lang, deltas=self._totals()))
                dealer = state.result.next_dealer
                if self.hands is not None and self.played >= self.hands:
                    break
                if not (self.auto and self.hands is not None):
                    self.ask(tr("console.next", lang))
        except Quit as q:
            self.say(tr("console.eof" if q.eof else "console.bye", lang))
            self.say(tr("console.played", lang, n=self.played))
            self.say(tr("totals", lang, deltas=self._totals()))
            return 0
        self.say(tr("console.played", lang, n=self.played))  # the totals were the hand's last line
        return 0

    def _totals(self) -> str:
        return render.points_text(self.totals, self.names, self.lang)

    def play_hand(self, state: State) -> State:
        rngs = [random.Random(f"{self.seed}/{self.played}/{seat}") for seat in range(4)]
        if not self.auto:
            self.say(render.hand_view(observe(state, HUMAN), self.lang, self.names))
        while state.phase != Phase.ENDED:
            seats = to_act(state)
            # AI seats answer first: a claim window often resolves without asking the human at all.
            ai_seats = [s for s in seats if s != HUMAN or self.auto]
            seat = ai_seats[0] if ai_seats else HUMAN
            obs = observe(state, seat)
            if seat == HUMAN and not self.auto:
                action = self.ask_human(state)
            else:
                action = choose(obs, rngs[seat])
            state, events = apply(state, action)
            for ev in events:
                line = render.event_line(ev, HUMAN, self.lang, self.names, self.variant.id)
                if line:
                    self.say("  " + line)
        return state

    def ask_human(self, state: State) -> Action:
        lang = self.lang
        obs = observe(state, HUMAN)
        options = render.choices(obs, lang)
        if len(options) == 1:
            self.say(tr("console.only", lang, label=options[0][1]))
            return options[0][0]
        self.say()
        self.say(render.table_view(obs, lang, self.names))
        self.say(render.hand_view(obs, lang, self.names))
        self.say(render.prompt(obs, lang, self.names))
        self.say(tr("console.choices", lang))
        self.say(_columns([f"{i}. {label}" for i, (_, label) in enumerate(options, 1)]))
        n = len(options)
        example = tile_str(obs.hand[0]) if obs.hand else "5m"
        while True:
            text = self.ask(tr("console.ask", lang, n=n))
            if not text:
                self.say(tr("console.empty", lang, n=n, example=example))
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= n:
                    return options[k - 1][0]
                self.say(tr("console.bad", lang, text=text, n=n, example=example))
                continue
            action = render.parse_choice(obs, text)
            if action is not None:
                return action
            self.say(self._why_not(obs, text, n, example))

    def _why_not(self, obs: Observation, text: str, n: int, example: str) -> str:
        """A clear message for typed text that is not a legal choice."""
        lang = self.lang
        try:
            t = parse_tile(text)
        except ValueError:
            return tr("console.bad", lang, text=text, n=n, example=example)
        if not any(a.act == Act.DISCARD for a in obs.legal):
            why = tr("console.no_discard", lang)
        elif t not in obs.hand:
            why = tr("console.not_held", lang, tile=tile_str(t))
        else:
            why = tr("console.locked_only", lang)
        return tr("console.not_legal_tile", lang, tile=tile_str(t), why=why)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _width(text: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _columns(items: Sequence[str], per_line: int = 4) -> str:
    """Numbered choices, a few to a line, in aligned columns."""
    width = max((_width(x) for x in items), default=0) + 3
    lines = []
    for i in range(0, len(items), per_line):
        row = items[i : i + per_line]
        lines.append("  " + "".join(x + " " * (width - _width(x)) for x in row[:-1]) + row[-1])
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot.console", description="Mahjong in the terminal")
    rules = f"the rules (default {DEFAULT_VARIANT})"
    p.add_argument("--variant", choices=list(VARIANTS), default=DEFAULT_VARIANT, help=rules)
    p.add_argument("--seed", type=int, default=None, help="seed of the first hand (default: random)")
    p.add_argument("--lang", choices=LANGS, default="zh", help="zh (default) or en")
    p.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    p.add_argument("--auto", action="store_true", help="the AI plays seat 0 too (demo)")
    return p


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    parser = _parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else sys.argv[1:])
    except SystemExit as e:  # --help or a bad option: argparse has printed why
        return int(e.code or 0) if isinstance(e.code, int) else 2
    if args.hands is not None and args.hands < 1:
        stdout.write("--hands must be at least 1\n")
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    game = ConsoleGame(stdin, stdout, seed, args.lang, args.hands, args.auto, args.variant)
    try:
        return game.run()
    except KeyboardInterrupt:
        stdout.write("\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
