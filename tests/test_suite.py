"""The test suite's own structure: fixtures live in conftest.py, helpers in helper modules, and no module
imports a test module (a test module's names are its tests; pulling helpers out of one couples two test
files and runs one's module-level code for the other)."""

from __future__ import annotations

import ast
import asyncio
import logging
from pathlib import Path

import pytest

from .conftest import ErrorRecords

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def imported_modules(path: Path) -> set[str]:
    """The tests-package modules a file imports, by their name inside tests/ (``from .x import``,
    ``from . import x``, ``from tests.x import``, ``import tests.x``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1 and module:
                names.add(module.split(".")[0])
            elif node.level == 1:
                names.update(alias.name for alias in node.names)
            elif node.level == 0 and module.startswith("tests."):
                names.add(module.split(".")[1])
            elif node.level == 0 and module == "tests":
                names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[1] for a in node.names if a.name.startswith("tests."))
    return names


def test_no_module_imports_a_test_module() -> None:
    """Helpers a second file needs go to a helper module (dealing.py, <variant>_helpers.py,
    bot_support.py, storage_helpers.py, random_hands.py, playout.py, …), not into a test module."""
    offenders = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted(TESTS.glob("*.py"))
        for name in imported_modules(path)
        if name.startswith("test_") and name != path.stem
    }
    assert not offenders, sorted(offenders)


def test_helper_modules_hold_no_tests() -> None:
    """pytest collects ``test_*.py`` only: a test function in a helper module would never run."""
    for path in TESTS.glob("*.py"):
        if path.name.startswith("test_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tests = [
            n.name
            for n in tree.body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_")
        ]
        assert not tests, f"{path.name} holds tests {tests}: move them to a test_*.py module"


def test_conftest_holds_fixtures_and_hooks_only() -> None:
    """conftest.py is for fixtures and pytest hooks; helpers a test calls live in helper modules."""
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        fixture = any(
            "fixture" in ast.unparse(d) or "hookimpl" in ast.unparse(d) for d in node.decorator_list
        )
        assert fixture or node.name.startswith(("pytest_", "_")), f"conftest.py: {node.name} is a helper"


@pytest.mark.allow_error_log
async def test_an_error_logged_in_a_background_task_is_seen(no_error_logged: ErrorRecords) -> None:
    """The guard (tests/conftest.py) sees what a task logs as the outbox and the timers do — an exception
    caught and logged, the task going on — and our loggers only."""

    async def job() -> None:
        try:
            raise RuntimeError("the turn timer failed")
        except RuntimeError:
            logging.getLogger("bot.table.timers").exception("table 1: the turn timer failed")
        logging.getLogger("telegram.ext").error("not ours")
        logging.getLogger("storage").warning("not an error")

    await asyncio.create_task(job())
    assert [(r.name, r.getMessage()) for r in no_error_logged.records] == [
        ("bot.table.timers", "table 1: the turn timer failed")
    ]
