"""The tiles as SVG, drawn by the pictures' own face art, so the Mini App and the pictures look alike.

``bot/pictures/tiles.py`` draws a face with a handful of ImageDraw calls (``line``, ``ellipse``,
``polygon``, ``rectangle``) from its glyph strokes and pip layouts. ``SvgPen`` answers the same calls by
writing SVG elements, and ``draw_face_art`` is run on it unchanged: one artwork, two outputs. The page gets
every face once, as ``<symbol id="f<tile>">`` elements inlined in its HTML (``sprite_sheet``), and draws a
tile as an ivory body (CSS) with ``<use href="#f<tile>">`` on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from PIL import ImageDraw

from bot.pictures.tiles import draw_face_art

W, H = 100, 134  # a face's box (the tiles' proportions in the pictures)
MARGIN_X, MARGIN_Y = 12.0, 13.4  # the art's margin inside the face (as ``tiles._art``)
Point = tuple[float, float]


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _rgb(c: Any) -> str:
    r, g, b = c[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def _points(xy: Sequence[Any]) -> list[Point]:
    if xy and not isinstance(xy[0], (tuple, list)):  # flat (x0, y0, x1, y1, ...)
        return [(float(xy[i]), float(xy[i + 1])) for i in range(0, len(xy), 2)]
    return [(float(p[0]), float(p[1])) for p in xy]


class SvgPen:
    """The ImageDraw calls the face art makes, written as SVG elements."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def line(self, xy: Sequence[Any], fill: Any = None, width: float = 1, joint: str | None = None) -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in _points(xy))
        self.out.append(
            f'<polyline points="{pts}" fill="none" stroke="{_rgb(fill)}" stroke-width="{_n(width)}"'
            + (' stroke-linejoin="round"' if joint else "")
            + "/>"
        )

    def ellipse(self, xy: Sequence[Any], fill: Any = None, **_: Any) -> None:
        (x0, y0), (x1, y1) = _points(xy)
        self.out.append(
            f'<ellipse cx="{_n((x0 + x1) / 2)}" cy="{_n((y0 + y1) / 2)}" rx="{_n(abs(x1 - x0) / 2)}" '
            f'ry="{_n(abs(y1 - y0) / 2)}" fill="{_rgb(fill)}"/>'
        )

    def polygon(self, xy: Sequence[Any], fill: Any = None, **_: Any) -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in _points(xy))
        self.out.append(f'<polygon points="{pts}" fill="{_rgb(fill)}"/>')

    def rectangle(self, xy: Sequence[Any], fill: Any = None, outline: Any = None, width: float = 1) -> None:
        (x0, y0), (x1, y1) = _points(xy)
        if fill is not None:
            self.out.append(
                f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
                f'fill="{_rgb(fill)}"/>'
            )
        if outline is not None:  # ImageDraw's outline lies inside the box
            h = width / 2
            self.out.append(
                f'<rect x="{_n(x0 + h)}" y="{_n(y0 + h)}" width="{_n(x1 - x0 - width)}" '
                f'height="{_n(y1 - y0 - width)}" fill="none" stroke="{_rgb(outline)}" '
                f'stroke-width="{_n(width)}"/>'
            )


def face_svg(tile: int) -> str:
    """Tile ``tile``'s face art as SVG elements in a W × H box."""
    pen = SvgPen()
    draw_face_art(cast(ImageDraw.ImageDraw, pen), tile, (MARGIN_X, MARGIN_Y, W - MARGIN_X, H - MARGIN_Y))
    return "".join(pen.out)


@cache
def sprite_sheet() -> str:
    """Every face as a ``<symbol>``, in one hidden ``<svg>`` for the page to inline."""
    symbols = "".join(f'<symbol id="f{t}" viewBox="0 0 {W} {H}">{face_svg(t)}</symbol>' for t in range(34))
    return f'<svg xmlns="http://www.w3.org/2000/svg" style="display:none">{symbols}</svg>'
