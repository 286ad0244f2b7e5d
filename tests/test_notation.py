"""Tile, meld and action notation (docs/rules/common.md §1), and the action log: every action the engine makes
prints and parses back, and a finished hand replays from its text log."""

from __future__ import annotations

import random

import pytest

from engine import (
    Act,
    Action,
    InvalidNotation,
    KongMode,
    Meld,
    MeldKind,
    Phase,
    apply,
    format_hand,
    format_tiles,
    get_variant,
    legal_actions,
    new_hand,
    parse_hand,
    parse_tile,
    parse_tiles,
    replay,
    tile_str,
    tile_zh,
    to_act,
)
from engine.tiles import to_counts

from . import dealing
from .dealing import kai_dice, param_id, pass_openings


def test_suits_and_honors_are_numbered_as_in_riichi_notation() -> None:
    """docs/rules/common.md §1.1: `123m` 万 (characters), `456s` 条/索 (bamboo), `789p` 筒/饼 (dots), honors
    `1z..7z` = 东南西北白发中."""
    assert [tile_zh(t) for t in parse_tiles("1m")] == ["一万"]
    assert [tile_zh(t) for t in parse_tiles("5s")] == ["五条"]
    assert [tile_zh(t) for t in parse_tiles("9p")] == ["九筒"]
    assert [tile_zh(t) for t in parse_tiles("1234567z")] == ["东", "南", "西", "北", "白", "发", "中"]


def test_tiles_round_trip() -> None:
    """docs/rules/common.md §1.1: `123m456s789p1z`."""
    tiles = parse_tiles("123m456s789p1z")
    assert len(tiles) == 10
    assert format_tiles(tiles) == "123m456s789p1z"
    assert [tile_str(t) for t in tiles] == ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "1z"]


def test_tiles_format_sorted_and_grouped() -> None:
    """Formatting is canonical: suits in the order m s p z, ranks sorted."""
    assert format_tiles(parse_tiles("9p1z5m1m 3s")) == "15m3s9p1z"
    assert parse_tile("7z") == parse_tiles("7z")[0]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[555p]", MeldKind.PUNG),
        ("[7777m]", MeldKind.KONG_EXPOSED),
        ("[(2222s)]", MeldKind.KONG_CONCEALED),
        ("[345s]", MeldKind.CHOW),
    ],
)
def test_meld_notation_round_trip(text: str, kind: MeldKind) -> None:
    """docs/rules/common.md §1.1: melds in brackets: `[555p]`, `[7777m]`, a concealed kong `[(2222s)]`."""
    counts, melds = parse_hand(text)
    assert sum(counts) == 0
    assert [m.kind for m in melds] == [kind]
    assert str(melds[0]) == text
    assert format_hand(counts, melds) == text


def test_hand_with_melds_round_trip() -> None:
    """docs/rules/common.md §1.1: concealed tiles, then melds in brackets, e.g.
    `123m456s[555p][7777m][(2222s)]`."""
    text = "123m456s[555p][7777m][(2222s)]"
    counts, melds = parse_hand(text)
    assert counts == to_counts(parse_tiles("123m456s"))
    assert melds == (
        Meld(MeldKind.PUNG, parse_tile("5p")),
        Meld(MeldKind.KONG_EXPOSED, parse_tile("7m")),
        Meld(MeldKind.KONG_CONCEALED, parse_tile("2s")),
    )
    assert format_hand(counts, melds) == text
    assert parse_hand("123m456s789p1z") == (to_counts(parse_tiles("123m456s789p1z")), ())


@pytest.mark.parametrize(
    "bad",
    [
        "12x",  # unknown letter
        "123q",  # unknown suit letter
        "0m",  # rank 0
        "8z",  # honors go 1z..7z only
        "55555m",  # five copies
        "5m[5555m]",  # five copies across a meld
        "m",  # a suit letter without ranks
        "123",  # ranks without a suit
    ],
)
def test_invalid_tiles_raise_invalid_notation(bad: str) -> None:
    """errors.py: InvalidNotation — text that is not valid tile / meld notation (e.g. `12x`, five of a
    tile)."""
    with pytest.raises(InvalidNotation):
        parse_hand(bad)


