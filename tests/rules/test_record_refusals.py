"""Every rule of what a record may hold, each refused with a message that names its place."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import record
from rules.auruxxx import legal as auruxxx_legal
from rules.auruxxx import score as auruxxx_rules
from rules.problems import Illegal, is_invisible
from rules.twelve_days import legal as twelve_days_legal
from rules.twelve_days import score as twelve_days_rules
from tests.examples import AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE


def refused(raw: Any) -> list[str]:
    """Return the problems a decoded record is refused with."""
    with pytest.raises(Illegal) as refusal:
        record.parse(raw)
    return [str(p) for p in refusal.value.problems]


def auruxxx(*rounds: dict[str, Any], players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """Return an AURUXXX record for Anna, Ben and Cleo unless other players are given."""
    return {"game": "auruxxx", "players": players or ["Anna", "Ben", "Cleo"], "rounds": list(rounds), **extra}


def round_(**fields: Any) -> dict[str, Any]:
    """Return a legal round (Ben finishes with one Golden 12) with some fields replaced."""
    return {"finisher": "Ben", "golden12": 1, "happy_man": None, **fields}


def twelve_days(*days: dict[str, Any], players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """Return a 12 Days record for A, B and C unless other players are given."""
    return {"game": "12days", "players": players or ["A", "B", "C"], "days": list(days), **extra}


# --- Players -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (auruxxx(players=["Solo"]), "players: AURUXXX is played by 2 to 6 players (got 1)"),
        (auruxxx(players=list("ABCDEFG")), "players: AURUXXX is played by 2 to 6 players (got 7)"),
        (twelve_days(players=["A", "B"]), "players: 12 Days is played by 3 to 5 players (got 2)"),
        (twelve_days(players=list("ABCDEF")), "players: 12 Days is played by 3 to 5 players (got 6)"),
        (twelve_days(players=list("ABCDE"), variant="8nights"), "players: 8 Nights is played by 3 to 4 players (got 5)"),
        (twelve_days(players=list("ABCDE"), variant="8players"), "players: 8 Players is played by 6 to 8 players (got 5)"),
        (twelve_days(players=list("ABCDEFGHI"), variant="8players"), "players: 8 Players is played by 6 to 8 players (got 9)"),
    ],
)
def test_player_count_depends_on_game_and_variant(raw: dict[str, Any], message: str) -> None:
    """Each game and variant has its own range of players."""
    assert refused(raw) == [message]


def test_player_names_are_unique_text_of_1_to_40_characters() -> None:
    """Names must be text, not blank, at most 40 characters and unique."""
    problems = refused(auruxxx(players=["Anna", "Anna", 7, " ", "x" * 41]))
    assert problems == [
        "players[1]: 'Anna' is already a player; names are unique within a game",
        "players[2]: a player's name must be text (got the number 7)",
        "players[3]: a player's name cannot be empty",
        "players[4]: a player's name has at most 40 characters (got 41)",
    ]


# --- AURUXXX rounds ----------------------------------------------------------------------


def test_passes_are_between_0_and_3() -> None:
    """A 4th cross and a negative count are refused."""
    assert refused(auruxxx(round_(passes={"Anna": 4, "Cleo": -1}))) == [
        "rounds[0].passes.Anna: at most 3 passes per round (got 4)",
        "rounds[0].passes.Cleo: passes cannot be negative (got -1)",
    ]


def test_round_needs_exactly_one_finisher_who_is_a_player() -> None:
    """The finisher is required, must be a player, and has no hand."""
    assert refused(auruxxx({"golden12": 1, "happy_man": None})) == ["rounds[0].finisher: is required"]
    assert refused(auruxxx(round_(finisher="Dora"))) == ["rounds[0].finisher: 'Dora' is not a player of this game"]
    assert refused(auruxxx(round_(finisher=["Anna", "Ben"]))) == ["rounds[0].finisher: must name a player (got a list)"]
    assert refused(auruxxx(round_(hands={"Ben": {"numbers": [3]}}))) == ["rounds[0].hands.Ben: the finisher has no hand left to count"]


def test_finisher_lays_1_to_5_golden_12_and_at_most_5_are_in_play() -> None:
    """g must be 1–5, and g plus the Golden 12 in hands at most 5."""
    assert refused(auruxxx(round_(golden12=0))) == ["rounds[0].golden12: the finisher ends the round with 1 to 5 Golden 12 (got 0)"]
    assert refused(auruxxx(round_(golden12=3, hands={"Anna": {"golden12": 2}, "Cleo": {"golden12": 1}}))) == [
        "rounds[0].golden12: only 5 Golden 12 are in the deck, but the finisher's 3 and those in hands make 6"
    ]
    assert refused(auruxxx(round_(golden12=True))) == ["rounds[0].golden12: must be a whole number (got true)"]


def test_happy_man_figure_never_returns_to_nobody() -> None:
    """Once somebody held the figure, a later round cannot end with nobody holding it."""
    assert refused(auruxxx(round_(happy_man="Anna"), round_(), round_(happy_man="Cleo"))) == [
        "rounds[1].happy_man: the Happy-Man figure never goes back to nobody (Anna holds it)"
    ]
    assert refused(auruxxx(round_(happy_man="Dora"))) == ["rounds[0].happy_man: 'Dora' is not a player of this game"]


def test_hand_cards_have_legal_values_and_counts() -> None:
    """Number cards are 0–12; counts are whole, not negative and within the deck."""
    problems = refused(auruxxx(round_(hands={"Anna": {"numbers": [13, -1, "7"], "fifty": 6, "action": -1}, "Cleo": {"two": 1.5}})))
    assert problems == [
        "rounds[0].hands.Anna.numbers[2]: must be a whole number (got text)",
        "rounds[0].hands.Cleo.two: must be a whole number (got the number 1.5)",
    ]
    problems = refused(auruxxx(round_(hands={"Anna": {"numbers": [13, -1], "fifty": 6, "action": -1}})))
    assert problems == [
        "rounds[0].hands.Anna.numbers[0]: number cards go from 0 to 12 (got 13)",
        "rounds[0].hands.Anna.numbers[1]: number cards go from 0 to 12 (got -1)",
        "rounds[0].hands.Anna.fifty: the deck has only 5 of these cards (got 6)",
        "rounds[0].hands.Anna.action: a card count cannot be negative (got -1)",
        'rounds[0].hands: the deck has only 5 "50" cards (hands hold 6)',
    ]


def test_hands_of_a_round_stay_within_the_deck() -> None:
    """Across all hands of a round, no card appears more often than the deck holds it."""
    problems = refused(auruxxx(round_(hands={"Anna": {"numbers": [7] * 6, "happy_man": 3}, "Cleo": {"numbers": [7] * 5, "happy_man": 3}})))
    assert problems == [
        "rounds[0].hands: the deck has only 10 cards of 7 (hands hold 11)",
        "rounds[0].hands: the deck has only 5 Happy-Man cards (hands hold 6)",
    ]


def test_counted_hand_total_is_a_possible_number() -> None:
    """A typed total is a whole number from 0 up to what the deck could hold."""
    assert refused(auruxxx(round_(hands={"Anna": {"points": -3}, "Cleo": {"points": 10**6}}))) == [
        "rounds[0].hands.Anna.points: hand points cannot be negative (got -3)",
        "rounds[0].hands.Cleo.points: no hand can count more than 1578 points (got 1000000)",
    ]
    assert refused(auruxxx(round_(hands={"Anna": {"points": 3, "numbers": [3]}}))) == ['rounds[0].hands.Anna: unknown key "numbers"']


def test_a_game_has_three_rounds() -> None:
    """A fourth round is refused."""
    assert refused(auruxxx(round_(), round_(), round_(), round_())) == ["rounds: a game has 3 rounds (got 4)"]


def test_house_rules_take_only_their_listed_values() -> None:
    """Each house rule has a short list of choices; an unknown one is refused."""
    assert refused(auruxxx(house_rules={"golden12_in_hand": 10, "rounding": "up", "colour": "red"})) == [
        'house_rules: unknown key "colour"',
        "house_rules.golden12_in_hand: must be one of 12, 0, 25 (got 10)",
        'house_rules.rounding: must be one of "exact", "floor", "ceil" (got "up")',
    ]


# --- 12 Days days and hands --------------------------------------------------------------


def test_cards_exist_in_the_variant() -> None:
    """Cards are 1–12 or a Claus; 8 Nights has only 1–8 and no Claus."""
    assert refused(twelve_days({"played": {"A": 13, "B": 0, "C": "joker"}})) == [
        'days[0].played.C: a card is a number, "santa" or "mrs_claus" (got "joker")',
    ]
    assert refused(twelve_days({"played": {"A": 13, "B": 0, "C": 5}})) == [
        "days[0].played.A: gift cards in 12 Days go from 1 to 12 (got 13)",
        "days[0].played.B: gift cards in 12 Days go from 1 to 12 (got 0)",
    ]
    assert refused(twelve_days({"played": {"A": 9, "B": "santa", "C": 5}}, variant="8nights")) == [
        "days[0].played.A: gift cards in 8 Nights go from 1 to 8 (got 9)",
        "days[0].played.B: 8 Nights is played without the Claus cards",
    ]


def test_a_day_shows_no_more_copies_than_the_deck_holds() -> None:
    """Three 2s or two Santas cannot be revealed on one day; 8 Players has double the cards."""
    assert refused(twelve_days({"played": {"A": 2, "B": 2, "C": 2}})) == ["days[0].played: the deck has 2 of card 2, but this day shows 3"]
    assert refused(twelve_days({"played": {"A": "santa", "B": "santa", "C": 2}})) == [
        "days[0].played: the deck has 1 of card Santa, but this day shows 2"
    ]
    eight = list("ABCDEF")
    record.parse(twelve_days({"played": dict.fromkeys(eight[:4], 2) | {"E": "santa", "F": "santa"}}, players=eight, variant="8players"))


def test_every_player_reveals_one_card_a_day() -> None:
    """A day with a missing or unknown player's card is refused."""
    assert refused(twelve_days({"played": {"A": 5, "B": 6, "D": 7}})) == ["days[0].played.D: 'D' is not a player of this game"]
    assert refused(twelve_days({"played": {"A": 5, "B": 6}})) == ["days[0].played: every player reveals a card; missing: C"]


