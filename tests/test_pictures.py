"""bot.pictures: what each picture draws where (its Layout), per variant, from fixed arranged states; that a
group picture never shows a hidden tile; that the 34 faces differ; that rendering is deterministic.

The Layout is the renderer's own input (paint.py draws exactly its items), so asserting on it checks the
picture's structure without comparing pixels: "seat 2's third discard is at (330, 257, 36, 49), face 5p,
highlighted as the latest discard, a pin over it".

Names are written with the machine's CJK font (bot/pictures/fonts.py, installed by ``make``): these tests
need it, and fail without it like any missing component; one test takes it away on purpose (the fallback).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from bot import pictures
from bot.pictures import (
    Display,
    Kind,
    Layout,
    Mark,
    Mode,
    fonts,
    layout,
    legend,
    render,
)
from bot.pictures.paint import encode, paint
from bot.pictures.samples import play, steps
from bot.pictures.scenes import win_tile
from bot.pictures.tiles import back_sprite, tile_sprite
from engine import Act, EventKind, Observation, Phase, State, observe, observe_public, parse_tile, tile_str
from engine.variants import VARIANTS

from .changsha_helpers import JUNK
from .changsha_helpers import deal as changsha_deal
from .dealing import act, discard, discard_drawn, play_to_end
from .hengyang_helpers import deal as hengyang_deal
from .playout import swap_hidden
from .shaoyang_helpers import JUNK as SY_JUNK
from .shaoyang_helpers import deal as shaoyang_deal
from .sichuan_helpers import J0, J1, J2
from .sichuan_helpers import deal as sichuan_deal
from .xiangyin_helpers import deal as xiangyin_deal
from .zhuanzhuan_helpers import HZ
from .zhuanzhuan_helpers import JUNK as ZZ_JUNK
from .zhuanzhuan_helpers import deal as zz_deal

T = parse_tile

# ------------------------------------------------------------------ fixed states

SEAT3 = "1345m13579s3557p"  # a pair of 5p: pungs the dealer's 5p
DRAWS = "3s4s6s8s3p6p7p9m4m5m5p2p"


def pung_then_three_rounds(deal: Callable[..., State], **kw: Any) -> State:
    """Seat 0 deals and throws 5p; seat 3 pungs it and throws 1m; then everyone throws what he draws until
    seat 2 has thrown three tiles (6s 7p 5p): seat 3 has just drawn 2p and is to play.

    Rivers: seat 0 3s 3p 4m · seat 1 4s 6p 5m · seat 2 6s 7p 5p · seat 3 1m 8s 9m."""
    state = deal([JUNK[0] + "5p", JUNK[1], JUNK[2], SEAT3], draws=DRAWS, **kw)
    state = discard(state, 0, "5p", keep={3})
    state = act(state, 3, Act.PUNG)
    state = discard(state, 3, "1m")
    while len(state.seats[2].discards) < 3:
        state = discard_drawn(state)
    assert state.current == 3 and state.drawn == T("2p")
    return state


NO_HONOURS = {"changsha": changsha_deal, "hengyang": hengyang_deal, "xiangyin": xiangyin_deal}

DUIDUI = "333m666m222s888s4s"  # 对对胡 waiting on 4s


def sichuan_win() -> tuple[State, Display]:
    """Sichuan, 定缺 made (seat 0 p, seat 1 p, seat 2 m, seat 3 s): seat 1 wins on the dealer's 4s and leaves
    play (血战); seats 2 and 3 then throw what they draw. The observation names the tile he won on."""
    state = sichuan_deal([J0 + "4s", DUIDUI, J1, J2], draws="7m1m")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    state = discard_drawn(discard_drawn(state))
    return state, Display()


def shaoyang_pung() -> State:
    """Shaoyang (honours, 加锤 chosen "0"): seat 3 pungs the dealer's 发 (6z) and throws 1z."""
    state = shaoyang_deal([SY_JUNK[0] + "6z", SY_JUNK[1], SY_JUNK[2], "258m147s369p1667z"], draws="9m")
    state = discard(state, 0, "6z", keep={3})
    state = act(state, 3, Act.PUNG)
    return discard(state, 3, "1z")


def tiles_of(lay: Layout, role: str, seat: int | None = None) -> list[str]:
    return [tile_str(it.tile) for it in lay.find(Kind.TILE, role, seat)]


def one(items: list[Any]) -> Any:
    assert len(items) == 1, items
    return items[0]


# ------------------------------------------------------------------ the table (group)


