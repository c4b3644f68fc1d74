"""The AURUXXX score sheet: the paper pad's columns, and the taps that fill them.

Views here only translate a request into an event for the rules and render what the
history then adds up to; the arithmetic, who deals and every refusal come from
``rules.auruxxx``. The module's names below the imports are its side of ``views.sheets.SheetView``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import format_decimal, gettext, ngettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from models import Game, folded
from rules import auruxxx, points
from rules.auruxxx.history import AuruxxxTable, OpenRound, hand_in, may_enter_hand
from rules.auruxxx.record import serialise_hand
from rules.games import JSON, Table
from rules.problems import readable
from views.addresses import open_to_edit
from views import corrections
from views.corrections import Correction
from views.forms import is_integer, is_whole, whole_or_text
from views.render import game_page, go_to
from views.scoreboard import Row as BoardRow
from views.scoreboard import Scoreboard
from views.sheets import Choice, Option
from views.keypads import Keypad, enter_hand
from views.taps import after_tap, record_tap
from views.viewers import Viewer

KIND = auruxxx.KIND
FOLDER = "auruxxx"
SEATS = auruxxx.MAX_PLAYERS
HOUSE_RULES = auruxxx.HouseRules()
"""The house rules a new game starts with, unless the table chooses others."""
HALVING_WORDS = {
    auruxxx.Halving.NET: _l("after the Golden-12 bonus"),
    auruxxx.Halving.PENALTY: _l("before the Golden-12 bonus"),
}
ROUNDING_WORDS = {
    auruxxx.Rounding.EXACT: _l("keep the half (8.5)"),
    auruxxx.Rounding.FLOOR: _l("round down (8)"),
    auruxxx.Rounding.CEIL: _l("round up (9)"),
}
OPTIONS = (
    Option(
        "golden12_in_hand",
        _l("Golden 12 left in hand"),
        _l("Points for a Golden 12 that a player other than the finisher still holds."),
        tuple(Choice(str(points), str(points)) for points in auruxxx.GOLDEN12_IN_HAND_CHOICES),
        str(HOUSE_RULES.golden12_in_hand),
    ),
    Option(
        "two_in_hand",
        _l('"2" card left in hand'),
        _l('Points for a "2" (draw two) card still in hand at the end of a round.'),
        tuple(Choice(str(points), str(points)) for points in auruxxx.TWO_IN_HAND_CHOICES),
        str(HOUSE_RULES.two_in_hand),
    ),
    Option(
        "halving",
        _l("Happy-Man halves"),
        _l("Only matters when the Happy-Man holder also ended the round with Golden 12."),
        tuple(Choice(halving.value, HALVING_WORDS[halving]) for halving in auruxxx.Halving),
        HOUSE_RULES.halving.value,
    ),
    Option(
        "rounding",
        _l("Half points"),
        _l("What becomes of an odd score when it is halved, e.g. 17."),
        tuple(Choice(rounding.value, ROUNDING_WORDS[rounding]) for rounding in auruxxx.Rounding),
        HOUSE_RULES.rounding.value,
    ),
)
"""The house rules the new-game form asks for."""

bp = Blueprint("auruxxx", __name__)

KEYPAD_CARDS: tuple[tuple[str, str], ...] = (
    *((f"n{value}", str(value)) for value in auruxxx.NUMBER_VALUES),
    ("fifty", "50"),
    ("action", "action"),
    ("happy_man", "happy_man"),
    ("two", "two"),
    ("golden12", "golden12"),
)
"""Every key of the hand keypad: its token in the form, and what it shows."""
CARD_TOKENS = {token for token, _ in KEYPAD_CARDS}
MAX_HAND_CARDS = 160
"""A hand cannot hold more cards than the deck has."""
POINTS_FORMAT = "0.#;−0.#"
"""Points without grouping, a half as one decimal, and a real minus sign."""


def half(value: points.HalfPoints) -> str:
    """Return points as this reader writes them: 6,5 in German, 6.5 in English, −5 with a real minus."""
    return str(format_decimal(points.to_decimal(value), format=POINTS_FORMAT))


def whole(value: int) -> str:
    """Return whole points as this reader writes them."""
    return half(points.whole(value))


# --- The protocol the shared pages use ---------------------------------------------------------


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return the house rules the form's settings choose, numbers as numbers."""
    return {
        "house_rules": {
            "golden12_in_hand": int(settings["golden12_in_hand"]),
            "two_in_hand": int(settings["two_in_hand"]),
            "halving": settings["halving"],
            "rounding": settings["rounding"],
        }
    }