def test_a_claus_winner_gives_to_another_player_and_only_a_claus_winner_gives() -> None:
    """gift_to is required exactly when a Claus wins, and never names the winner."""
    assert refused(twelve_days({"played": {"A": "mrs_claus", "B": 6, "C": 7}, "gift_to": "A"})) == [
        "days[0].gift_to: A won with a Claus card and must give the day to another player"
    ]
    assert refused(twelve_days({"played": {"A": 5, "B": 6, "C": 7}, "gift_to": "B"})) == [
        "days[0].gift_to: only a player who wins with a Claus card gives the day away"
    ]
    assert refused(twelve_days({"played": {"A": "santa", "B": 6, "C": 7}, "gift_to": "Z"})) == [
        "days[0].gift_to: 'Z' is not a player of this game"
    ]


def test_a_quick_day_names_a_player_or_nobody() -> None:
    """taken_by is a player or null, and nothing else may stand beside it."""
    assert refused(twelve_days({"taken_by": "Z"})) == ["days[0].taken_by: 'Z' is not a player of this game"]
    assert refused(twelve_days({"taken_by": "A", "gift_to": "B"})) == ['days[0]: unknown key "gift_to"']


def test_the_number_of_days_depends_on_the_variant() -> None:
    """12 days in the standard game, 8 in 8 Nights."""
    assert refused(twelve_days(*[{"taken_by": "A"}] * 13)) == ["days: 12 Days has 12 days (got 13)"]
    assert refused(twelve_days(*[{"taken_by": "A"}] * 9, variant="8nights")) == ["days: 8 Nights has 8 days (got 9)"]