@pytest.mark.parametrize("variant", sorted(NO_HONOURS))
def test_table_rivers_in_play_order_and_the_latest_discard_highlighted(variant: str) -> None:
    """Each seat's discards lie in its river in play order, in rows of six; the latest discard (seat 2's
    5p) is the one highlighted tile; a claimed tile (the dealer's 5p, punged) has left the river."""
    state = pung_then_three_rounds(NO_HONOURS[variant])
    lay = layout(observe_public(state), Mode.TABLE)
    assert (lay.width, lay.height) == (800, 792)  # for a phone: Telegram shows it about 400 px wide
    third = lay.find(Kind.TILE, "discard", seat=2)[2]
    assert third.box == (330, 257, 36, 49) and tile_str(third.tile) == "5p" and third.index == 2
    assert one(lay.find(mark=Mark.LAST)) == third
    # and a pin points down at it, centred just above it (readable on a phone beside the ring)
    pin = one(lay.find(Kind.ICON, "last"))
    px, py, pw, ph = pin.box
    assert pin.seat == 2 and px + pw / 2 == 330 + 36 / 2 and py + ph <= 257 and py + ph >= 257 - 6
    assert tiles_of(lay, "discard", 0) == ["3s", "3p", "4m"]
    assert tiles_of(lay, "discard", 1) == ["4s", "6p", "5m"]
    assert tiles_of(lay, "discard", 2) == ["6s", "7p", "5p"]
    assert tiles_of(lay, "discard", 3) == ["1m", "8s", "9m"]
    # a row reads left to right
    boxes = [it.box for it in lay.find(Kind.TILE, "discard", seat=2)]
    assert [b[0] for b in boxes] == [254, 292, 330] and len({b[1] for b in boxes}) == 1


@pytest.mark.parametrize("variant", sorted(NO_HONOURS))
def test_table_seats_sit_around_the_centre_in_play_order(variant: str) -> None:
    """The group sees seat 0 at the bottom and play going counter-clockwise: seat 1 (下家) on the right,
    seat 2 opposite, seat 3 on the left. Each seat's marker shows its wind from the dealer (东); the seat to
    play has a gold name plate and its wind lit on the centre; the centre shows the wall."""
    state = pung_then_three_rounds(NO_HONOURS[variant])
    lay = layout(observe_public(state), Mode.TABLE)
    assert [pictures.position_of(observe_public(state), s) for s in range(4)] == [
        "bottom",
        "right",
        "top",
        "left",
    ]
    seats = {it.seat: it for it in lay.find(Kind.SEAT, "seat")}
    assert {s: it.text for s, it in seats.items()} == {0: "东", 1: "南", 2: "西", 3: "北"}
    assert seats[0].box[1] > 700 and seats[2].box[1] < 100  # bottom, top
    assert seats[3].box[0] < 150 and seats[1].box[0] > 650  # left, right
    assert [s for s, it in seats.items() if Mark.TURN in it.marks] == [3]
    assert [it.seat for it in lay.find(Kind.WIND, mark=Mark.TURN)] == [3]
    # whose turn it is: the one lit name plate, holding his disc
    plate = one(lay.find(Kind.PANEL, "plate", mark=Mark.TURN))
    assert plate.seat == 3 and len(lay.find(Kind.PANEL, "plate")) == 4
    assert _inside(seats[3].box, plate.box)
    assert one(lay.find(Kind.BADGE, "dealer")).seat == 0
    wall = one(lay.find(Kind.TEXT, "wall"))
    assert wall.text == str(state.wall.remaining) == "43"
    # rivers lie on their owners' sides of the centre
    console = one(lay.find(Kind.PANEL, "console")).box
    cx0, cy0, cw, ch = console
    first = {s: lay.find(Kind.TILE, "discard", seat=s)[0].box for s in range(4)}
    assert first[0][1] >= cy0 + ch and first[2][1] + first[2][3] <= cy0
    assert first[3][0] + first[3][2] <= cx0 and first[1][0] >= cx0 + cw


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


@pytest.mark.parametrize("variant", sorted(NO_HONOURS))
def test_table_shows_melds_face_up_and_hidden_hands_face_down(variant: str) -> None:
    """Seat 3's pung of 5p lies face up, at river size (readable on a phone); every concealed hand is face
    down in the group's picture: backs for the top and bottom seats, one per tile; for the side seats one
    face-down tile and how many they hold."""
    state = pung_then_three_rounds(NO_HONOURS[variant])
    obs = observe_public(state)
    lay = layout(obs, Mode.TABLE)
    assert tiles_of(lay, "meld", 3) == ["5p", "5p", "5p"]
    assert {it.box[2] for it in lay.find(Kind.TILE, "meld", 3)} == {36}
    assert lay.find(Kind.TILE, "hand") == [] and lay.find(Kind.TILE, "drawn") == []
    for seat in (0, 2):
        assert len(lay.find(Kind.BACK, "hand", seat)) == obs.seats[seat].hand_size
    for seat in (1, 3):
        assert one(lay.find(Kind.TEXT, "count", seat)).text == str(obs.seats[seat].hand_size)
        assert one(lay.find(Kind.ICON, "hidden", seat))
    assert obs.seats[3].hand_size == 11


def test_a_seats_own_table_puts_him_at_the_bottom_with_his_hand_face_up() -> None:
    """In seat 2's own table, seat 2 sits at the bottom, seat 3 on his right, seat 0 opposite; his hand is
    face up, the others' face down."""
    state = pung_then_three_rounds(changsha_deal)
    obs = observe(state, 2)
    lay = layout(obs, Mode.TABLE)
    assert [pictures.position_of(obs, s) for s in range(4)] == ["top", "left", "bottom", "right"]
    assert tiles_of(lay, "hand", 2) == [tile_str(t) for t in sorted(obs.hand)]
    assert lay.find(Kind.TILE, "hand", 0) == [] and len(lay.find(Kind.BACK, "hand", 0)) == 13
    bottom = one(lay.find(Kind.SEAT, "seat", 2))
    assert bottom.box[1] > 700


