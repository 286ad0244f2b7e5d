"""The three pictures as Layouts, from an Observation and display data only.

- ``hand_layout``: the viewer's hand for his DM — melds, then the concealed tiles by suit, the drawn tile
  (or the tile he may claim) set apart.
- ``table_layout``: the table — the viewer (or seat 0 for the group) at the bottom, the next seat on the
  right; each seat's marker, melds, hand (face down unless shown) and river in play order around a centre
  that shows the winds (the seat to play lit) and the wall.
- ``end_layout``: the end of a hand — every hand revealed, the winning tile apart, the amount per seat.

Sizes are picked for Telegram: pictures are 1280 px wide (its largest photo side, so it does not rescale
them) and are shown about 360 px wide in a chat, so a river tile of 58 px is about 16 px there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.pictures.layout import (
    Builder,
    Kind,
    Layout,
    Mark,
    ascii_label,
    meld_faces,
    position_of,
    seat_melds,
    split_drawn,
    void_suit,
    wind_of,
)
from engine import Act, Observation, Phase
from engine.melds import Meld
from engine.observe import PublicSeat

WIDTH = 1280


@dataclass(frozen=True, slots=True)
class Display:
    """What a picture needs besides the Observation.

    ``lang``: "zh" or "en" (the few words drawn). ``labels``: per seat, drawn under its marker when plain
    ASCII (any other name belongs in the caption, see ``legend``). ``win_tiles``: (seat, tile) of each win so
    far, as the public "win" events tell it; the Observation alone does not say which tile won."""

    lang: str = "zh"
    labels: tuple[str, ...] = ()
    win_tiles: tuple[tuple[int, int], ...] = ()

    def label(self, seat: int) -> str:
        return ascii_label(self.labels[seat]) if 0 <= seat < len(self.labels) else ""

    def win_tile(self, seat: int) -> int | None:
        for s, t in self.win_tiles:
            if s == seat:
                return t
        return None


def lift_of(th: int) -> int:
    """How far a kong's fourth tile sits above the other three."""
    return round(th * 0.26)


def tile_h(tw: int) -> int:
    return round(tw * 1.36)


# ------------------------------------------------------------------ shared pieces


def _turn_seat(obs: Observation) -> int | None:
    if obs.phase in (Phase.TURN, Phase.HAIDI, Phase.OPENING):
        return obs.current
    return None


def badge_size(r: int) -> int:
    return max(22, round(r * 0.9))


def marker_width(r: int) -> int:
    """A seat marker's width: the disc and the column of badges on its right."""
    return 2 * r + 4 + badge_size(r)


def _ribbon_h(r: int) -> int:
    return round(badge_size(r) * 0.8)


def marker_height(obs: Observation, seat: int, r: int, display: Display) -> int:
    """How tall a seat's marker is: the disc, a won seat's ribbon below it, the label."""
    h = 2 * r
    if obs.seats[seat].won or obs.seats[seat].wins:
        h += _ribbon_h(r) // 2
    if display.label(seat):
        h += 21
    return h


