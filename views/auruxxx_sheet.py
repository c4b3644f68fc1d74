"""The AURUXXX score sheet: the paper pad's columns, and the taps that fill them.

Views here only translate a request into an event for the rules and render what the
history then adds up to; the arithmetic and every refusal come from ``rules``.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import get_locale, gettext, ngettext
from werkzeug.wrappers import Response

from models import Game, history_of, table_of
from rules import auruxxx, points, record
from rules.history import AuruxxxTable, OpenRound, finished_part, fold, hand_of, last_change
from rules.problems import readable
from views.changes import describe_event
from views.render import answer_tap, go_to, page_or_fragment, render_sheet
from views.scoreboard import Row, Scoreboard
from views.table import (
    draft_key, draft_of, drop_draft, form_seen, game_or_404, is_integer, is_whole, keep_draft, keypad_seen, new_key,
    record_correction, record_hand, record_tap,
)

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


def half(value: points.HalfPoints) -> str:
    """Return points as this reader writes them: 6,5 in German, 6.5 in English."""
    separator = "," if str(get_locale() or "de").startswith("de") else "."
    return points.display(value, decimal_separator=separator)


def whole(value: int) -> str:
    """Return whole points with a real minus sign."""
    return half(points.whole(value))


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


@dataclass(frozen=True)
class Sheet:
    """Everything the sheet template shows, worked out once per request."""

    game: Game
    table: AuruxxxTable
    rows: list[dict[str, Any]]
    totals: list[str]
    winners: tuple[str, ...]
    current: OpenRound | None
    dealer: int | None
    starter: int | None
    undo: dict[str, Any] | None
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
        rows=tuple(Row(str(number), {p: scores[p].points for p in players}) for number, scores in enumerate(result.rounds, start=1)),
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
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, AuruxxxTable)
    result = auruxxx.score_game(table.game)
    players = table.game.players
    rows: list[dict[str, Any]] = []
    for index in range(auruxxx.ROUNDS):
        deals = (game.first_dealer + index) % len(players)
        row: dict[str, Any] = {"index": index, "number": index + 1, "dealer": deals, "starter": (deals + 1) % len(players)}
        if index < len(table.game.rounds):
            finished = table.game.rounds[index]
            row["state"] = "done"
            row["cells"] = [
                ScoreCell(
                    text=half(score.points),
                    explanation=explain(score, table.game.house_rules),
                    passes=score.passes,
                    golden12=score.golden12,
                    holder=score.happy_man,
                )
                for score in (result.rounds[index][p] for p in players)
            ]
            row["finisher"] = finished.finisher
        else:
            row["state"] = "current" if table.current is not None and table.current.index == index else "future"
        rows.append(row)
    change = last_change(history)
    undo = None
    if change is not None:
        undo = {"seq": change.seq, "text": describe_event(change.kind, dict(change.payload))}
    current = table.current
    dealer: int | None = None
    starter: int | None = None
    if current is not None:
        dealer = rows[current.index]["dealer"]
        starter = rows[current.index]["starter"]
    return Sheet(
        game=game,
        table=table,
        rows=rows,
        totals=[half(result.totals[p]) for p in players],
        winners=result.winners if result.complete else (),
        current=current,
        dealer=dealer,
        starter=starter,
        undo=undo,
        version=history[-1].seq if history else 0,
        board=scoreboard_of(game, result),
    )


def render(game: Game, *, problems: list[str] | None = None, status: int = 200) -> Response:
    """Return the sheet as a page, or only its interactive part for htmx."""
    sheet = build_sheet(game)
    return render_sheet(
        TEMPLATE, game, sheet.board, problems=problems, status=status,
        sheet=sheet, version=sheet.version, players=list(game.player_names),
    )


def after_tap(game: Game, problems: list[str]) -> Response:
    """Answer a tap on this game's sheet."""
    return answer_tap(problems, partial(render, game), url_for("games.sheet", token=game.token))


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
    game = game_or_404(token)
    player = _player(game)
    return after_tap(game, record_tap(game, "pass", {"round": _round(), "player": player}))


@bp.post("/g/<token>/happy-man")
def hand_on_happy_man(token: str) -> Response:
    """Hand the Happy-Man figure to a player."""
    game = game_or_404(token)
    player = _player(game)
    return after_tap(game, record_tap(game, "happy_man", {"round": _round(), "player": player}))


@bp.route("/g/<token>/finish", methods=["GET", "POST"])
def finish(token: str) -> Response:
    """Ask who ended the round and with how many Golden 12, then record it."""
    game = game_or_404(token)
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
    table = table_of(game)
    assert isinstance(table, AuruxxxTable)
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
    game = game_or_404(token)
    if not 0 <= seat < len(game.players):
        abort(404)
    player = game.player_names[seat]
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, AuruxxxTable)
    if table.current is None or table.current.finisher is None or player == table.current.finisher:
        return redirect(url_for("games.sheet", token=game.token), code=303)
    draft = draft_key(game, seat, table.current.index)
    newest = history[-1].seq if history else 0
    tokens: list[str] = []
    typed = ""
    problems: list[str] = []
    status = 200
    restored = False
    if request.method == "GET":
        seen: int | None = newest
        kept = draft_of(draft)
        if kept is not None:
            tokens = [t for t in str(kept.get("cards", "")).split() if t in CARD_TOKENS][:MAX_HAND_CARDS]
            typed = str(kept.get("points", ""))
            seen = kept.get("seen") if isinstance(kept.get("seen"), int) else newest
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
                    hand_json: dict[str, Any] = {}
                else:
                    hand_json = {"points": int(typed)}
            else:
                hand_json = record.serialise_auruxxx_hand(cards_from_tokens(tokens))
            if not problems:
                index = _round()
                problems, status = record_hand(
                    game, {"round": index, "player": player, "hand": hand_json}, player=player, index=index, seen=seen
                )
            if status == 200 and not problems:
                drop_draft(draft)
                return _back_to_sheet(game)
        keep_draft(draft, {"cards": " ".join(tokens), "points": typed, "seen": seen})
    current = table.current
    theirs: str | None = None
    if status == 409:
        history = history_of(game)
        table = fold(game.setup, history)
        assert isinstance(table, AuruxxxTable)
        saved = hand_of(table, player, _round())
        theirs = whole(auruxxx.hand_points(saved, table.game.house_rules)) if isinstance(saved, auruxxx.Hand) else "–"
        seen = history[-1].seq if history else 0
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