def test_final_hands_have_the_right_size_and_stay_within_the_deck() -> None:
    """Every player has a hand of exactly 12 (8 in 8 Nights); together within the deck."""
    hands = {"A": [12] * 12, "B": [1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5], "C": [11] * 12}
    assert refused(twelve_days(hands=hands)) == [
        "hands.B: a hand holds exactly 12 cards at the end (got 11)",
        "hands: the deck has 11 of card 11, but the hands hold 12",
    ]
    assert refused(twelve_days(hands={"A": [12] * 7 + [11] * 5, "B": [12] * 6 + [10] * 6})) == [
        "hands: every player's final hand is needed; missing: C",
        "hands: the deck has 12 of card 12, but the hands hold 13",
    ]
    assert refused(twelve_days(hands={"A": ["santa"] + [12] * 11, "B": ["santa"] + [11] * 11, "C": [10] * 10 + [9] * 2})) == [
        "hands: the deck has 1 of card Santa, but the hands hold 2",
    ]


# --- The record as a whole ---------------------------------------------------------------


def test_unknown_keys_are_refused_at_every_level() -> None:
    """A typo never passes silently."""
    assert refused(auruxxx(round_(pases={"Anna": 1}), colour="red", variant="standard")) == [
        'record: unknown key "colour"',
        'record: unknown key "variant"',
        'rounds[0]: unknown key "pases"',
    ]
    assert refused(twelve_days({"played": {"A": 5, "B": 6, "C": 7}, "winner": "A"}, house_rules={})) == [
        'record: unknown key "house_rules"',
        'days[0]: unknown key "winner"',
    ]


