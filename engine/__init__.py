"""Pure mahjong engine: tiles, shapes, the hand state machine and the regional variants.

Standard library only; no clock, no global randomness: a hand is reproducible from
(variant, options, seed, actions).
"""

from .actions import Act, Action, KongMode
from .errors import EngineError, IllegalAction, InvalidNotation, InvalidOption
from .events import Event, EventKind
from .game import (
    apply,
    arranged_hand,
    is_ready,
    legal_actions,
    new_hand,
    parse_tiles_ordered,
    replay,
    shanten,
    to_act,
    waits,
    win_info,
)
from .melds import Meld, MeldKind, format_hand, parse_hand
from .observe import Observation, observe, observe_public
from .state import (
    Claim,
    ClaimKind,
    HandResult,
    Outcome,
    Payment,
    Phase,
    Seat,
    SettleKind,
    Settlement,
    State,
)
from .tiles import format_tiles, parse_tile, parse_tiles, tile_str, tile_zh
from .variant import Options, OptionSpec, Preset, TilePick, Variant, WinContext, WinInfo
from .variants import VARIANTS, get_variant

__all__ = [
    "Act",
    "Action",
    "Claim",
    "ClaimKind",
    "EngineError",
    "Event",
    "EventKind",
    "HandResult",
    "IllegalAction",
    "InvalidNotation",
    "InvalidOption",
    "KongMode",
    "Meld",
    "MeldKind",
    "Observation",
    "OptionSpec",
    "Options",
    "Outcome",
    "Payment",
    "Phase",
    "Preset",
    "VARIANTS",
    "Variant",
    "Seat",
    "Settlement",
    "SettleKind",
    "State",
    "TilePick",
    "Variant",
    "WinContext",
    "WinInfo",
    "apply",
    "arranged_hand",
    "format_hand",
    "format_tiles",
    "get_variant",
    "is_ready",
    "legal_actions",
    "new_hand",
    "observe",
    "observe_public",
    "parse_hand",
    "parse_tile",
    "parse_tiles",
    "parse_tiles_ordered",
    "replay",
    "shanten",
    "tile_str",
    "tile_zh",
    "to_act",
    "waits",
    "win_info",
]
