"""The three pictures as Layouts, from an Observation and display data only.

- ``hand_layout``: the viewer's hand for his DM — his seat's marker, his melds, then the concealed tiles by
  suit, the drawn tile (or the tile he may claim) set apart.
- ``table_layout``: the table — the viewer (or seat 0 for the group) at the bottom, the next seat on the
  right; each seat's name plate (its wind, name and marks; gold for the seat to play), melds, hand (face
  down unless shown) and river in play order around a centre that shows the winds and the wall.
- ``end_layout``: the end of a hand — every hand revealed, the winning tile apart, how each win came (自摸,
  接炮 and who 点炮), the amount per seat, the viewer's own row, the birds and which of them hit.

Sizes are picked for a phone: Telegram shows a photo about 400 px wide, so every picture is 800 px wide (it
is shown at half size) and laid out for that width — a river or side seat's tile is 36 px (18 px on the
phone), names 20-22 px, marks at least 22 px. A smaller picture is also cheaper to draw and to encode.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.pictures import fonts
from bot.pictures.layout import (
    Builder,
    Kind,
    Layout,
    Mark,
    meld_faces,
    position_of,
    seat_melds,
    split_drawn,
    void_suit,
    wild_tiles,
    wind_of,
)
from engine import Act, Observation, Phase
from engine.melds import Meld
from engine.observe import PublicSeat, still_revealed
from engine.state import SettleKind, Settlement

WIDTH = 800


@dataclass(frozen=True, slots=True)
class Display:
    """What a picture needs besides the Observation.

    ``lang``: "zh" or "en" (the few words drawn). ``labels``: each seat's name as the players see it (AI
    seats' too), drawn on its plate in any script the font covers, cut to fit (``fonts``)."""

    lang: str = "zh"
    labels: tuple[str, ...] = ()

    def label(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else ""


def win_tile(obs: Observation, seat: int) -> int | None:
    """The tile of ``seat``'s latest win this hand (public: ``PublicSeat.won_on``), if it has won on one:
    the win the end picture's tag (自摸 / 接炮) tells of; 血流成河's locked hand wins on any of them."""
    return next((t for t in reversed(obs.seats[seat].won_on) if t >= 0), None)


def lift_of(th: int) -> int:
    """How far a kong's fourth tile sits above the other three."""
    return round(th * 0.26)


def tile_h(tw: int) -> int:
    return round(tw * 1.36)


def words(zh: str, en: str, lang: str) -> str:
    """The Chinese words where the language is Chinese and the font can draw them, else the English."""
    return zh if lang == "zh" and all(fonts.drawable(ch) for ch in zh) else en


# ------------------------------------------------------------------ seat markers and name plates


def _turn_seat(obs: Observation) -> int | None:
    if obs.phase in (Phase.TURN, Phase.HAIDI, Phase.OPENING):
        return obs.current
    return None


R = 24  # a seat disc's radius: 48 px, 24 px on a phone
LABEL_SIZE = 24  # names


def badge_size(r: int) -> int:
    return round(r * 1.25)


def _badges(obs: Observation, seat: int) -> int:
    """How many badges a seat's marker carries: 庄 for the dealer, the 定缺 suit."""
    return (seat == obs.dealer) + (void_suit(obs.seats[seat].choice) is not None)


def marker_width(obs: Observation, seat: int, r: int) -> int:
    """A seat marker's width: the disc and its badges in a row on its right."""
    return 2 * r + _badges(obs, seat) * (badge_size(r) + 3)


def _ribbon_h(r: int) -> int:
    return badge_size(r)


def marker_height(obs: Observation, seat: int, r: int) -> int:
    """How tall a seat's marker is: the disc, and a won seat's ribbon below it."""
    ps = obs.seats[seat]
    return 2 * r + (_ribbon_h(r) // 2 if ps.won or ps.wins else 0)


def _seat_marker(b: Builder, obs: Observation, seat: int, x: int, top: int, r: int, display: Display) -> int:
    """A seat's marker from (x, top): its disc (the wind; ringed dark on its turn, red once won), its badges
    in a row on the right (dealer 庄, then the 定缺 suit crossed out), a won seat's 胡 ribbon across the
    disc's foot and its count of wins (血流成河) beside it. Returns the y below the marker."""
    ps = obs.seats[seat]
    turn = _turn_seat(obs) == seat
    cx, cy = x + r, top + r
    won = ps.won or ps.wins > 0  # 血流成河: a winner plays on; the ribbon counts his wins
    marks = ((Mark.TURN,) if turn else ()) + ((Mark.WIN,) if won else ())
    b.add(Kind.SEAT, (x, top, 2 * r, 2 * r), role="seat", seat=seat, text=wind_of(obs, seat), marks=marks)
    s = badge_size(r)
    zh = display.lang == "zh"
    bx = cx + r + 3
    if seat == obs.dealer:
        b.add(Kind.BADGE, (bx, cy - s // 2, s, s), role="dealer", seat=seat, text="庄" if zh else "D")
        bx += s + 3
    suit = void_suit(ps.choice)
    if suit is not None:
        b.add(Kind.BADGE, (bx, cy - s // 2, s, s), role="void", seat=seat, tile=suit * 9, text="缺")
    y = cy + r
    if won:
        h = _ribbon_h(r)
        w = round(h * 1.3) if zh else round(h * 2.1)
        rx = cx - w // 2 if ps.wins <= 1 else x - 2
        b.add(Kind.BADGE, (rx, cy + r - h // 2, w, h), role="won", seat=seat, text="胡" if zh else "WIN")
        if ps.wins > 1:  # how many times, beside the ribbon
            times = f"×{ps.wins}" if fonts.drawable("×") else f"x{ps.wins}"
            b.add(Kind.BADGE, (rx + w + 2, cy + r - h // 2, h + 8, h), role="wins", seat=seat, text=times)
        y += h // 2
    return y


def _name(display: Display, seat: int, max_w: int, size: int = LABEL_SIZE) -> str:
    """A seat's name as drawn: cleaned and cut to ``max_w`` px ("" when the font cannot draw it)."""
    return fonts.fit(display.label(seat), max_w, size)


def _plate_column(
    b: Builder, obs: Observation, seat: int, x: int, y: int, w: int, display: Display, panel: bool = True
) -> int:
    """A name plate ``w`` wide from (x, y): the seat's marker centred on top, its name under it. Gold for
    the seat to play. Returns the y below it."""
    turn = _turn_seat(obs) == seat
    name = _name(display, seat, w - 10)
    h = 8 + marker_height(obs, seat, R) + (LABEL_SIZE + 8 if name else 4)
    if panel:
        b.add(Kind.PANEL, (x, y, w, h), role="plate", seat=seat, marks=(Mark.TURN,) if turn else ())
    mw = marker_width(obs, seat, R)
    below = _seat_marker(b, obs, seat, x + (w - mw) // 2, y + 8, R, display)
    if name:
        marks = (Mark.TURN,) if turn else ()
        b.add(
            Kind.TEXT,
            (x + 4, below + 3, w - 8, LABEL_SIZE + 2),
            "label",
            seat,
            text=name,
            size=LABEL_SIZE,
            marks=marks,
        )
    return y + h


def _plate_row(b: Builder, obs: Observation, seat: int, x: int, cy: int, display: Display, name: str) -> int:
    """A name plate in a row, centred on ``cy``: the marker, the name on its right. Returns its right edge."""
    turn = _turn_seat(obs) == seat
    mw = marker_width(obs, seat, R)
    nw = round(fonts.width(name, LABEL_SIZE)) if name else 0
    w = 8 + mw + (8 + nw if name else 0) + 10
    h = max(2 * R, marker_height(obs, seat, R)) + 12
    top = cy - h // 2
    b.add(Kind.PANEL, (x, top, w, h), role="plate", seat=seat, marks=(Mark.TURN,) if turn else ())
    _seat_marker(b, obs, seat, x + 8, top + 6, R, display)
    if name:
        marks = (Mark.TURN,) if turn else ()
        b.add(
            Kind.TEXT,
            (x + 8 + mw + 8, cy - R, nw + 2, 2 * R),
            "label",
            seat,
            text=name,
            size=LABEL_SIZE,
            marks=marks,
            align="l",
        )
    return x + w


def _plate_row_width(obs: Observation, seat: int, name: str) -> int:
    return 8 + marker_width(obs, seat, R) + (8 + round(fonts.width(name, LABEL_SIZE)) if name else 0) + 10


# ------------------------------------------------------------------ tiles and melds


def _tile(
    b: Builder,
    x: int,
    y: int,
    tw: int,
    th: int,
    face: int,
    role: str,
    seat: int = -1,
    index: int = -1,
    marks: Iterable[Mark] = (),
    wilds: frozenset[int] = frozenset(),
) -> None:
    """A tile face up (``face`` 0..33) or face down (-1) in the box (x, y, tw, th); a wild tile is marked."""
    if face in wilds:
        marks = (*marks, Mark.WILD)
    b.add(Kind.TILE if face >= 0 else Kind.BACK, (x, y, tw, th), role, seat, face, index, marks)


def _meld_group(
    b: Builder, seat: int, index: int, meld_known: tuple[Meld, bool], x: int, y: int, tw: int, th: int
) -> None:
    """One meld on a darker tray, tiles' top at y: three in a row and a kong's fourth on the middle one."""
    meld, known = meld_known
    base, top = meld_faces(meld, known)
    lift = lift_of(th) if top is not None else 0
    pad = max(3, tw // 9)
    b.add(
        Kind.PANEL,
        (x - pad, y - lift - pad, 3 * tw + 2 * pad, th + lift + 2 * pad),
        role="meld",
        seat=seat,
        index=index,
    )
    for k, t in enumerate(base):
        _tile(b, x + k * tw, y, tw, th, t, role="meld", seat=seat, index=index)
    if top is not None:
        _tile(b, x + tw, y - lift, tw, th, top, role="meld", seat=seat, index=index, marks=(Mark.STACKED,))


MELDS_GAP = 10  # between the last meld and the concealed tiles, beyond the gap between melds


def _melds_row(b: Builder, obs: Observation, seat: int, x: int, y: int, tw: int, th: int, gap: int) -> int:
    """A seat's melds left to right, tiles' top at y (a kong's fourth above it). Returns the x after them."""
    for i, mk in enumerate(seat_melds(obs, seat)):
        _meld_group(b, seat, i, mk, x, y, tw, th)
        x += 3 * tw + gap
    return x + (MELDS_GAP if seat_melds(obs, seat) else 0)


def _melds_width(obs: Observation, seat: int, tw: int, gap: int) -> int:
    n = len(seat_melds(obs, seat))
    return n * (3 * tw + gap) + (MELDS_GAP if n else 0)


def _shown_tiles(obs: Observation, seat: int) -> tuple[list[int], int | None] | None:
    """A seat's concealed tiles as the viewer may see them, and its tile set apart (drawn / winning tile):
    None when the hand is hidden."""
    ps = obs.seats[seat]
    if seat == obs.seat:
        hand, drawn = split_drawn(obs)
        win = win_tile(obs, seat) if ps.won or obs.phase == Phase.ENDED else None
        if win is not None and drawn is None:
            return _without_win(list(obs.hand), win)
        return hand, drawn
    if ps.hand is None:
        return None
    win = win_tile(obs, seat)
    if win is None:
        return sorted(ps.hand), None
    return _without_win(list(ps.hand), win)


def _without_win(hand: list[int], win: int) -> tuple[list[int], int | None]:
    """A winner's hand with the winning tile apart: taken out of a self-drawn 14, added to a 13 that won on
    another seat's tile."""
    if len(hand) % 3 == 2 and win in hand:
        hand.remove(win)
    return sorted(hand), win


def _discard_marks(obs: Observation, seat: int, k: int, river: Sequence[int]) -> tuple[Mark, ...]:
    """The latest discard is highlighted while it lies in its river (a claimed tile has left it)."""
    if obs.last_discard is None or k != len(river) - 1:
        return ()
    s, t = obs.last_discard
    return (Mark.LAST,) if s == seat and river[k] == t else ()


def _largest(sizes: Sequence[int], fits: Callable[[int], bool]) -> int:
    """The largest of ``sizes`` (largest first) that ``fits`` (a predicate on a tile width), else the last."""
    return next((w for w in sizes if fits(w)), sizes[-1])


# ------------------------------------------------------------------ the hand (DM)

MARGIN = 10
MELD_SCALE = 0.8  # melds beside the hand are drawn a little smaller: they are not played from
# the hand's tile width: the largest of these that fits (a few sizes only: their sprites are kept)
HAND_SIZES = (48, 44, 40, 36, 32)


# gaps in the hand's row: after each meld, between suits, before a tile set apart (drawn, won, on offer)
HAND_MELD_GAP, HAND_SUIT_GAP, HAND_APART_GAP = 8, 6, 16


def _dm_tiles(obs: Observation, me: int) -> tuple[list[int], int | None]:
    """The viewer's concealed tiles and the one set apart (drawn, or his winning tile); face down (-1) while
    a choice is made before looking at them (飘, 加锤: dealt, not seen)."""
    shown = _shown_tiles(obs, me)
    hand, apart = shown if shown is not None else ([], None)
    if obs.phase == Phase.CHOOSE and not obs.hand and obs.seats[me].hand_size:
        hand = [-1] * obs.seats[me].hand_size
    return hand, apart


def _offered(obs: Observation, me: int) -> list[int]:
    """Tiles on offer to this seat: a discard it may claim, 开杠 tiles it turned up."""
    if obs.phase == Phase.CLAIM and obs.claim_tile is not None and me in obs.to_act and obs.claim_from != me:
        return [obs.claim_tile]
    if obs.kong_tiles and obs.current == me:
        return list(obs.kong_tiles)
    return []


def _dm_row(melds: int, hand: Sequence[int], apart: int | None, offer: Sequence[int]) -> tuple[float, int]:
    """The hand's row as tile widths (``slots``: melds a little smaller) and fixed gaps in pixels."""
    suits = len({t // 9 for t in hand})
    slots = MELD_SCALE * 3 * melds + len(hand) + (1 if apart is not None else 0) + len(offer)
    gaps = HAND_MELD_GAP * melds + (8 if melds else 0) + HAND_SUIT_GAP * max(0, suits - 1)
    gaps += HAND_APART_GAP if apart is not None else 0
    gaps += HAND_APART_GAP if offer else 0
    return slots, gaps


def _concealed(
    b: Builder,
    me: int,
    hand: Sequence[int],
    box: tuple[int, int, int, int],
    playable: set[int | None],
    wilds: frozenset[int],
) -> int:
    """The concealed tiles by suit from (x, y) in ``box`` (x, y, tile width, tile height), those the viewer
    may not discard now dimmed. Returns the x after them."""
    x, y, tw, th = box
    prev_suit = None
    for i, t in enumerate(hand):
        if prev_suit is not None and t // 9 != prev_suit:
            x += HAND_SUIT_GAP
        prev_suit = t // 9
        marks = (Mark.DIM,) if playable and t not in playable and t not in wilds else ()
        _tile(b, x, y, tw, th, t, role="hand", seat=me, index=i, marks=marks, wilds=wilds)
        x += tw
    return x


def hand_layout(obs: Observation, display: Display) -> Layout:
    """The viewer's hand: his seat's marker, his melds, then concealed tiles by suit, the drawn tile (or the
    claimable tile) apart (face down while a choice is made before looking at them). The latest discard and
    the wall are in the caption: this picture changes only when his own tiles or marks do."""
    if obs.seat < 0:
        raise ValueError("a hand picture needs a seat's observation, not the public one")
    b = Builder()
    me = obs.seat
    wilds = wild_tiles(obs.variant)
    hand, apart = _dm_tiles(obs, me)
    apart_role, apart_marks = "drawn", (Mark.APART, Mark.DRAWN)
    if apart is not None and obs.drawn is None:
        apart_role, apart_marks = "win", (Mark.APART, Mark.WIN)
    offer = _offered(obs, me)
    melds = seat_melds(obs, me)
    slots, gaps = _dm_row(len(melds), hand, apart, offer)
    mw_marker = marker_width(obs, me, R)
    x_start = MARGIN + 4 + mw_marker + 12
    room = WIDTH - MARGIN - x_start
    tw = _largest(HAND_SIZES, lambda w: slots * w + gaps <= room)
    th = tile_h(tw)
    mw = round(tw * MELD_SCALE)
    mh = tile_h(mw)
    lift = lift_of(mh) if any(m.is_kong for m, _ in melds) else 0
    row_w = round(slots * tw) + gaps
    x = x_start + max(0, (room - row_w) // 2)
    y = MARGIN + max(0, lift - (th - mh))
    height = max(y + th + MARGIN, 2 * MARGIN + marker_height(obs, me, R) + 4)
    _seat_marker(b, obs, me, MARGIN + 4, (height - marker_height(obs, me, R)) // 2, R, display)
    for i, mk in enumerate(melds):
        _meld_group(b, me, i, mk, x, y + th - mh, mw, mh)
        x += 3 * mw + HAND_MELD_GAP
    if melds:
        x += 8
    playable = {a.tile for a in obs.legal if a.act == Act.DISCARD}
    x = _concealed(b, me, hand, (x, y, tw, th), playable, wilds)
    if apart is not None:
        x += HAND_APART_GAP
        dim = playable and apart not in playable and apart not in wilds
        marks = apart_marks + ((Mark.DIM,) if dim else ())
        _tile(b, x, y, tw, th, apart, role=apart_role, seat=me, marks=marks, wilds=wilds)
        x += tw
    if offer:
        x += HAND_APART_GAP
        for i, t in enumerate(offer):
            _tile(b, x, y, tw, th, t, "claim", me, i, (Mark.APART, Mark.CLAIM), wilds)
            x += tw
    return Layout(WIDTH, height, tuple(b.items))


def _wall(b: Builder, obs: Observation, x: int, y: int, w: int, h: int) -> None:
    """The tiles left in the wall: a small stack of backs and the number."""
    b.add(Kind.ICON, (x, y + 4, h * 3 // 4, h - 8), role="wall")
    b.add(
        Kind.TEXT,
        (x + h * 3 // 4 + 6, y, w - h * 3 // 4 - 6, h),
        role="wall",
        text=str(obs.wall_remaining),
        size=h * 3 // 4,
        align="l",
    )


# ------------------------------------------------------------------ the table
#
# Rivers lie around the centre as on a real table, in a pinwheel: each starts at the centre's corner on its
# owner's left and may run past the centre's side, so four rivers fit without touching. The top and bottom
# rivers are six tiles wide and four rows deep, the side rivers four wide and six deep, which leaves the
# side seats a column wide enough for their melds at river size. Every face stays upright (readable) and
# every river row reads left to right; rows stack away from the centre's edge the river starts at (the top
# and right rivers grow upward).

GAP = 10
RIVER_SIZES = (36, 30, 26, 22)
H_COLS, H_ROWS = 6, 4  # the top and bottom rivers
V_COLS, V_ROWS = 4, 6  # the side rivers


def _span(n: int, tw: int) -> int:
    return n * (tw + 2) - 2


def _rows_span(n: int, tw: int) -> int:
    return n * (tile_h(tw) + 2) - 2


RH_W, RH_H = _span(H_COLS, RIVER_SIZES[0]), _rows_span(H_ROWS, RIVER_SIZES[0])
RV_W, RV_H = _span(V_COLS, RIVER_SIZES[0]), _rows_span(V_ROWS, RIVER_SIZES[0])
CONSOLE = 160
ZONE_H = 84  # the top and bottom seats' rows
SIDE_W = (WIDTH - 2 * MARGIN - (2 * RV_W + 2 * GAP + CONSOLE) - 2 * GAP) // 2  # a side seat's column
EDGE_SIZES = (34, 30, 26, 22)  # top / bottom seats' tiles
OWN_SIZES = (40, 36, 32, 28)  # the viewer's own hand at the bottom of his own table
SIDE_TW = 36  # left / right seats' melds and shown tiles
CENTRE_TW = 30  # tiles shown on the centre (开杠 tiles, a kong being robbed)
WIND_S = 36  # the winds on the centre


def _river_size(n: int, cols: int, rows: int) -> tuple[int, int, int]:
    """The largest river tile (w, h, per row) that fits ``n`` discards in a river's area (``cols`` × ``rows``
    tiles of the largest size)."""
    area_w, area_h = _span(cols, RIVER_SIZES[0]), _rows_span(rows, RIVER_SIZES[0])
    for tw in RIVER_SIZES:
        per_row = (area_w + 2) // (tw + 2)
        if per_row * ((area_h + 2) // (tile_h(tw) + 2)) >= n:
            return tw, tile_h(tw), per_row
    tw = RIVER_SIZES[-1]
    return tw, tile_h(tw), (area_w + 2) // (tw + 2)


def table_layout(obs: Observation, display: Display) -> Layout:
    b = Builder()
    own_view = obs.seat >= 0
    console_y = MARGIN + ZONE_H + GAP + RH_H + GAP
    console_x = (WIDTH - CONSOLE) // 2
    bottom_zone_y = console_y + CONSOLE + GAP + RH_H + GAP
    height = bottom_zone_y + ZONE_H + MARGIN
    b.add(Kind.PANEL, (console_x, console_y, CONSOLE, CONSOLE), role="console")
    cx, cy = WIDTH // 2, console_y + CONSOLE // 2
    turn = _turn_seat(obs)
    wilds = wild_tiles(obs.variant)
    side_top, side_bottom = MARGIN + ZONE_H + GAP, bottom_zone_y - GAP
    for ps in obs.seats:
        seat = ps.seat
        pos = position_of(obs, seat)
        ws = WIND_S
        wx, wy = {  # the seat's wind on the centre, on its side
            "bottom": (cx - ws // 2, console_y + CONSOLE - ws - 8),
            "top": (cx - ws // 2, console_y + 8),
            "left": (console_x + 8, cy - ws // 2),
            "right": (console_x + CONSOLE - ws - 8, cy - ws // 2),
        }[pos]
        marks = (Mark.TURN,) if turn == seat else ()
        b.add(Kind.WIND, (wx, wy, ws, ws), role="console", seat=seat, text=wind_of(obs, seat), marks=marks)
        _river(b, obs, seat, pos, console_x, console_y)
        if pos in ("bottom", "top"):
            zy = MARGIN if pos == "top" else bottom_zone_y
            _edge_seat(b, obs, seat, zy, display, own_view and seat == obs.seat, wilds)
        else:
            _side_seat(b, obs, seat, pos, cy, side_top, side_bottom, display, wilds)
    _centre(b, obs, cx, cy)
    return Layout(WIDTH, height, tuple(b.items))


def _centre(b: Builder, obs: Observation, cx: int, cy: int) -> None:
    """The wall count in the middle; tiles a 开杠 turned up, or a kong being robbed, under it."""
    shown: list[tuple[int, str]] = [(t, "kong") for t in obs.kong_tiles]
    if obs.phase == Phase.CLAIM and obs.claim_kind == "rob" and obs.claim_tile is not None:
        shown.append((obs.claim_tile, "rob"))
    wy = cy - 20 if not shown else cy - 38
    _wall(b, obs, cx - 40, wy, 84, 40)
    tw = CENTRE_TW
    th = tile_h(tw)
    x = cx - len(shown) * (tw + 6) // 2
    for i, (t, role) in enumerate(shown):
        _tile(b, x + i * (tw + 6), cy + 8, tw, th, t, role=role, index=i, marks=(Mark.LAST,))


def _river(b: Builder, obs: Observation, seat: int, pos: str, console_x: int, console_y: int) -> None:
    river = obs.seats[seat].discards
    vertical = pos in ("left", "right")
    cols, rows = (V_COLS, V_ROWS) if vertical else (H_COLS, H_ROWS)
    tw, th, per_row = _river_size(len(river), cols, rows)
    px, py = tw + 2, th + 2
    right, bottom = console_x + CONSOLE, console_y + CONSOLE
    if pos == "bottom":  # from the centre's bottom-left corner, rightward; rows downward
        x0, y0, dy = console_x, bottom + GAP, py
    elif pos == "right":  # from the bottom-right corner, upward
        x0, y0, dy = right + GAP, bottom - th, -py
    elif pos == "top":  # from the top-right corner, leftward; rows upward
        x0, y0, dy = right - RH_W, console_y - GAP - th, -py
    else:  # left: from the top-left corner, downward
        x0, y0, dy = console_x - GAP - RV_W, console_y, py
    for k, t in enumerate(river):
        row, col = divmod(k, per_row)
        x, y = x0 + col * px, y0 + row * dy
        marks = _discard_marks(obs, seat, k, river)
        _tile(b, x, y, tw, th, t, role="discard", seat=seat, index=k, marks=marks)
        if marks:  # the latest discard: a pin above it besides its ring
            pw = max(14, tw // 2)
            b.add(Kind.ICON, (x + (tw - pw) // 2, max(0, y - pw * 3 // 4 - 3), pw, pw * 3 // 4), "last", seat)


def _still_revealed(ps: PublicSeat) -> list[int]:
    """The tiles a seat showed at the deal (起手小胡) still in its hand, never more than it holds (a picture
    never draws more tiles than a hand has)."""
    return still_revealed(ps)[: ps.hand_size]


def _edge_seat(
    b: Builder, obs: Observation, seat: int, zy: int, display: Display, big: bool, wilds: frozenset[int]
) -> None:
    """A top or bottom seat: name plate, melds, hand (faces when shown, else backs) in one centred row."""
    ps = obs.seats[seat]
    meld_gap, apart_gap = 8, 14
    shown = _shown_tiles(obs, seat)
    revealed = _still_revealed(ps) if shown is None else []
    hidden = ps.hand_size - len(revealed) if shown is None else 0
    hand = shown[0] if shown is not None else []
    apart = shown[1] if shown is not None else None
    n_tiles = len(hand) + len(revealed) + hidden
    name = _name(display, seat, 150)
    plate_w = _plate_row_width(obs, seat, name) + 12
    room = WIDTH - 2 * MARGIN - 8 - plate_w

    def row_w(tw: int) -> int:
        apart_w = apart_gap + tw if apart is not None else 0
        return _melds_width(obs, seat, tw, meld_gap) + n_tiles * tw + apart_w

    tw = _largest(OWN_SIZES if big else EDGE_SIZES, lambda w: row_w(w) <= room)
    th = tile_h(tw)
    lift = lift_of(th) if any(m.is_kong for m, _ in seat_melds(obs, seat)) else 0
    x = (WIDTH - plate_w - row_w(tw)) // 2
    y = zy + lift + (ZONE_H - lift - th) // 2
    _plate_row(b, obs, seat, x, zy + ZONE_H // 2, display, name)
    x += plate_w
    x = _melds_row(b, obs, seat, x, y, tw, th, meld_gap)
    _hand_row(b, obs, seat, x, y, tw, th, hand, apart, revealed, hidden, apart_gap, wilds)


def _hand_row(
    b: Builder,
    obs: Observation,
    seat: int,
    x: int,
    y: int,
    tw: int,
    th: int,
    hand: list[int],
    apart: int | None,
    revealed: list[int],
    hidden: int,
    apart_gap: int,
    wilds: frozenset[int],
) -> None:
    for i, t in enumerate(hand):
        _tile(b, x, y, tw, th, t, role="hand", seat=seat, index=i, wilds=wilds)
        x += tw
    for i, t in enumerate(revealed):
        _tile(b, x, y, tw, th, t, role="revealed", seat=seat, index=i, wilds=wilds)
        x += tw
    for i in range(hidden):
        _tile(b, x, y, tw, th, -1, role="hand", seat=seat, index=i)
        x += tw
    if apart is not None:
        drawn = seat == obs.seat and obs.drawn is not None
        role, marks = ("drawn", (Mark.APART, Mark.DRAWN)) if drawn else ("win", (Mark.APART, Mark.WIN))
        _tile(b, x + apart_gap, y, tw, th, apart, role=role, seat=seat, marks=marks, wilds=wilds)


def _side_seat(
    b: Builder,
    obs: Observation,
    seat: int,
    pos: str,
    cy: int,
    top: int,
    bottom: int,
    display: Display,
    wilds: frozenset[int],
) -> None:
    """A left or right seat, in a column: name plate, melds (one under another) at river size, then its
    hand — faces in rows of three when shown, else a face-down tile and how many it holds."""
    ps = obs.seats[seat]
    shown = _shown_tiles(obs, seat)
    revealed = _still_revealed(ps) if shown is None else []
    hidden = ps.hand_size - len(revealed) if shown is None else 0
    faces = (shown[0] + ([shown[1]] if shown[1] is not None else [])) if shown is not None else revealed
    melds = seat_melds(obs, seat)
    x0 = MARGIN if pos == "left" else WIDTH - MARGIN - SIDE_W
    name = _name(display, seat, SIDE_W - 10)
    plate_h = 8 + marker_height(obs, seat, R) + (LABEL_SIZE + 8 if name else 4)

    def total(tw: int) -> int:
        th = tile_h(tw)
        per_row = 3
        return (
            plate_h
            + 10
            + len(melds) * (lift_of(th) + th + 10)
            + (-(-len(faces) // per_row) * (th + 2) + 6 if faces else 0)
            + (HIDDEN_H if hidden else 0)
        )

    tw = _largest((SIDE_TW, 32, 28, 24), lambda w: total(w) <= bottom - top)
    th = tile_h(tw)
    lift = lift_of(th)
    y = min(max(top, cy - total(tw) // 2), bottom - total(tw))
    y = _plate_column(b, obs, seat, x0, max(top, y), SIDE_W, display) + 10
    ccx = x0 + SIDE_W // 2
    mx = ccx - 3 * tw // 2
    for i, mk in enumerate(melds):
        _meld_group(b, seat, i, mk, mx, y + lift, tw, th)
        y += lift + th + 10
    if faces:
        n_hand = len(shown[0]) if shown is not None else 0
        for i, t in enumerate(faces):
            row, col = divmod(i, 3)
            marks: tuple[Mark, ...]
            if shown is not None and i >= n_hand:
                role, marks = "win", (Mark.APART, Mark.WIN)
            else:
                role, marks = ("hand" if shown is not None else "revealed"), ()
            _tile(b, mx + col * tw, y + row * (th + 2), tw, th, t, role, seat, i, marks, wilds)
        y += -(-len(faces) // 3) * (th + 2) + 6
    if hidden:
        _hidden_count(b, seat, ccx, y, hidden)


HIDDEN_H = 40


def _hidden_count(b: Builder, seat: int, cx: int, y: int, n: int) -> None:
    """A side seat's concealed tiles: one face-down tile and the number it holds ("13")."""
    bw, bh = 26, tile_h(26)
    tx = cx - (bw + 6 + 40) // 2
    b.add(Kind.ICON, (tx, y + (HIDDEN_H - bh) // 2, bw, bh), role="hidden", seat=seat)
    b.add(Kind.TEXT, (tx + bw + 6, y, 44, HIDDEN_H), role="count", seat=seat, text=str(n), size=28, align="l")


# ------------------------------------------------------------------ the end of a hand

END_SIZES = (38, 34, 30, 26)
BIRD_TW = 32
ROW_GAP = 8
END_PLATE = 124  # the name plate's column
END_AMOUNT = 118  # the amount's column


def end_layout(obs: Observation, display: Display) -> Layout:
    """Every hand revealed (melds, concealed tiles, the winning tile apart), how each win came (自摸, or 接炮
    with 点炮 on the seat that dealt in), the amount each seat won or paid, the viewer's own row marked, and
    the birds (扎鸟) if any were drawn, those that hit ringed with the seat they hit under them."""
    b = Builder()
    n = len(obs.seats)
    wilds = wild_tiles(obs.variant)
    deltas = obs.result.deltas if obs.result is not None else _sum_deltas(obs)
    winners = set(obs.result.winners if obs.result is not None else obs.winners)
    hows = win_ways(obs, display)
    order = [(obs.dealer + i) % n for i in range(n)]  # 东 first
    shown = {seat: _shown_tiles(obs, seat) for seat in order}
    x_tiles = MARGIN + END_PLATE + 8
    room = WIDTH - MARGIN - END_AMOUNT - x_tiles

    def row_w(seat: int, tw: int) -> int:
        s = shown[seat]
        count = (len(s[0]) if s else obs.seats[seat].hand_size) + (1 if s and s[1] is not None else 0)
        return _melds_width(obs, seat, tw, 8) + count * tw + (14 if s and s[1] is not None else 0)

    tw = _largest(END_SIZES, lambda w: all(row_w(s, w) <= room for s in order))
    th = tile_h(tw)
    lift = lift_of(th)
    y = MARGIN
    for seat in order:
        name = _name(display, seat, END_PLATE - 10)
        plate_h = 8 + marker_height(obs, seat, R) + (LABEL_SIZE + 8 if name else 4)
        row_h = max(lift + th + 22, plate_h + 8, 84)
        marks = ((Mark.WIN,) if seat in winners else ()) + ((Mark.OWN,) if seat == obs.seat else ())
        b.add(Kind.PANEL, (MARGIN, y, WIDTH - 2 * MARGIN, row_h), role="row", seat=seat, marks=marks)
        _plate_column(b, obs, seat, MARGIN + 4, y + (row_h - plate_h) // 2, END_PLATE - 8, display, False)
        ty = y + (row_h - th + lift) // 2
        x = _melds_row(b, obs, seat, x_tiles, ty, tw, th, 8)
        s = shown[seat]
        if s is None:
            _hand_row(b, obs, seat, x, ty, tw, th, [], None, [], obs.seats[seat].hand_size, 14, wilds)
        else:
            _hand_row(b, obs, seat, x, ty, tw, th, s[0], s[1], [], 0, 14, wilds)
        d = deltas[seat]
        ax = WIDTH - MARGIN - END_AMOUNT
        how = hows.get(seat)
        amount_h = 40
        ay = y + (row_h - amount_h - (30 if how else 0)) // 2
        b.add(
            Kind.TEXT,
            (ax, ay, END_AMOUNT - 10, amount_h),
            role="amount",
            seat=seat,
            text=f"{d:+d}" if d else "0",
            size=34,
            marks=(Mark.PLUS,) if d > 0 else (Mark.MINUS,) if d < 0 else (),
            align="r",
        )
        if how:
            text, mark = how
            tag_w = min(END_AMOUNT - 10, round(fonts.width(text, 18)) + 16)
            box = (WIDTH - MARGIN - 10 - tag_w, ay + amount_h + 2, tag_w, 26)
            b.add(Kind.BADGE, box, role="how", seat=seat, text=text, marks=(mark,), size=18)
        y += row_h + ROW_GAP
    y = _birds(b, obs, display, y)
    height = y - ROW_GAP + MARGIN
    return Layout(WIDTH, height, tuple(b.items))


def _birds(b: Builder, obs: Observation, display: Display, y: int) -> int:
    """The birds under the rows: each bird tile, ringed when it hit (it points at the winner or at a seat
    that paid), dimmed when it missed, with the wind of the seat it hit under it. Returns the y below."""
    drawn = [(s, i, t) for s in obs.settlements for i, t in enumerate(s.birds)]
    if not drawn:
        return y
    btw, bth = BIRD_TW, tile_h(BIRD_TW)
    zh = display.lang == "zh"
    label_w = 36 if zh else 80
    b.add(
        Kind.TEXT,
        (MARGIN + 16, y + (bth - 30) // 2, label_w, 30),
        "birds",
        text="鸟" if zh else "BIRDS",
        size=22,
        align="l",
    )
    x = MARGIN + 16 + label_w + 12
    for k, (s, i, t) in enumerate(drawn):
        target = bird_hit(s, i)
        marks = (Mark.HIT,) if target is not None else (Mark.DIM,)
        _tile(b, x, y, btw, bth, t, role="bird", index=k, marks=marks)
        if target is not None:
            b.add(
                Kind.TEXT,
                (x + (btw - 20) // 2, y + bth + 4, 20, 20),
                "bird_seat",
                target,
                text=wind_of(obs, target),
                size=20,
            )
        x += btw + 8
    return y + bth + 26 + ROW_GAP


def bird_hit(s: Settlement, i: int) -> int | None:
    """The seat bird ``i`` of settlement ``s`` hit: the seat it points at (as the variant counted it) when
    that seat won or paid in it, else None (a miss)."""
    target = s.bird_seats[i] if i < len(s.bird_seats) else None
    if target is None:
        return None
    counted = set(s.winners) | {p.payer for p in s.payments}
    return target if target in counted else None


def win_ways(obs: Observation, display: Display) -> dict[int, tuple[str, Mark]]:
    """How the hand's last win of each winner came, as the tags of the end picture: 自摸 on a self-draw;
    接炮 on the winner and 点炮 on the seat that dealt in otherwise.

    The Observation tells it without the events: a winner's shown hand holds the winning tile after a
    self-draw (3n+2 tiles) and not after a win on another seat's tile (3n+1); the seat that dealt in is the
    one seat that paid that win. A seat that won several times (血流成河) is told by its last win's payers
    alone: one payer of several possible is a discard."""
    out: dict[int, tuple[str, Mark]] = {}
    last: dict[int, Settlement] = {}
    for s in obs.settlements:
        if s.kind == SettleKind.WIN:
            for w in s.winners:
                last[w] = s
    for w, s in last.items():
        payers = sorted({p.payer for p in s.payments if p.payee == w})
        hand = obs.seats[w].hand
        if hand is not None and obs.seats[w].wins <= 1 and win_tile(obs, w) is not None:
            self_draw = len(hand) % 3 == 2
        else:
            self_draw = len(payers) != 1 or len(obs.seats) == 2
        if self_draw:
            out[w] = (words("自摸", "self-drawn", display.lang), Mark.WIN)
        else:
            out[w] = (words("接炮", "on a discard", display.lang), Mark.WIN)
            if len(payers) == 1 and payers[0] not in out:
                out[payers[0]] = (words("点炮", "dealt in", display.lang), Mark.MINUS)
    return out


def _sum_deltas(obs: Observation) -> tuple[int, ...]:
    totals = [0] * len(obs.seats)
    for s in obs.settlements:
        for i, d in enumerate(s.deltas):
            totals[i] += d
    return tuple(totals)


def sprite_grounds() -> list[tuple[int, int, str]]:
    """Every tile size the pictures use, with what it lies on: "felt" (the table), "tray" (a meld),
    "row" (a result row), "console" (the centre)."""
    hand_melds = {round(w * MELD_SCALE) for w in HAND_SIZES}
    side = (SIDE_TW, 32, 28, 24)
    out = {(w, "felt") for w in (*RIVER_SIZES, *HAND_SIZES, *EDGE_SIZES, *OWN_SIZES, *side)}
    out |= {(w, "tray") for w in (*hand_melds, *EDGE_SIZES, *OWN_SIZES, *side)}
    out |= {(w, g) for w in END_SIZES for g in ("row", "own", "tray")}
    out |= {(BIRD_TW, "felt"), (CENTRE_TW, "console")}
    return [(w, tile_h(w), g) for w, g in sorted(out)]


__all__ = ["Display", "end_layout", "hand_layout", "sprite_grounds", "table_layout", "win_ways"]
