"""No function in bot/, engine/ or storage/ above cyclomatic complexity 25 as radon measures it
(docs/testing.md, "Complexity"): every function, method and nested function of every module, each on its own
(radon does not count a nested function into the one around it)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parent.parent
TREES = ("bot", "engine", "storage")
LIMIT = 25

# Nothing is over the limit today. A function being split on another branch may be allowed by name
# (``ALLOWED``: (path, function)) or a tree by prefix (``ALLOWED_PREFIXES``) until that branch is merged; an
# ``ALLOWED`` entry whose function is at or under the limit fails the test.
ALLOWED_PREFIXES: tuple[str, ...] = ()
ALLOWED: tuple[tuple[str, str], ...] = ()


def _functions(blocks: Iterable[Function | Class]) -> Iterator[Function]:
    """Every function among radon's blocks, with the nested ones (a class itself is not a function: radon's
    figure for it is its methods' average)."""
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions(block.methods + block.inner_classes)
        else:
            yield block
            yield from _functions(block.closures)


@functools.cache  # the trees read once for this module's tests
def measured() -> dict[tuple[str, str], tuple[int, int]]:
    """(path, function) -> (line, complexity) of every function over the limit in the trees."""
    over = {}
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for f in _functions(cc_visit(path.read_text(encoding="utf-8"))):
                if f.complexity > LIMIT:
                    over[(rel, f.fullname)] = (f.lineno, f.complexity)
    return over


def test_no_function_above_the_limit() -> None:
    over = measured()
    too_complex = [
        f"{path}:{line} {name} ({cc})"
        for (path, name), (line, cc) in sorted(over.items())
        if (path, name) not in ALLOWED and not path.startswith(ALLOWED_PREFIXES)
    ]
    assert not too_complex, f"cyclomatic complexity over {LIMIT} (split them): " + ", ".join(too_complex)


def test_every_allowed_function_is_still_over_the_limit() -> None:
    stale = [f"{path} {name}" for path, name in ALLOWED if (path, name) not in measured()]
    assert not stale, "at or under the limit now, remove from ALLOWED: " + ", ".join(stale)


def _branches(indent: str) -> str:
    """A function body of complexity LIMIT + 1."""
    return "".join(f"{indent}if x == {i}:\n{indent}    return {i}\n" for i in range(LIMIT))


def test_the_measure_sees_every_kind_of_function() -> None:
    """A method, a method of a nested class and a nested function are each measured on their own."""
    code = (
        "class A:\n    def m(self, x):\n" + _branches(" " * 8)
        + "    class B:\n        def n(self, x):\n" + _branches(" " * 12)
        + "def f(x):\n    def g(x):\n" + _branches(" " * 8) + "    return g\n"
    )  # fmt: skip
    found = {f.fullname: f.complexity for f in _functions(cc_visit(code))}
    assert found == {"A.m": LIMIT + 1, "B.n": LIMIT + 1, "f": 1, "g": LIMIT + 1}, found