def test_a_concealed_kong_is_face_down_to_the_others() -> None:
    """暗杠: the others see four face-down tiles (the engine only counts it for them); its owner sees the
    kong's tile on top."""
    hands = ["5555m25689s1248p7m", JUNK[1], JUNK[2], "1346m13579s3557p"]
    state = act(changsha_deal(hands), 0, Act.KONG, "5m", detail="bu")
    public = layout(observe_public(state), Mode.TABLE)
    assert public.find(Kind.TILE, "meld", 0) == []
    assert len(public.find(Kind.BACK, "meld", 0)) == 4
    own = layout(observe(state, 0), Mode.TABLE)
    assert tiles_of(own, "meld", 0) == ["5m"] and len(own.find(Kind.BACK, "meld", 0)) == 3
    top = one(own.find(Kind.TILE, "meld", 0))
    assert all(top.box[1] < b.box[1] for b in own.find(Kind.BACK, "meld", 0))  # the fourth lies on top


def test_three_and_two_seat_tables() -> None:
    """Xiangyin plays with 2, 3 or 4: three sit bottom, right, left; two face each other."""
    three = xiangyin_deal([JUNK[0] + "5p", JUNK[1], JUNK[2]])
    obs = observe_public(three)
    assert [pictures.position_of(obs, s) for s in range(3)] == ["bottom", "right", "left"]
    lay = layout(obs, Mode.TABLE)
    assert {it.text for it in lay.find(Kind.SEAT, "seat")} == {"东", "南", "西"}
    two = xiangyin_deal([JUNK[0] + "5p", JUNK[1]])
    obs2 = observe_public(two)
    assert [pictures.position_of(obs2, s) for s in range(2)] == ["bottom", "top"]
    assert len(layout(obs2, Mode.TABLE).find(Kind.BACK, "hand")) == 27


def test_a_seat_that_won_twice_shows_its_count() -> None:
    """血流成河 (the group shows each seat's wins so far): a winner plays on, hand hidden; his
    marker carries the 胡 ribbon and, from the second win, how many times (x2)."""
    state = sichuan_deal([J0 + "4s", DUIDUI, J1, J2], draws="6p6p6p4s", mode="xueliu")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    state = discard_drawn(discard_drawn(discard_drawn(state)))
    state = act(state, 1, Act.WIN)
    lay = layout(observe_public(state), Mode.TABLE, Display())
    assert [it.seat for it in lay.find(Kind.BADGE, "won")] == [1]
    assert one(lay.find(Kind.BADGE, "wins")).text == "×2"


def test_a_repeat_winner_shows_the_tile_of_his_last_win_at_the_end() -> None:
    """血流成河 (docs/rules/sichuan.md §7b.1): seat 1 wins on seat 0's 4s, then self-draws 1s. The end picture
    sets apart the tile of his last win, the one its tag (自摸 / 接炮) tells of: it set apart the first."""
    state = sichuan_deal([J0 + "4s", "123m456m789m23s55s", J1, J2], draws="6p6p6p1s", mode="xueliu")
    state = act(state, 0, Act.DISCARD, "4s")
    state = act(state, 1, Act.WIN)
    state = discard_drawn(discard_drawn(discard_drawn(state)))
    state = act(state, 1, Act.WIN)
    state = play_to_end(state)
    obs = observe_public(state)
    assert [tile_str(t) for t in obs.seats[1].won_on[:2]] == ["4s", "1s"]
    assert win_tile(obs, 1) == obs.seats[1].won_on[-1]
    lay = layout(obs, Mode.END, Display())
    assert tile_str(one(lay.find(Kind.TILE, "win", 1)).tile) == tile_str(obs.seats[1].won_on[-1])


