"""The AI's strengths as data: an id, a label in Chinese and English, and what the level does, so a front end
(the lobby's settings, 托管) can list them without knowing how they play. docs/ai.md says what each changes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """One strength of the AI. ``value``: it weighs what a hand pays (big hands, 番, birds through the
    variant) and plays toward it; ``defence``: it reads danger from the table and folds or plays safe."""

    id: str
    label_zh: str
    label_en: str
    note_zh: str
    note_en: str
    value: bool
    defence: bool

    def label(self, lang: str = "zh") -> str:
        return self.label_zh if lang == "zh" else self.label_en

    def note(self, lang: str = "zh") -> str:
        return self.note_zh if lang == "zh" else self.note_en


EASY = Level(
    "easy",
    "简单",
    "Easy",
    "只求快：哪张牌让手牌最快听牌就打哪张，不看番数，也不防守。",
    "Plays for speed only: throws whatever gets the hand ready fastest; no hand values, no defence.",
    value=False,
    defence=False,
)
NORMAL = Level(
    "normal",
    "普通",
    "Normal",
    "看番数：同样快的打法里，留下离大牌（清一色、碰碰胡、七对……）更近的牌；会算杠钱，门清值钱时不乱吃碰；但不防守。",
    "Weighs hand values: of equally fast discards, keeps the hand closer to a big one (one suit, all pungs, "
    "seven pairs …); takes the kongs that pay, keeps a concealed hand where it pays more; no defence.",
    value=True,
    defence=False,
)
EXPERT = Level(
    "expert",
    "高手",
    "Expert",
    "既做大牌也防守：看别家的碰杠、定缺和打出的牌判断谁快听了，同样快的打法里打更安全的牌；"
    "自己的牌还远时，不给亮出来的大牌点炮；补杠怕被抢、杠后怕杠上炮、要海底怕海底炮时，先算值不值。",
    "Plays for value and defends: reads who looks ready from melds, void suits and discards, and throws the "
    "safer of equally fast discards; with a hand far from ready, it does not feed a big hand on show; "
    "weighs a kong that may be robbed or won on after, and the last tile, against what they bring.",
    value=True,
    defence=True,
)

# in intended order of strength
LEVELS: tuple[Level, ...] = (EASY, NORMAL, EXPERT)
LEVEL_IDS: tuple[str, ...] = tuple(lv.id for lv in LEVELS)
# the level that plays as the first AI did (the duel's baseline: bench/ai_duel.py)
BASELINE_LEVEL = EASY.id
# The default (AI seats, 托管) is the strongest level *as measured*: the duel (docs/ai.md) shows the expert
# ahead of the baseline.
DEFAULT_LEVEL = EXPERT.id


def get_level(level_id: str) -> Level:
    for lv in LEVELS:
        if lv.id == level_id:
            return lv
    raise ValueError(f"unknown AI level {level_id!r}; the levels are {LEVEL_IDS}")


__all__ = [
    "BASELINE_LEVEL",
    "DEFAULT_LEVEL",
    "EASY",
    "EXPERT",
    "LEVELS",
    "LEVEL_IDS",
    "NORMAL",
    "Level",
    "get_level",
]
