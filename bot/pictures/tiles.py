"""Tile faces drawn in code: dots (筒) as ringed circles in the classic layouts, bamboo (条) as jointed sticks
(the 1 a bird), characters (万) as a numeral over 万, the honours as stroke glyphs; a white dragon (白) is a
blue frame.

Every face is drawn once per size at 4× and scaled down (smooth edges), then kept: a picture only pastes
sprites. A sprite is the whole tile — ivory face over a coloured back layer that shows as the tile's
thickness — with its soft shadow; ``Sprite.ox/oy`` is where the tile's own box starts inside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.pictures.glyphs import draw_glyph

SS = 4  # supersampling factor of the face art

IVORY = (251, 246, 233)
IVORY_EDGE = (222, 211, 186)
NAVY = (28, 42, 74)
BLUE = (31, 78, 156)
GREEN = (26, 120, 66)
DARK_GREEN = (15, 80, 42)
RED = (200, 40, 40)
BACK = (38, 92, 160)  # the tiles' back layer (and a face-down tile)
BACK_LIGHT = (72, 128, 192)
BACK_DARK = (24, 64, 118)  # a face-down tile's body
DIM_FACE = (214, 210, 200)  # a tile that may not be played now
DIM = (120, 120, 120)

NUMERALS = "一二三四五六七八九"
HONOURS = "东南西北白发中"  # tile 27.. 33, the engine's order


@dataclass(frozen=True, slots=True)
class Sprite:
    image: Image.Image  # RGBA: the tile and its shadow
    ox: int  # the tile's box starts at (ox, oy) inside the image
    oy: int


# ------------------------------------------------------------------ face art (drawn at SS×)


def _dot(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: tuple[int, int, int]) -> None:
    """A 筒 pip: a coloured disc with an ivory ring and a coloured centre."""
    for k, c in ((1.0, color), (0.72, IVORY), (0.52, color), (0.2, IVORY)):
        d.ellipse((cx - r * k, cy - r * k, cx + r * k, cy + r * k), fill=c)


def _big_dot(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The 1 of dots: a large rosette of rings."""
    rings = ((1.0, GREEN), (0.9, IVORY), (0.82, BLUE), (0.64, IVORY), (0.56, RED), (0.3, IVORY), (0.2, GREEN))
    for k, c in rings:
        d.ellipse((cx - r * k, cy - r * k, cx + r * k, cy + r * k), fill=c)
    for i in range(8):  # petals in the blue ring
        a = i * math.pi / 4
        px, py = cx + math.cos(a) * r * 0.73, cy + math.sin(a) * r * 0.73
        q = r * 0.07
        d.ellipse((px - q, py - q, px + q, py + q), fill=IVORY)


# pip centres as fractions of the content box, and the pip radius as a fraction of its width: chosen so
# pips never touch on a face of the tiles' proportions (content about 0.76 as wide as tall)
_DOTS: dict[int, list[tuple[float, float, tuple[int, int, int]]]] = {
    2: [(0.5, 0.25, GREEN), (0.5, 0.75, BLUE)],
    3: [(0.24, 0.18, BLUE), (0.5, 0.5, RED), (0.76, 0.82, GREEN)],
    4: [(0.26, 0.26, BLUE), (0.74, 0.26, GREEN), (0.26, 0.74, GREEN), (0.74, 0.74, BLUE)],
    5: [(0.22, 0.19, BLUE), (0.78, 0.19, GREEN), (0.5, 0.5, RED), (0.22, 0.81, GREEN), (0.78, 0.81, BLUE)],
    6: [(0.27, 0.15, GREEN), (0.73, 0.15, GREEN)] + [(x, y, RED) for y in (0.55, 0.85) for x in (0.27, 0.73)],
    7: [(0.2, 0.1, GREEN), (0.5, 0.22, GREEN), (0.8, 0.34, GREEN)]
    + [(x, y, RED) for y in (0.63, 0.89) for x in (0.29, 0.71)],
    8: [(x, y, BLUE) for y in (0.12, 0.373, 0.627, 0.88) for x in (0.29, 0.71)],
    9: [(x, y, c) for y, c in ((0.14, BLUE), (0.5, RED), (0.86, GREEN)) for x in (0.17, 0.5, 0.83)],
}
_DOT_R = {2: 0.29, 3: 0.235, 4: 0.225, 5: 0.215, 6: 0.19, 7: 0.163, 8: 0.16, 9: 0.158}  # × content width


