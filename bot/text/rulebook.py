"""The rules pages (docs/rules/<variant>.md) as /rules sends them: the page itself, in the reader's
language, as plain text in parts that fit a Telegram message.

The pages are the project's rule reference and live in the repository; the bot runs from its checkout
(``make run``), so it reads them there, next to the ``bot`` package. A bot installed without them (a bare
wheel) sends the short summary instead and says so.

Each page is bilingual - Chinese lines, then their English - so a reader gets the lines of his language
(headings, tables and notation go to both). Markdown marks are turned into plain text: headings get a
marker, **bold** and `code` lose their marks, table rows become "a · b", and a page named by its file
(``common.md``, ``<variant>.md``) by its name (通用规则, the variant's name): a player never reads a path. The
common rules are a page of their own (``COMMON``), which /rules sends too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import engine
from bot.text.fit import MAX_TEXT, split_text
from bot.text.texts import t

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
COMMON = "common"  # the rules every variant shares (docs/rules/common.md)
PAGES = (*engine.VARIANTS, COMMON)
_PAGE_REF = re.compile(r"\b(" + "|".join(PAGES) + r")\.md\b")

_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_MARKER = re.compile(r"^(\s*)(\d+\.|[-*])\s+")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")


def page_path(variant: str) -> Path:
    return RULES_DIR / f"{variant}.md"


@lru_cache(maxsize=32)
def page(variant: str) -> str | None:
    """The rules page of a variant as written (Markdown), or None where it is not installed."""
    try:
        return page_path(variant).read_text(encoding="utf-8")
    except OSError:
        return None


def page_name(page_id: str, lang: str) -> str:
    """A rules page as players call it: 通用规则 / the common rules, 长沙麻将规则 / the Changsha rules."""
    if page_id == COMMON:
        return t("rules.common", lang)
    rs = engine.get_variant(page_id)
    return t("rules.page_of", lang, name=rs.name_zh if lang == "zh" else rs.name_en)


def line_lang(line: str) -> str | None:
    """ "zh" or "en" for a line of prose; None for a line both readers get (a heading, a table row, a
    blank line, notation)."""
    stripped = line.strip()
    if not stripped or stripped.startswith(("#", "|")):
        return None
    cjk, latin = len(_CJK.findall(stripped)), len(_LATIN.findall(stripped))
    if not cjk and not latin:
        return None
    return "zh" if 3 * cjk >= latin else "en"


def _plain(line: str, lang: str) -> str:
    """One Markdown line as plain text (``lang``: the reader's, for the names of the pages it refers to)."""
    text = _LINK.sub(r"\1", line).replace("**", "").replace("`", "")
    text = _PAGE_REF.sub(lambda m: page_name(m.group(1), lang), text)
    stripped = text.strip()
    if stripped.startswith("#"):
        level = len(stripped) - len(stripped.lstrip("#"))
        title = stripped[level:].strip()
        return f"📜 {title}" if level == 1 else f"▍{title}" if level == 2 else f"• {title}"
    if stripped.startswith("|"):
        cells = [c.strip() for c in stripped.strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            return ""  # a table's rule line
        return " · ".join(cells)
    return text.rstrip()


def for_reader(markdown: str, lang: str) -> str:
    """The page's lines for a reader of ``lang``, as plain text. A translated line that continues a
    numbered or bulleted line of the other language takes its number or bullet."""
    out: list[str] = []
    marker = ""  # the list marker of the last line left out (the other language's)
    for line in markdown.splitlines():
        which = line_lang(line)
        if which is not None and which != lang:
            m = _MARKER.match(line)
            marker = m.group(2) if m else ""
            continue
        if which == lang and marker and line.startswith((" ", "\t")) and not _MARKER.match(line):
            line = f"{marker} {line.strip()}"
        marker = ""
        text = _plain(line, lang)
        if text or (out and out[-1]):
            out.append(text)
    return "\n".join(out).strip()


def parts(variant: str, lang: str, label: str = "({i}/{n})") -> list[str] | None:
    """The rules page for /rules in messages of at most 4,096 characters, each ending with ``label``
    (``{i}``/``{n}``) when there are several; None where the page is not installed."""
    markdown = page(variant)
    if markdown is None:
        return None
    room = MAX_TEXT - len(label.format(i=99, n=99)) - 1
    chunks = split_text(for_reader(markdown, lang), room)
    if len(chunks) == 1:
        return chunks
    return [f"{c}\n{label.format(i=i, n=len(chunks))}" for i, c in enumerate(chunks, 1)]