def test_sichuan_void_suits_and_won_seat() -> None:
    """定缺 (a seat's public choice m/s/p) is a badge with that suit on its marker; a seat that has won (血战)
    is stamped 胡 and its hand lies open, the winning tile apart and ringed."""
    state, display = sichuan_win()
    obs = observe_public(state)
    lay = layout(obs, Mode.TABLE, display)
    voids = {it.seat: it.tile // 9 for it in lay.find(Kind.BADGE, "void")}
    assert voids == {0: 2, 1: 2, 2: 0, 3: 1}  # p p m s
    assert [it.seat for it in lay.find(Kind.BADGE, "won")] == [1]
    assert one(lay.find(Kind.BADGE, "won")).text == "胡"
    assert tiles_of(lay, "hand", 1) == [
        "3m",
        "3m",
        "3m",
        "6m",
        "6m",
        "6m",
        "2s",
        "2s",
        "2s",
        "4s",
        "8s",
        "8s",
        "8s",
    ]
    win = one(lay.find(Kind.TILE, "win", 1))
    assert tile_str(win.tile) == "4s" and {Mark.WIN, Mark.APART} <= win.marks
    en = layout(obs, Mode.TABLE, Display("en"))
    assert one(en.find(Kind.BADGE, "won")).text == "WIN"


def test_shaoyang_honours_and_no_void_badge_for_hammers() -> None:
    """Honour tiles are drawn (the 发 pung); a numeric choice (加锤 "0") is no 定缺: no void badge."""
    state = shaoyang_pung()
    lay = layout(observe_public(state), Mode.TABLE)
    assert tiles_of(lay, "meld", 3) == ["6z", "6z", "6z"]
    assert tiles_of(lay, "discard", 3) == ["1z"]
    assert lay.find(Kind.BADGE, "void") == []
    assert all(ps.choice == "0" for ps in observe_public(state).seats)


def test_no_seat_is_lit_during_a_claim_window() -> None:
    """While a discard may be claimed nobody is "to play" (who may claim stays hidden): no plate, disc or
    centre wind is lit; the discard on offer is the latest, ringed and pinned."""
    state = changsha_deal([JUNK[0] + "5p", JUNK[1], JUNK[2], SEAT3])
    state = act(state, 0, Act.DISCARD, "5p")
    assert state.phase == Phase.CLAIM
    lay = layout(observe_public(state), Mode.TABLE)
    assert lay.find(mark=Mark.TURN) == []
    last = one(lay.find(mark=Mark.LAST))
    assert (last.seat, tile_str(last.tile)) == (0, "5p") and one(lay.find(Kind.ICON, "last")).seat == 0


def test_red_dragons_are_marked_wild_where_they_are_wild() -> None:
    """红中麻将: a 红中 is wild (万能牌) and cannot be thrown; it is starred wherever it is drawn and not
    dimmed like a tile held back. The variant says which tiles are wild through its own win check
    (bot/ names no variant); no other variant has a wild tile, 红中 or not."""
    state = zz_deal([ZZ_JUNK[0] + "7z", ZZ_JUNK[1], ZZ_JUNK[2], "1358m13579s3557p"], HZ)
    lay = layout(observe(state, 0), Mode.HAND)
    tiles = lay.find(Kind.TILE, "hand", 0) + lay.find(Kind.TILE, "drawn", 0)
    red = [it for it in tiles if it.tile == parse_tile("7z")]
    assert len(red) == 1 and Mark.WILD in red[0].marks and Mark.DIM not in red[0].marks
    assert all(Mark.WILD not in it.marks for it in tiles if it not in red)
    assert Act.DISCARD not in {a.act for a in observe(state, 0).legal if a.tile == parse_tile("7z")}
    assert pictures.wild_tiles("hongzhong") == {parse_tile("7z")}
    for variant in VARIANTS:
        if variant != "hongzhong":
            assert pictures.wild_tiles(variant) == frozenset(), variant
    shaoyang = layout(observe_public(shaoyang_pung()), Mode.TABLE)  # honours, 中 among them: none wild
    assert shaoyang.find(mark=Mark.WILD) == []


# ------------------------------------------------------------------ the hand (DM)


@pytest.mark.parametrize("variant", sorted(NO_HONOURS))
def test_hand_sorted_by_suit_with_the_drawn_tile_apart(variant: str) -> None:
    """Seat 3's DM picture: his marker, his pung first (on its tray), then his tiles sorted 万 条 筒 with a
    gap between suits, then the 2p he just drew, set apart. The latest discard and the wall are in the
    caption, not here: the picture changes only with his own tiles."""
    state = pung_then_three_rounds(NO_HONOURS[variant])
    lay = layout(observe(state, 3), Mode.HAND)
    hand = lay.find(Kind.TILE, "hand", 3)
    assert [tile_str(it.tile) for it in hand] == ["3m", "4m", "5m", "1s", "3s", "5s", "7s", "9s", "3p", "7p"]
    drawn = one(lay.find(Kind.TILE, "drawn", 3))
    assert tile_str(drawn.tile) == "2p" and {Mark.APART, Mark.DRAWN} <= drawn.marks
    last = hand[-1].box
    assert drawn.box[0] - (last[0] + last[2]) >= 16  # apart
    gaps = [b.box[0] - (a.box[0] + a.box[2]) for a, b in zip(hand, hand[1:], strict=False)]
    assert gaps == [0, 0, 6, 0, 0, 0, 0, 6, 0]  # 万 | 条 | 筒
    melds = lay.find(Kind.TILE, "meld", 3)
    assert [tile_str(it.tile) for it in melds] == ["5p", "5p", "5p"]
    assert max(it.box[0] + it.box[2] for it in melds) < hand[0].box[0]
    assert one(lay.find(Kind.PANEL, "meld", 3))  # the tray
    assert hand[0].box == (218, 10, 48, 65) and drawn.box == (726, 10, 48, 65)
    assert (lay.width, lay.height) == (800, 85)
    assert one(lay.find(Kind.SEAT, "seat", 3)).text == "北"
    assert lay.find(role="last") == [] and lay.find(role="wall") == []
    # another seat's discard leaves the picture as it was: the bot edits the caption only
    before = pictures.Picture(observe(state, 3), Mode.HAND, Display())
    after = discard_drawn(state)
    assert after.version != state.version
    assert pictures.Picture(observe(after, 3), Mode.HAND, Display()) != before  # his own discard: changed
    later = discard_drawn(after)
    assert later.current != 3
    quiet = pictures.Picture(observe(later, 3), Mode.HAND, Display())
    assert quiet == pictures.Picture(observe(after, 3), Mode.HAND, Display())


def test_hand_shows_the_tile_on_offer() -> None:
    """While a seat may claim a discard, its DM picture shows that tile apart, ringed."""
    state = changsha_deal([JUNK[0] + "5p", JUNK[1], JUNK[2], SEAT3])
    state = act(state, 0, Act.DISCARD, "5p")
    assert state.phase == Phase.CLAIM
    lay = layout(observe(state, 3), Mode.HAND)
    offer = one(lay.find(Kind.TILE, "claim", 3))
    assert tile_str(offer.tile) == "5p" and Mark.CLAIM in offer.marks
    assert layout(observe(state, 2), Mode.HAND).find(role="claim") == []  # seat 2 cannot claim it


def test_hand_dims_what_may_not_be_thrown() -> None:
    """Sichuan: while a seat holds its void suit only those tiles may go; the others are dimmed."""
    state = sichuan_deal(["124578m235689s1p4s", DUIDUI, J1, J2])  # the dealer voids 筒 and holds 1p
    assert state.seats[0].choice == "p"
    lay = layout(observe(state, 0), Mode.HAND)
    tiles = lay.find(Kind.TILE, "hand", 0) + lay.find(Kind.TILE, "drawn", 0)
    bright = [tile_str(it.tile) for it in tiles if Mark.DIM not in it.marks]
    assert bright == ["1p"] and len(tiles) == 14


def test_hand_picture_needs_a_seat() -> None:
    state = pung_then_three_rounds(changsha_deal)
    with pytest.raises(ValueError):
        layout(observe_public(state), Mode.HAND)


# ------------------------------------------------------------------ the end of a hand


def ended(variant: str, seed: int, seats: int | None = None) -> tuple[State, Display]:
    state, _ = play(variant, seed, seats=seats)
    assert state.phase == Phase.ENDED
    return state, Display()


@pytest.mark.parametrize("variant", ["changsha", "hengyang", "shaoyang", "sichuan", "xiangyin"])
def test_end_reveals_every_hand_the_winning_tile_and_the_amounts(variant: str) -> None:
    """One row per seat, dealer (东) first: its melds, its whole hand face up, the winning tile apart and
    ringed for each winner, and the seat's amount for the hand (+ gold, − blue)."""
    for seed in range(40):
        state, display = ended(variant, seed)
        if state.result is not None and state.result.winners:
            break
    assert state.result is not None
    obs = observe_public(state)
    lay = layout(obs, Mode.END, display)
    rows = lay.find(Kind.PANEL, "row")
    assert [r.seat for r in rows] == [(obs.dealer + i) % 4 for i in range(4)]
    assert [r.box[1] for r in rows] == sorted(r.box[1] for r in rows)
    assert {r.seat for r in rows if Mark.WIN in r.marks} == set(state.result.winners)
    for ps in obs.seats:
        assert ps.hand is not None
        shown = tiles_of(lay, "hand", ps.seat) + tiles_of(lay, "win", ps.seat)
        win = win_tile(obs, ps.seat)
        extra = (win,) if win is not None and len(ps.hand) % 3 == 1 else ()  # won on another's tile
        assert sorted(shown) == sorted(tile_str(t) for t in ps.hand + extra)
        amount = one(lay.find(Kind.TEXT, "amount", ps.seat))
        d = state.result.deltas[ps.seat]
        assert amount.text == (f"{d:+d}" if d else "0")
        assert (Mark.PLUS in amount.marks) == (d > 0) and (Mark.MINUS in amount.marks) == (d < 0)
    for w in state.result.winners:
        won = win_tile(obs, w)
        assert won is not None
        item = one(lay.find(Kind.TILE, "win", w))
        assert item.tile == won and Mark.WIN in item.marks
    birds = [t for s in obs.settlements for t in s.birds]
    assert [it.tile for it in lay.find(Kind.TILE, "bird")] == birds


def changsha_discard_win(birds: str) -> State:
    """Changsha, birds 2: the dealer (seat 0) throws 1p into seat 1's small hand (waiting 1p/4p), which wins
    on it; ``birds`` are the next wall tiles."""
    small = "234m45556s23789p"
    state = changsha_deal([JUNK[0] + "1p", small, JUNK[1], JUNK[2]], draws=birds, birds=2)
    state = discard(state, 0, "1p", keep={1})
    return act(state, 1, Act.WIN)


def test_end_marks_my_row_the_birds_that_hit_and_who_dealt_in() -> None:
    """The end picture marks the viewer's own row (none in the group's), 接炮 on the winner and
    点炮 on the seat that dealt in, and which birds hit — a bird hits when it points at the winner or at a
    seat that paid (扎鸟, counted from the dealer: 9 → the dealer, who paid; 3 → 对家, who did not) —
    with the wind of the seat it hit under it; a bird that missed is dimmed."""
    state = changsha_discard_win("9s3s")
    assert state.phase == Phase.ENDED
    display = Display("zh")
    assert observe(state, 2).seats[1].won_on == (parse_tile("1p"),)
    mine = layout(observe(state, 2), Mode.END, display)
    assert [it.seat for it in mine.find(Kind.PANEL, "row", mark=Mark.OWN)] == [2]
    assert layout(observe_public(state), Mode.END, display).find(mark=Mark.OWN) == []
    assert [it.seat for it in mine.find(Kind.PANEL, "row", mark=Mark.WIN)] == [1]
    assert {it.seat: it.text for it in mine.find(Kind.BADGE, "how")} == {1: "接炮", 0: "点炮"}
    birds = mine.find(Kind.TILE, "bird")
    assert [tile_str(it.tile) for it in birds] == ["9s", "3s"]
    assert Mark.HIT in birds[0].marks and Mark.DIM in birds[1].marks and Mark.HIT not in birds[1].marks
    assert one(mine.find(Kind.TEXT, "bird_seat")).text == "东"  # the dealer, seat 0
    en = layout(observe(state, 2), Mode.END, replace(display, lang="en"))
    assert {it.seat: it.text for it in en.find(Kind.BADGE, "how")} == {1: "on a discard", 0: "dealt in"}


def _ways_from_events(events: list[Any]) -> dict[int, int | None]:
    """Each winner's last win as the events tell it: None for a self-draw, else the seat it came from (the
    discarder, the robbed konger, the haidi taker, the 开杠 konger): the last move before the win."""
    moves = {EventKind.DRAW, EventKind.DISCARD, EventKind.KONG_DECLARED, EventKind.KONG_TILES}
    moves.add(EventKind.HAIDI_TAKE)
    own = {EventKind.DRAW, EventKind.KONG_TILES, EventKind.HAIDI_TAKE}
    out: dict[int, int | None] = {}
    last = None
    for e in events:
        if e.kind in moves and e.seat is not None:
            last = e
        elif e.kind == EventKind.WIN and e.seat is not None and last is not None:
            out[e.seat] = None if last.seat == e.seat and last.kind in own else last.seat
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_how_each_win_came_agrees_with_the_moves(variant: str) -> None:
    """The end picture tells 自摸 from 接炮 / 点炮 from the Observation alone (the winner's shown hand holds
    the winning tile after a self-draw; the dealer-in is the one seat that paid): over seeded hands of
    every variant it says what the moves say."""
    checked = 0
    for seed in range(8):
        state, events = play(variant, seed)
        display = Display("zh")
        lay = layout(observe_public(state), Mode.END, display)
        tags = {it.seat: it.text for it in lay.find(Kind.BADGE, "how")}
        ways = _ways_from_events(events)
        want = {w: "自摸" if src is None else "接炮" for w, src in ways.items()}
        want |= {src: "点炮" for src in ways.values() if src is not None and src not in ways}
        assert tags == want, (variant, seed)
        checked += bool(want)
    assert checked >= 4


# ------------------------------------------------------------------ every picture, many positions


def _check_geometry(lay: Layout) -> None:
    """Everything lies inside the picture, and no two tiles overlap except a kong's fourth on its meld."""
    tiles = [it for it in lay.items if it.kind in (Kind.TILE, Kind.BACK, Kind.EDGE)]
    for it in lay.items:
        x, y, w, h = it.box
        assert 0 <= x and 0 <= y and x + w <= lay.width and y + h <= lay.height, it
    for a, b in combinations(tiles, 2):
        ax, ay, aw, ah = a.box
        bx, by, bw, bh = b.box
        if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
            assert a.role == b.role == "meld" and (a.seat, a.index) == (b.seat, b.index), (a, b)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [
        ("changsha", 4),
        ("hengyang", 4),
        ("shaoyang", 4),
        ("sichuan", 4),
        ("xiangyin", 4),
        ("xiangyin", 3),
        ("xiangyin", 2),
    ],
)
def test_layouts_stay_inside_and_tiles_never_overlap(variant: str, seats: int) -> None:
    """Every position of two seeded hands, every picture a seat or the group gets: nothing drawn outside,
    no tile over another (long rivers shrink to fit)."""
    labels = ("Lily", "阿华", "Bob", "Dave")[:seats]
    for seed in (1, 2):
        for k, (state, _) in enumerate(steps(variant, seed, seats)):
            display = Display(labels=labels)
            if state.phase == Phase.ENDED:
                _check_geometry(layout(observe_public(state), Mode.END, display))
            elif k % 3 == 0:
                for viewer in (-1, state.current):
                    _check_geometry(layout(observe(state, viewer), Mode.TABLE, display))
                _check_geometry(layout(observe(state, state.current), Mode.HAND, display))