@pytest.mark.parametrize("bad", ["0m", "8z", "12x", "m", "123"])
def test_invalid_plain_tiles_raise_invalid_notation(bad: str) -> None:
    """parse_tiles rejects an unknown letter and ranks out of range just as parse_hand does."""
    with pytest.raises(InvalidNotation):
        parse_tiles(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "[124m]",  # not a meld
        "[12m]",  # too short
        "[123z]",  # honors make no chow
        "[(555m)]",  # only a kong can be concealed
        "[(123m)]",  # a chow cannot be concealed
        "[55m]",  # a pair is no meld
    ],
)
def test_malformed_meld_raises_invalid_notation(bad: str) -> None:
    """errors.py: InvalidNotation for a malformed meld such as `[124m]`."""
    with pytest.raises(InvalidNotation):
        parse_hand(bad)


@pytest.mark.parametrize("bad", ["[123m", "123m]", "[[555p]]", "[(2222s]", "12m]3m["])
def test_unbalanced_brackets_raise_invalid_notation(bad: str) -> None:
    """An unbalanced bracket is not notation."""
    with pytest.raises(InvalidNotation):
        parse_hand(bad)


@pytest.mark.parametrize(
    "action",
    [
        Action(2, Act.DISCARD, parse_tile("5m")),
        Action(0, Act.WIN),
        Action(3, Act.PASS),
        Action(1, Act.PUNG),
        Action(1, Act.CHOW, parse_tile("3s")),
        Action(1, Act.KONG, parse_tile("9p"), "bu"),
        Action(1, Act.KONG, parse_tile("9p"), "kai"),
        Action(0, Act.OPENING, detail="sixi+liuliushun"),
        Action(3, Act.TAKE),
    ],
    ids=param_id,
)
def test_action_text_round_trip(action: Action) -> None:
    """actions.py: a short text form for logs and storage (`2 discard 5m`); parse is the inverse of str."""
    assert Action.parse(str(action)) == action


def test_action_text_form() -> None:
    """actions.py: `2 discard 5m`."""
    assert str(Action(2, Act.DISCARD, parse_tile("5m"))) == "2 discard 5m"
    assert str(Action(1, Act.KONG, parse_tile("9p"), "kai")) == "1 kong 9p kai"


@pytest.mark.parametrize("bad", ["", "win", "x win", "1 fly", "1 discard", "1 discard 0m", "1 pass a b"])
def test_bad_action_text_raises_invalid_notation(bad: str) -> None:
    """Action.parse raises InvalidNotation."""
    with pytest.raises(InvalidNotation):
        Action.parse(bad)


# ---------------------------------------------------------------- every action the engine makes


def test_a_win_on_a_turned_up_kong_tile_round_trips() -> None:
    """docs/rules/common.md §1.2: ``Action.parse(str(a)) == a`` for a win on a turned-up 开杠 tile — ``2 win
    2s`` once read ``2s`` as a detail word. A win names its tile when two tiles were turned up; the text form
    keeps it."""
    win = Action(2, Act.WIN, parse_tile("2s"))
    assert str(win) == "2 win 2s"
    assert Action.parse("2 win 2s") == win
    assert Action.parse("2 win") == Action(2, Act.WIN)


@pytest.mark.parametrize(
    "bad", ["2 win 2s kai", "1 pung 5m", "1 take x", "0 choose 1 2", "²1 win", "1 win ²m"]
)
def test_words_an_action_does_not_take_raise_invalid_notation(bad: str) -> None:
    """Action.parse is strict: a word the action does not carry is an error, never a silent detail; digits
    are ASCII only."""
    with pytest.raises(InvalidNotation):
        Action.parse(bad)


def _rebuilt(a: Action) -> Action:
    """The action made again from its typed accessors (the detail word only through them)."""
    if a.act == Act.KONG:
        assert a.tile is not None
        return Action.kong(a.seat, a.tile, a.kong_mode)
    if a.act == Act.OPENING:
        return Action.opening(a.seat, a.opening_hands)
    if a.act == Act.CHOOSE:
        return Action.choose(a.seat, a.choice)
    return Action(a.seat, a.act, a.tile)


