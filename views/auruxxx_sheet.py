"""The AURUXXX score sheet: the paper pad's columns, and the taps that fill them.

Views here only translate a request into an event for the rules and render what the
history then adds up to; the arithmetic, who deals and every refusal come from
``rules.auruxxx``. The module's names below the imports are its side of ``views.sheets.SheetView``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import format_decimal, gettext, ngettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from models import Game, folded, history_of, table_of
from rules import auruxxx, points
from rules.auruxxx.history import AuruxxxTable, OpenRound, hand_in
from rules.auruxxx.record import serialise_hand
from rules.games import Table
from rules.json_value import JSON
from rules.problems import readable
from views.addresses import game_or_404
from views.changes import UndoOffer, counted_from_one, undo_offer
from views import corrections
from views.corrections import Correction, newest
from views.forms import is_integer, is_whole, whole_or_text
from views.render import answer_tap, go_to, page_or_fragment, render_sheet
from views.scoreboard import Row as BoardRow
from views.scoreboard import Scoreboard
from views.sheets import Choice, Option
from views.taps import draft_key, draft_of, drop_draft, keep_draft, keypad_seen, new_key, record_hand, record_tap

KIND = auruxxx.KIND
FOLDER = "auruxxx"
SEATS = auruxxx.MAX_PLAYERS
OPTIONS = (
    Option(
        "golden12_in_hand",
        _l("Golden 12 left in hand"),
        _l("Points for a Golden 12 that a player other than the finisher still holds."),
        (Choice("12", "12"), Choice("0", "0"), Choice("25", "25")),
        "12",
    ),
    Option(
        "two_in_hand",
        _l('"2" card left in hand'),
        _l('Points for a "2" (draw two) card still in hand at the end of a round.'),
        (Choice("2", "2"), Choice("25", "25")),
        "2",
    ),
    Option(
        "halving",
        _l("Happy-Man halves"),
        _l("Only matters when the Happy-Man holder also ended the round with Golden 12."),
        (Choice("net", _l("after the Golden-12 bonus")), Choice("penalty", _l("before the Golden-12 bonus"))),
        "net",
    ),
    Option(
        "rounding",
        _l("Half points"),
        _l("What becomes of an odd score when it is halved, e.g. 17."),
        (Choice("exact", _l("keep the half (8.5)")), Choice("floor", _l("round down (8)")), Choice("ceil", _l("round up (9)"))),
        "exact",
    ),
)
"""The house rules the new-game form asks for."""

bp = Blueprint("auruxxx", __name__)

TEMPLATE = "auruxxx/sheet.html"

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
    number = counted_from_one(payload, "round")
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


def render(game: Game, *, problems: Sequence[str] = (), status: int = 200) -> Response:
    """Return the sheet as a page, or only its interactive part for htmx."""
    sheet = build_sheet(game)
    return render_sheet(
        TEMPLATE, game, sheet.board, problems=problems, status=status,
        sheet=sheet, version=sheet.version, players=list(game.player_names),
    )


def after_tap(game: Game, problems: Sequence[str]) -> Response:
    """Answer a tap on this game's sheet."""
    return answer_tap(problems, partial(render, game), url_for("games.sheet", token=game.token))


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
    undo: UndoOffer | None
    version: int
    """The number of the newest event: what the live stream compares against."""
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


def scoreboard(game: Game) -> Scoreboard:
    """Fold the game's history into its scoreboard."""
    table = table_of(game)
    assert isinstance(table, AuruxxxTable)
    return scoreboard_of(game, auruxxx.score_game(table.game))


def build_sheet(game: Game) -> Sheet:
    """Fold the game's history and lay it out as the paper pad's rows and columns."""
    history, folded_table = folded(game)
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
        undo=undo_offer(game, history),
        version=newest(history),
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


def _round() -> int:
    """Return the round a form was filled in for (the rules refuse any but the current one)."""
    value = request.form.get("round", "")
    if not is_whole(value) or int(value) >= auruxxx.ROUNDS:
        abort(400, description=gettext("Unknown round."))
    return int(value)


@bp.post("/g/<token>/pass")
def pass_cross(token: str) -> Response:
    """Add a pass cross for a player in the current round."""
    game = game_or_404(token, kind=KIND)
    player = _player(game)
    return after_tap(game, record_tap(game, "pass", {"round": _round(), "player": player}))