def test_a_long_river_shrinks_to_fit() -> None:
    """血战 goes on after wins, so a river can outgrow four rows of six: its tiles shrink (more per row)
    and stay in their area, in play order."""
    state = pung_then_three_rounds(changsha_deal)
    obs = observe_public(state)
    long = tuple(t % 27 for t in range(30))
    seats = tuple(replace(ps, discards=long) if ps.seat in (1, 2) else ps for ps in obs.seats)
    lay = layout(replace(obs, seats=seats, last_discard=(2, long[-1])), Mode.TABLE)
    _check_geometry(lay)
    for seat in (1, 2):
        river = lay.find(Kind.TILE, "discard", seat)
        assert [it.tile for it in river] == list(long)
        assert {it.box[2] for it in river} == {26}  # smaller than 36: eight (five) to a row
    assert len({it.box[1] for it in lay.find(Kind.TILE, "discard", 2)}) == 4  # the top river: 4 rows of 8
    assert len({it.box[1] for it in lay.find(Kind.TILE, "discard", 1)}) == 6  # a side river: 6 rows of 5
    assert one(lay.find(mark=Mark.LAST)).seat == 2


def test_opening_tiles_shown_at_the_deal_never_outgrow_the_hand() -> None:
    """起手小胡's tiles shown at the deal (``revealed``) stay face up while they can still be in the hand:
    those discarded since go, and a hand never draws more tiles than it holds (a 12-tile opening hand with
    8 tiles left used to run off the picture)."""
    state = pung_then_three_rounds(changsha_deal)
    obs = observe_public(state)
    shown = tuple(t % 9 for t in range(12))
    seats = tuple(
        replace(ps, revealed=shown, hand_size=8, discards=(0, 1)) if ps.seat in (0, 2, 3) else ps
        for ps in obs.seats
    )
    lay = layout(replace(obs, seats=seats), Mode.TABLE, Display(labels=("Lily", "Bob", "Dave", "Ann")))
    _check_geometry(lay)
    for seat in (0, 2, 3):
        faces = [it.tile for it in lay.find(Kind.TILE, "revealed", seat)]
        assert faces == list(shown[2:10])  # 0 and 1 were discarded; eight tiles in hand


