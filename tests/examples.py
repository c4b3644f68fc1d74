"""The example records of the game-record format, shared by every test layer that reads or writes one."""

from __future__ import annotations

import copy
import json
from typing import Any

AURUXXX_EXAMPLE: dict[str, Any] = {
    "game": "auruxxx",
    "players": ["Anna", "Ben", "Cleo"],
    "house_rules": {"golden12_in_hand": 12, "two_in_hand": 2, "halving": "net", "rounding": "exact"},
    "rounds": [
        {
            "finisher": "Ben",
            "golden12": 1,
            "happy_man": "Cleo",
            "passes": {"Anna": 2, "Ben": 1},
            "hands": {
                "Anna": {"numbers": [3, 8, 11]},
                "Cleo": {"fifty": 1, "action": 1, "happy_man": 0, "two": 0, "golden12": 0, "numbers": [0, 7]},
            },
        }
    ],
}
"""The AURUXXX example of the record format: a running game after one round."""

TWELVE_DAYS_EXAMPLE: dict[str, Any] = {
    "game": "12days",
    "variant": "standard",
    "players": ["A", "B", "C"],
    "days": [
        {"played": {"A": 5, "B": 2, "C": 9}},
        {"played": {"A": "santa", "B": 3, "C": 7}, "gift_to": "C"},
        {"taken_by": "B"},
        {"taken_by": None},
    ],
    "hands": {
        "A": [12, 12, 12, 12, 11, 11, 9, 9, 7, 7, 6, 5],
        "B": [12, 12, 10, 10, 10, 8, 8, 8, 6, 6, 5, 1],
        "C": [11, 11, 11, 11, 9, 9, 9, 7, 7, 4, 3, 2],
    },
}
"""The 12 Days example of the record format: four days, quick ones included, and the hands."""


NAMES = ["Anna", "Ben", "Cleo"]


def finished_auruxxx() -> dict[str, object]:
    """Return a record of a whole AURUXXX game: three rounds with crosses, Golden 12 and the Happy-Man."""
    game = copy.deepcopy(AURUXXX_EXAMPLE)
    first = game["rounds"][0]
    game["rounds"] = [
        first,
        {
            "finisher": "Anna",
            "golden12": 2,
            "happy_man": "Cleo",
            "passes": {"Cleo": 3},
            "hands": {"Ben": {"points": 14}, "Cleo": {"points": 30}},
        },
        {
            "finisher": "Cleo",
            "golden12": 1,
            "happy_man": "Ben",
            "passes": {"Anna": 1},
            "hands": {"Anna": {"points": 22}, "Ben": {"points": 9}},
        },
    ]
    return game


def twelve_days(*, hands: bool) -> dict[str, object]:
    """Return a record of all twelve days with the example's players renamed, with or without the final hands."""
    text = json.dumps(TWELVE_DAYS_EXAMPLE)
    for short, name in zip(("A", "B", "C"), NAMES):
        text = text.replace(f'"{short}"', f'"{name}"')
    game = json.loads(text)
    game["days"] += [{"taken_by": NAMES[day % 3]} for day in range(8)]
    if not hands:
        del game["hands"]
    return game