@bp.post("/g/<token>/happy-man")
def hand_on_happy_man(token: str) -> Response:
    """Hand the Happy-Man figure to a player."""
    game = game_or_404(token, kind=KIND)
    player = _player(game)
    return after_tap(game, record_tap(game, "happy_man", {"round": _round(), "player": player}))


@bp.route("/g/<token>/finish", methods=["GET", "POST"])
def finish(token: str) -> Response:
    """Ask who ended the round and with how many Golden 12, then record it."""
    game = game_or_404(token, kind=KIND)
    if request.method == "POST":
        golden12 = request.form.get("golden12", "")
        if not is_whole(golden12):
            return _finish_page(game, [gettext("Tap how many Golden 12 ended the round.")], 422)
        problems = record_tap(
            game, "finish", {"round": _round(), "player": _player(game), "golden12": int(golden12)}
        )
        if problems:
            return _finish_page(game, problems, 422)
        return _back_to_sheet(game)
    return _finish_page(game, [], 200)


def _finish_page(game: Game, problems: list[str], status: int) -> Response:
    """Render the who-ended-the-round form."""
    table = _table(table_of(game))
    if table.current is None:
        return redirect(url_for("games.sheet", token=game.token), code=303)
    return page_or_fragment(
        "auruxxx/finish.html",
        "finish",
        status=status,
        game=game,
        current=table.current,
        players=list(game.player_names),
        problems=problems,
        new_key=new_key,
        golden12_choices=range(1, auruxxx.GOLDEN12_IN_DECK + 1),
    )


def _back_to_sheet(game: Game) -> Response:
    """Go back to the sheet after a form on its own page."""
    return go_to(url_for("games.sheet", token=game.token))


# --- The hand keypad ----------------------------------------------------------------------


def cards_from_tokens(tokens: list[str]) -> auruxxx.Cards:
    """Return the hand a list of keypad tokens describes; every token must be one of ``CARD_TOKENS``."""
    counts = Counter(token for token in tokens if not token.startswith("n"))
    return auruxxx.Cards(
        numbers=tuple(int(token[1:]) for token in tokens if token.startswith("n")),
        fifty=counts["fifty"],
        action=counts["action"],
        happy_man=counts["happy_man"],
        two=counts["two"],
        golden12=counts["golden12"],
    )


def _tokens() -> tuple[list[str], list[str]]:
    """Return the cards entered so far, as the keypad form carries them, and whatever in it is no keypad card."""
    sent = request.form.get("cards", "").split()
    known = [token for token in sent if token in CARD_TOKENS]
    return known[:MAX_HAND_CARDS], [token for token in sent if token not in CARD_TOKENS]