# ------------------------------------------------------------------ no hidden tile in a group picture


@pytest.mark.parametrize("variant", ["changsha", "hengyang", "shaoyang", "sichuan", "xiangyin"])
def test_no_hidden_tile_in_a_group_picture(variant: str) -> None:
    """Swapping a concealed tile of any seat with a wall tile leaves the group's picture byte for byte the
    same, and every other seat's pictures too (drawn afresh: the cache is cleared)."""
    rng = random.Random(5)
    swapped = 0
    positions = [state for k, (state, _) in enumerate(steps(variant, 3)) if k % 6 == 3]
    for state in [p for p in positions if p.phase != Phase.ENDED][:3]:
        for seat in range(4):
            other = swap_hidden(state, seat, rng)
            if other is None:
                continue
            assert other.seats[seat].counts != state.seats[seat].counts
            swapped += 1
            pictures.cache_clear()
            before = table_image_fresh(observe_public(state))
            pictures.cache_clear()
            assert table_image_fresh(observe_public(other)) == before
            viewer = (seat + 1) % 4
            assert render(observe(state, viewer), Mode.HAND) == render_fresh(
                observe(other, viewer), Mode.HAND
            )
            assert render(observe(state, viewer), Mode.TABLE) == render_fresh(
                observe(other, viewer), Mode.TABLE
            )
            # … while the seat's own picture does change
            assert render(observe(state, seat), Mode.HAND) != render(observe(other, seat), Mode.HAND)
    assert swapped >= 4


