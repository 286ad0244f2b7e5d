"""Every word a player reads: the zh/en catalogue (``texts``, ``i18n``), observations as text (``render``,
``views``, ``nightview``), the rules pages for a reader (``rulebook``) and what fits in one message (``fit``).
Renders observations only: nothing here sees a ``State``'s hidden tiles."""
