"""The rules FAQ at the table: search as you type, browse by topic, one address per answer."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request
from flask_babel import get_locale, gettext
from werkzeug.wrappers import Response as BaseResponse

from faq.content import CONTENT, Entry, Outline, languages
from faq.search import FAQ, shared
from rules.games import find_game
from views.pages.render import page_or_fragment, wants_fragment
from views.table.addresses import game_behind
from views.table.sheets import SHEETS

bp = Blueprint("faq", __name__)

MAX_QUERY = 200


def init_app(app: Flask) -> None:
    """Say where the app's FAQ lives; it is loaded and built where it is first used (a server builds it before its workers fork)."""
    app.extensions["faq_folder"] = Path(app.config.get("FAQ_CONTENT", CONTENT))


def index() -> FAQ:
    """Return the app's FAQ, loaded on first use and shared by every app of the process on the same files."""
    return shared(current_app.extensions["faq_folder"])


def outlines() -> dict[str, Outline]:
    """Return how each game's FAQ is organised, for every game that has one, in the registry's order."""
    return index().outlines


def language() -> str:
    """Return the FAQ language: ``lang=`` if given, else the interface's."""
    spoken = languages(current_app.extensions["faq_folder"])
    asked = request.args.get("lang", "")
    if asked in spoken:
        return asked
    current = str(get_locale() or "de")[:2]
    return current if current in spoken else spoken[0]


def game_arg(value: str | None) -> str:
    """Return a game with a FAQ, refusing anything else with 400 (a wrong parameter)."""
    games = tuple(outlines())
    if value not in games:
        abort(400, description=f"game must be one of {', '.join(games)}")
    return value


def back_to_sheet(game: str) -> str | None:
    """Return the ``back=`` address of the sheet this FAQ page was opened from, if it is a real game of this kind."""
    token = request.args.get("back", "")
    found = game_behind(token)
    return token if found is not None and found.kind == game else None


def title(game: str) -> str:
    """Return a game's own name, in the reader's language where it has one there."""
    return str(gettext(find_game(game).title))


def entries_of(game: str, lang: str) -> list[Entry]:
    """Return all entries of one game and language in file order."""
    return [e for e in index().entries if e.game == game and e.lang == lang]


@bp.get("/faq")
def start() -> str:
    """Let the player pick the game whose rules they have a question about."""
    return render_template("faq/start.html", games={game: title(game) for game in outlines()})


def sheet_help(game: str) -> str:
    """Show how the app's sheet of a game without rule questions is used (its views' ``help.html``): the app knows no rules to ask about."""
    if game not in SHEETS:
        abort(404)
    return render_template(
        "faq/sheet_help.html", game=game, title=title(game), help=f"{SHEETS[game].folder}/help.html", back=back_to_sheet(game)
    )


@bp.get("/faq/<game>")
def game_page(game: str) -> str:
    """List every question of a game by topic, with the search box on top; ``control=`` narrows to one sheet control."""
    outline = outlines().get(game)
    if outline is None:
        return sheet_help(game)
    lang = language()
    control = request.args.get("control", "")
    shown = [e for e in entries_of(game, lang) if not control or control in e.controls]
    topics: dict[str, list[Entry]] = defaultdict(list)
    for entry in shown:
        topics[entry.topic].append(entry)
    ordered = [(topic, titles[lang], topics[topic]) for topic, titles in outline.topics.items() if topics.get(topic)]
    return render_template(
        "faq/game.html",
        game=game,
        title=title(game),
        topics=ordered,
        control=control,
        query="",
        hits=None,
        lang=lang,
        back=back_to_sheet(game),
        browse=[],
    )


@bp.get("/faq/<game>/<entry_id>")
def entry_page(game: str, entry_id: str) -> str:
    """Show one answer at its own address, to share."""
    found = next((e for e in entries_of(game, language()) if e.id == entry_id), None)
    if found is None:
        abort(404)
    topic = outlines()[game].topics[found.topic][found.lang]
    return render_template("faq/entry.html", game=game, title=title(game), entry=found, topic=topic, back=back_to_sheet(game))


@bp.get("/faq/search")
def search() -> BaseResponse:
    """Answer a question as typed: HTML results (a fragment for htmx), or JSON for ``Accept: application/json``."""
    game = game_arg(request.args.get("game"))
    lang = language()
    query = request.args.get("q", "")[:MAX_QUERY]
    hits = index().search(query, game=game, lang=lang)
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json":
        response = jsonify(
            [
                {
                    "id": h.entry.id,
                    "game": h.entry.game,
                    "lang": h.entry.lang,
                    "question": h.entry.question,
                    "answer": h.entry.answer,
                    "page": h.entry.page,
                }
                for h in hits
            ]
        )
        response.vary.add("Accept")
        return response
    page = page_or_fragment(
        "faq/game.html",
        "results",
        wants_fragment(),
        game=game,
        title=title(game),
        topics=[],
        control="",
        query=query,
        hits=hits,
        lang=lang,
        back=back_to_sheet(game),
        browse=[(topic, titles[lang]) for topic, titles in outlines()[game].topics.items()],
    )
    page.vary.add("Accept")
    return page


@bp.get("/faq/offline-index.json")
def offline_index() -> Response:
    """Return everything the search works out before a question comes, for searching in the browser without a network."""
    return current_app.response_class(index().offline_json, mimetype="application/json")