def test_a_record_is_a_json_object_naming_a_known_game() -> None:
    """Broken JSON, other JSON values and unknown games are refused with a clear line."""
    with pytest.raises(Illegal) as broken:
        record.loads("{not json")
    assert str(broken.value).startswith("record: is not valid JSON")
    assert refused([1, 2]) == ["record: must be an object (got a list)"]
    assert refused({"players": ["A", "B"]}) == ["game: is required"]
    assert refused({"game": "uno", "players": []}) == ['game: must be one of "auruxxx", "12days", "plain" (got "uno")']


def test_every_problem_of_a_record_is_reported_at_once() -> None:
    """A record with several mistakes lists all of them, not only the first."""
    problems = refused(auruxxx(round_(passes={"Anna": 5}), round_(golden12=9), players=["Anna", "Ben", "Cleo"]))
    assert problems == [
        "rounds[0].passes.Anna: at most 3 passes per round (got 5)",
        "rounds[1].golden12: the deck has only 5 Golden 12 (got 9)",
    ]


def test_a_result_in_the_record_is_recomputed_not_trusted() -> None:
    """An imported result claiming other totals is replaced by the rules' result."""
    raw = auruxxx(round_(hands={"Anna": {"points": 7}}), result={"totals": {"Anna": -100}})
    scored = record.scored(record.parse(raw))
    assert scored["result"]["totals"] == {"Anna": 7, "Ben": -5, "Cleo": 0}
    assert json.loads(record.dumps(scored)) == scored


def test_hands_given_as_null_mean_no_hands_yet() -> None:
    """An optional key written as null is the same as leaving it out."""
    game = record.parse(twelve_days({"taken_by": "A"}, hands=None))
    assert record.scored(game)["result"]["complete"] is False


# --- Names ---------------------------------------------------------------------------------


def test_names_refuse_only_control_characters_and_spaces_at_either_end() -> None:
    """Joiners, emoji, a Persian ZWNJ and no-break spaces are ordinary; Cc and Cs characters and outer spaces are not."""
    ordinary = ["\U0001f468\u200d\U0001f373", "\u0645\u0647\u0631\u200c\u0646\u0627\u0632", "Jean\u00a0Luc", "Zoë"]
    assert record.parse(auruxxx(players=ordinary)).players == tuple(ordinary)
    assert refused(auruxxx(players=["Anna", "Ben\u0000", "\ud83dCleo", "Dora\n", " Emil", "Fritz\u00a0"])) == [
        "players[1]: a player's name cannot contain control characters",
        "players[2]: a player's name cannot contain control characters",
        "players[3]: a player's name cannot contain control characters",
        "players[4]: a player's name cannot begin or end with a space",
        "players[5]: a player's name cannot begin or end with a space",
    ]


def test_names_equal_after_nfkc_and_case_folding_are_the_same_name() -> None:
    """ "Anna", "anna" and "Ａnna" (a full-width A) are one name; the refusal names both spellings."""
    assert refused(auruxxx(players=["Anna", "anna", "\uff21nna", "Straße", "STRASSE"])) == [
        "players[1]: 'anna' counts as the same name as 'Anna'; names are unique within a game",
        "players[2]: 'Ａnna' counts as the same name as 'Anna'; names are unique within a game",
        "players[4]: 'STRASSE' counts as the same name as 'Straße'; names are unique within a game",
    ]
    assert record.same_name_as("\uff41NNA", ["Ben", "Anna"]) == "Anna"


