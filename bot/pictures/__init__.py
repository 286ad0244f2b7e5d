"""Pictures of the game for Telegram (Pillow): a player's hand, the table, the end of a hand.

Each function takes an engine Observation — what one seat (``observe``) or the group (``observe_public``)
may see — and display data, and returns PNG bytes. Nothing else reaches the renderer, so a hidden tile
cannot be drawn into the wrong chat. Tile faces, winds and the few marks (庄 胡 缺) are drawn by our own
code (tiles.py, glyphs.py); players' names, numbers and words are written with the machine's CJK font
(fonts.py: any script it covers). Where there is no such font only ASCII names are drawn, and ``legend``
gives the caption line that names every seat by its wind.

    png = table_image(observe_public(state), Display(lang="zh", labels=names))
    await bot.send_photo(chat, png, caption=legend(obs, names, "zh"))

Pictures are 800 px wide, laid out for a phone (Telegram shows them about 400 px wide). They are cached:
the same picture — the same Layout, whatever Observation it came from — gives the same bytes without
drawing, and a ``Picture`` equals another that would look the same (the outbox then edits the caption
only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from bot.pictures import fonts
from bot.pictures.layout import Item, Kind, Layout, Mark, position_of, wild_tiles, wind_of
from bot.pictures.paint import GROUNDS, bake, encode, index_of, paint, palette
from bot.pictures.paint import clear_caches as clear_paint_caches
from bot.pictures.scenes import Display, end_layout, hand_layout, sprite_grounds, table_layout
from bot.pictures.tiles import clear_caches as clear_tile_caches
from engine import Observation

MIME = "image/png"


class Mode(StrEnum):
    HAND = "hand"  # the viewer's hand, for his DM
    TABLE = "table"  # the table: the group's view (observe_public) or a seat's (that seat at the bottom)
    END = "end"  # every hand revealed and the amounts, once the hand has ended


def layout(obs: Observation, mode: Mode, display: Display | None = None) -> Layout:
    """Where everything of a picture goes, as data (what the tests check)."""
    display = display or Display()
    if mode == Mode.HAND:
        return hand_layout(obs, display)
    if mode == Mode.TABLE:
        return table_layout(obs, display)
    return end_layout(obs, display)


@lru_cache(maxsize=256)
def draw(lay: Layout) -> bytes:
    """PNG bytes of a Layout (cached: the Layout is everything the picture shows, so equal Layouts are
    equal pictures)."""
    return encode(paint(lay))


def render(obs: Observation, mode: Mode, display: Display | None = None) -> bytes:
    """PNG bytes of a picture: laid out (a fraction of a millisecond), then drawn unless the same picture
    was drawn lately (a repeated edit, a move that changes nothing this picture shows)."""
    return draw(layout(obs, Mode(mode), display or Display()))


def hand_image(obs: Observation, display: Display | None = None) -> bytes:
    """The viewer's hand (``observe(state, seat)``): melds, tiles by suit, the drawn tile apart."""
    return render(obs, Mode.HAND, display)


def table_image(obs: Observation, display: Display | None = None) -> bytes:
    """The table: the group's (``observe_public``) or a seat's own view, with that seat at the bottom."""
    return render(obs, Mode.TABLE, display)


def end_image(obs: Observation, display: Display | None = None) -> bytes:
    """The end of a hand: every hand revealed, the winning tile apart, each seat's amount, the birds."""
    return render(obs, Mode.END, display)


@dataclass(frozen=True, slots=True, eq=False)
class Picture:
    """A picture still to draw: what the bot hands its outbox, which draws it (``png``, in a worker
    process) only when it sends it - once per burst of moves.

    Two Pictures are equal when they show the same thing: their Layouts are equal (paint.py draws exactly
    a Layout). A move that changes nothing a picture shows - another seat's discard for a player's hand,
    say - leaves it equal, and the outbox edits the caption only: no drawing, no upload. What is kept to
    compare is the Layout's hash, made on the first comparison (a Layout is tens of kilobytes; a live
    message keeps its last Picture); it is not pickled: the worker lays the picture out again."""

    obs: Observation
    mode: Mode
    display: Display
    _key: list[int] = field(default_factory=list, init=False, repr=False)  # the Layout's hash, once made

    def shown(self) -> Layout:
        """What the picture shows: its Layout."""
        return layout(self.obs, self.mode, self.display)

    def key(self) -> int:
        if not self._key:
            self._key.append(hash(self.shown()))
        return self._key[0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Picture):
            return NotImplemented
        return self is other or (self.mode == other.mode and self.key() == other.key())

    def __hash__(self) -> int:
        return self.key()

    def __reduce__(self) -> tuple[type[Picture], tuple[Observation, Mode, Display]]:
        return (Picture, (self.obs, self.mode, self.display))

    def png(self) -> bytes:
        return draw(self.shown())


_WIND_EN = {"东": "East", "南": "South", "西": "West", "北": "North"}


def legend(obs: Observation, names: Sequence[str], lang: str = "zh") -> str:
    """The caption line naming each seat by the wind drawn for it, dealer first:
    ``东 Lily（庄）· 南 阿华 · 西 Bob · 北 Dave`` / ``East 东 Lily (dealer) · South 南 阿华 · …``."""
    n = len(obs.seats)
    parts = []
    for i in range(n):
        seat = (obs.dealer + i) % n
        wind = wind_of(obs, seat)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        if lang == "zh":
            parts.append(f"{wind} {name}" + ("（庄）" if seat == obs.dealer else ""))
        else:
            parts.append(f"{_WIND_EN[wind]} {wind} {name}" + (" (dealer)" if seat == obs.dealer else ""))
    return " · ".join(parts)


def cache_clear(sprites: bool = False) -> None:
    """Forget the cached pictures (and, with ``sprites``, every drawn tile and mark)."""
    draw.cache_clear()
    if sprites:
        clear_tile_caches()
        clear_paint_caches()


def warm() -> None:
    """Find the font, draw every tile face at every size the pictures use, and the palette, ahead of the
    first picture (about a second, once per process): call it at start-up so no player waits for it."""
    fonts.find()
    for w, h, ground in sprite_grounds():
        for t in range(-1, 34):
            bake(t, w, h, False, index_of(GROUNDS[ground]))
    palette()


__all__ = [
    "MIME",
    "Display",
    "Item",
    "Kind",
    "Layout",
    "Mark",
    "Mode",
    "Picture",
    "cache_clear",
    "draw",
    "end_image",
    "hand_image",
    "layout",
    "legend",
    "position_of",
    "render",
    "table_image",
    "warm",
    "wild_tiles",
    "wind_of",
]