def table_image_fresh(obs: Observation) -> bytes:
    return render_fresh(obs, Mode.TABLE)


def render_fresh(obs: Observation, mode: Mode) -> bytes:
    """Drawn now, never from the cache."""
    return encode(paint(layout(obs, mode)))


# ------------------------------------------------------------------ faces, determinism, output


@pytest.mark.parametrize("width", [27, 34, 58, 80])
def test_all_34_faces_differ(width: int) -> None:
    """Every tile face is its own picture at every size we draw (the smallest river tile included), and
    none is a tile's back."""
    h = round(width * 1.36)
    images = [tile_sprite(t, width, h).image.tobytes() for t in range(34)]
    assert len(set(images)) == 34
    assert back_sprite(width, h).image.tobytes() not in images


def test_rendering_is_deterministic() -> None:
    """The same observation gives the same bytes, drawn twice from scratch (sprite caches cleared too)."""
    state, display = sichuan_win()
    obs = observe_public(state)
    first = encode(paint(layout(obs, Mode.TABLE, display)))
    pictures.cache_clear(sprites=True)
    assert render(obs, Mode.TABLE, display) == first


def test_pictures_are_png_of_their_layout_size_and_cached() -> None:
    state = pung_then_three_rounds(changsha_deal)
    obs = observe(state, 3)
    for mode in Mode:
        if mode == Mode.END:
            continue
        data = render(obs, mode)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        img = Image.open(io.BytesIO(data))
        lay = layout(obs, mode)
        assert img.size == (lay.width, lay.height) and img.mode == "P"
        assert render(obs, mode) is data  # cached
    assert pictures.MIME == "image/png"


