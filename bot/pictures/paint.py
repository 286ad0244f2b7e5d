"""Draw a Layout and encode it.

Pictures are indexed PNGs on one fixed 256-colour palette (built once from a sheet of everything drawn).
Why PNG and not JPEG: tile faces are flat colours with sharp edges — what JPEG blurs and PNG keeps; a
table is 25–45 KB as indexed PNG, about three times that as JPEG of the same quality (4:4:4, q90).

The picture is composed straight in palette mode, which is what makes it fast: mapping a colour to the
palette (no dithering) is a per-pixel choice, so every tile is baked once onto the flat colour it lies on
and mapped then (``bake``); a picture pastes those indexed sprites. Flat shapes are drawn with palette
indices; the few soft-edged items (seat discs, badges, glyphs, ASCII text, a kong's stacked tile) are
blended on a small RGB crop of the picture, mapped back and pasted. Words (names, numbers, amounts) are
written with the machine's CJK font (fonts.py), or Pillow's bundled one for ASCII where there is none.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.pictures import fonts
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
ROW_OWN = (58, 124, 90)  # the viewer's own row
TRAY = (24, 62, 43)  # under a meld
PLATE = (26, 66, 46)  # a seat's name plate (gold on its turn)
GOLD = (246, 196, 72)
ORANGE = (240, 128, 40)
TEXT = (242, 236, 220)
MUTED = (150, 192, 164)
MINUS = (176, 206, 236)
DISC = (22, 56, 40)
INK = (40, 30, 12)
EDGE_LINE = (20, 50, 96)  # the outline of a standing tile's edge


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font words are written in: the machine's CJK font, or Pillow's bundled one (ASCII only)."""
    return fonts.font(size)


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
            _blend(img, _badge_sprite(it.role, it.text, it.tile, w, h, Mark.MINUS in it.marks), x, y)
        elif k == Kind.WIND:
            _blend(img, _wind_sprite(it.text, w, h, Mark.TURN in it.marks), x, y)
        elif k == Kind.TEXT:
            _text(img, it)
        elif k == Kind.ICON:
            _icon(img, it)
    for it in tiles + stacked:
        if it.marks & {Mark.LAST, Mark.CLAIM, Mark.WIN, Mark.HIT}:
            _highlight(d, it)
        if Mark.WILD in it.marks:
            x, y, w, h = it.box
            s = max(14, round(w * 0.5))
            _blend(img, _star(s), x + w - s + s // 4, y - s // 4)
    return img


def _blend(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Blend an RGBA sprite onto the indexed picture at (x, y): on an RGB crop, mapped back and pasted only
    where the sprite lies (mapping to the palette is not exact for every colour, and the picture around
    the sprite must keep its own)."""
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(img.width, x + sprite.width), min(img.height, y + sprite.height)
    if x0 >= x1 or y0 >= y1:
        return
    under = img.crop((x0, y0, x1, y1))
    whole = (x0, y0, x1, y1) == (x, y, x + sprite.width, y + sprite.height)
    mask = _mask(sprite)
    lo, hi = under.getextrema()
    if whole and lo == hi and isinstance(lo, int):  # one flat colour under it (most marks and words)
        img.paste(_on_ground(sprite, lo), (x0, y0), mask)
        return
    region = under.convert("RGB")
    part = sprite if whole else sprite.crop((x0 - x, y0 - y, x1 - x, y1 - y))
    region.paste(part, (0, 0), part)
    img.paste(_index(region), (x0, y0), mask if whole else mask.crop((x0 - x, y0 - y, x1 - x, y1 - y)))


_OPAQUE = [0] + [255] * 255


_masks: dict[int, tuple[Image.Image, Image.Image]] = {}
_grounded: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}


def _on_ground(sprite: Image.Image, ground: int) -> Image.Image:
    """A sprite flattened onto palette colour ``ground`` and indexed, kept like ``_mask`` (by identity,
    with the sprite): a disc, a badge, a name on its plate is mapped to the palette once, not per picture."""
    key = (id(sprite), ground)
    kept = _grounded.get(key)
    if kept is not None and kept[0] is sprite:
        return kept[1]
    if len(_grounded) >= 4096:
        _grounded.clear()
    flat = Image.new("RGB", sprite.size, palette_rgb()[ground])
    flat.paste(sprite, (0, 0), sprite)
    baked = _index(flat)
    _grounded[key] = (sprite, baked)
    return baked


def _mask(sprite: Image.Image) -> Image.Image:
    """Where a sprite is not transparent (an L mask of 0 and 255), kept with the sprite: sprites are drawn
    once and pasted picture after picture. (Images do not hash: kept by identity, with the sprite itself so
    its id cannot be reused while its mask is kept.)"""
    kept = _masks.get(id(sprite))
    if kept is not None and kept[0] is sprite:
        return kept[1]
    if len(_masks) >= 4096:
        _masks.clear()
    mask = sprite.getchannel("A").point(_OPAQUE)
    _masks[id(sprite)] = (sprite, mask)
    return mask


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
        d.rounded_rectangle(box, 20, fill=index_of(CONSOLE), outline=index_of(CONSOLE_EDGE), width=3)
    elif it.role == "meld":
        d.rounded_rectangle(box, max(4, w // 16), fill=index_of(TRAY))
    elif it.role == "plate":  # gold for the seat to play: who is on turn, at a glance on a phone
        turn = Mark.TURN in it.marks
        d.rounded_rectangle(
            box, 14, fill=index_of(GOLD if turn else PLATE), outline=index_of(INK if turn else PLATE), width=2
        )
    else:
        own = Mark.OWN in it.marks
        outline = index_of(GOLD) if Mark.WIN in it.marks else index_of(TEXT) if own else None
        d.rounded_rectangle(box, 14, fill=index_of(ROW_OWN if own else ROW), outline=outline, width=4)


def _highlight(d: ImageDraw.ImageDraw, it: Item) -> None:
    """A ring around the latest discard (orange, edged dark: clear on a phone), the tile on offer (orange),
    the winning tile (red) or a bird that hit (gold): drawn over the tile's edge and the gap around it."""
    x, y, w, h = it.box
    last = Mark.LAST in it.marks
    color = index_of(RED if Mark.WIN in it.marks else ORANGE if it.marks & {Mark.CLAIM, Mark.LAST} else GOLD)
    t = max(3, w // 10)
    if last:
        o = t + 2
        d.rounded_rectangle(
            (x - o, y - o, x + w - 1 + o, y + h - 1 + o), max(5, w // 5), outline=index_of(INK), width=2
        )
    d.rounded_rectangle((x - t, y - t, x + w - 1 + t, y + h - 1 + t), max(4, w // 6), outline=color, width=t)


def _hi_res(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    layer = Image.new("RGBA", (size[0] * SS, size[1] * SS), (0, 0, 0, 0))
    return layer, ImageDraw.Draw(layer)


@lru_cache(maxsize=256)
def _disc(w: int, h: int, wind: str, turn: bool, won: bool) -> Image.Image:
    """A seat's disc: its wind in ivory on dark green, red once it has won; on the seat's turn ringed in
    ink (it lies on a gold plate)."""
    layer, d = _hi_res((w, h))
    W, H = w * SS, h * SS
    ring = max(SS, W // (9 if turn else 14))
    fill = RED if won else DISC
    d.ellipse((0, 0, W - 1, H - 1), fill=INK if turn else TEXT)
    d.ellipse((ring, ring, W - 1 - ring, H - 1 - ring), fill=fill)
    m = W * 0.24
    draw_glyph(d, wind, (m, m, W - m, H - m), TEXT, 13)
    return shrink(layer, (w, h))


@lru_cache(maxsize=16)
def _star(s: int) -> Image.Image:
    """The wild mark: a gold five-pointed star edged in dark red, ``s`` px."""
    import math

    layer, d = _hi_res((s, s))
    S = s * SS
    c, r_out, r_in = S / 2, S / 2 - SS, S * 0.2
    pts = [
        (
            c + (r_out if k % 2 == 0 else r_in) * math.sin(k * math.pi / 5),
            c - (r_out if k % 2 == 0 else r_in) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    d.polygon(pts, fill=GOLD, outline=(130, 20, 20), width=max(SS, S // 14))
    return shrink(layer, (s, s))


@lru_cache(maxsize=16)
def _pin(w: int, h: int) -> Image.Image:
    """The latest discard's pin: an orange triangle pointing down at it, edged dark."""
    layer, d = _hi_res((w, h))
    W, H = w * SS, h * SS
    e = max(SS, W // 10)
    d.polygon([(e, e), (W - e, e), (W / 2, H - e)], fill=ORANGE, outline=INK, width=e)
    return shrink(layer, (w, h))


@lru_cache(maxsize=64)
def _badge_sprite(role: str, text: str, tile: int, w: int, h: int, minus: bool = False) -> Image.Image:
    layer, d = _hi_res((w, h))
    W, H = w * SS, h * SS
    if role == "how":  # 自摸 / 接炮 gold, 点炮 red: a pill with the words
        d.rounded_rectangle((0, 0, W - 1, H - 1), H // 2, fill=RED if minus else GOLD)
        img = shrink(layer, (w, h))
        f = font(max(8, round(h * 0.7)))
        ImageDraw.Draw(img).text((w / 2, h / 2), text, fill=IVORY if minus else INK, font=f, anchor="mm")
        return img
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
        f = font(max(8, round(h * (0.8 if role == "wins" else 0.7))))
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
    """Our glyphs (text of the few characters glyphs.py draws: winds, 鸟) or words in the font (fonts.py),
    aligned in the item's box as it says and centred on it vertically."""
    x, y, w, h = it.box
    if it.text and all(ch in GLYPHS for ch in it.text):
        s = min(h, it.size or h)
        _blend(img, _glyph_line(it.text, s, TEXT), x + (w - s * len(it.text)) // 2, y + (h - s) // 2)
        return
    if Mark.TURN in it.marks:
        color = INK
    else:
        color = GOLD if Mark.PLUS in it.marks else MINUS if Mark.MINUS in it.marks else TEXT
    sprite, ascent = _words(it.text, it.size or 16, color, it.role in ("amount", "wall", "count"))
    sx = {"l": x, "r": x + w - sprite.width}.get(it.align, x + (w - sprite.width) // 2)
    _blend(img, sprite, sx, y + h // 2 - ascent)


@lru_cache(maxsize=256)
def _words(text: str, size: int, color: tuple[int, int, int], bold: bool) -> tuple[Image.Image, int]:
    """Words in the font as an RGBA sprite (drawn once, kept: names and numbers come back picture after
    picture), and how far its middle line lies below its top."""
    f = font(size)
    stroke = 1 if bold else 0
    left, top, right, bottom = f.getbbox(text, anchor="lm", stroke_width=stroke)
    w, h = max(1, int(right - left) + 2), max(1, int(bottom - top) + 2)
    layer = Image.new("RGBA", (w, h), (*color, 0))
    d = ImageDraw.Draw(layer)
    d.text(
        (1 - left, 1 - top),
        text,
        fill=(*color, 255),
        font=f,
        anchor="lm",
        stroke_width=stroke,
        stroke_fill=(*color, 255),
    )
    return layer, 1 - int(top)


def _icon(img: Image.Image, it: Item) -> None:
    x, y, w, h = it.box
    if it.role == "wall":
        bw, bh = round(w * 0.8), round(h * 0.8)
        for k in (1, 0):
            sp = back_sprite(bw, bh)
            _blend(img, sp.image, x + k * (w - bw) - sp.ox, y + (1 - k) * (h - bh) - sp.oy)
    elif it.role == "bird":
        _blend(img, face_only(9, w, h), x, y)  # the 1 of bamboo's bird
    elif it.role == "hidden":
        sp = back_sprite(w, h)
        _blend(img, sp.image, x - sp.ox, y - sp.oy)
    elif it.role == "last":
        _blend(img, _pin(w, h), x, y)


# ------------------------------------------------------------------ encoding


# colours every picture must show exactly (flat areas): fixed entries of the palette
EXACT = (
    FELT,
    FELT_DARK,
    CONSOLE,
    CONSOLE_EDGE,
    ROW,
    ROW_OWN,
    TRAY,
    PLATE,
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
        d.rectangle((0, y, 1279, y + 250), fill=ground)
        x, y0 = 6, y + 6
        for tw in (24, 36, 48):
            th = round(tw * 1.36)
            for t in range(-1, 34):
                dim = ground == FELT and tw == 48 and t % 2 == 0
                sp = tile_sprite(t, tw, th, dim) if t >= 0 else back_sprite(tw, th)
                if x + tw + 8 > 1280:
                    x, y0 = 6, y0 + th + 8
                sheet.paste(sp.image, (x, y0), sp.image)
                x += tw + 8
            x, y0 = 6, y0 + th + 8
        y += 260
    x = 6
    for ground in (FELT, ROW, GOLD):
        d.rectangle((x, y, x + 3 * 70, y + 70), fill=ground)
        for turn, won in ((False, False), (True, False), (False, True)):
            disc = _disc(64, 64, "东", turn, won)
            sheet.paste(disc, (x, y), disc)
            x += 70
    for role, text, tile, minus in (
        ("dealer", "庄", -1, False),
        ("won", "胡", -1, False),
        ("won", "WIN", -1, False),
        ("void", "", 0, False),
        ("void", "", 9, False),
        ("void", "", 18, False),
        ("how", "自摸", -1, False),
        ("how", "点炮", -1, True),
    ):
        badge = _badge_sprite(role, text, tile, 40 if len(text) < 2 else 64, 28, minus)
        sheet.paste(badge, (x, y), badge)
        x += 70
    y += 80
    x = 6
    d.rectangle((x, y, 1279, y + 60), fill=CONSOLE)
    for lit in (False, True):
        wind_img = _wind_sprite("东", 52, 52, lit)
        sheet.paste(wind_img, (x, y), wind_img)
        x += 60
    for mark in (_glyph_line("鸟", 40, TEXT), _star(40), _pin(40, 30)):
        sheet.paste(mark, (x, y), mark)
        x += 60
    y += 70
    f = font(40)
    for ground, colour, text, x0 in (
        (ROW, GOLD, "+128", 0),
        (ROW_OWN, MINUS, "-64", 200),
        (CONSOLE, TEXT, "0123", 400),
        (PLATE, TEXT, "Lily 阿华", 600),
        (GOLD, INK, "Дима 电脑", 900),
    ):
        d.rectangle((x0, y, x0 + 290, y + 60), fill=ground)
        d.text((x0 + 10, y + 6), text, fill=colour, font=f)
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
    _masks.clear()
    _grounded.clear()
    for f in (
        background,
        bake,
        _disc,
        _star,
        _pin,
        _badge_sprite,
        _wind_sprite,
        _glyph_line,
        _words,
        palette,
        palette_rgb,
        index_of,
    ):
        f.cache_clear()


GROUNDS = {"felt": FELT, "tray": TRAY, "row": ROW, "own": ROW_OWN, "console": CONSOLE}  # what tiles lie on