def rematch(game: Game) -> int:
    """Return who deals first in a rematch: the deal goes on round the table after the last round."""
    return auruxxx.dealer(game.first_dealer, auruxxx.ROUNDS, len(game.players))


def describe_event(kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one AURUXXX change in words."""
    player = payload.get("player")
    number = (payload.get("round") or 0) + 1
    texts: dict[str, Any] = {
        "pass": _l("Round %(n)s: pass cross for %(player)s", n=number, player=player),
        "happy_man": _l("Round %(n)s: %(player)s takes the Happy-Man figure", n=number, player=player),
        "finish": _l(
            "Round %(n)s: %(player)s ends it with %(g)s Golden 12", n=number, player=player, g=payload.get("golden12")
        ),
        "hand": _l("Round %(n)s: hand of %(player)s entered", n=number, player=player),
        "correct_round": _l("Round %(n)s corrected", n=number),
    }
    return str(texts.get(kind, kind))


# --- The sheet ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreCell:
    """One player's finished round on the sheet, with the words that explain it."""

    text: str
    explanation: str
    passes: int
    golden12: int
    holder: bool


def explain(score: auruxxx.RoundScore, rules: auruxxx.HouseRules) -> str:
    """Return how a round score came about, in words and numbers."""
    crosses = str(ngettext("%(num)s cross", "%(num)s crosses", score.passes))
    if score.hand is None:
        golden = str(gettext("%(g)s Golden 12", g=score.golden12))
        parts = (
            f"{crosses} {whole(auruxxx.PASS_COST * score.passes)} − {golden} {whole(-score.bonus)} = {whole(score.sub)}"
        )
    else:
        cost = f" {whole(auruxxx.PASS_COST * score.passes)}" if score.passes else ""
        hand = str(gettext("Hand %(hand)s", hand=whole(score.hand)))
        parts = f"{hand} + {crosses}{cost} = {whole(score.sub)}"
    if not score.happy_man:
        return parts
    if not score.halved:
        nothing = str(gettext("Happy-Man: nothing to halve"))
        return f"{parts}, {nothing}"
    if rules.halving is auruxxx.Halving.PENALTY and score.bonus:
        halved = str(gettext("Happy-Man halves crosses and hand before the bonus: %(points)s", points=half(score.points)))
    else:
        halved = str(gettext("Happy-Man halves: %(points)s", points=half(score.points)))
    if rules.rounding is auruxxx.Rounding.FLOOR:
        halved += " " + str(gettext("(rounded down)"))
    elif rules.rounding is auruxxx.Rounding.CEIL:
        halved += " " + str(gettext("(rounded up)"))
    return f"{parts}, {halved}"


@dataclass(frozen=True, kw_only=True)
class Row:
    """One round of the pad: who deals and starts it, and once it is finished, everyone's score."""

    index: int
    number: int
    dealer: int
    starter: int
    state: str
    """"done", "current" (being played) or "future"."""
    cells: tuple[ScoreCell, ...] = ()
    """One per player, in seating order, once the round is done."""
    finisher: str | None = None


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """Everything the sheet template shows, worked out once per request."""

    game: Game
    table: AuruxxxTable
    rows: tuple[Row, ...]
    totals: tuple[str, ...]
    winners: tuple[str, ...]
    current: OpenRound | None
    dealer: int | None
    """The seat dealing the round being played."""
    starter: int | None
    board: Scoreboard


def scoreboard_of(game: Game, result: auruxxx.Result) -> Scoreboard:
    """Return an AURUXXX game's points in the shape the chart, CSV and share text read."""
    players = game.player_names
    return Scoreboard(
        kind=game.kind,
        stage=gettext("Round"),
        caption=gettext("Totals after each round"),
        players=players,
        rows=tuple(BoardRow(str(number), {p: scores[p].points for p in players}) for number, scores in enumerate(result.rounds, start=1)),
        totals=dict(result.totals),
        winners=result.winners if result.complete else (),
        fewest_win=True,
    )


def lay_out(game: Game, folded_table: Table[Any]) -> Sheet:
    """Lay out what the game's history adds up to as the paper pad's rows and columns."""
    table = _table(folded_table)
    result = auruxxx.score_game(table.game)
    players = table.game.players
    rows: list[Row] = []
    for index in range(auruxxx.ROUNDS):
        dealer = auruxxx.dealer(game.first_dealer, index, len(players))
        starter = auruxxx.starter(game.first_dealer, index, len(players))
        if index < len(table.game.rounds):
            cells = tuple(
                ScoreCell(
                    text=half(score.points),
                    explanation=explain(score, table.game.house_rules),
                    passes=score.passes,
                    golden12=score.golden12,
                    holder=score.happy_man,
                )
                for score in (result.rounds[index][p] for p in players)
            )
            finisher: str | None = table.game.rounds[index].finisher
            state = "done"
        else:
            cells, finisher = (), None
            state = "current" if table.current is not None and table.current.index == index else "future"
        rows.append(
            Row(index=index, number=index + 1, dealer=dealer, starter=starter, state=state, cells=cells, finisher=finisher)
        )
    current = table.current
    return Sheet(
        game=game,
        table=table,
        rows=tuple(rows),
        totals=tuple(half(result.totals[p]) for p in players),
        winners=result.winners if result.complete else (),
        current=current,
        dealer=rows[current.index].dealer if current is not None else None,
        starter=rows[current.index].starter if current is not None else None,
        board=scoreboard_of(game, result),
    )


def _table(table: Table[Any]) -> AuruxxxTable:
    """Return a folded AURUXXX history as what it is (this module only sees AURUXXX games)."""
    assert isinstance(table, AuruxxxTable)
    return table


# --- Taps on the sheet -------------------------------------------------------------------------


def _player(game: Game) -> str:
    """Return the player a form names, refusing a name that is not at this table."""
    name = request.form.get("player", "")
    if name not in game.player_names:
        abort(400, description=gettext("Unknown player."))
    return name


def _round(form: Mapping[str, str]) -> int:
    """Return the round a form was filled in for (the rules refuse any but the current one)."""
    value = form.get("round", "")
    if not is_whole(value) or int(value) >= auruxxx.ROUNDS:
        abort(400, description=gettext("Unknown round."))
    return int(value)


@bp.post("/g/<token>/pass")
def pass_cross(token: str) -> Response:
    """Add a pass cross for a player in the current round."""
    game, viewer = open_to_edit(token, kind=KIND)
    player = _player(game)
    return after_tap(game, viewer, record_tap(game, "pass", {"round": _round(request.form), "player": player}))


@bp.post("/g/<token>/happy-man")
def hand_on_happy_man(token: str) -> Response:
    """Hand the Happy-Man figure to a player."""
    game, viewer = open_to_edit(token, kind=KIND)
    player = _player(game)
    return after_tap(game, viewer, record_tap(game, "happy_man", {"round": _round(request.form), "player": player}))


@bp.route("/g/<token>/finish", methods=["GET", "POST"])
def finish(token: str) -> Response:
    """Ask who ended the round and with how many Golden 12, then record it."""
    game, viewer = open_to_edit(token, kind=KIND)
    if request.method == "POST":
        golden12 = request.form.get("golden12", "")
        if not is_whole(golden12):
            return _finish_page(game, viewer, [gettext("Tap how many Golden 12 ended the round.")], 422)
        problems = record_tap(
            game, "finish", {"round": _round(request.form), "player": _player(game), "golden12": int(golden12)}
        ).problems
        if problems:
            return _finish_page(game, viewer, list(problems), 422)
        return _back_to_sheet(game, viewer)
    return _finish_page(game, viewer, [], 200)


def _finish_page(game: Game, viewer: Viewer, problems: list[str], status: int) -> Response:
    """Render the who-ended-the-round form."""
    table = _table(folded(game).table)
    if table.current is None:
        return redirect(url_for("games.sheet", token=game.token), code=303)
    return game_page(
        "auruxxx/finish.html",
        "finish",
        game,
        viewer,
        status=status,
        current=table.current,
        players=list(game.player_names),
        problems=problems,
        golden12_choices=range(1, auruxxx.GOLDEN12_IN_DECK + 1),
    )


def _back_to_sheet(game: Game, viewer: Viewer) -> Response:
    """Go back to the sheet after a form on its own page."""
    return go_to(url_for("games.sheet", token=game.token), viewer.fragment)


# --- The hand keypad ----------------------------------------------------------------------


@dataclass(frozen=True)
class TappedHand:
    """What the hand keypad shows: the cards tapped so far (keypad tokens), or a total typed instead of them."""

    tokens: tuple[str, ...] = ()
    typed: str = ""

    def pressed(self, action: str) -> TappedHand:
        """Return the keypad after a key: add a card, or remove the one tapped at a position."""
        verb, _, target = action.partition(":")
        if verb == "add" and target in CARD_TOKENS and len(self.tokens) < MAX_HAND_CARDS:
            return replace(self, tokens=(*self.tokens, target))
        if verb == "remove" and is_whole(target) and int(target) < len(self.tokens):
            return replace(self, tokens=self.tokens[: int(target)] + self.tokens[int(target) + 1 :])
        return self

    def draft(self) -> dict[str, JSON]:
        """Return what a phone keeps of an unsaved keypad."""
        return {"cards": " ".join(self.tokens), "points": self.typed}

    def counted(self, action: str) -> bool:
        """Return whether the typed total is what gets saved (its own button, or no card tapped)."""
        return action == "save-points" or (not self.tokens and bool(self.typed))

    def cards(self) -> auruxxx.Cards:
        """Return the hand the tapped cards make."""
        counts = Counter(token for token in self.tokens if not token.startswith("n"))
        return auruxxx.Cards(
            numbers=tuple(int(token[1:]) for token in self.tokens if token.startswith("n")),
            fifty=counts["fifty"],
            action=counts["action"],
            happy_man=counts["happy_man"],
            two=counts["two"],
            golden12=counts["golden12"],
        )


def _known(tokens: list[str]) -> tuple[str, ...]:
    """Return the keypad cards among ``tokens``, at most as many as a hand can hold."""
    return tuple(token for token in tokens if token in CARD_TOKENS)[:MAX_HAND_CARDS]


def _stored_hand(table: AuruxxxTable, player: str) -> TappedHand:
    """Return the keypad for a hand entered earlier in the round being played, so it can be changed."""
    entered = table.current.hands.get(player) if table.current is not None else None
    if isinstance(entered, auruxxx.Cards):
        tokens = [f"n{number}" for number in entered.numbers]
        for kind in ("fifty", "action", "happy_man", "two", "golden12"):
            tokens += [kind] * getattr(entered, kind)
        return TappedHand(tuple(tokens))
    if isinstance(entered, auruxxx.CountedHand):
        return TappedHand(typed=str(entered.points))
    return TappedHand()


def _kept_hand(draft: Mapping[str, Any], table: AuruxxxTable) -> TappedHand:
    """Return the keypad as this phone kept it unsaved."""
    return TappedHand(_known(str(draft.get("cards", "")).split()), str(draft.get("points", "")))


def _posted_hand(form: Mapping[str, str], table: AuruxxxTable) -> tuple[TappedHand, list[str]]:
    """Return the keypad as its form carries it, refusing whatever in it is no keypad card."""
    sent = form.get("cards", "").split()
    strangers = [token for token in sent if token not in CARD_TOKENS]
    entry = TappedHand(_known(sent), form.get("points", "").strip())
    if strangers:
        stranger = readable(strangers[0])
        return entry, [gettext("%(card)s is not a card on the keypad; check the cards and save again.", card=stranger)]
    return entry, []


def _written_hand(entry: TappedHand, action: str, player: str, form: Mapping[str, str]) -> tuple[dict[str, JSON], list[str]]:
    """Return the ``hand`` event of the keypad: the tapped cards, or the typed total."""
    if not entry.counted(action):
        hand: dict[str, JSON] = serialise_hand(entry.cards())
    elif is_whole(entry.typed):
        hand = {"points": int(entry.typed)}
    else:
        return {}, [gettext("Type the hand's total as a whole number, or enter the cards.")]
    return {"round": _round(form), "player": player, "hand": hand}, []


def _their_hand(table: AuruxxxTable, entry: TappedHand, player: str, action: str, form: Mapping[str, str]) -> str:
    """Return the words of the choice after another phone saved this hand: its points and this phone's."""
    saved = hand_in(table, player, _round(form))
    theirs = whole(auruxxx.hand_points(saved, table.game.house_rules)) if saved is not None else "–"
    mine = entry.typed if entry.counted(action) else whole(auruxxx.hand_points(entry.cards(), table.game.house_rules))
    return str(gettext(
        "Another phone saved the hand of %(name)s meanwhile: %(theirs)s points. Yours: %(mine)s points.",
        name=player, theirs=theirs, mine=mine,
    ))


def _shown_hand(entry: TappedHand, table: AuruxxxTable, action: str) -> dict[str, object]:
    """Return what the keypad page shows: the round, the cards tapped, their sum and the keys."""
    return {
        "current": table.current,
        "tokens": list(entry.tokens),
        "typed": entry.typed,
        "total": whole(auruxxx.hand_points(entry.cards(), table.game.house_rules)),
        "keypad": KEYPAD_CARDS,
    }


HAND_KEYPAD: Keypad[AuruxxxTable, TappedHand] = Keypad(
    template="auruxxx/hand.html",
    table=_table,
    opens=may_enter_hand,
    position=lambda table: table.current.index if table.current is not None else None,
    stored=_stored_hand,
    kept=_kept_hand,
    posted=_posted_hand,
    saves=("save", "save-points"),
    written=_written_hand,
    part=lambda table, player, form: hand_in(table, player, _round(form)),
    theirs=_their_hand,
    shown=_shown_hand,
)
"""The hand keypad: a key per card, or the hand's counted total typed in."""


@bp.route("/g/<token>/hand/<int:seat>", methods=["GET", "POST"])
def hand(token: str, seat: int) -> Response:
    """Enter a player's hand card by card (or as a counted total), then record it (``views.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=KIND), seat, HAND_KEYPAD)


# --- Correcting a finished round -----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RoundForm:
    """What the round-correction form shows: the stored round, or what was typed into it."""

    finisher: str
    golden12: int | str
    happy_man: str | None
    passes: Mapping[str, int | str]
    hands: Mapping[str, int | str]
    """Points in hand per player: the stored total, or the text typed."""


def _stored_round(table: Table[Any], index: int) -> RoundForm:
    """Return the form's values for a finished round: every hand as its total."""
    game = _table(table).game
    round_ = game.rounds[index]
    return RoundForm(
        finisher=round_.finisher,
        golden12=round_.golden12,
        happy_man=round_.happy_man,
        passes={p: round_.passes_of(p) for p in game.players},
        hands={
            p: auruxxx.hand_points(round_.hand_of(p), game.house_rules) for p in game.players if p != round_.finisher
        },
    )


def _read_round_form(game: Game, table: Table[Any], index: int) -> tuple[JSON, RoundForm, list[str]]:
    """Return the corrected round as a record round, the form as filled in, and the hands left blank."""
    played = _table(table).game
    players = game.player_names
    typed = {p: request.form.get(f"hand-{seat}", "").strip() for seat, p in enumerate(players)}
    shown = RoundForm(
        finisher=request.form.get("finisher", ""),
        golden12=whole_or_text(request.form.get("golden12", "")),
        happy_man=request.form.get("happy_man", "") or None,
        passes={p: whole_or_text(request.form.get(f"passes-{seat}", "")) for seat, p in enumerate(players)},
        hands=typed,
    )
    blank = [p for p, text in typed.items() if p != shown.finisher and not text]
    if blank:
        return {}, shown, [gettext("%(name)s: type the points in hand (0 for an empty hand).", name=name) for name in blank]
    original = played.rounds[index]
    hands = {
        p: serialise_hand(auruxxx.retyped_hand(original, p, int(text), played.house_rules)) if is_integer(text) else {"points": text}
        for p, text in typed.items()
        if p != shown.finisher
    }
    written = {
        "finisher": shown.finisher,
        "golden12": shown.golden12,
        "happy_man": shown.happy_man,
        "passes": dict(shown.passes),
        "hands": hands,
    }
    return written, shown, []


def _round_offers(table: Table[Any], index: int) -> dict[str, object]:
    """Return what the round-correction form offers: whether nobody may hold the figure, the Golden 12 and the crosses."""
    return {
        "nobody_allowed": auruxxx.nobody_may_hold_after(_table(table).game.rounds[:index]),
        "golden12_choices": range(1, auruxxx.GOLDEN12_IN_DECK + 1),
        "pass_choices": range(0, auruxxx.MAX_PASSES + 1),
    }


ROUND_CORRECTION = Correction(
    event="correct_round",
    position="round",
    template="auruxxx/correct.html",
    changed_meanwhile=lambda: gettext(
        "Someone else changed this round meanwhile. What you entered is still in the form; "
        "compare it with how the round stands now and save again."
    ),
    stored=_stored_round,
    read_form=_read_round_form,
    offers=_round_offers,
)


@bp.route("/g/<token>/rounds/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct a finished round as a whole; everything after it is recomputed."""
    return corrections.correct(*open_to_edit(token, kind=KIND), number, ROUND_CORRECTION)
