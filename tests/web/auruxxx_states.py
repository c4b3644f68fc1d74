"""AURUXXX games in the states the hostile-input and security tests send requests to, and the fields its forms send."""

from __future__ import annotations

from flask.testing import FlaskClient
from hypothesis import strategies as st

from rules.auruxxx import score as auruxxx
from tests.helpers import PLAYERS, start, tap
from tests.web.states import register_forms, state


def _auruxxx_round(client: FlaskClient, token: str, index: int) -> None:
    """Play one AURUXXX round: Anna passes, Ben ends it with one Golden 12, the others count their hands."""
    _auruxxx_finish(client, token, index)
    tap(client, token, "hand/0", round=str(index), action="save-points", points="10")
    tap(client, token, "hand/2", round=str(index), action="save-points", points="5")


def _auruxxx_finish(client: FlaskClient, token: str, index: int) -> None:
    """Record a pass cross for Anna and Ben's finish of round ``index``."""
    tap(client, token, "pass", player="Anna", round=str(index))
    tap(client, token, "finish", player="Ben", round=str(index), golden12="1")


@state("auruxxx-fresh")
def auruxxx_fresh(client: FlaskClient) -> str:
    """A new AURUXXX game: the first round is open and empty."""
    return start(client, "auruxxx")


@state("auruxxx-finisher-known")
def auruxxx_finisher_known(client: FlaskClient) -> str:
    """The first round is ended: the finisher is known, the other hands are still to be counted."""
    token = start(client, "auruxxx")
    _auruxxx_finish(client, token, 0)
    return token


@state("auruxxx-round-finished")
def auruxxx_round_finished(client: FlaskClient) -> str:
    """The first round is finished (and can be corrected); the second is open."""
    token = start(client, "auruxxx")
    _auruxxx_round(client, token, 0)
    return token


@state("auruxxx-over")
def auruxxx_over(client: FlaskClient) -> str:
    """Every round is played: the game is over and offers a rematch."""
    token = start(client, "auruxxx")
    for index in range(auruxxx.ROUNDS):
        _auruxxx_round(client, token, index)
    return token


register_forms(
    {
        "auruxxx.pass_cross": ("player", "round", "key"),
        "auruxxx.hand_on_happy_man": ("player", "round", "key"),
        "auruxxx.finish": ("player", "round", "golden12", "key"),
        "auruxxx.hand": ("round", "action", "cards", "points", "key"),
        "auruxxx.correct": ("seen", "finisher", "happy_man", "golden12", "passes-0", "passes-1", "passes-2", "hand-0", "hand-1", "hand-2"),
    },
    {
        "finisher": st.sampled_from(PLAYERS),
        "happy_man": st.sampled_from([*PLAYERS, ""]),
        "round": st.sampled_from(["0", "1", "2"]),
        "golden12": st.sampled_from(["1", "2", "5"]),
        "points": st.sampled_from(["0", "10", "35"]),
        "cards": st.sampled_from(["", "n5 n7", "golden12 fifty", "two happy_man action"]),
        "golden12_in_hand": st.sampled_from(["12", "0", "25"]),
        "two_in_hand": st.sampled_from(["2", "25"]),
        "halving": st.sampled_from(["net", "penalty"]),
        "rounding": st.sampled_from(["exact", "floor", "ceil"]),
        **{f"passes-{seat}": st.sampled_from(["0", "1", "3"]) for seat in range(3)},
        **{f"hand-{seat}": st.sampled_from(["0", "10", "-5"]) for seat in range(3)},
    },
)
