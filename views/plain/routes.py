"""The plain sheet's taps and forms: a player's number on the keypad, finishing an open-ended game, correcting a closed round.

The keypad and the correction are the shared flows (``views.table``) fed with this game's values;
the rules (``rules.plain``) decide what is legal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from models import Game
from rules.json_value import JSON
from rules.plain import PLAIN
from rules.plain.history import PlainTable, current_round
from rules.plain.score import MAX_POINTS, MAX_ROUNDS
from views.plain.sheet import number_shown
from views.table import (
    Correction,
    Keypad,
    after_tap,
    correct_finished,
    enter_hand,
    is_integer,
    open_to_edit,
    posted_index,
    record_tap,
    whole_or_text,
)

bp = Blueprint("plain", __name__)

DIGITS = "1234567890"
MOST_DIGITS = len(str(MAX_POINTS))
"""No key makes a number longer than the largest one allowed; the rules refuse what is still too large."""
TYPED = re.compile(r"-?[0-9]{0,6}")


@dataclass(frozen=True)
class Typed:
    """What the keypad shows: the digits tapped so far, and whether the minus key made the number negative."""

    digits: str = ""
    negative: bool = False
    stored: bool = False
    """Whether it shows the number saved before, untouched: a digit or the minus key then begins a new number, as on a calculator."""

    def pressed(self, action: str) -> Typed:
        """Return the keypad after a key: a digit, the minus key (which turns the sign), back (the last digit) or clear."""
        if self.stored and action in (*DIGITS, "minus"):
            return Typed().pressed(action)
        if action in tuple(DIGITS) and len(self.digits) < MOST_DIGITS:
            return Typed((self.digits + action).lstrip("0") or "0", self.negative)
        if action == "minus":
            return Typed(self.digits, not self.negative)
        if action == "back":
            return Typed(self.digits[:-1], self.negative)
        if action == "clear":
            return Typed()
        return self

    @property
    def value(self) -> int | None:
        """Return the number tapped, or None before any digit."""
        if not self.digits:
            return None
        return -int(self.digits) if self.negative else int(self.digits)

    @property
    def text(self) -> str:
        """Return the number as the form carries it: "-12", "-" while only the minus is tapped, "" before any key."""
        return ("-" if self.negative else "") + self.digits

    def shown(self) -> str:
        """Return the number as the keypad shows it, with a real minus sign ("0" before any digit)."""
        return ("−" if self.negative else "") + (self.digits or "0")

    def draft(self) -> dict[str, JSON]:
        """Return what a phone keeps of an unsaved keypad."""
        return {"typed": self.text, "stored": self.stored}

    @classmethod
    def of(cls, text: str, *, stored: bool = False) -> Typed | None:
        """Return the keypad a form or a draft carries ("-12"), or None for anything a keypad cannot show."""
        if not TYPED.fullmatch(text):
            return None
        return cls(text.lstrip("-"), text.startswith("-"), stored and bool(text.lstrip("-")))

    @classmethod
    def saved(cls, number: int | None) -> Typed:
        """Return the keypad for a number already entered (empty if none is)."""
        return cls() if number is None else cls(str(abs(number)), number < 0, stored=True)


def posted_round(form: Mapping[str, str]) -> int:
    """Return the round a form was filled in for (the rules refuse any but the one being entered)."""
    return posted_index(form, "round", MAX_ROUNDS, gettext("Unknown round."))


def _posted(form: Mapping[str, str], table: PlainTable) -> tuple[Typed, list[str]]:
    """Return the keypad as its form carries it; anything a keypad cannot show is refused."""
    typed = Typed.of(form.get("typed", ""), stored=form.get("stored") == "1")
    if typed is None:
        return Typed(), [gettext("%(typed)s is not a number the keypad shows; tap it again.", typed=form.get("typed", "")[:12])]
    return typed, []


def _kept(draft: Mapping[str, Any], table: PlainTable) -> Typed:
    """Return the keypad as this phone kept it unsaved."""
    kept = draft.get("typed")
    return (Typed.of(kept, stored=draft.get("stored") is True) if isinstance(kept, str) else None) or Typed()


def _written(entry: Typed, action: str, player: str, form: Mapping[str, str]) -> tuple[dict[str, JSON], list[str]]:
    """Return the ``hand`` event of the keypad: the player's number in the round it was opened for."""
    if entry.value is None:
        return {}, [gettext("Tap the number first, then save it.")]
    return {"round": posted_round(form), "player": player, "points": entry.value}, []