def test_a_name_needs_a_visible_character() -> None:
    """A zero-width space, joiners, a word joiner or a Hangul filler alone are no name; beside a letter they are part of one."""
    assert refused(auruxxx(players=["Anna", "\u200b", "\u200d\u200d", "\u2060\u200b", "\u3164"])) == [
        f"players[{seat}]: a player's name needs at least one visible character" for seat in range(1, 5)
    ]
    assert record.parse(auruxxx(players=["Anna", "Ben\u3164", "\U0001f468\u200d\U0001f373"])).players[1] == "Ben\u3164"


def test_names_that_look_alike_are_the_same_name() -> None:
    """Unicode's confusables skeleton (UTS #39) decides: a Cyrillic А, a Greek Η and "rn" look like "A", "H" and "m"."""
    assert refused(auruxxx(players=["Anna", "\u0410nna", "Hans", "\u0397ANS", "Kim", "Kirn"])) == [
        "players[1]: '\u0410nna' counts as the same name as 'Anna'; names are unique within a game",
        "players[3]: '\u0397ANS' counts as the same name as 'Hans'; names are unique within a game",
        "players[5]: 'Kirn' counts as the same name as 'Kim'; names are unique within a game",
    ]
    different = ["Jürgen", "Jurgen", "Zoë", "Zoe", "Ana", "Anna"]
    assert record.parse(auruxxx(players=different)).players == tuple(different)


def test_names_that_differ_only_by_invisible_characters_are_the_same_name() -> None:
    """A zero-width space, a word joiner, a soft hyphen or a second space in between change nothing one can see."""
    assert refused(auruxxx(players=["Anna", "Anna\u200b", "An\u2060na", "Be\u00adn", "Ben"])) == [
        "players[1]: 'Anna\\u200b' counts as the same name as 'Anna'; names are unique within a game",
        "players[2]: 'An\\u2060na' counts as the same name as 'Anna'; names are unique within a game",
        "players[4]: 'Ben' counts as the same name as 'Be\\xadn'; names are unique within a game",
    ]
    assert refused(auruxxx(players=["Jean  Luc", "Jean\u00a0Luc"])) == [
        "players[1]: 'Jean\u00a0Luc' counts as the same name as 'Jean  Luc'; names are unique within a game"
    ]
    assert record.same_name_as("ANNA\u200b", ["Ben", "\u0430nna"]) == "\u0430nna"
    assert record.same_name_as("Anna", ["Ben", "Ana"]) is None


# --- Hostile records -------------------------------------------------------------------------


def refused_text(text: str | bytes) -> list[str]:
    """Return the problems a record given as JSON text is refused with."""
    with pytest.raises(Illegal) as refusal:
        record.loads(text)
    return [str(p) for p in refusal.value.problems]


def test_a_key_given_twice_in_one_object_is_refused() -> None:
    """`{"B": 3, "B": 1}` no longer scores 1 silently: every repeated key is named where it is."""
    text = (
        '{"game": "auruxxx", "players": ["A", "B"], "rounds": [{"finisher": "A", "golden12": 1, "happy_man": null,'
        ' "passes": {"B": 3, "B": 1}, "hands": {"B": {"points": 3, "points": 1}}}], "result": {"x": 1, "x": 2}}'
    )
    assert refused_text(text) == [
        "rounds[0].passes.B: is given twice in one object",
        "rounds[0].hands.B.points: is given twice in one object",
        "result.x: is given twice in one object",
    ]


@pytest.mark.parametrize("depth", [16, 985, 100_000])
def test_deep_nesting_is_refused_with_a_message(depth: int) -> None:
    """A value nested deeper than any record is one clear problem, however deep: no RecursionError escapes."""
    text = '{"game": "auruxxx", "players": ["A", "B"], "result": ' + "[" * depth + "]" * depth + "}"
    assert refused_text(text) == ["record: is nested more than 16 levels deep"]
    assert record.loads(text.replace("[" * depth, "[" * 15, 1).replace("]" * depth, "]" * 15, 1))


def test_the_player_count_is_checked_before_any_name_is_read() -> None:
    """31,000 players (not even names) get only the count refusal: nothing that grows with them runs first."""
    assert refused_text(json.dumps({"game": "auruxxx", "players": list(range(31_000))})) == [
        "players: AURUXXX is played by 2 to 6 players (got 31000)"
    ]
    assert refused_text(json.dumps({"game": "12days", "variant": "8players", "players": [None] * 31_000})) == [
        "players: 8 Players is played by 6 to 8 players (got 31000)"
    ]


