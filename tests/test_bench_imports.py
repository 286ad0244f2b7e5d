"""The benchmarks under bench/ are run by hand, not by ``make test``: a rename in the tree must not leave one
of them broken until someone next runs it (bench/miniapp_bench.py imported a test module renamed by the
structure issue). Every name a benchmark imports from this repository's packages must exist."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OWN = ("bench", "bot", "engine", "storage", "tests")
SCRIPTS = sorted((ROOT / "bench").glob("*.py"))


def own_imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) of every import of one of this repository's packages (name None: ``import m``)."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in OWN:
                out += [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names if a.name.split(".")[0] in OWN]
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_name_a_benchmark_imports_exists(script: Path) -> None:
    missing = []
    for module, name in own_imports(script):
        try:
            mod = importlib.import_module(module)
        except ImportError as e:
            missing.append(f"{module}: {e}")
            continue
        if name is not None and name != "*" and not hasattr(mod, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{module}.{name}")
    assert not missing, f"{script.name} imports what does not exist: {missing}"