def _theirs(table: PlainTable, entry: Typed, player: str, action: str, form: Mapping[str, str]) -> str:
    """Return the words of the choice after another phone saved this player's number meanwhile."""
    saved = table.game.open_round.get(player)
    theirs = number_shown(saved) if saved is not None else "–"
    return str(
        gettext("Another phone saved %(theirs)s for %(name)s meanwhile. Yours: %(mine)s.", theirs=theirs, name=player, mine=entry.shown())
    )


def _held(table: PlainTable, player: str, form: Mapping[str, str]) -> str | None:
    """Return the player's number the game holds for the keypad's round, or None."""
    index = form.get("round", "")
    if not is_integer(index):
        return None
    rounds = table.game.rounds
    number = rounds[int(index)].get(player) if 0 <= int(index) < len(rounds) else table.game.open_round.get(player)
    return number_shown(number) if number is not None else None


def _shown(entry: Typed, table: PlainTable, action: str) -> Mapping[str, object]:
    """Return what the keypad page shows: the round, the number tapped and the keys."""
    index = current_round(table.game)
    return {
        "round_index": index,
        "typed": entry.text,
        "stored": entry.stored,
        "number": entry.shown(),
        "digits": DIGITS,
        "game_name": table.game.name,
    }


POINTS_KEYPAD: Keypad[PlainTable, Typed] = Keypad(
    rules=PLAIN,
    template="plain/hand.html",
    opens=lambda table, player: current_round(table.game) is not None,
    position=lambda table: current_round(table.game),
    stored=lambda table, player: Typed.saved(table.game.open_round.get(player)),
    kept=_kept,
    posted=_posted,
    written=_written,
    part=lambda table, player, form: (len(table.game.rounds), table.game.open_round.get(player)),
    theirs=_theirs,
    held=_held,
    shown=_shown,
)
"""The number keypad: one tap per digit, a minus key, back, save."""


@bp.route("/g/<token>/points/<int:seat>", methods=["GET", "POST"])
def points(token: str, seat: int) -> Response:
    """Enter a player's number for the round being entered on the keypad (``views.table.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=PLAIN.kind), seat, POINTS_KEYPAD)


@bp.post("/g/<token>/over")
def finish(token: str) -> Response:
    """Say an open-ended game is over after its last closed round (undo reopens it)."""
    game, viewer = open_to_edit(token, kind=PLAIN.kind)
    return after_tap(game, viewer, record_tap(game, viewer, "finish", {"round": posted_round(request.form)}))


# --- Correcting a closed round -------------------------------------------------------------------


def _read_correction(form: Mapping[str, str], game: Game, table: PlainTable, index: int) -> tuple[JSON, dict[str, str], list[str]]:
    """Return the corrected round to store, the numbers to show again, and every blank one (the rules check the rest)."""
    values = {player: form.get(f"points-{seat}", "").strip().replace("−", "-") for seat, player in enumerate(game.player_names)}
    blank = [gettext("%(name)s: enter a number (0 if nothing).", name=player) for player, value in values.items() if not value]
    corrected: dict[str, JSON] = {player: whole_or_text(value) for player, value in values.items()}
    return {"points": corrected}, values, blank


def _prefilled(stored: dict[str, str], asked: Mapping[str, str], table: PlainTable) -> dict[str, str]:
    """Return the stored numbers: a plain round's refused tap asks for nothing the form could fill in."""
    return stored


ROUND_CORRECTION: Correction[PlainTable, dict[str, str]] = Correction(
    rules=PLAIN,
    event="correct_round",
    position="round",
    template="plain/correct.html",
    changed_meanwhile=lambda: str(gettext("Someone else changed this round meanwhile. Check the numbers and save again.")),
    stored=lambda table, index: {player: str(number) for player, number in table.game.rounds[index].items()},
    read_form=_read_correction,
    offers=lambda table, index: {"game_name": table.game.name},
    endpoint="plain.correct",
    fix_text=lambda number: str(gettext("Correct round %(n)s with it", n=number)),
    prefilled=_prefilled,
)
"""A closed round corrected: every player's number."""


@bp.route("/g/<token>/round/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct a closed round (``views.table.corrections``); everything after it is worked out again."""
    return correct_finished(*open_to_edit(token, kind=PLAIN.kind), number, ROUND_CORRECTION)