def test_echoed_keys_names_and_numbers_are_cut_to_a_sane_length() -> None:
    """A 10 MB key, a long stranger's name and a 4,000-digit number come back as at most 40 characters, escaped."""
    key = "k" * 10_000_000
    number = "9" * 4000
    text = (
        '{"game": "auruxxx", "players": ["A", "B"], "' + key + '": 1, "rounds": [{"finisher": "A\\n' + "Z" * 500 + '",'
        ' "golden12": ' + number + ', "happy_man": null}]}'
    )
    problems = refused_text(text)
    assert problems == [
        'record: unknown key "' + "k" * 37 + '..."',
        "rounds[0].finisher: 'A\\n" + "Z" * 35 + "...' is not a player of this game",
    ]
    golden = refused_text(
        '{"game": "auruxxx", "players": ["A", "B"], "rounds": [{"finisher": "A", "golden12": ' + number + ', "happy_man": null}]}'
    )
    assert golden == ["rounds[0].golden12: the deck has only 5 Golden 12 (got " + "9" * 37 + "...)"]
    assert all(len(line) < 120 for line in problems + golden)


def test_strict_json_refuses_nan_and_infinity_wherever_they_stand() -> None:
    """NaN, Infinity and -Infinity are no JSON numbers: refused where they stand, even where the value is ignored."""
    assert refused_text("NaN") == ["record: NaN is not a JSON number"]
    text = '{"game": "auruxxx", "players": ["A", "B"], "colour": -Infinity, "result": {"rounds": [[1, NaN]], "lost": Infinity}}'
    assert refused_text(text) == [
        "colour: -Infinity is not a JSON number",
        "result.rounds[0][1]: NaN is not a JSON number",
        "result.lost: Infinity is not a JSON number",
    ]


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        ({"": 1}, 'record: unknown key ""'),
        ({"rounds": [round_(**{"": 1})]}, 'rounds[0]: unknown key ""'),
        ({"rounds": [round_(hands={"Anna": {"": 1}})]}, 'rounds[0].hands.Anna: unknown key ""'),
        ({"rounds": [round_(passes={"": 1})]}, "rounds[0].passes[\"\"]: '' is not a player of this game"),
        ({"rounds": [round_(passes={"\u200b": 1})]}, "rounds[0].passes[\"\\u200b\"]: '\\u200b' is not a player of this game"),
        ({"open_round": {" ": 1}}, 'open_round: unknown key " "'),
    ],
)
def test_a_problem_about_a_key_names_the_key_and_its_place(extra: dict[str, Any], line: str) -> None:
    """An empty or invisible key still leaves a place one can read: `rounds[0]: unknown key ""`."""
    assert refused(auruxxx(**extra)) == [line]


def _objects(value: Any) -> list[dict[str, Any]]:
    """Return every object inside a decoded record, the record itself first."""
    found = [value] if isinstance(value, dict) else []
    for inner in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
        found += _objects(inner)
    return found


odd_keys = st.one_of(st.sampled_from(["", " ", "\u200b", "\u3164", "\n", "game", "Anna", "A"]), st.text(max_size=4))


@settings(max_examples=200, deadline=None)
@given(
    base=st.sampled_from([AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE]),
    additions=st.lists(st.tuples(st.integers(0, 100), odd_keys, st.sampled_from([1, None, "x", [], {}])), min_size=1, max_size=4),
)
def test_every_problem_names_a_place_one_can_read(base: dict[str, Any], additions: list[tuple[int, str, Any]]) -> None:
    """Whatever keys a record gains, wherever, every line of the refusal starts with a place that shows."""
    changed = json.loads(json.dumps(base))
    for which, key, value in additions:
        objects = _objects(changed)
        objects[which % len(objects)][key] = json.loads(json.dumps(value))
    try:
        record.parse(changed)
    except Illegal as refusal:
        assert refusal.problems
        for found in refusal.problems:
            assert found.place and not all(is_invisible(ch) for ch in found.place), str(found)


def test_an_answer_lists_at_most_50_problems_and_says_how_many_more_there_were() -> None:
    """Problem 50 and after are counted, not listed: the last line says how many."""
    problems = refused(auruxxx(**{f"k{index}": 1 for index in range(120)}))
    assert problems == [f'record: unknown key "k{index}"' for index in range(49)] + ["record: 71 more problems are not listed"]
    assert len(refused(auruxxx(**{f"k{index}": 1 for index in range(50)}))) == 50