# ------------------------------------------------------------------ display data


def test_names_in_any_script_are_drawn_on_their_seats() -> None:
    """Every seat's name on its plate, in its own script — Latin, Chinese, Cyrillic, an AI seat's
    name as the bot gives it ("电脑1"); a name too wide for its plate is cut by its rendered width with "…";
    emoji and invisible characters are dropped, never drawn as boxes. The English picture marks the
    dealer "D"."""
    state = pung_then_three_rounds(changsha_deal)
    display = Display("en", labels=("Lily🌸", "阿\u200b华", "Дмитрий Иванович Петров", "电脑1"))
    lay = layout(observe_public(state), Mode.TABLE, display)
    labels = {it.seat: it for it in lay.find(Kind.TEXT, "label")}
    assert {s: it.text for s, it in labels.items() if s != 2} == {0: "Lily", 1: "阿华", 3: "电脑1"}
    cut = labels[2].text  # cut in the middle: names alike at the start stay apart
    assert cut.startswith("Дм") and "…" in cut and cut.endswith("в")
    assert len(cut) < len("Дмитрий Иванович Петров")
    a, b = fonts.fit("Alexander Smith", 60, 16), fonts.fit("Alexander Jones", 60, 16)
    assert a != b and a.startswith("Al") and b.startswith("Al") and "…" in a
    for it in labels.values():
        assert fonts.width(it.text, it.size) <= it.box[2]
        assert _inside(it.box, one(lay.find(Kind.PANEL, "plate", it.seat)).box)
    assert one(lay.find(Kind.BADGE, "dealer")).text == "D"
    # the end picture names every row too
    end, e_display = ended("changsha", 0)
    names = ("Lily", "阿华", "Дима", "AI 1")
    lay = layout(observe_public(end), Mode.END, replace(e_display, labels=names))
    assert {it.seat: it.text for it in lay.find(Kind.TEXT, "label")} == dict(enumerate(names))


def test_two_names_give_two_pictures() -> None:
    """A name is really drawn: the same table with one name changed is another picture, byte for byte —
    a Chinese, a Cyrillic or a Latin name alike — and the same names give the same bytes."""
    obs = observe_public(pung_then_three_rounds(changsha_deal))

    def png(*names: str) -> bytes:
        return encode(paint(layout(obs, Mode.TABLE, Display("zh", labels=names))))

    base = png("Lily", "阿华", "Bob", "Dave")
    assert png("Lily", "阿明", "Bob", "Dave") != base
    assert png("Lily", "阿华", "Боб", "Dave") != base
    assert png("Lily", "阿华", "Bob", "Dan") != base
    assert png("Lily", "阿华", "Bob", "Dave") == base


def test_the_font_is_found_through_fontconfig() -> None:
    """The pictures' font is the machine's best font for Chinese as fontconfig ranks it (``make`` installs
    Debian's fonts-wqy-microhei where there is none), and it covers Latin and Cyrillic as well."""
    found = fonts.find()
    assert found is not None, "no CJK font: `make install` installs fonts-wqy-microhei"
    assert all(found.covers(ch) for ch in "阿华AzДя€")
    assert not found.covers("\U0001f600") and not fonts.drawable("\u200b")


@pytest.fixture
def no_font(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    """The font finder pointed at nothing (no fc-match on the PATH), and back afterwards."""
    monkeypatch.setenv("PATH", str(tmp_path))
    fonts.forget()
    pictures.cache_clear(sprites=True)
    yield
    fonts.forget()  # looked up again, with the real PATH, by the next picture
    pictures.cache_clear(sprites=True)


@pytest.mark.usefixtures("no_font")
def test_without_a_font_only_ascii_names_and_the_caption_names_everyone() -> None:
    """Where no CJK font is found the pictures keep to what Pillow's bundled font draws: ASCII names only
    (a name with any other letter is left off, not drawn in part), and the caption (``legend``) names every
    seat by its wind, as before names were drawn."""
    assert fonts.find() is None
    state = pung_then_three_rounds(changsha_deal)
    obs = observe_public(state)
    names = ("Lily", "阿华", "Дмитрий", "AI 1")
    lay = layout(obs, Mode.TABLE, Display("zh", labels=names))
    assert {it.seat: it.text for it in lay.find(Kind.TEXT, "label")} == {0: "Lily", 3: "AI 1"}
    assert render(obs, Mode.TABLE, Display("zh", labels=names)).startswith(b"\x89PNG")
    assert legend(obs, names, "zh") == "东 Lily（庄） · 南 阿华 · 西 Дмитрий · 北 AI 1"


def test_legend_names_seats_by_their_wind() -> None:
    state = changsha_deal([JUNK[1], JUNK[2], JUNK[0] + "5p", SEAT3], dealer=2)
    obs = observe_public(state)
    names = ["Lily", "阿华", "Bob", "Dave"]
    assert legend(obs, names, "zh") == "东 Bob（庄） · 南 Dave · 西 Lily · 北 阿华"
    assert legend(obs, names, "en") == "East 东 Bob (dealer) · South 南 Dave · West 西 Lily · North 北 阿华"
