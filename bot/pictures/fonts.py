"""The font the pictures write players' names (and their few words and numbers) with: a CJK-capable font of
the machine, found through fontconfig, so a name in any script the font covers — Chinese, Latin, Cyrillic,
Greek, kana, hangul — is drawn as the player wrote it.

``make`` installs one when none is found (Debian's ``fonts-wqy-microhei``, 1.6 MB: Chinese with Latin and
Cyrillic); any font fontconfig ranks first for Simplified Chinese will do (Noto Sans CJK where it is
installed). It is looked up once per process (``fc-match``, about 10 ms) and kept. Without fontconfig or
without a font that covers Chinese the pictures fall back to Pillow's bundled font, which draws ASCII only:
other names are then left off the picture, and the caption (``legend``) names the seats.

Names are cleaned before they are measured: normalised (NFKC: full-width Latin becomes plain), every
character the font does not have dropped (emoji, symbols of other scripts, zero-width and control
characters), runs of spaces closed up; then cut to the width they may take, by their rendered width, with
"…" at the end.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# fontconfig's best font for Simplified Chinese; "sans-serif:lang=zh" would match a Latin font first
QUERY = "sans-serif:lang=zh-cn"
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class FontFile:
    """A font file fontconfig found, the face in it (a .ttc holds several) and the characters it covers."""

    path: str
    index: int
    family: str
    ranges: tuple[tuple[int, int], ...]  # code points covered, as inclusive ranges in order

    def covers(self, ch: str) -> bool:
        cp = ord(ch)
        lo, hi = 0, len(self.ranges)
        while lo < hi:  # the last range starting at or before cp
            mid = (lo + hi) // 2
            if self.ranges[mid][0] <= cp:
                lo = mid + 1
            else:
                hi = mid
        return lo > 0 and cp <= self.ranges[lo - 1][1]


_UNSET = object()
_found: object = _UNSET


def find() -> FontFile | None:
    """The CJK font of this machine (looked up once per process; ``forget`` to look again), or None."""
    global _found
    if _found is _UNSET:
        _found = _lookup()
    return _found  # type: ignore[return-value]


def forget() -> None:
    """Look the font up again next time, and drop every measurement and loaded size (for tests that take
    the font away or give it back)."""
    global _found
    _found = _UNSET
    for f in (font, cleaned, fit, width):
        f.cache_clear()


def _lookup() -> FontFile | None:
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    fmt = "%{file}\n%{index}\n%{family[0]}\n%{lang}\n%{charset}\n"
    try:
        out = subprocess.run(
            [exe, "--format", fmt, QUERY], capture_output=True, text=True, timeout=20, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.split("\n")
    if len(lines) < 5 or not lines[0]:
        return None
    path, index, family, langs, charset = lines[:5]
    if "zh-cn" not in langs.split("|"):  # fontconfig fell back to a font without Chinese
        return None
    ranges = _ranges(charset)
    if not ranges:
        return None
    try:
        ImageFont.truetype(path, 16, index=int(index or 0))
    except (OSError, ValueError):
        return None
    return FontFile(path, int(index or 0), family, ranges)


def _ranges(charset: str) -> tuple[tuple[int, int], ...]:
    """fontconfig's charset text ("20-7e a0-17f 4e00-9fa5 …", hexadecimal) as ranges."""
    out = []
    for part in charset.split():
        lo, _, hi = part.partition("-")
        try:
            out.append((int(lo, 16), int(hi or lo, 16)))
        except ValueError:
            continue
    return tuple(sorted(out))


@lru_cache(maxsize=32)
def font(size: int) -> Font:
    """The machine's CJK font at ``size`` px, or Pillow's bundled font (ASCII only) when there is none."""
    found = find()
    if found is not None:
        return ImageFont.truetype(found.path, size, index=found.index)
    return ImageFont.load_default(size)


def has_font() -> bool:
    return find() is not None


def drawable(ch: str) -> bool:
    """Whether the pictures can draw this character: one the font covers (printable ASCII without it)."""
    if not ch.isprintable():
        return False
    found = find()
    if found is None:
        return ch.isascii()
    return found.covers(ch) and unicodedata.category(ch) not in ("Co", "Cs", "Cn")


@lru_cache(maxsize=1024)
def cleaned(name: str) -> str:
    """A name as the pictures can draw it: NFKC-normalised, symbols and marks the font lacks dropped
    (emoji, invisible characters), spaces closed up. A letter or digit it lacks (a script it does not cover,
    any non-ASCII letter without the CJK font) leaves the whole name off ("": the caption names the seat)
    rather than drawing part of it."""
    text = unicodedata.normalize("NFKC", name)
    kept = []
    for ch in text:
        kind = unicodedata.category(ch)
        if drawable(ch):
            kept.append(ch)
        elif kind[0] in "LN":
            return ""
        elif kind[0] != "M" and kind != "Cf":  # an invisible character or a mark just goes
            kept.append(" ")
    return " ".join("".join(kept).split())


@lru_cache(maxsize=2048)
def width(text: str, size: int) -> float:
    """The rendered width of ``text`` at ``size`` px."""
    return float(font(size).getlength(text))


@lru_cache(maxsize=2048)
def fit(name: str, max_width: int, size: int) -> str:
    """``name`` cleaned and cut to ``max_width`` px of rendered width at ``size`` px, "…" marking the cut: in
    the middle, keeping about two fifths of what fits from the end, so that names alike at the start stay
    apart (``Alex…ith``, ``Alex…nes``)."""
    text = cleaned(name)
    if not text or width(text, size) <= max_width:
        return text
    for keep in range(len(text) - 1, 0, -1):
        tail = keep * 2 // 5
        cut = text[: keep - tail].rstrip() + ELLIPSIS + text[len(text) - tail :].lstrip() if tail else ""
        cut = cut or text[:keep].rstrip() + ELLIPSIS
        if width(cut, size) <= max_width:
            return cut if cut.strip(ELLIPSIS) else ""
    return ""


__all__ = [
    "ELLIPSIS",
    "FontFile",
    "cleaned",
    "drawable",
    "find",
    "fit",
    "font",
    "forget",
    "has_font",
    "width",
]