@bp.route("/g/<token>/rounds/<int:number>/correct", methods=["GET", "POST"])
def correct(token: str, number: int) -> Response:
    """Correct a finished round as a whole; everything after it is recomputed."""
    game = game_or_404(token)
    table = table_of(game)
    assert isinstance(table, AuruxxxTable)
    index = number - 1
    if not 0 <= index < len(table.game.rounds):
        abort(404)
    original = table.game.rounds[index]
    players = list(game.player_names)
    if request.method == "GET":
        history = history_of(game)
        return _correct_page(game, index, original, history[-1].seq if history else 0, [], 200)
    seen = form_seen()
    finisher = request.form.get("finisher", "")
    holder = request.form.get("happy_man", "")
    corrected: dict[str, Any] = {
        "finisher": finisher,
        "golden12": _int_field("golden12"),
        "happy_man": holder or None,
        "passes": {p: _int_field(f"passes-{seat}") for seat, p in enumerate(players)},
        "hands": {},
    }
    typed_hands = {p: request.form.get(f"hand-{seat}", "").strip() for seat, p in enumerate(players)}
    # The form as it was filled in, shown again if the correction is refused.
    shown = {**corrected, "hands": {p: {"points": typed} for p, typed in typed_hands.items()}}
    blank = [p for p, typed in typed_hands.items() if p != finisher and not typed]
    if blank:
        problems = [gettext("%(name)s: type the points in hand (0 for an empty hand).", name=name) for name in blank]
        return _correct_page(game, index, original, seen, problems, 422, submitted=shown)
    for player, typed in typed_hands.items():
        if player == finisher:
            continue
        keep = original.finisher != player and typed == str(auruxxx.hand_points(original.hand_of(player), table.game.house_rules))
        if keep:
            corrected["hands"][player] = record.serialise_auruxxx_hand(original.hand_of(player))
        else:
            corrected["hands"][player] = {"points": int(typed) if is_integer(typed) else typed}
    problems, status = record_correction(
        game, "correct_round", {"round": index, "record": corrected}, index=index, seen=seen,
        stale=gettext(
            "Someone else changed this round meanwhile. What you entered is still in the form; "
            "compare it with how the round stands now and save again."
        ),
    )
    if not problems:
        return _back_to_sheet(game)
    if status == 409:
        return _changed_meanwhile(game, index, problems, shown)
    return _correct_page(game, index, original, seen, problems, status, submitted=shown)


def _changed_meanwhile(game: Game, index: int, problems: list[str], shown: dict[str, Any]) -> Response:
    """Answer 409: the correction form keeps what was typed, next to the round as it stands now.

    Its ``seen`` moves on to the newest change: saving again, having seen both, is a decision.
    """
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, AuruxxxTable)
    now = finished_part(table, index)
    if not isinstance(now, auruxxx.Round):
        return _back_to_sheet(game)
    return _correct_page(
        game, index, now, history[-1].seq if history else 0, problems, 409,
        submitted=shown, stands_now=_round_values(now, list(game.player_names), table.game.house_rules),
    )


def _int_field(name: str) -> int | str:
    """Return a form field as a whole number when it is one (the rules refuse anything else)."""
    value = request.form.get(name, "").strip()
    return int(value) if is_integer(value) else value


def _round_values(finished: auruxxx.Round, players: list[str], rules: auruxxx.HouseRules) -> dict[str, Any]:
    """Return a finished round as the correction form's fields hold it."""
    return {
        "finisher": finished.finisher,
        "golden12": finished.golden12,
        "happy_man": finished.happy_man,
        "passes": {p: finished.passes_of(p) for p in players},
        "hands": {
            p: {"points": auruxxx.hand_points(finished.hand_of(p), rules)}
            for p in players
            if p != finished.finisher
        },
    }


def _correct_page(
    game: Game,
    index: int,
    original: auruxxx.Round,
    seen: int,
    problems: list[str],
    status: int,
    submitted: dict[str, Any] | None = None,
    stands_now: dict[str, Any] | None = None,
) -> Response:
    """Render the correction form, filled in with the round as it stands (or as submitted, beside ``stands_now``)."""
    table = table_of(game)
    assert isinstance(table, AuruxxxTable)
    players = list(game.player_names)
    values = submitted or _round_values(original, players, table.game.house_rules)
    holder_before = None
    for earlier in table.game.rounds[:index]:
        holder_before = earlier.happy_man or holder_before
    return page_or_fragment(
        "auruxxx/correct.html",
        "correct",
        status=status,
        game=game,
        number=index + 1,
        players=players,
        values=values,
        stands_now=stands_now,
        seen=seen,
        problems=problems,
        new_key=new_key,
        nobody_allowed=holder_before is None,
        golden12_choices=range(1, auruxxx.GOLDEN12_IN_DECK + 1),
        pass_choices=range(0, auruxxx.MAX_PASSES + 1),
    )