def test_the_detail_word_through_typed_accessors() -> None:
    """A kong's mode, the opening hands an OPENING declares ("+"-joined in the text), a pre-hand choice and
    the tiles a 换三张 pick names: read from the parsed text, written back by the constructors to the same
    text; an accessor of another action's word is an error, never a silent empty value."""
    kai = Action.parse("1 kong 5m kai")
    assert kai.kong_mode == KongMode.KAI and Action.parse("1 kong 5m").kong_mode == KongMode.PLAIN
    assert str(Action.kong(1, parse_tile("5m"), KongMode.KAI)) == "1 kong 5m kai"
    opening = Action.parse("0 opening sixi+queyimen")
    assert opening.opening_hands == ("sixi", "queyimen")
    assert str(Action.opening(0, ("sixi", "queyimen"))) == "0 opening sixi+queyimen"
    assert Action.parse("2 choose m").choice == "m"
    assert Action.parse("3 choose 557m").picked_tiles == [parse_tile(t) for t in ("5m", "5m", "7m")]
    assert str(Action.choose(3, "557m")) == "3 choose 557m"
    for wrong in ("kong_mode", "opening_hands", "choice", "picked_tiles"):
        with pytest.raises(ValueError):
            getattr(Action.parse("2 discard 5m"), wrong)


PLAYOUTS = {
    "changsha": [{}, {"birds": 0}],
    "hengyang": [{}, {"birds": 1}],
    "xiangyin": [{}, {"piao": True, "qingyise_chow": True, "no_late_bu": True}],
    "shaoyang": [{}, {"jiachui": False}],
    "sichuan": [
        {},
        {"zhigang": "jiajiayou", "zimo": "jiafan", "last_four": True},
        {"mode": "xueliu", "swap": True, "dianganghua": "dianpao", "tiandihu": True},
    ],
}
HANDS = 24  # per variant


def _eager(acts: tuple[Action, ...], rng: random.Random) -> Action:
    """Random, but takes wins, kongs (开杠 too) and opening hands: the rare notations come up."""
    for kind in (Act.WIN, Act.KONG, Act.OPENING, Act.TAKE):
        chosen = [a for a in acts if a.act == kind]
        if chosen and rng.random() < 0.9:
            return rng.choice(chosen)
    return rng.choice(acts)


@pytest.mark.parametrize("variant", sorted(PLAYOUTS))
def test_every_action_of_seeded_playouts_round_trips_and_every_hand_replays(variant: str) -> None:
    """docs/rules/common.md §1.2, §2.5: the notation round-trips for every action the engine can produce
    (every legal action of every step of seeded playouts, taken or not), and replaying a finished hand's log,
    parsed back from text, gives the very same final state (the action log is the source of truth)."""
    rs = get_variant(variant)
    kinds: set[tuple[Act, bool, bool]] = set()
    for seed in range(HANDS):
        opts = PLAYOUTS[variant][seed % len(PLAYOUTS[variant])]
        seats = rs.seat_counts[seed % len(rs.seat_counts)]
        rng = random.Random(f"notation/{variant}/{seed}")
        state = new_hand(rs, seed, opts, seats=seats)
        log: list[str] = []
        while state.phase != Phase.ENDED:
            seat = rng.choice(to_act(state))
            acts = legal_actions(state, seat)
            for a in acts:
                assert Action.parse(str(a)) == a, str(a)
                kinds.add((a.act, a.tile is not None, bool(a.detail)))
                assert _rebuilt(a) == a, str(a)
            action = _eager(acts, rng) if seed % 2 else rng.choice(acts)
            log.append(str(action))
            state, _ = apply(state, action)
        again = replay(rs, seed, [Action.parse(text) for text in log], opts, seats=seats)
        assert again == state
    assert (Act.DISCARD, True, False) in kinds and (Act.PASS, False, False) in kinds


def test_a_win_on_a_kong_tile_replays_from_its_text_log() -> None:
    """The rare notation in a whole log: Hengyang seat 1 makes 开杠, the turned-up 1p wins (``1 win 1p``);
    the log printed and parsed back replays to the same final state."""
    hy = get_variant("hengyang")
    n = kai_dice(hy)
    start = dealing.kong_deal(
        lambda hands, **kw: pass_openings(dealing.deal(hy, hands, birds=0, base=10, **kw)),
        ("679m25689s12489p", "2367m12468s1248p", "23679m279s14689p"),
        "555m234s678p23p88s",
        "2367m12468s1248p",
        stacks={n: "1p9m"},
    )
    log = [Action(1, Act.KONG, parse_tile("5m"), "kai"), Action(1, Act.WIN, parse_tile("1p"))]
    state = start
    for a in log:
        state, _ = apply(state, a)
    assert state.phase == Phase.ENDED and state.winners == (1,)
    again = start
    for text in [str(a) for a in log]:
        again, _ = apply(again, Action.parse(text))
    assert [str(a) for a in log] == ["1 kong 5m kai", "1 win 1p"]
    assert again == state
