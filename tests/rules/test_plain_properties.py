"""Properties of the plain sheet over any legal game: totals, winners, the record's round trip and the fold of its taps."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules import record
from rules.games import TableEvent
from rules.history import check, fold
from rules.plain.score import MAX_POINTS
from rules.problems import Illegal

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gül", "Hana", "Ilse", "Jan", "Kai", "Lea"]
points = st.integers(min_value=-MAX_POINTS, max_value=MAX_POINTS)


@st.composite
def plain_records(draw: st.DrawFn) -> dict[str, Any]:
    """Return a legal open-ended plain record: 1–12 players, 0–12 rounds of numbers from −100,000 to 100,000."""
    players = NAMES[: draw(st.integers(min_value=1, max_value=len(NAMES)))]
    rounds = draw(st.lists(st.fixed_dictionaries(dict.fromkeys(players, points)), max_size=12))
    wins = draw(st.sampled_from(["highest", "lowest"]))
    raw: dict[str, Any] = {"game": "plain", "name": "Wizard", "players": players, "wins": wins, "rounds": [{"points": r} for r in rounds]}
    return raw


@given(plain_records())
def test_totals_are_the_sum_of_the_closed_rounds(raw: dict[str, Any]) -> None:
    result = record.scored(record.parse(raw))["result"]
    assert result["totals"] == {p: sum(r["points"][p] for r in raw["rounds"]) for p in raw["players"]}


@given(plain_records())
def test_the_winners_have_the_best_total_and_everyone_with_it_wins(raw: dict[str, Any]) -> None:
    result = record.scored(record.parse(raw))["result"]
    totals = result["totals"]
    best = (min if raw["wins"] == "lowest" else max)(totals.values())
    assert result["winners"] == [player for player in raw["players"] if totals[player] == best]


@given(plain_records(), st.randoms())
def test_the_order_of_the_players_does_not_change_who_wins(raw: dict[str, Any], random: Any) -> None:
    shuffled = {**raw, "players": random.sample(raw["players"], len(raw["players"]))}
    winners = set(record.scored(record.parse(raw))["result"]["winners"])
    assert set(record.scored(record.parse(shuffled))["result"]["winners"]) == winners


@given(plain_records())
def test_a_record_round_trips_through_json(raw: dict[str, Any]) -> None:
    scored = record.scored(record.parse(raw))
    assert record.scored(record.loads(record.dumps(scored))) == scored


@given(plain_records())
def test_entering_every_number_by_taps_folds_to_the_record(raw: dict[str, Any]) -> None:
    setup = {key: raw[key] for key in ("game", "name", "players", "wins")}
    taps = [
        TableEvent(0, "hand", {"round": index, "player": player, "points": round_["points"][player]})
        for index, round_ in enumerate(raw["rounds"])
        for player in reversed(raw["players"])
    ]
    table = fold(setup, [TableEvent(seq, tap.kind, tap.payload) for seq, tap in enumerate(taps, start=1)])
    assert record.serialise(table.game) == record.serialise(record.parse(raw))


def outcome(folding: Any) -> tuple[str, Any]:
    """Return what a fold came to: the game's record, or the problems it was refused with."""
    try:
        return "game", record.serialise(folding().game)
    except Illegal as refused:
        return "refused", [str(found) for found in refused.problems]


taps = st.one_of(
    st.tuples(
        st.just("hand"),
        st.fixed_dictionaries(
            {"round": st.integers(0, 3), "player": st.sampled_from(["Anna", "Ben", "Zoe"]), "points": st.integers(-3, 3)}
        ),
    ),
    st.tuples(st.just("finish"), st.fixed_dictionaries({"round": st.integers(0, 3)})),
    st.tuples(
        st.just("correct_round"),
        st.fixed_dictionaries(
            {
                "round": st.integers(0, 2),
                "record": st.fixed_dictionaries({"points": st.fixed_dictionaries({"Anna": st.integers(-9, 9), "Ben": st.integers(-9, 9)})}),
            }
        ),
    ),
    st.tuples(st.just("undo"), st.just({})),
)


@given(st.sampled_from([{}, {"end": {"rounds": 2}}, {"end": {"target": 4}}]), st.lists(taps, max_size=14))
def test_a_tap_stepped_on_from_its_table_is_what_the_whole_history_folds_to(
    end: dict[str, Any], sent: list[tuple[str, dict[str, Any]]]
) -> None:
    """Numbers, finishing, corrections and undo, legal or not, played on from the table as the whole history folds them."""
    setup: dict[str, Any] = {"game": "plain", "name": "Wizard", "players": ["Anna", "Ben"], "wins": "lowest", **end}
    history: list[TableEvent] = []
    table = fold(setup, history)
    for kind, payload in sent:
        if kind == "undo":
            if not history:
                continue
            payload = {"event": history[-1].seq}
        new = TableEvent(len(history) + 1, kind, payload)
        stepped = outcome(lambda: check(setup, history, [new], table=table))
        whole = outcome(lambda: fold(setup, [*history, new]))
        assert stepped == whole, (new, history)
        if whole[0] == "game":
            history.append(new)
            table = fold(setup, history)
