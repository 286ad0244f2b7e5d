"""bot/ is laid out in rooms by role that form layers (bot/__init__.py): only the Telegram layer imports
``telegram``, no two rooms import each other (directly or around a circle), and every room stays below the
ones its docstring says may use it. The checks read the source (ast), so they fail on an import anywhere
in a module, also inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
# the rooms from the bottom up: a room may import only rooms before it in this list
LAYERS = ("ai", "text", "pictures", "messages", "members", "records", "table", "miniapp", "telegram")
TOP = ("console", "__main__", "__init__")  # the front ends: entry points, above every room


def _imports(path: Path, source: str | None = None) -> list[tuple[str, int]]:
    """Absolute module names imported by ``path`` (relative imports resolved), with their line."""
    package = ["bot", *path.relative_to(BOT).with_suffix("").parts][:-1]  # a module's package, or itself
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(source if source is not None else path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
                names = [f"{mod}.{a.name}" for a in node.names] if not node.module else [mod]
                out += [(n, node.lineno) for n in names]
            elif node.module:
                out.append((node.module, node.lineno))
                if node.module == "bot":
                    out += [(f"bot.{a.name}", node.lineno) for a in node.names]
    return out


def _room(path: Path) -> str:
    parts = path.relative_to(BOT).parts
    return parts[0] if len(parts) > 1 else path.stem


def _room_of_module(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if parts[0] == "bot" and len(parts) > 1 else None


def _modules() -> list[Path]:
    return sorted(BOT.rglob("*.py"))


def test_every_module_is_in_a_room() -> None:
    stray = [str(p.relative_to(BOT)) for p in _modules() if _room(p) not in LAYERS + TOP]
    assert not stray, f"modules outside the rooms of bot/__init__.py: {stray}"


def test_only_the_telegram_layer_imports_telegram() -> None:
    bad = [
        f"{p.relative_to(BOT.parent)}:{line} imports {mod}"
        for p in _modules()
        if _room(p) != "telegram"
        for mod, line in _imports(p)
        if mod.split(".")[0] == "telegram"
    ]
    assert not bad, bad


def test_rooms_import_only_the_rooms_below_them() -> None:
    bad = []
    for p in _modules():
        room = _room(p)
        if room in TOP:
            continue
        for mod, line in _imports(p):
            other = _room_of_module(mod)
            if other is None or other == room or other in TOP and other != "__init__":
                continue
            if other not in LAYERS or LAYERS.index(other) > LAYERS.index(room):
                bad.append(f"{p.relative_to(BOT.parent)}:{line} ({room}) imports {mod} ({other})")
    assert not bad, bad


def test_the_checks_see_an_upward_import() -> None:
    """The reader resolves both spellings of an import (absolute and relative) to a room."""
    source = "from ..table import runtime\nfrom bot.telegram import app\n\ndef f():\n    import telegram\n"
    mods = {m for m, _ in _imports(BOT / "text" / "render.py", source)}
    assert "telegram" in mods
    mods.discard("telegram")
    assert {_room_of_module(m) for m in mods} == {"table", "telegram"}
