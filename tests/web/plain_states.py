"""Plain sheets in the states the hostile-input and security tests send requests to, and the fields its forms send."""

from __future__ import annotations

from flask.testing import FlaskClient
from hypothesis import strategies as st

from tests.helpers import PLAYERS, start, tap
from tests.web.states import register_forms, state


@state("plain-fresh")
def plain_fresh(client: FlaskClient) -> str:
    """A new open-ended plain sheet: round 1 is open and nobody has entered a number."""
    return start(client, "plain", name="Wizard", wins="highest", end="open")


@state("plain-round-half-entered")
def plain_round_half_entered(client: FlaskClient) -> str:
    """Round 1 is closed; in round 2 Anna has entered −5."""
    token = start(client, "plain", name="Wizard", wins="lowest", end="target", target="100")
    for player in PLAYERS:
        tap(client, token, "points/" + str(PLAYERS.index(player)), round="0", typed="10", action="save")
    tap(client, token, "points/0", round="1", typed="-5", action="save")
    return token


@state("plain-over")
def plain_over(client: FlaskClient) -> str:
    """A plain sheet of one round, over after it."""
    token = start(client, "plain", name="Skat", end="rounds", rounds="1")
    for seat in range(len(PLAYERS)):
        tap(client, token, f"points/{seat}", round="0", typed=str(seat), action="save")
    return token


register_forms(
    {
        "plain.points": ("round", "typed", "stored", "action", "seen"),
        "plain.finish": ("round", "key"),
        "plain.correct": ("seen", "points-0", "points-1", "points-2"),
    },
    {
        "typed": st.sampled_from(["", "-", "0", "7", "-12", "100000", "-100000", "100001", "999999"]),
        "stored": st.sampled_from(["", "1"]),
        **{f"points-{seat}": st.sampled_from(["0", "5", "-5", "100001", "", "−3"]) for seat in range(3)},
    },
)
