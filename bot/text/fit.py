"""What fits in one Telegram message: the limits of a text and of a caption, and a long text cut at line
ends. Plain text, no Telegram types: the text layer fits its views with these, the outbox sends them."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)

MAX_TEXT = 4096
MAX_CAPTION = 1024


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """``text`` in parts of at most ``limit`` characters, cut at line ends (a longer line at a space, else
    anywhere); nothing is lost but the line breaks at the cuts."""
    if len(text) <= limit:
        return [text]
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:cut])
            line = line[cut:].lstrip(" ")
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        parts.append(current)
    return [p for p in parts if p.strip()] or [text[:limit]]


def caption_of(text: str) -> str:
    """A photo's caption: at most 1,024 characters; a longer one (the caller keeps them short) is cut at a
    line end and marked with "…" - never silently."""
    if len(text) <= MAX_CAPTION:
        return text
    log.warning("a caption of %d characters was shortened", len(text))
    head = text[: MAX_CAPTION - 1]
    cut = head.rfind("\n")
    return (head[:cut] if cut > MAX_CAPTION // 2 else head) + "…"
