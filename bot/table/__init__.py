"""The table service (``service``): a table in memory (``runtime``), its lobby (``lobby``), a hand
(``play``), the game night (``night``), its one timer (``timers``), rebuilding after a restart (``restore``)
and what each chat shows (``present``). It decides; storage/ records; text/ and pictures/ render."""
