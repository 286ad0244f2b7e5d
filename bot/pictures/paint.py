"""Draw a Layout and encode it.

Pictures are indexed PNGs on one fixed 256-colour palette (built once from a sheet of everything drawn).
Why PNG and not JPEG: tile faces are flat colours with sharp edges — what JPEG blurs and PNG keeps; a
table is 50–110 KB as indexed PNG, about three times that as JPEG of the same quality (4:4:4, q90).

The picture is composed straight in palette mode, which is what makes it fast: mapping a colour to the
palette (no dithering) is a per-pixel choice, so every tile is baked once onto the flat colour it lies on
and mapped then (``bake``); a picture pastes those indexed sprites. Flat shapes are drawn with palette
indices; the few soft-edged items (seat discs, badges, glyphs, ASCII text, a kong's stacked tile) are
blended on a small RGB crop of the picture, mapped back and pasted.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.pictures.glyphs import GLYPHS, draw_glyph
from bot.pictures.layout import Item, Kind, Layout, Mark
from bot.pictures.tiles import (
    BACK,
    BACK_DARK,
    BACK_LIGHT,
    BLUE,
    DARK_GREEN,
    DIM_FACE,
    GREEN,
    IVORY,
    IVORY_EDGE,
    NAVY,
    RED,
    SS,
    back_sprite,
    face_only,
    shrink,
    tile_sprite,
)

FELT = (46, 110, 76)  # the table
FELT_DARK = (36, 90, 62)
CONSOLE = (28, 72, 52)
CONSOLE_EDGE = (74, 138, 102)
ROW = (38, 94, 66)
TRAY = (24, 62, 43)  # under a meld
GOLD = (246, 196, 72)
ORANGE = (240, 128, 40)
TEXT = (242, 236, 220)
MUTED = (150, 192, 164)
MINUS = (176, 206, 236)
DISC = (22, 56, 40)
INK = (40, 30, 12)
EDGE_LINE = (20, 50, 96)  # the outline of a standing tile's edge


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own bundled font, for ASCII only (digits, amounts, labels, English words)."""
    return ImageFont.load_default(size)


@lru_cache(maxsize=8)
def background(width: int, height: int) -> Image.Image:
    """The felt, with a slightly darker border like a table's edge (indexed): drawn once per size."""
    img = _new_indexed((width, height), FELT_DARK)
    ImageDraw.Draw(img).rounded_rectangle((6, 6, width - 7, height - 7), 28, fill=index_of(FELT))
    return img


def _new_indexed(size: tuple[int, int], colour: tuple[int, int, int]) -> Image.Image:
    img = Image.new("P", size, index_of(colour))
    img.putpalette(palette().getpalette() or [])
    return img