def test_lists_longer_than_the_rules_allow_are_refused_by_their_length_unread() -> None:
    """Rounds, days and hands longer than any game holds are one problem each, however long, like the players."""
    assert refused(auruxxx(*[{"finisher": 7}] * 10_000)) == ["rounds: a game has 3 rounds (got 10000)"]
    assert refused(twelve_days(*[{"played": "x"}] * 13)) == ["days: 12 Days has 12 days (got 13)"]
    assert refused(auruxxx(round_(hands={"Anna": {"numbers": ["x"] * 131}}))) == [
        "rounds[0].hands.Anna.numbers: a hand holds at most 130 number cards (got 131)"
    ]
    assert refused(twelve_days(hands={"A": ["x"] * 13, "B": [1] * 12, "C": [2] * 12}, variant="standard")) == [
        "hands.A: a hand holds exactly 12 cards at the end (got 13)"
    ]


# --- Work grows linearly with the record -------------------------------------------------------

RULES = str(Path(record.__file__).resolve().parent)


def rules_steps(work: Callable[[], object]) -> int:
    """Return how many lines of the rules package run while doing some work (a refusal included): a count, never a time."""
    count = 0

    def count_lines(frame: FrameType, event: str, arg: object) -> object:
        nonlocal count
        count += event == "line"
        return count_lines

    def enter(frame: FrameType, event: str, arg: object) -> object:
        return count_lines if frame.f_code.co_filename.startswith(RULES) else None

    before = sys.gettrace()
    sys.settrace(enter)
    try:
        work()
    except Illegal:
        pass
    finally:
        sys.settrace(before)
    return count


def per_unit(steps_of: Callable[[int], int], small: int = 10, large: int = 10_000) -> tuple[float, float]:
    """Return the steps per round or day for a small and a large record."""
    return steps_of(small) / small, steps_of(large) / large


AURUXXX_ROUND = auruxxx_rules.Round(
    finisher="Ben",
    golden12=1,
    happy_man="Cleo",
    passes={"Anna": 2},
    hands={"Anna": auruxxx_rules.Cards(numbers=(3, 8, 11)), "Cleo": auruxxx_rules.CountedHand(5)},
)
TWELVE_DAYS_DAY = twelve_days_rules.PlayedDay(played={"A": "santa", "B": 3, "C": 7}, gift_to="C")


def test_checking_a_game_takes_as_many_steps_per_round_for_10_000_rounds_as_for_10() -> None:
    """The rules check every round once: who holds the Happy-Man figure is carried along, not recounted from the start."""
    small, large = per_unit(
        lambda n: rules_steps(
            lambda: auruxxx_legal.game_problems(auruxxx_rules.Game(players=("Anna", "Ben", "Cleo"), rounds=(AURUXXX_ROUND,) * n))
        )
    )
    assert large <= 1.1 * small
    small, large = per_unit(
        lambda n: rules_steps(
            lambda: twelve_days_legal.game_problems(twelve_days_rules.Game(players=("A", "B", "C"), days=(TWELVE_DAYS_DAY,) * n))
        )
    )
    assert large <= 1.1 * small


@pytest.mark.parametrize(
    "many",
    [
        lambda n: auruxxx(*[round_(happy_man="Cleo", passes={"Anna": 2}, hands={"Anna": {"numbers": [3, 8, 11]}})] * n),
        lambda n: twelve_days(*[{"played": {"A": "santa", "B": 3, "C": 7}, "gift_to": "C"}] * n),
        lambda n: auruxxx(round_(hands={"Anna": {"numbers": [13] * n}})),
        lambda n: auruxxx(**{f"k{index}": 1 for index in range(n)}),
    ],
    ids=["rounds", "days", "cards", "keys"],
)
def test_reading_a_record_takes_no_more_steps_per_item_for_10_000_items_than_for_10(many: Callable[[int], dict[str, Any]]) -> None:
    """Decoding, checking and refusing a record of 10,000 rounds, days, cards or keys costs what 10 cost, per item."""
    small, large = per_unit(lambda n: rules_steps(lambda: record.loads(json.dumps(many(n)))))
    assert large <= 1.1 * small


# --- A game exported in the middle of a round or day -------------------------------------------