def _dots(d: ImageDraw.ImageDraw, rank: int, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rank == 1:
        _big_dot(d, x0 + w / 2, y0 + h / 2, w * 0.5)
        return
    r = _DOT_R[rank] * w
    for fx, fy, c in _DOTS[rank]:
        _dot(d, x0 + fx * w, y0 + fy * h, r, c)


def _stick(
    d: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    width: float,
    color: tuple[int, int, int],
    dark: tuple[int, int, int],
) -> None:
    """A bamboo stick from a to b: a capsule with a joint at each end and one in the middle."""
    (ax, ay), (bx, by) = a, b
    r = width / 2
    d.line((a, b), fill=color, width=round(width))
    for px, py in (a, b):
        d.ellipse((px - r, py - r, px + r, py + r), fill=color)
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    # a light line down one side, a joint across the middle, darker tips
    q = r * 0.4
    d.line(
        ((ax + nx * q, ay + ny * q), (bx + nx * q, by + ny * q)),
        fill=(236, 240, 226),
        width=max(1, round(r * 0.3)),
    )
    mx, my = (ax + bx) / 2, (ay + by) / 2
    q = r * 1.2
    d.line(((mx - nx * q, my - ny * q), (mx + nx * q, my + ny * q)), fill=dark, width=max(1, round(r * 0.6)))
    for px, py in (a, b):
        d.ellipse((px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55), fill=dark)


_RED_STICK = (RED, (130, 20, 20))
_GREEN_STICK = (GREEN, DARK_GREEN)
_BLUE_STICK = (BLUE, (20, 50, 110))


def _bamboo(d: ImageDraw.ImageDraw, rank: int, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rank == 1:
        _bird(d, box)
        return

    def at(fx: float, fy: float) -> tuple[float, float]:
        return x0 + fx * w, y0 + fy * h

    sw = w * (0.24 if rank <= 4 else 0.2)  # stick width
    r = sw / 2

    def col(
        fx: float, fy: float, half_len: float, colors: tuple[tuple[int, int, int], ...] = _GREEN_STICK
    ) -> None:
        cx, cy = at(fx, fy)
        _stick(d, (cx, cy - half_len + r), (cx, cy + half_len - r), sw, colors[0], colors[1])

    two = h * 0.235  # half a stick's length in a two-row layout
    three = h * 0.155  # … in a three-row layout
    if rank == 2:
        col(0.5, 0.25, two)
        col(0.5, 0.75, two, _BLUE_STICK)
    elif rank == 3:
        col(0.5, 0.25, two, _BLUE_STICK)
        col(0.24, 0.75, two)
        col(0.76, 0.75, two)
    elif rank == 4:
        for fx in (0.24, 0.76):
            col(fx, 0.25, two, _BLUE_STICK if fx < 0.5 else _GREEN_STICK)
            col(fx, 0.75, two, _GREEN_STICK if fx < 0.5 else _BLUE_STICK)
    elif rank == 5:
        for fx in (0.13, 0.87):
            col(fx, 0.25, two)
            col(fx, 0.75, two, _BLUE_STICK)
        col(0.5, 0.5, two, _RED_STICK)
    elif rank == 6:
        for fx in (0.13, 0.5, 0.87):
            col(fx, 0.25, two)
            col(fx, 0.75, two, _BLUE_STICK)
    elif rank == 7:
        col(0.5, 0.165, three, _RED_STICK)
        for fx in (0.13, 0.5, 0.87):
            col(fx, 0.5, three)
            col(fx, 0.835, three, _BLUE_STICK)
    elif rank == 8:
        # the classic M over W
        sw8 = w * 0.15
        for (xa, ya), (xb, yb), colors in (
            ((0.08, 0.05), (0.08, 0.44), _GREEN_STICK),
            ((0.3, 0.05), (0.45, 0.44), _GREEN_STICK),
            ((0.7, 0.05), (0.55, 0.44), _GREEN_STICK),
            ((0.92, 0.05), (0.92, 0.44), _GREEN_STICK),
            ((0.08, 0.56), (0.08, 0.95), _BLUE_STICK),
            ((0.45, 0.56), (0.3, 0.95), _BLUE_STICK),
            ((0.55, 0.56), (0.7, 0.95), _BLUE_STICK),
            ((0.92, 0.56), (0.92, 0.95), _BLUE_STICK),
        ):
            pa, pb = at(xa, ya), at(xb, yb)
            k = sw8 / 2 / math.hypot(pb[0] - pa[0], pb[1] - pa[1])
            pa2 = (pa[0] + (pb[0] - pa[0]) * k, pa[1] + (pb[1] - pa[1]) * k)
            pb2 = (pb[0] - (pb[0] - pa[0]) * k, pb[1] - (pb[1] - pa[1]) * k)
            _stick(d, pa2, pb2, sw8, colors[0], colors[1])
    elif rank == 9:
        for fx in (0.13, 0.5, 0.87):
            for fy, colors in ((0.165, _GREEN_STICK), (0.5, _RED_STICK), (0.835, _BLUE_STICK)):
                col(fx, fy, three, colors)


def _bird(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """The 1 of bamboo: a sparrow on a stick."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(fx: float, fy: float) -> tuple[float, float]:
        return x0 + fx * w, y0 + fy * h

    # tail feathers
    for fx, c in ((0.08, BLUE), (0.16, GREEN), (0.26, RED)):
        d.polygon([p(0.42, 0.58), p(fx, 0.98), p(fx + 0.14, 0.98)], fill=c)
    # body and wing
    d.ellipse((*p(0.22, 0.34), *p(0.86, 0.72)), fill=GREEN)
    d.polygon([p(0.34, 0.46), p(0.74, 0.44), p(0.5, 0.66)], fill=DARK_GREEN)
    d.ellipse((*p(0.36, 0.5), *p(0.7, 0.64)), fill=BLUE)
    # head, crest, beak, eye
    d.polygon([p(0.6, 0.06), p(0.7, 0.2), p(0.56, 0.2)], fill=RED)
    d.ellipse((*p(0.52, 0.12), *p(0.9, 0.42)), fill=GREEN)
    d.polygon([p(0.88, 0.22), p(1.0, 0.3), p(0.86, 0.34)], fill=RED)
    d.ellipse((*p(0.7, 0.2), *p(0.8, 0.28)), fill=IVORY)
    d.ellipse((*p(0.73, 0.22), *p(0.78, 0.27)), fill=NAVY)
    # legs
    d.line((p(0.5, 0.7), p(0.46, 0.84)), fill=RED, width=max(1, round(w * 0.05)))
    d.line((p(0.62, 0.7), p(0.64, 0.84)), fill=RED, width=max(1, round(w * 0.05)))


def _characters(d: ImageDraw.ImageDraw, rank: int, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw_glyph(d, NUMERALS[rank - 1], (x0 + w * 0.1, y0, x1 - w * 0.1, y0 + h * 0.42), NAVY, 12)
    draw_glyph(d, "万", (x0, y0 + h * 0.5, x1, y1), RED, 11)


def _honour(d: ImageDraw.ImageDraw, k: int, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    name = HONOURS[k]
    if name == "白":
        t = w * 0.07
        d.rectangle((x0, y0 + h * 0.04, x1, y1 - h * 0.04), outline=BLUE, width=round(t))
        g = t * 2.2
        d.rectangle(
            (x0 + g, y0 + h * 0.04 + g, x1 - g, y1 - h * 0.04 - g),
            outline=BLUE,
            width=max(1, round(t * 0.45)),
        )
        return
    color = {"中": RED, "发": GREEN}.get(name, NAVY)
    side = min(w, h) * 1.02
    cx, cy = x0 + w / 2, y0 + h / 2
    draw_glyph(d, name, (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2), color, 12)


def draw_face_art(d: ImageDraw.ImageDraw, tile: int, box: tuple[float, float, float, float]) -> None:
    """Draw tile ``tile``'s picture into ``box`` (the face inside its margin)."""
    suit, rank = divmod(tile, 9)
    if suit == 0:
        _characters(d, rank + 1, box)
    elif suit == 1:
        _bamboo(d, rank + 1, box)
    elif suit == 2:
        _dots(d, rank + 1, box)
    else:
        _honour(d, rank, box)


# ------------------------------------------------------------------ sprites


def shrink(layer: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Scale an SS× RGBA drawing down to ``size``; alpha below 8 (resampling ripple) becomes 0, so a sprite
    leaves the colour around it exactly as it was."""
    img = layer.resize(size, Image.Resampling.LANCZOS)
    img.putalpha(img.getchannel("A").point(lambda a: 0 if a < 8 else a))
    return img


def depth_of(h: int) -> int:
    """The visible thickness under a tile's face."""
    return max(3, round(h * 0.09))


def _shadow_pad(w: int) -> int:
    return max(2, round(w * 0.06))


@lru_cache(maxsize=64)
def _blank(w: int, h: int, kind: str) -> Sprite:
    """A tile of box w × h without its picture — ``kind`` "face" (ivory face over the back layer), "dim" (a
    greyed face) or "back" (face down) — with its soft shadow. Drawn once per size at SS× and scaled down."""
    s = SS
    pad = _shadow_pad(w)
    big = Image.new("RGBA", ((w + 2 * pad) * s, (h + 2 * pad) * s), (0, 0, 0, 0))
    # the shadow: a blurred dark tile shape, offset down-right
    shadow = Image.new("L", big.size, 0)
    sd = ImageDraw.Draw(shadow)
    off = pad * s * 0.6
    r = w * s * 0.12
    sd.rounded_rectangle(
        (pad * s + off * 0.5, pad * s + off, (pad + w) * s + off * 0.5, (pad + h) * s + off), r, fill=110
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(pad * s * 0.5))
    big.paste((0, 0, 0, 255), (0, 0), shadow)
    d = ImageDraw.Draw(big)
    x0, y0, x1, y1 = pad * s, pad * s, (pad + w) * s - 1, (pad + h) * s - 1
    dep = depth_of(h) * s
    if kind == "back":
        # face-down: the back colour on top, a lighter edge, the body below
        d.rounded_rectangle((x0, y0, x1, y1), r, fill=BACK_DARK)
        d.rounded_rectangle((x0, y0, x1, y1 - dep), r, fill=BACK)
        inset = w * s * 0.1
        d.rounded_rectangle(
            (x0 + inset, y0 + inset, x1 - inset, y1 - dep - inset),
            r * 0.6,
            outline=BACK_LIGHT,
            width=max(1, s),
        )
    else:
        d.rounded_rectangle((x0, y0, x1, y1), r, fill=BACK)
        d.rounded_rectangle((x0, y0 + dep * 0.35, x1, y1 - dep * 0.55), r, fill=IVORY_EDGE)
        d.rounded_rectangle((x0, y0, x1, y1 - dep), r, fill=IVORY if kind == "face" else DIM_FACE)
    img = shrink(big, (w + 2 * pad, h + 2 * pad))
    return Sprite(img, pad, pad)


def _art(tile: int, w: int, fh: int, ground: tuple[int, int, int]) -> Image.Image:
    """The picture of ``tile`` on a plain face of w × fh (RGB, ``ground`` around it): drawn at SS× and
    box-averaged down (supersampling), which keeps hairlines crisp and is fast."""
    s = SS
    big = Image.new("RGB", (w * s, fh * s), ground)
    d = ImageDraw.Draw(big)
    mx, my = w * s * 0.12, fh * s * 0.1
    draw_face_art(d, tile, (mx, my, w * s - mx, fh * s - my))
    return big.reduce(s)


@lru_cache(maxsize=64)
def _face_mask(w: int, h: int) -> Image.Image:
    """The face's rounded shape (L) at 1×: where the art is pasted onto a blank tile."""
    s = SS
    fh = h - depth_of(h)
    big = Image.new("L", (w * s, fh * s), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * s - 1, fh * s - 1), w * s * 0.12, fill=255)
    return big.reduce(s)


@lru_cache(maxsize=256)  # pictures paste baked copies (paint.bake); these feed them and the rare overlays
def tile_sprite(tile: int, w: int, h: int, dim: bool = False) -> Sprite:
    """Tile ``tile`` (0..33) face up in a w × h box; ``dim``: greyed (a tile that may not be played now)."""
    blank = _blank(w, h, "dim" if dim else "face")
    fh = h - depth_of(h)
    art = _art(tile, w, fh, IVORY)
    if dim:
        art = Image.blend(art, Image.new("RGB", art.size, DIM_FACE), 0.6)
    img = blank.image.copy()
    img.paste(art, (blank.ox, blank.oy), _face_mask(w, h))
    return Sprite(img, blank.ox, blank.oy)


def back_sprite(w: int, h: int) -> Sprite:
    """A face-down tile in a w × h box."""
    return _blank(w, h, "back")


@lru_cache(maxsize=256)
def face_only(tile: int, w: int, h: int) -> Image.Image:
    """The bare art of a tile (no body, no shadow), RGBA, on a transparent ground: for small icons."""
    s = SS
    layer = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    draw_face_art(d, tile, (0, 0, w * s, h * s))
    return shrink(layer, (w, h))


def clear_caches() -> None:
    """Forget every drawn sprite (for tests of determinism)."""
    for f in (_blank, _face_mask, tile_sprite, face_only):
        f.cache_clear()