def paint(layout: Layout) -> Image.Image:
    """The picture of a layout, indexed. Panels first, then the tiles row by row (each baked onto the
    colour under it), a kong's stacked tile, the other items in order, and the highlight rings last."""
    img = background(layout.width, layout.height).copy()
    d = ImageDraw.Draw(img)
    tiles: list[Item] = []
    stacked: list[Item] = []
    others: list[Item] = []
    for it in layout.items:
        if it.kind == Kind.PANEL:
            _panel(d, it)
        elif it.kind in (Kind.TILE, Kind.BACK):
            (stacked if Mark.STACKED in it.marks else tiles).append(it)
        else:
            others.append(it)
    # a sprite covers its box and its shadow to the right and below: paste top to bottom, left to right
    tiles.sort(key=lambda it: (it.box[1], it.box[0]))
    getpixel = img.im.getpixel
    for it in tiles:
        x, y, w, h = it.box
        ground = getpixel((x + w // 2, y + h // 2))
        img.paste(bake(it.tile, w, h, Mark.DIM in it.marks, ground), (x, y))
    for it in stacked:
        x, y, w, h = it.box
        sp = tile_sprite(it.tile, w, h) if it.kind == Kind.TILE else back_sprite(w, h)
        _blend(img, sp.image, x - sp.ox, y - sp.oy)
    for it in others:
        k = it.kind
        x, y, w, h = it.box
        if k == Kind.EDGE:
            d.rounded_rectangle(
                (x, y, x + w - 1, y + h - 1), 3, fill=index_of(BACK), outline=index_of(EDGE_LINE)
            )
            d.line((x + 3, y + 2, x + w - 4, y + 2), fill=index_of(BACK_LIGHT), width=2)
        elif k == Kind.SEAT:
            _blend(img, _disc(w, h, it.text, Mark.TURN in it.marks, Mark.WIN in it.marks), x, y)
        elif k == Kind.BADGE:
            _blend(img, _badge_sprite(it.role, it.text, it.tile, w, h), x, y)
        elif k == Kind.WIND:
            _blend(img, _wind_sprite(it.text, w, h, Mark.TURN in it.marks), x, y)
        elif k == Kind.TEXT:
            _text(img, it)
        elif k == Kind.ICON:
            _icon(img, it)
    for it in tiles + stacked:
        if it.marks & {Mark.LAST, Mark.CLAIM, Mark.WIN}:
            _highlight(d, it)
    return img


def _blend(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Blend an RGBA sprite onto the indexed picture at (x, y): on an RGB crop, mapped back."""
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(img.width, x + sprite.width), min(img.height, y + sprite.height)
    if x0 >= x1 or y0 >= y1:
        return
    region = img.crop((x0, y0, x1, y1)).convert("RGB")
    part = sprite.crop((x0 - x, y0 - y, x1 - x, y1 - y))
    region.paste(part, (0, 0), part)
    img.paste(_index(region), (x0, y0))


def _index(rgb: Image.Image) -> Image.Image:
    return rgb.quantize(palette=palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=2048)
def bake(tile: int, w: int, h: int, dim: bool, ground: int) -> Image.Image:
    """A tile (-1: face down) flattened onto palette colour ``ground`` and indexed, from its box's top-left
    corner: its shadow reaches right and down; what lies above and left of the box is left out."""
    sp = tile_sprite(tile, w, h, dim) if tile >= 0 else back_sprite(w, h)
    flat = Image.new("RGB", sp.image.size, palette_rgb()[ground])
    flat.paste(sp.image, (0, 0), sp.image)
    return _index(flat.crop((sp.ox, sp.oy, sp.image.width, sp.image.height)))


def _panel(d: ImageDraw.ImageDraw, it: Item) -> None:
    x, y, w, h = it.box
    box = (x, y, x + w - 1, y + h - 1)
    if it.role == "console":
        d.rounded_rectangle(box, 26, fill=index_of(CONSOLE), outline=index_of(CONSOLE_EDGE), width=3)
    elif it.role == "meld":
        d.rounded_rectangle(box, max(4, w // 16), fill=index_of(TRAY))
    else:
        outline = index_of(GOLD) if Mark.WIN in it.marks else None
        d.rounded_rectangle(box, 16, fill=index_of(ROW), outline=outline, width=3)


def _highlight(d: ImageDraw.ImageDraw, it: Item) -> None:
    """A ring around the latest discard (gold), the tile on offer (orange) or the winning tile (red): drawn
    outside the tile's box, in the gap rivers and rows leave."""
    x, y, w, h = it.box
    color = index_of(RED if Mark.WIN in it.marks else ORANGE if Mark.CLAIM in it.marks else GOLD)
    t = max(3, w // 14)
    d.rounded_rectangle((x - t, y - t, x + w - 1 + t, y + h - 1 + t), max(4, w // 6), outline=color, width=t)


def _hi_res(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    layer = Image.new("RGBA", (size[0] * SS, size[1] * SS), (0, 0, 0, 0))
    return layer, ImageDraw.Draw(layer)


@lru_cache(maxsize=256)
def _disc(w: int, h: int, wind: str, turn: bool, won: bool) -> Image.Image:
    """A seat's disc: its wind in ivory on dark green; gold on the seat's turn, red once it has won."""
    layer, d = _hi_res((w, h))
    W, H = w * SS, h * SS
    ring = max(SS, W // 14)
    fill = GOLD if turn else RED if won else DISC
    d.ellipse((0, 0, W - 1, H - 1), fill=GOLD if turn else TEXT)
    d.ellipse((ring, ring, W - 1 - ring, H - 1 - ring), fill=fill)
    m = W * 0.24
    draw_glyph(d, wind, (m, m, W - m, H - m), INK if turn else TEXT, 13)
    return shrink(layer, (w, h))


@lru_cache(maxsize=64)
def _badge_sprite(role: str, text: str, tile: int, w: int, h: int) -> Image.Image:
    layer, d = _hi_res((w, h))
    W, H = w * SS, h * SS
    if role == "void":
        d.ellipse((0, 0, W - 1, H - 1), fill=IVORY, outline=RED, width=max(1, W // 9))
        icon = _suit_icon(tile, round(W * 0.52), round(H * 0.62))
        layer.alpha_composite(icon, (round(W * 0.24), round(H * 0.19)))
        t = max(1, W // 10)
        d.line((W * 0.2, H * 0.8, W * 0.8, H * 0.2), fill=RED, width=t)
        return shrink(layer, (w, h))
    fill = RED if role == "dealer" else (184, 24, 24)
    if role == "dealer":
        d.ellipse((0, 0, W - 1, H - 1), fill=fill, outline=IVORY, width=max(1, W // 14))
    else:
        d.rounded_rectangle((0, 0, W - 1, H - 1), H // 5, fill=fill, outline=IVORY, width=max(1, H // 14))
    img = shrink(layer, (w, h))
    if text in GLYPHS:
        gl, gd = _hi_res((w, h))
        g = min(W, H) * 0.62  # the glyph in a square, centred
        draw_glyph(gd, text, ((W - g) / 2, (H - g) / 2, (W + g) / 2, (H + g) / 2), IVORY, 12)
        img.alpha_composite(shrink(gl, (w, h)))
    else:
        td = ImageDraw.Draw(img)
        f = font(max(8, round(h * 0.62)))
        td.text((w / 2, h / 2), text, fill=IVORY, font=f, anchor="mm")
    return img


def _suit_icon(tile: int, w: int, h: int) -> Image.Image:
    """A suit's sign at SS× (already big): 万 for characters, a stick for bamboo, a pip for dots."""
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    suit = tile // 9
    if suit == 0:
        draw_glyph(d, "万", (0, 0, w, h), RED, 13)
    elif suit == 1:
        r = w * 0.2
        d.rounded_rectangle((w / 2 - r, 0, w / 2 + r, h), r, fill=GREEN)
        d.line(
            (w / 2 - r * 1.3, h / 2, w / 2 + r * 1.3, h / 2), fill=(15, 80, 42), width=max(1, round(r * 0.6))
        )
    else:
        r = min(w, h) / 2
        cx, cy = w / 2, h / 2
        for k, c in ((1.0, BLUE), (0.7, IVORY), (0.5, BLUE), (0.2, IVORY)):
            d.ellipse((cx - r * k, cy - r * k, cx + r * k, cy + r * k), fill=c)
    return layer


@lru_cache(maxsize=64)
def _wind_sprite(text: str, w: int, h: int, lit: bool) -> Image.Image:
    layer, d = _hi_res((w, h))
    W, H = w * SS, h * SS
    if lit:
        d.rounded_rectangle((0, 0, W - 1, H - 1), W // 5, fill=GOLD)
    m = W * 0.16
    draw_glyph(d, text, (m, m, W - m, H - m), INK if lit else MUTED, 12)
    return shrink(layer, (w, h))


@lru_cache(maxsize=32)
def _glyph_line(text: str, size: int, color: tuple[int, int, int]) -> Image.Image:
    """Our own glyphs side by side, each ``size`` px square."""
    layer, d = _hi_res((size * len(text), size))
    S = size * SS
    for i, ch in enumerate(text):
        draw_glyph(d, ch, (i * S + S * 0.08, S * 0.08, (i + 1) * S - S * 0.08, S * 0.92), color, 11)
    return shrink(layer, (size * len(text), size))


def _text(img: Image.Image, it: Item) -> None:
    """Our glyphs (all-CJK text) or ASCII in Pillow's bundled font, drawn on an RGB crop of the picture."""
    x, y, w, h = it.box
    if it.text and all(ch in GLYPHS for ch in it.text):
        _blend(img, _glyph_line(it.text, h, TEXT), x, y)
        return
    color = GOLD if Mark.PLUS in it.marks else MINUS if Mark.MINUS in it.marks else TEXT
    f = font(it.size or 16)
    box = (max(0, x), max(0, y), min(img.width, x + w), min(img.height, y + h))
    region = img.crop(box).convert("RGB")
    d = ImageDraw.Draw(region)
    ox, oy = x - box[0], y - box[1]
    if it.role == "amount":
        d.text(
            (ox + w, oy + h // 2), it.text, fill=color, font=f, anchor="rm", stroke_width=1, stroke_fill=color
        )
    elif it.role == "label" and w <= 140:  # under a seat's disc: centred
        d.text((ox + w // 2, oy), it.text, fill=color, font=f, anchor="ma")
    elif it.role == "label":  # beside the disc (the hand picture's header)
        d.text((ox, oy + h // 2), it.text, fill=color, font=f, anchor="lm")
    else:
        d.text((ox, oy + h // 2), it.text, fill=color, font=f, anchor="lm", stroke_width=1, stroke_fill=color)
    img.paste(_index(region), box[:2])


def _icon(img: Image.Image, it: Item) -> None:
    x, y, w, h = it.box
    if it.role == "wall":
        bw, bh = round(w * 0.8), round(h * 0.8)
        for k in (1, 0):
            sp = back_sprite(bw, bh)
            _blend(img, sp.image, x + k * (w - bw) - sp.ox, y + (1 - k) * (h - bh) - sp.oy)
    elif it.role == "bird":
        _blend(img, face_only(9, w, h), x, y)  # the 1 of bamboo's bird


# ------------------------------------------------------------------ encoding


# colours every picture must show exactly (flat areas): fixed entries of the palette
EXACT = (
    FELT,
    FELT_DARK,
    CONSOLE,
    CONSOLE_EDGE,
    ROW,
    TRAY,
    GOLD,
    ORANGE,
    TEXT,
    MUTED,
    MINUS,
    DISC,
    INK,
    IVORY,
    IVORY_EDGE,
    NAVY,
    BLUE,
    GREEN,
    DARK_GREEN,
    RED,
    BACK,
    BACK_DARK,
    BACK_LIGHT,
    EDGE_LINE,
    DIM_FACE,
)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """One 256-colour palette for every picture (a 1×1 image carrying it): the exact flat colours, and
    the rest median-cut from a sheet of everything drawn — tiles on each ground they lie on, discs,
    badges, winds, glyphs and text. Built once."""
    sheet = Image.new("RGB", (1280, 1400), FELT)
    d = ImageDraw.Draw(sheet)
    y = 0
    for ground in (FELT, TRAY, ROW, CONSOLE):
        d.rectangle((0, y, 1279, y + 330), fill=ground)
        x, y0 = 6, y + 6
        for tw in (34, 58, 80):
            th = round(tw * 1.36)
            for t in range(-1, 34):
                dim = ground == FELT and tw == 80 and t % 2 == 0
                sp = tile_sprite(t, tw, th, dim) if t >= 0 else back_sprite(tw, th)
                if x + tw + 8 > 1280:
                    x, y0 = 6, y0 + th + 8
                sheet.paste(sp.image, (x, y0), sp.image)
                x += tw + 8
            x, y0 = 6, y0 + th + 8
        y += 340
    x = 6
    for ground in (FELT, ROW):
        d.rectangle((x, y, x + 3 * 70, y + 70), fill=ground)
        for turn, won in ((False, False), (True, False), (False, True)):
            disc = _disc(64, 64, "东", turn, won)
            sheet.paste(disc, (x, y), disc)
            x += 70
    for role, text, tile in (
        ("dealer", "庄", -1),
        ("won", "胡", -1),
        ("won", "WIN", -1),
        ("void", "", 0),
        ("void", "", 9),
        ("void", "", 18),
    ):
        badge = _badge_sprite(role, text, tile, 40 if text != "WIN" else 64, 28)
        sheet.paste(badge, (x, y), badge)
        x += 70
    d.rectangle((x, y, 1279, y + 60), fill=CONSOLE)
    for lit in (False, True):
        wind_img = _wind_sprite("东", 52, 52, lit)
        sheet.paste(wind_img, (x, y), wind_img)
        x += 60
    glyphs = _glyph_line("鸟", 40, TEXT)
    sheet.paste(glyphs, (x, y), glyphs)
    f = font(48)
    for ground, colour, text, x0 in (
        (ROW, GOLD, "+128", 0),
        (ROW, MINUS, "-64", 300),
        (CONSOLE, TEXT, "0123", 600),
        (FELT, TEXT, "Lily Bob", 900),
    ):
        d.rectangle((x0, y + 80, x0 + 290, y + 150), fill=ground)
        d.text((x0 + 10, y + 84), text, fill=colour, font=f, stroke_width=1, stroke_fill=colour)
    exact = [c for colour in EXACT for c in colour]
    cut = sheet.quantize(256 - len(EXACT), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    rest = (cut.getpalette() or [])[: 3 * (256 - len(EXACT))]
    pal = Image.new("P", (1, 1))
    pal.putpalette(exact + rest)
    return pal


@lru_cache(maxsize=1)
def palette_rgb() -> tuple[tuple[int, int, int], ...]:
    flat = palette().getpalette() or []
    return tuple((flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))


@lru_cache(maxsize=64)
def index_of(colour: tuple[int, int, int]) -> int:
    """The palette entry of a colour (exact for the fixed colours, else the nearest)."""
    entries = palette_rgb()
    if colour in entries:
        return entries.index(colour)
    nearest = _index(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(nearest, int)
    return nearest


def encode(img: Image.Image) -> bytes:
    """PNG bytes of an indexed picture."""
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=1)
    return out.getvalue()


def clear_caches() -> None:
    for f in (
        background,
        bake,
        _disc,
        _badge_sprite,
        _wind_sprite,
        _glyph_line,
        palette,
        palette_rgb,
        index_of,
    ):
        f.cache_clear()


GROUNDS = {"felt": FELT, "tray": TRAY, "row": ROW, "console": CONSOLE}  # what tiles lie on
