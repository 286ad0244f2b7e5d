"""The Mini App's page as files: built from its TypeScript source, no script from elsewhere but Telegram's,
and the tiles drawn by the pictures' own face art (bot/miniapp/tiles.py)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from bot.miniapp.server import TELEGRAM_JS, WEB
from bot.miniapp.tiles import face_svg, sprite_sheet


def test_app_js_is_built_from_app_ts() -> None:
    """`make miniapp` builds app.js with the pinned TypeScript and stamps the source it built from: a change
    to app.ts without a build fails here."""
    stamp = (WEB / "app.ts.sha256").read_text().strip()
    assert stamp == hashlib.sha256((WEB / "app.ts").read_bytes()).hexdigest(), "run `make miniapp`"
    assert (WEB / "package-lock.json").is_file()
    js = (WEB / "app.js").read_text("utf-8")
    assert "function connect()" in js and "interface " not in js  # compiled, not the source


def test_no_script_or_style_from_elsewhere_but_telegrams() -> None:
    html = (WEB / "index.html").read_text("utf-8")
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sorted(sources) == sorted(["%TELEGRAM_JS%", "app.css", "app.js"])
    assert TELEGRAM_JS.startswith("https://telegram.org/")
    for name in ("app.js", "app.css"):
        text = (WEB / name).read_text("utf-8")
        elsewhere = re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)
        assert not elsewhere, f"{name} loads something from elsewhere"


def test_every_tile_is_drawn_as_svg_by_the_pictures_art() -> None:
    sheet = sprite_sheet()
    assert all(f'id="f{t}"' in sheet for t in range(34))
    assert face_svg(27) != face_svg(28)  # 东 and 南: the glyphs' strokes
    assert "<ellipse" in face_svg(18) and "<polyline" in face_svg(0)  # 1p's rings, 1m's stroke
    assert "<polygon" in face_svg(9)  # 1s: the bird


def test_the_built_page_is_small() -> None:
    files = sum(len((WEB / n).read_bytes()) for n in ("index.html", "app.js", "app.css"))
    total = files + len(sprite_sheet())
    assert total < 120_000, total
    assert Path(WEB / "app.ts").stat().st_size < 40_000