@bp.route("/g/<token>/hand/<int:seat>", methods=["GET", "POST"])
def hand(token: str, seat: int) -> Response:
    """Enter a player's hand card by card (or as a counted total), then record it.

    The keypad remembers the change it was opened at (``seen``): if another phone saves this
    hand meanwhile, saving asks whether to keep theirs or replace it. Cards tapped but not
    saved are kept on this phone, so a reload loses none.
    """
    game = game_or_404(token, kind=KIND)
    if not 0 <= seat < len(game.players):
        abort(404)
    player = game.player_names[seat]
    history = history_of(game)
    table = _table(table_of(game))
    if table.current is None or table.current.finisher is None or player == table.current.finisher:
        return redirect(url_for("games.sheet", token=game.token), code=303)
    draft = draft_key(game, seat, table.current.index)
    latest = newest(history)
    tokens: list[str] = []
    typed = ""
    problems: list[str] = []
    status = 200
    restored = False
    if request.method == "GET":
        seen: int | None = latest
        kept = draft_of(draft)
        if kept is not None:
            tokens = [t for t in str(kept.get("cards", "")).split() if t in CARD_TOKENS][:MAX_HAND_CARDS]
            typed = str(kept.get("points", ""))
            seen = kept.get("seen") if isinstance(kept.get("seen"), int) else latest
            restored = True
        else:
            entered = table.current.hands.get(player)
            if isinstance(entered, auruxxx.Cards):
                tokens = tokens_from_cards(entered)
            elif isinstance(entered, auruxxx.CountedHand):
                typed = str(entered.points)
    else:
        tokens, strangers = _tokens()
        typed = request.form.get("points", "").strip()
        seen = keypad_seen()
        action = request.form.get("action", "")
        if strangers:
            stranger = readable(strangers[0])
            problems = [gettext("%(card)s is not a card on the keypad; check the cards and save again.", card=stranger)]
        elif action == "discard":
            drop_draft(draft)
            return _back_to_sheet(game)
        elif action.startswith("add:") and action[4:] in CARD_TOKENS and len(tokens) < MAX_HAND_CARDS:
            tokens.append(action[4:])
        elif action.startswith("remove:") and is_whole(action[7:]) and int(action[7:]) < len(tokens):
            del tokens[int(action[7:])]
        elif action in ("save", "save-points"):
            if action == "save-points" or (not tokens and typed):
                if not is_whole(typed):
                    problems = [gettext("Type the hand's total as a whole number, or enter the cards.")]
                    hand_json: dict[str, JSON] = {}
                else:
                    hand_json = {"points": int(typed)}
            else:
                hand_json = serialise_hand(cards_from_tokens(tokens))
            if not problems:
                index = _round()
                problems, status = record_hand(
                    game, {"round": index, "player": player, "hand": hand_json},
                    hand=lambda folded: hand_in(_table(folded), player, index), seen=seen,
                )
            if status == 200 and not problems:
                drop_draft(draft)
                return _back_to_sheet(game)
        keep_draft(draft, {"cards": " ".join(tokens), "points": typed, "seen": seen})
    current = table.current
    theirs: str | None = None
    if status == 409:
        history = history_of(game)
        table = _table(table_of(game))
        saved = hand_in(table, player, _round())
        theirs = whole(auruxxx.hand_points(saved, table.game.house_rules)) if saved is not None else "–"
        seen = newest(history)
        keep_draft(draft, {"cards": " ".join(tokens), "points": typed, "seen": seen})
    cards = cards_from_tokens(tokens)
    total = whole(auruxxx.hand_points(cards, table.game.house_rules))
    counted = request.form.get("action") == "save-points" or (not tokens and typed)
    return page_or_fragment(
        "auruxxx/hand.html",
        "keypad",
        status=status if status == 409 else (422 if problems else 200),
        game=game,
        player=player,
        seat=seat,
        current=current,
        tokens=tokens,
        typed=typed,
        seen=seen,
        restored=restored,
        theirs=theirs,
        resave=request.form.get("action", "save"),
        mine=typed if counted else total,
        total=total,
        keypad=KEYPAD_CARDS,
        problems=problems,
        new_key=new_key,
    )


def tokens_from_cards(cards: auruxxx.Cards) -> list[str]:
    """Return keypad tokens for a hand entered earlier, so it can be changed."""
    tokens = [f"n{number}" for number in cards.numbers]
    for kind in ("fifty", "action", "happy_man", "two", "golden12"):
        tokens += [kind] * getattr(cards, kind)
    return tokens


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
    hands: dict[str, JSON] = {
        p: serialise_hand(auruxxx.retyped_hand(original, p, int(text), played.house_rules)) if is_integer(text) else {"points": text}
        for p, text in typed.items()
        if p != shown.finisher
    }
    written: dict[str, JSON] = {
        "finisher": shown.finisher,
        "golden12": shown.golden12,
        "happy_man": shown.happy_man,
        "passes": dict(shown.passes),
        "hands": hands,
    }
    return written, shown, []


def _correct_page(
    game: Game,
    table: Table[Any],
    index: int,
    values: RoundForm,
    seen: int,
    problems: list[str],
    status: int,
    stands_now: RoundForm | None,
) -> Response:
    """Render the correction form, filled in with the round as it stands (or as submitted, beside ``stands_now``)."""
    return page_or_fragment(
        "auruxxx/correct.html",
        "correct",
        status=status,
        game=game,
        number=index + 1,
        players=list(game.player_names),
        values=values,
        stands_now=stands_now,
        seen=seen,
        problems=problems,
        new_key=new_key,
        nobody_allowed=auruxxx.figure_holder(_table(table).game.rounds[:index]) is None,
        golden12_choices=range(1, auruxxx.GOLDEN12_IN_DECK + 1),
        pass_choices=range(0, auruxxx.MAX_PASSES + 1),
    )


ROUND_CORRECTION = Correction(
    event="correct_round",
    position="round",
    changed_meanwhile=lambda: gettext(
        "Someone else changed this round meanwhile. What you entered is still in the form; "
        "compare it with how the round stands now and save again."
    ),
    stored=_stored_round,
    read_form=_read_round_form,
    page=_correct_page,
)


@bp.route("/g/<token>/rounds/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct a finished round as a whole; everything after it is recomputed."""
    return corrections.correct(game_or_404(token, kind=KIND), number, ROUND_CORRECTION)
