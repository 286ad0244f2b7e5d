"""The engine's exceptions: precise, with a human-readable reason."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidNotation(EngineError, ValueError):
    """Text that is not valid tile / meld notation (e.g. ``12x``, ``[124m]``, five of a tile)."""


class IllegalAction(EngineError):
    """An action that is not legal in this state; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidOption(EngineError, ValueError):
    """A room option that the variant does not have, or a value outside its choices."""