def _seat_marker(
    b: Builder,
    obs: Observation,
    seat: int,
    x: int,
    top: int,
    r: int,
    display: Display,
    label_span: tuple[int, int] | None = None,
) -> int:
    """A seat's marker from (x, top): its disc (the wind; gold on its turn, red once won), its badges on the
    right (dealer 庄 on top, the 定缺 suit below), a won seat's 胡 ribbon across the disc's foot, its ASCII
    label under it. ``label_span``: (x, width) the label is centred in (default: 120 px under the disc).
    Returns the y below the marker (``top + marker_height``)."""
    ps = obs.seats[seat]
    turn = _turn_seat(obs) == seat
    cx, cy = x + r, top + r
    won = ps.won or ps.wins > 0  # 血流成河: a winner plays on; the ribbon counts his wins
    marks = ((Mark.TURN,) if turn else ()) + ((Mark.WIN,) if won else ())
    b.add(
        Kind.SEAT,
        (cx - r, cy - r, 2 * r, 2 * r),
        role="seat",
        seat=seat,
        text=wind_of(obs, seat),
        marks=marks,
    )
    s = badge_size(r)
    zh = display.lang == "zh"
    bx = cx + r + 4
    if seat == obs.dealer:
        b.add(Kind.BADGE, (bx, cy - r - 2, s, s), role="dealer", seat=seat, text="庄" if zh else "D")
    suit = void_suit(ps.choice)
    if suit is not None:
        b.add(
            Kind.BADGE,
            (bx, cy + r - s + 2, s, s),
            role="void",
            seat=seat,
            tile=suit * 9,
            text="缺" if zh else "void",
        )
    y = cy + r
    if won:
        h = _ribbon_h(r)
        w = round(h * 1.4) if zh else round(h * 2.4)
        b.add(
            Kind.BADGE,
            (cx - w // 2, cy + r - h // 2, w, h),
            role="won",
            seat=seat,
            text="胡" if zh else "WIN",
        )
        if ps.wins > 1:  # how many times, beside the ribbon
            box = (cx + w // 2 + 2, cy + r - h // 2, h + 4, h)
            b.add(Kind.BADGE, box, role="wins", seat=seat, text=f"x{ps.wins}")
        y += h // 2
    label = display.label(seat)
    if label:
        lx, lw = label_span if label_span is not None else (cx - 60, 120)
        b.add(Kind.TEXT, (lx, y + 3, lw, 18), role="label", seat=seat, text=label, size=16)
        y += 21
    return y


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
) -> None:
    """A tile face up (``face`` 0..33) or face down (-1) in the box (x, y, tw, th)."""
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


MELDS_GAP = 12  # between the last meld and the concealed tiles, beyond the gap between melds


def _melds_row(b: Builder, obs: Observation, seat: int, x: int, y: int, tw: int, th: int, gap: int) -> int:
    """A seat's melds left to right, tiles' top at y (a kong's fourth above it). Returns the x after them."""
    for i, mk in enumerate(seat_melds(obs, seat)):
        _meld_group(b, seat, i, mk, x, y, tw, th)
        x += 3 * tw + gap
    return x + (MELDS_GAP if seat_melds(obs, seat) else 0)


def _melds_width(obs: Observation, seat: int, tw: int, gap: int) -> int:
    n = len(seat_melds(obs, seat))
    return n * (3 * tw + gap) + (MELDS_GAP if n else 0)


def _shown_tiles(obs: Observation, seat: int, display: Display) -> tuple[list[int], int | None] | None:
    """A seat's concealed tiles as the viewer may see them, and its tile set apart (drawn / winning tile):
    None when the hand is hidden."""
    ps = obs.seats[seat]
    if seat == obs.seat:
        hand, drawn = split_drawn(obs)
        win = display.win_tile(seat) if ps.won or obs.phase == Phase.ENDED else None
        if win is not None and drawn is None:
            return _without_win(list(obs.hand), win)
        return hand, drawn
    if ps.hand is None:
        return None
    win = display.win_tile(seat)
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


# ------------------------------------------------------------------ the hand (DM)

HAND_MARGIN = 24
LAST_TW = 40  # the latest discard in the hand picture's header
HAND_HEADER = 72
MELD_SCALE = 0.8  # melds beside the hand are drawn a little smaller: they are not played from
# the hand's tile width: the largest of these that fits (a few sizes only: their sprites are kept)
HAND_SIZES = (80, 72, 64, 56, 48)


def hand_layout(obs: Observation, display: Display) -> Layout:
    """The viewer's hand: melds, then concealed tiles by suit, the drawn tile (or the claimable tile) apart
    (face down while a choice is made before looking at them). The header shows the seat's marker, the
    latest discard (whose and which) and the wall."""
    if obs.seat < 0:
        raise ValueError("a hand picture needs a seat's observation, not the public one")
    b = Builder()
    me = obs.seat
    shown = _shown_tiles(obs, me, display)
    hand, apart = shown if shown is not None else ([], None)
    if obs.phase == Phase.CHOOSE and not obs.hand and obs.seats[me].hand_size:
        hand = [-1] * obs.seats[me].hand_size  # a choice made before looking (飘, 加锤): dealt, face down
    apart_role, apart_marks = "drawn", (Mark.APART, Mark.DRAWN)
    if apart is not None and obs.drawn is None:
        apart_role, apart_marks = "win", (Mark.APART, Mark.WIN)
    offer: list[int] = []  # tiles on offer to this seat: a discard it may claim, 开杠 tiles it turned up
    if obs.phase == Phase.CLAIM and obs.claim_tile is not None and me in obs.to_act and obs.claim_from != me:
        offer = [obs.claim_tile]
    elif obs.kong_tiles and obs.current == me:
        offer = list(obs.kong_tiles)
    melds = seat_melds(obs, me)
    suits = len({t // 9 for t in hand})
    meld_gap, suit_gap, apart_gap = 14, 10, 30
    slots = MELD_SCALE * 3 * len(melds) + len(hand) + (1 if apart is not None else 0) + len(offer)
    gaps = meld_gap * len(melds) + (16 if melds else 0) + suit_gap * max(0, suits - 1)
    gaps += apart_gap if apart is not None else 0
    gaps += apart_gap if offer else 0
    fit = (WIDTH - 2 * HAND_MARGIN - gaps) / max(slots, 1)
    tw = next((w for w in HAND_SIZES if w <= fit), HAND_SIZES[-1])
    th = tile_h(tw)
    mw = round(tw * MELD_SCALE)
    mh = tile_h(mw)
    lift = lift_of(mh) if any(m.is_kong for m, _ in melds) else 0
    row_w = round(slots * tw) + gaps
    x = (WIDTH - row_w) // 2
    y = HAND_MARGIN + HAND_HEADER + 10 + max(0, lift - (th - mh))
    # header: the seat's marker, the latest discard, the wall
    r = 30
    hy = HAND_MARGIN + HAND_HEADER // 2 - 6
    _seat_marker(b, obs, me, HAND_MARGIN + 4, hy - r, r, Display(display.lang))  # label beside, not under
    label = display.label(me)
    if label:
        b.add(
            Kind.TEXT,
            (HAND_MARGIN + marker_width(r) + 16, hy - 14, 300, 28),
            role="label",
            seat=me,
            text=label,
            size=26,
        )
    if obs.last_discard is not None and obs.phase != Phase.ENDED:
        s, t = obs.last_discard
        ltw = LAST_TW
        lx = WIDTH // 2 - 40
        b.add(Kind.SEAT, (lx, hy - 22, 44, 44), role="from", seat=s, text=wind_of(obs, s))
        _tile(b, lx + 56, hy - tile_h(ltw) // 2, ltw, tile_h(ltw), t, role="last", seat=s, marks=(Mark.LAST,))
    _wall(b, obs, WIDTH - HAND_MARGIN - 140, hy - 24, 140, 48)
    # the row: melds (bottoms level with the hand's), the hand by suit, the tile(s) apart
    for i, mk in enumerate(melds):
        _meld_group(b, me, i, mk, x, y + th - mh, mw, mh)
        x += 3 * mw + meld_gap
    if melds:
        x += 16
    playable = {a.tile for a in obs.legal if a.act == Act.DISCARD}
    marks: tuple[Mark, ...]
    prev_suit = None
    for i, t in enumerate(hand):
        if prev_suit is not None and t // 9 != prev_suit:
            x += suit_gap
        prev_suit = t // 9
        marks = (Mark.DIM,) if playable and t not in playable else ()
        _tile(b, x, y, tw, th, t, role="hand", seat=me, index=i, marks=marks)
        x += tw
    if apart is not None:
        x += apart_gap
        marks = apart_marks + ((Mark.DIM,) if playable and apart not in playable else ())
        _tile(b, x, y, tw, th, apart, role=apart_role, seat=me, marks=marks)
        x += tw
    if offer:
        x += apart_gap
        for i, t in enumerate(offer):
            _tile(b, x, y, tw, th, t, role="claim", seat=me, index=i, marks=(Mark.APART, Mark.CLAIM))
            x += tw
    height = y + th + HAND_MARGIN
    return Layout(WIDTH, height, tuple(b.items))


def _wall(b: Builder, obs: Observation, x: int, y: int, w: int, h: int) -> None:
    """The tiles left in the wall: a small stack of backs and the number."""
    b.add(Kind.ICON, (x, y + 4, h * 3 // 4, h - 8), role="wall")
    b.add(
        Kind.TEXT,
        (x + h * 3 // 4 + 8, y, w - h * 3 // 4 - 8, h),
        role="wall",
        text=str(obs.wall_remaining),
        size=h * 3 // 4,
    )


# ------------------------------------------------------------------ the table
#
# Rivers lie around the centre as on a real table, in a pinwheel: each starts at the centre's corner on its
# owner's left and may run past the centre's side, so four rivers of four rows fit without touching. Every
# face stays upright (readable) and every river row reads left to right; rows stack away from the centre's
# edge the river starts at (the top and right rivers grow upward).

MARGIN = 12
GAP = 14
RIVER_SIZES = (58, 48, 40, 34, 28)
RIVER_COLS, RIVER_ROWS = 6, 4
RIVER_W = RIVER_COLS * (RIVER_SIZES[0] + 2) - 2
RIVER_H = RIVER_ROWS * (tile_h(RIVER_SIZES[0]) + 2) - 2
SIDE_W = 116
ZONE_H = 92  # top and bottom seats' rows
CONSOLE = WIDTH - 2 * (MARGIN + SIDE_W + 12) - 2 * (RIVER_W + GAP)
EDGE_TW = 44  # top / bottom seats' tiles
OWN_TW = 56  # the viewer's own hand at the bottom of his DM table
SIDE_TW = 34  # left / right seats' tiles
CENTRE_TW = 36  # tiles shown on the centre (开杠 tiles, a kong being robbed)


def _river_size(n: int) -> tuple[int, int, int]:
    """The largest river tile (w, h, per row) that fits ``n`` discards in the river's area."""
    for tw in RIVER_SIZES:
        th = tile_h(tw)
        cols = (RIVER_W + 2) // (tw + 2)
        rows = (RIVER_H + 2) // (th + 2)
        if cols * rows >= n:
            return tw, th, cols
    tw = RIVER_SIZES[-1]
    return tw, tile_h(tw), (RIVER_W + 2) // (tw + 2)


def table_layout(obs: Observation, display: Display) -> Layout:
    b = Builder()
    own_view = obs.seat >= 0
    top_y = MARGIN + ZONE_H + 10
    console_y = top_y + RIVER_H + GAP
    console_x = (WIDTH - CONSOLE) // 2
    bottom_zone_y = console_y + CONSOLE + GAP + RIVER_H + 12
    bottom_h = ZONE_H + (tile_h(OWN_TW) - tile_h(EDGE_TW) + 8 if own_view else 0)
    height = bottom_zone_y + bottom_h + MARGIN
    b.add(Kind.PANEL, (console_x, console_y, CONSOLE, CONSOLE), role="console")
    cx, cy = WIDTH // 2, console_y + CONSOLE // 2
    turn = _turn_seat(obs)
    for ps in obs.seats:
        seat = ps.seat
        pos = position_of(obs, seat)
        # the seat's wind on the centre, on its side
        ws = 52
        wx, wy = {
            "bottom": (cx - ws // 2, console_y + CONSOLE - ws - 10),
            "top": (cx - ws // 2, console_y + 10),
            "left": (console_x + 10, cy - ws // 2),
            "right": (console_x + CONSOLE - ws - 10, cy - ws // 2),
        }[pos]
        b.add(
            Kind.WIND,
            (wx, wy, ws, ws),
            role="console",
            seat=seat,
            text=wind_of(obs, seat),
            marks=(Mark.TURN,) if turn == seat else (),
        )
        _river(b, obs, seat, pos, console_x, console_y)
        if pos in ("bottom", "top"):
            zy = MARGIN if pos == "top" else bottom_zone_y
            _edge_seat(b, obs, seat, zy, display, big=own_view and seat == obs.seat)
        else:
            _side_seat(b, obs, seat, pos, cy, display)
    _centre(b, obs, cx, cy)
    return Layout(WIDTH, height, tuple(b.items))


def _centre(b: Builder, obs: Observation, cx: int, cy: int) -> None:
    """The wall count in the middle; tiles a 开杠 turned up, or a kong being robbed, under it."""
    _wall(b, obs, cx - 62, cy - 44, 124, 48)
    shown: list[tuple[int, str]] = [(t, "kong") for t in obs.kong_tiles]
    if obs.phase == Phase.CLAIM and obs.claim_kind == "rob" and obs.claim_tile is not None:
        shown.append((obs.claim_tile, "rob"))
    tw = CENTRE_TW
    th = tile_h(tw)
    x = cx - len(shown) * (tw + 6) // 2
    for i, (t, role) in enumerate(shown):
        _tile(b, x + i * (tw + 6), cy + 12, tw, th, t, role=role, index=i, marks=(Mark.LAST,))


def _river(b: Builder, obs: Observation, seat: int, pos: str, console_x: int, console_y: int) -> None:
    river = obs.seats[seat].discards
    tw, th, cols = _river_size(len(river))
    px, py = tw + 2, th + 2
    right, bottom = console_x + CONSOLE, console_y + CONSOLE
    if pos == "bottom":  # from the centre's bottom-left corner, rightward; rows downward
        x0, y0, dy = console_x, bottom + GAP, py
    elif pos == "right":  # from the bottom-right corner, upward
        x0, y0, dy = right + GAP, bottom - th, -py
    elif pos == "top":  # from the top-right corner, leftward; rows upward
        x0, y0, dy = right - RIVER_W, console_y - GAP - th, -py
    else:  # left: from the top-left corner, downward
        x0, y0, dy = console_x - GAP - RIVER_W, console_y, py
    for k, t in enumerate(river):
        row, col = divmod(k, cols)
        _tile(
            b,
            x0 + col * px,
            y0 + row * dy,
            tw,
            th,
            t,
            role="discard",
            seat=seat,
            index=k,
            marks=_discard_marks(obs, seat, k, river),
        )


def _still_revealed(ps: PublicSeat) -> list[int]:
    """The tiles a seat showed at the deal (起手小胡) that can still be in its hand: less those it has
    discarded since, and never more than it holds (a picture never draws more tiles than a hand has)."""
    left = list(ps.revealed)
    for t in ps.discards:
        if t in left:
            left.remove(t)
    return left[: ps.hand_size]


def _edge_seat(b: Builder, obs: Observation, seat: int, zy: int, display: Display, big: bool) -> None:
    """A top or bottom seat: marker, melds, hand (faces when shown, else backs) in one centred row."""
    ps = obs.seats[seat]
    tw = OWN_TW if big else EDGE_TW
    th = tile_h(tw)
    lift = lift_of(tile_h(EDGE_TW))
    meld_gap, apart_gap = 12, 20
    shown = _shown_tiles(obs, seat, display)
    revealed = _still_revealed(ps) if shown is None else []
    hidden = ps.hand_size - len(revealed) if shown is None else 0
    hand = shown[0] if shown is not None else []
    apart = shown[1] if shown is not None else None
    n_tiles = len(hand) + len(revealed) + hidden
    row_w = (
        _melds_width(obs, seat, tw, meld_gap) + n_tiles * tw + (apart_gap + tw if apart is not None else 0)
    )
    r = 32
    marker_w = marker_width(r) + 16
    x = (WIDTH - marker_w - row_w) // 2
    y = zy + lift + (ZONE_H - lift - tile_h(EDGE_TW)) // 2
    mh = marker_height(obs, seat, r, display)
    _seat_marker(b, obs, seat, x, zy + (ZONE_H - mh) // 2, r, display)
    x += marker_w
    x = _melds_row(b, obs, seat, x, y, tw, th, meld_gap)
    _hand_row(b, obs, seat, x, y, tw, th, hand, apart, revealed, hidden, apart_gap)


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
) -> None:
    for i, t in enumerate(hand):
        _tile(b, x, y, tw, th, t, role="hand", seat=seat, index=i)
        x += tw
    for i, t in enumerate(revealed):
        _tile(b, x, y, tw, th, t, role="revealed", seat=seat, index=i)
        x += tw
    for i in range(hidden):
        _tile(b, x, y, tw, th, -1, role="hand", seat=seat, index=i)
        x += tw
    if apart is not None:
        drawn = seat == obs.seat and obs.drawn is not None
        role, marks = ("drawn", (Mark.APART, Mark.DRAWN)) if drawn else ("win", (Mark.APART, Mark.WIN))
        _tile(b, x + apart_gap, y, tw, th, apart, role=role, seat=seat, marks=marks)


def _side_seat(b: Builder, obs: Observation, seat: int, pos: str, cy: int, display: Display) -> None:
    """A left or right seat, in a column: marker, melds (one under another), hand (faces in rows of three when
    shown, else the standing tiles' edges)."""
    ps = obs.seats[seat]
    tw, th = SIDE_TW, tile_h(SIDE_TW)
    lift = lift_of(th)
    shown = _shown_tiles(obs, seat, display)
    revealed = _still_revealed(ps) if shown is None else []
    hidden = ps.hand_size - len(revealed) if shown is None else 0
    faces = (shown[0] + ([shown[1]] if shown[1] is not None else [])) if shown is not None else revealed
    melds = seat_melds(obs, seat)
    edge_h = 15
    r = 30
    marker_h = marker_height(obs, seat, r, display) + 14
    melds_h = len(melds) * (lift + th + 8)
    faces_h = -(-len(faces) // 3) * (th + 2) + (8 if faces else 0)
    total = marker_h + melds_h + faces_h + hidden * edge_h
    x0 = MARGIN if pos == "left" else WIDTH - MARGIN - SIDE_W
    y = max(MARGIN + ZONE_H + 10, cy - total // 2)
    ccx = x0 + SIDE_W // 2
    _seat_marker(b, obs, seat, ccx - marker_width(r) // 2, y, r, display, (x0, SIDE_W))
    y += marker_h
    mx = ccx - 3 * tw // 2
    for i, mk in enumerate(melds):
        _meld_group(b, seat, i, mk, mx, y + lift, tw, th)
        y += lift + th + 8
    if faces:
        y += 8
        n_hand = len(shown[0]) if shown is not None else 0
        for i, t in enumerate(faces):
            row, col = divmod(i, 3)
            marks: tuple[Mark, ...]
            if shown is not None and i >= n_hand:
                role, marks = "win", (Mark.APART, Mark.WIN)
            else:
                role, marks = ("hand" if shown is not None else "revealed"), ()
            _tile(b, mx + col * tw, y + row * (th + 2), tw, th, t, role=role, seat=seat, index=i, marks=marks)
        y += -(-len(faces) // 3) * (th + 2)
    ew = 46
    for i in range(hidden):
        b.add(Kind.EDGE, (ccx - ew // 2, y + i * edge_h, ew, edge_h - 2), role="hand", seat=seat, index=i)


# ------------------------------------------------------------------ the end of a hand

END_MARGIN = 16
END_TW = 56
BIRD_TW = 44
ROW_GAP = 10


def end_layout(obs: Observation, display: Display) -> Layout:
    """Every hand revealed (melds, concealed tiles, the winning tile apart), the amount each seat won or
    paid, and the birds (扎鸟) if any were drawn."""
    b = Builder()
    n = len(obs.seats)
    tw, th = END_TW, tile_h(END_TW)
    lift = lift_of(th)
    row_h = th + lift + 26
    deltas = obs.result.deltas if obs.result is not None else _sum_deltas(obs)
    winners = set(obs.result.winners if obs.result is not None else obs.winners)
    y = END_MARGIN
    order = [(obs.dealer + i) % n for i in range(n)]  # 东 first
    for seat in order:
        ps = obs.seats[seat]
        b.add(
            Kind.PANEL,
            (END_MARGIN, y, WIDTH - 2 * END_MARGIN, row_h),
            role="row",
            seat=seat,
            marks=(Mark.WIN,) if seat in winners else (),
        )
        r = 32
        mh = marker_height(obs, seat, r, display)
        _seat_marker(b, obs, seat, END_MARGIN + 18, y + (row_h - mh) // 2, r, display)
        x = END_MARGIN + 18 + marker_width(r) + 22
        ty = y + 13 + lift
        x = _melds_row(b, obs, seat, x, ty, tw, th, 14)
        shown = _shown_tiles(obs, seat, display)
        if shown is None:
            _hand_row(b, obs, seat, x, ty, tw, th, [], None, [], ps.hand_size, 24)
        else:
            _hand_row(b, obs, seat, x, ty, tw, th, shown[0], shown[1], [], 0, 24)
        d = deltas[seat]
        b.add(
            Kind.TEXT,
            (WIDTH - END_MARGIN - 200, y, 176, row_h),
            role="amount",
            seat=seat,
            text=f"{d:+d}" if d else "0",
            size=52,
            marks=(Mark.PLUS,) if d > 0 else (Mark.MINUS,) if d < 0 else (),
        )
        y += row_h + ROW_GAP
    birds = [t for s in obs.settlements for t in s.birds]
    if birds:
        btw = BIRD_TW
        bth = tile_h(btw)
        zh = display.lang == "zh"
        b.add(
            Kind.TEXT,
            (END_MARGIN + 30, y + (bth - 44) // 2, 44 if zh else 110, 44),
            role="birds",
            text="鸟" if zh else "BIRDS",
            size=30,
        )
        x = END_MARGIN + 30 + (44 if zh else 110) + 16
        for i, t in enumerate(birds):
            _tile(b, x + i * (btw + 4), y, btw, bth, t, role="bird", index=i)
        y += bth + ROW_GAP
    height = y - ROW_GAP + END_MARGIN
    return Layout(WIDTH, height, tuple(b.items))


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
    out = {(w, "felt") for w in (*RIVER_SIZES, *HAND_SIZES, EDGE_TW, OWN_TW, SIDE_TW, LAST_TW, BIRD_TW)}
    out |= {(w, "tray") for w in (*hand_melds, EDGE_TW, OWN_TW, SIDE_TW, END_TW)}
    out |= {(END_TW, "row"), (CENTRE_TW, "console")}
    return [(w, tile_h(w), g) for w, g in sorted(out)]


__all__ = ["Display", "end_layout", "hand_layout", "sprite_grounds", "table_layout"]
