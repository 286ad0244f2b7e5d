"""engine/ is a pure library: standard library only, no clock, no global random (DEVELOPERS.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name.split(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.module.split(".")[0], node.lineno))
    return out


def test_engine_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    bad = [
        f"{p.relative_to(ENGINE.parent)}:{line} imports {mod}"
        for p in sorted(ENGINE.rglob("*.py"))
        for mod, line in _imports(p)
        if mod not in allowed
    ]
    assert not bad, bad


def test_engine_uses_no_clock_and_no_global_random() -> None:
    """Randomness only through random.Random(seed); time never."""
    bad = []
    for p in sorted(ENGINE.rglob("*.py")):
        for mod, line in _imports(p):
            if mod in ("time", "datetime", "asyncio", "secrets"):
                bad.append(f"{p.name}:{line} imports {mod}")
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                bad.append(f"{p.name}:{node.lineno} uses random.{node.attr}")
    assert not bad, bad