def test_an_open_round_is_read_and_scores_nothing() -> None:
    """The round being played comes back as it was, normalised, and the result counts only finished rounds."""
    open_round = {"happy_man": "Cleo", "passes": {"Anna": 2}, "finisher": "Ben", "golden12": 2, "hands": {"Anna": {"points": 7}}}
    scored = record.scored(record.parse(auruxxx(round_(hands={"Anna": {"points": 4}}), open_round=open_round)))
    assert scored["open_round"] == {
        "finisher": "Ben",
        "golden12": 2,
        "happy_man": "Cleo",
        "passes": {"Anna": 2, "Ben": 0, "Cleo": 0},
        "hands": {"Anna": {"points": 7}},
    }
    assert scored["result"]["totals"] == {"Anna": 4, "Ben": -5, "Cleo": 0}
    assert "open_round" not in record.scored(record.parse(auruxxx(open_round={"passes": {"Anna": 0}})))


def test_an_open_round_keeps_the_limits_of_a_finished_round() -> None:
    """Crosses, the figure, the finisher, hands and the deck are checked as in a finished round, so far."""
    assert refused(auruxxx(open_round={"passes": {"Dora": 1}})) == ["open_round.passes.Dora: 'Dora' is not a player of this game"]
    assert refused(auruxxx(round_(happy_man="Anna"), open_round={"happy_man": None, "passes": {"Ben": 4}})) == [
        "open_round.happy_man: the Happy-Man figure never goes back to nobody (Anna holds it)",
        "open_round.passes.Ben: at most 3 passes per round (got 4)",
    ]
    assert refused(auruxxx(open_round={"hands": {"Anna": {"points": 3}}})) == [
        "open_round.hands: hands are counted once the finisher is known"
    ]
    assert refused(auruxxx(open_round={"finisher": "Ben"})) == ["open_round.golden12: is required"]
    assert refused(auruxxx(open_round={"finisher": "Ben", "golden12": 4, "hands": {"Anna": {"golden12": 2}, "Ben": {}}})) == [
        "open_round.hands.Ben: the finisher has no hand left to count",
        "open_round.golden12: only 5 Golden 12 are in the deck, but the finisher's 4 and those in hands make 6",
    ]
    assert refused(auruxxx(open_round={"finisher": "Ben", "golden12": 1, "hands": {"Anna": {}, "Cleo": {}}})) == [
        "open_round: every hand is counted, so this round has ended: it belongs in rounds"
    ]
    assert refused(auruxxx(round_(), round_(), round_(), open_round={})) == ["open_round: all 3 rounds are finished"]
    assert refused(auruxxx(open_round={"colour": "red"})) == ['open_round: unknown key "colour"']


def test_an_open_day_is_read_and_keeps_the_limits_of_a_finished_day() -> None:
    """Cards revealed so far come back; a finished day, strangers, deck limits and a day after the last are refused."""
    scored = record.scored(record.parse(twelve_days({"taken_by": "A"}, open_day={"played": {"C": 5, "A": "santa"}})))
    assert scored["open_day"] == {"played": {"A": "santa", "C": 5}}
    assert scored["result"]["day_points"] == {"A": 1, "B": 0, "C": 0}
    waiting_for_the_gift = {"played": {"A": "santa", "B": 3, "C": 7}}
    assert record.scored(record.parse(twelve_days(open_day=waiting_for_the_gift)))["open_day"] == waiting_for_the_gift
    assert refused(twelve_days(open_day={"played": {"A": 2, "B": 2, "C": 2}})) == [
        "open_day.played: the deck has 2 of card 2, but this day shows 3"
    ]
    assert refused(twelve_days(open_day={"played": {"A": 1, "B": 2, "C": 3}})) == [
        "open_day: every player has revealed a card, so this day has ended: it belongs in days"
    ]
    assert refused(twelve_days(open_day={"played": {"D": 1}})) == ["open_day.played.D: 'D' is not a player of this game"]
    assert refused(twelve_days(open_day={"played": {"A": 13}})) == ["open_day.played.A: gift cards in 12 Days go from 1 to 12 (got 13)"]
    assert refused(twelve_days(*[{"taken_by": "A"}] * 8, variant="8nights", open_day={"played": {}})) == [
        "open_day: all 8 days are finished"
    ]
    assert refused(auruxxx(open_day={"played": {}})) == ['record: unknown key "open_day"']
