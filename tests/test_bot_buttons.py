"""The button kinds and their callback data (bot/messages/presses.py): every button the bot makes decodes
to the press it was made for, and nothing else decodes at all - no sign, no leading zero, no digit that is
not ASCII (``int("²")`` raises, ``int("٣")`` is 3), no number longer than its cap, no unknown op."""

from __future__ import annotations

import random
import re

import pytest

import engine
from bot.messages import keyboards as kb
from bot.messages import presses
from bot.messages.presses import BackPress, GamePress, HandPress, LobbyPress, PickPress, ScorePress, decode


def test_every_button_the_bot_makes_decodes_to_its_press() -> None:
    made: list[presses.Press] = [
        GamePress(1, 1, 0, 0),
        GamePress(10**14, 10**14, 999_999, 999),
        LobbyPress(7, "o", 12),
        LobbyPress(7, "m", 1),
        LobbyPress(7, "v", 3, 999),
        PickPress(1, 2, 3, 13),
        BackPress(3),
        HandPress(3),
        ScorePress("week"),
        ScorePress("all", "sichuan"),
        presses.AutoPress(4),
        presses.VotePress(4, 10**14, 1),
        presses.ReplayPress("abc123", 9999),
        presses.RulesPress("hongzhong"),
        presses.RulesPress("common"),
        presses.VotePress(4, 0, 1),  # 申请解散
        presses.VerifyPress("abc123"),
        *(LobbyPress(5, op) for op, n in presses.LOBBY_OPS.items() if n == 0),
    ]
    assert {type(p) for p in made} == set(presses.KINDS) - {presses.ReopenPress, presses.HistoryPress}
    for press in made:
        data = press.data()
        assert len(data.encode()) <= presses.MAX_DATA and decode(data) == press
        assert re.match(type(press).pattern(), data)  # the kind's route takes it ...
        others = [k for k in presses.KINDS if k is not type(press)]
        assert not any(re.match(k.pattern(), data) for k in others)  # ... and no other route does
    rs = engine.get_variant("xiangyin")
    rows = [
        *kb.lobby_keyboard(12, "en", True),
        *kb.settings_keyboard(12, "zh", [("a", True), ("b", False)], [("x", "1"), ("y", "2")]),
        *kb.settings_keyboard(12, "en", [], [("x", "1")], 0, [("1", True), ("2", False)]),
        *kb.lobby_keyboard(12, "en", True, "abc123"),
        *kb.table_keyboard(12, "zh", auto=True),
        *kb.back_keyboard(12, "en"),
        *kb.vote_keyboard(12, 3, "zh"),
        *kb.rules_keyboard("changsha", "en"),
        *(kb.result_keyboard(12, "en", goes_on=True, host=True, was_auto=True, code="abc123") or ()),
        *kb.score_keyboard("en"),
    ]
    for row in rows:
        for button in row:
            assert decode(button.data) is not None, button
    state = engine.new_hand(rs, 3)
    for seat in engine.to_act(state):
        obs = engine.observe(state, seat)
        for row in kb.game_keyboard(obs, obs.legal, 12, 34, 56, "zh"):
            for button in row:
                press = decode(button.data)
                assert isinstance(press, GamePress) and (press.table, press.hand, press.decision) == (
                    12,
                    34,
                    56,
                )
    swap = engine.new_hand(engine.get_variant("sichuan"), 3, {"swap": True})  # picking tiles: 换三张
    obs = engine.observe(swap, 0)
    pressed = [decode(b.data) for row in kb.game_keyboard(obs, obs.legal, 12, 34, 56, "zh", {0}) for b in row]
    assert all(
        isinstance(p, GamePress | PickPress) and (p.table, p.hand, p.decision) == (12, 34, 56)
        for p in pressed
    )
    assert any(isinstance(p, PickPress) for p in pressed) and any(isinstance(p, GamePress) for p in pressed)


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "g",
        "g|1|2|3",  # the old format: no hand
        "g|1|2|3|4|5",
        "g|1|2|3|²",
        "g|1|2|3|٣",  # Arabic-Indic three
        "g|１|2|3|4",  # fullwidth one
        "g|1|2|3|-1",
        "g|1|2|3|+1",
        "g|1|2|3| 1",
        "g|01|2|3|4",
        "g|1|2|3|1000",  # index over its cap
        "g|1|2|1000000|0",  # decision over its cap
        "g|" + "9" * 16 + "|2|3|4",
        "g|" + "1" * 5000 + "|2|3|4",
        "L|1|zz",
        "L|1|j|0",
        "L|1|o",
        "L|1|o|x",
        "L|1|v|1",
        "L|1|v|1|2|3",
        "L|1|c",  # the old cycling ops are gone
        "V|1|2|2",
        "V|1|2",
        "V|1|0|0",  # no vote to refuse: 0 only asks
        "P|mahjong",
        "C|",
        "C|ABC",
        "A|1|2",
        "L|1|go|",
        "L||go",
        "h|",
        "h|1|2",
        "b|1.0",
        "S|year",
        "S|all|x",
        "x|1",
        "|",
        "\x00",
        "g|1|2|3|4\n",
    ],
    ids=lambda data: repr(data)[:24],
)
def test_anything_else_decodes_to_nothing(data: str | None) -> None:
    assert decode(data) is None


def test_random_data_never_raises() -> None:
    rng = random.Random(10)
    alphabet = "gLhbS|0123456789²³٠١٢٣９-+ \x00é€🀄"
    for _ in range(20_000):
        n = rng.randrange(0, 80)
        if rng.random() < 0.5:
            text = "".join(rng.choice(alphabet) for _ in range(n))
        else:
            text = rng.randbytes(n).decode("utf-8", "replace")
        press = decode(text)
        assert press is None or decode(press.data()) == press
