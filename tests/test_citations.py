"""Every rule citation in the code and the tests resolves inside the repository.

A test of a rule names the clause it checks as ``docs/rules/<variant>.md §N.M`` (a numbered clause: the
``**N.M**`` at the head of a bullet or paragraph of section N), ``§N`` (a whole section: a table, say) or
``裁定 N`` (the page's N-th decision); several may follow one page: ``docs/rules/changsha.md §10.3, 裁定 3``.
A citation of a clause the page does not have fails here, and so does a reference a reader cannot open: a
bare ``§`` or ``裁定`` with no page, the rule model or seed texts the pages were written from (outside the
repository), or an issue number.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SCANNED = ("tests", "engine", "bot", "storage", "bench")

ID = r"(?:§\d+b?(?:\.\d+)?|裁定 ?\d+)"
RANGE = rf"{ID}(?:–(?:{ID}|\d+))?"  # §6.1–§6.5, 裁定 8–10
CITATION = re.compile(rf"docs/rules/(\w+)\.md((?:(?:\s*(?:,|;|/|、|and|or)\s*|\s+){RANGE})*)")
ONE_ID = re.compile(ID)
LOOSE_ID = re.compile(r"§\s?\d|裁定\s?\d")
# references a reader cannot open: the rule model and seed texts outside the repository, issue numbers
UNRESOLVABLE = {
    "the rule model outside the repository": re.compile(
        r"\bRULES\.md\b|\bRULES\b(?=\s*(?:§|table|model|D\b|\d))"
    ),
    "a seed text outside the repository": re.compile(
        r"\bSeed\b|\bseeds?\s+0\d\d\b|\bseed\s+[一二三四五六七八九十]"
        r"|\bseed's (?:example|note|text|figures?)\b"
    ),
    "an issue number": re.compile(r"\b[Ii]ssues?\s*#?\d+"),
    "a decision without its number (cite 裁定 N)": re.compile(r"\bD:|\(D\)|\bD \(|\(D\b|\bD\)"),
}


@cache
def clause_ids(variant: str) -> frozenset[str]:
    """The ids a page has: ``§N`` per numbered section, ``§N.M`` per numbered clause, ``裁定 N`` per
    decision."""
    path = RULES / f"{variant}.md"
    if not path.exists():
        return frozenset()
    ids: set[str] = set()
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            m = re.match(r"## (\d+b?)\. ", line)
            section = m.group(1) if m else line[3:].split(" ")[0]
            if m:
                ids.add(f"§{section}")
            continue
        m = re.match(r"^\s*(?:- )?\*\*(\d+b?\.\d+)\*\* ", line)
        if m:
            ids.add(f"§{m.group(1)}")
        m = re.match(r"^(\d+)\. ", line)
        if m and section == "裁定":
            ids.add(f"裁定 {m.group(1)}")
    return frozenset(ids)


def sources() -> list[Path]:
    """Every Python file of the project but this one (which names the patterns it forbids)."""
    here = Path(__file__).resolve()
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py") if p != here)


def citations(text: str) -> tuple[list[tuple[str, str]], str]:
    """The (variant, id) pairs cited in ``text``, and the text with those citations blanked out."""
    found: list[tuple[str, str]] = []

    def blank(m: re.Match[str]) -> str:
        for one in ONE_ID.findall(m.group(2)):
            kind, number = one[: 1 if one.startswith("§") else 2], re.sub(r"[§裁定\s]", "", one)
            found.append((m.group(1), f"§{number}" if kind == "§" else f"裁定 {number}"))
        return " " * len(m.group(0))

    return found, CITATION.sub(blank, text)


def test_the_pages_have_numbered_clauses() -> None:
    for page in RULES.glob("*.md"):
        ids = clause_ids(page.stem)
        assert sum(1 for i in ids if "." in i) >= 10, f"{page.name}: clauses not numbered (**N.M**)"


def test_the_parser_reads_a_citation_chain() -> None:
    found, rest = citations("docs/rules/changsha.md §10.3, 裁定 3 and §2: (docs/rules/hengyang.md 裁定5)")
    cs = [("changsha", "§10.3"), ("changsha", "裁定 3"), ("changsha", "§2")]
    assert found == [*cs, ("hengyang", "裁定 5")]
    assert not LOOSE_ID.search(rest)
    assert LOOSE_ID.search(citations("as §7.3 says")[1])


def test_a_clause_the_page_lacks_is_caught() -> None:
    found, _ = citations("docs/rules/changsha.md §7.3, §99.1, 裁定 99; docs/rules/nowhere.md §1")
    assert [f for f in found if f[1] not in clause_ids(f[0])] == [
        ("changsha", "§99.1"),
        ("changsha", "裁定 99"),
        ("nowhere", "§1"),
    ]


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_resolves(path: Path) -> None:
    found, rest = citations(path.read_text(encoding="utf-8"))
    wrong = [f"docs/rules/{v}.md {i}" for v, i in found if i not in clause_ids(v)]
    assert not wrong, f"no such clause: {wrong}"
    loose = [rest[max(0, m.start() - 30) : m.end() + 10] for m in LOOSE_ID.finditer(rest)]
    assert not loose, f"a clause id without its page (write docs/rules/<variant>.md before it): {loose}"
    for what, pattern in UNRESOLVABLE.items():
        hits = [rest[max(0, m.start() - 30) : m.end() + 20] for m in pattern.finditer(rest)]
        assert not hits, f"{what}: cite docs/rules/<variant>.md instead: {hits}"


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        ("changsha", ("碰碰胡", "将将胡", "清一色", "七小对", "豪华七小对", "全求人", "天胡", "杠上炮")),
        ("hengyang", ("将一色", "碰碰胡", "全求人", "龙七对", "地胡", "杠上开花")),
        ("xiangyin", ("碰碰胡", "将将胡", "双豪华七小对", "全求人", "海底炮", "抢杠胡")),
    ],
)
def test_english_rules_name_every_big_hand(variant: str, names: tuple[str, ...]) -> None:
    """What /rules shows an English reader names each big hand as the table does, with its example
    (docs/rules/changsha.md §7, docs/rules/hengyang.md §7, docs/rules/xiangyin.md §5): the English lines
    used to give only the shape ("All pungs/kongs + any pair."), so the names on the table meant nothing."""
    from bot.text import rulebook

    text = "\n".join(rulebook.parts(variant, "en") or ())
    lines = {ln.split(" (")[0].split(" ", 2)[-1] for ln in text.splitlines() if ln.startswith("- ")}
    assert set(names) <= lines, sorted(set(names) - lines)
    assert "[111m] 999s 333p 777p 44s" in text  # the 碰碰胡 example
