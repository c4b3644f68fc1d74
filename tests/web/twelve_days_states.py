"""12 Days games in the states the hostile-input and security tests send requests to, and the fields its forms send."""

from __future__ import annotations

from flask.testing import FlaskClient
from hypothesis import strategies as st

from rules.twelve_days import score as twelve_days
from tests.helpers import PLAYERS, start, tap
from tests.web.states import register_forms, state


@state("12days-fresh")
def twelve_days_fresh(client: FlaskClient) -> str:
    """A new 12 Days game: day 1 is open and nobody has revealed a card."""
    return start(client, "12days", variant="standard")


@state("12days-card-revealed")
def twelve_days_card_revealed(client: FlaskClient) -> str:
    """Day 1 is open and one card is revealed."""
    token = start(client, "12days", variant="standard")
    tap(client, token, "card", day="0", player="Anna", card="5")
    return token


@state("12days-gift-due")
def twelve_days_gift_due(client: FlaskClient) -> str:
    """Every card of day 1 is revealed and Anna won with Santa: she has to give the day away."""
    token = start(client, "12days", variant="standard")
    for player, card in (("Anna", "santa"), ("Ben", "3"), ("Cleo", "7")):
        tap(client, token, "card", day="0", player=player, card=card)
    return token


@state("12days-day-finished")
def twelve_days_day_finished(client: FlaskClient) -> str:
    """Day 1 is decided (Ben wins with the 2); day 2 is open."""
    token = start(client, "12days", variant="standard")
    for player, card in (("Anna", "5"), ("Ben", "2"), ("Cleo", "9")):
        tap(client, token, "card", day="0", player=player, card=card)
    return token


@state("12days-days-over")
def twelve_days_days_over(client: FlaskClient) -> str:
    """Every day is recorded (quick mode); the final hands are still to be entered."""
    token = start(client, "12days", variant="standard")
    tap(client, token, "taken", day="0", player="Ben")
    for day in range(1, twelve_days.STANDARD.days):
        tap(client, token, "taken", day=str(day), player="")
    return token


register_forms(
    {
        "twelve_days.reveal_card": ("day", "player", "card", "key"),
        "twelve_days.give_day": ("day", "player", "key"),
        "twelve_days.take_day": ("day", "player", "key"),
        "twelve_days.clear_day": ("day", "key"),
        "twelve_days.final_hand": ("action", "count-1", "count-5", "count-12", "count-santa"),
        "twelve_days.correct_day": ("seen", "mode", "taken_by", "card-0", "card-1", "card-2", "gift_to"),
    },
    {
        "taken_by": st.sampled_from([*PLAYERS, ""]),
        "gift_to": st.sampled_from([*PLAYERS, ""]),
        "day": st.sampled_from(["0", "1", "2", "11"]),
        "card": st.sampled_from(["1", "2", "5", "12", "santa", "mrs_claus"]),
        "mode": st.sampled_from(["taken", "played"]),
        "variant": st.sampled_from(["standard", "8nights", "8players"]),
        **{f"card-{seat}": st.sampled_from(["1", "2", "5", "santa"]) for seat in range(3)},
        **{f"count-{card}": st.sampled_from(["0", "1", "4"]) for card in ("1", "5", "12", "santa")},
    },
)
