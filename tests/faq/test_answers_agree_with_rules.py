"""Every number an answer states agrees with the rules: the rules package computes it again.

Each game's claims (faq/content/<game>.claims.toml) say which entry states which number and
how the rules reach it: points of a hand, a round score with crosses, Golden 12 and the
Happy-Man figure, a game total, the day cards a 12 Days day hands out, a hand bonus, a variant's
numbers. Each claim is computed with rules.auruxxx / rules.twelve_days, and the number must be
written in the entry's text in every language.

A claim holds under the house rules and the variant it names; every house rule and variant it leaves
open is tried as well. A number that holds only by default must be said to: the claim says
``by_default = true`` and the entry's text says "by default" in each language.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from num2words import num2words

from faq.content import CONTENT, LANGUAGES, load
from rules.auruxxx import score as auruxxx
from rules.twelve_days import score as twelve_days

Claim = Mapping[str, Any]


def claims(game: str) -> list[Claim]:
    """Return a game's claims, in file order."""
    found: list[Claim] = tomllib.loads((CONTENT / f"{game}.claims.toml").read_text(encoding="utf-8"))["claim"]
    return found


# --- AURUXXX ---------------------------------------------------------------------------------------


def auruxxx_house_rules(claim: Claim) -> auruxxx.HouseRules:
    """Return the house rules a claim assumes: the defaults unless it names others."""
    return auruxxx.HouseRules(
        golden12_in_hand=claim.get("golden12_in_hand", 12),
        two_in_hand=claim.get("two_in_hand", 2),
        halving=auruxxx.Halving(claim.get("halving", "net")),
        rounding=auruxxx.Rounding(claim.get("rounding", "exact")),
    )


def auruxxx_cards(claim: Claim) -> auruxxx.Cards:
    """Return the hand a claim describes."""
    return auruxxx.Cards(
        numbers=tuple(claim.get("numbers", ())),
        **{
            kind: claim.get(kind, 0)
            for kind in ("fifty", "action", "happy_man", "two", "golden12")
            if kind != "golden12" or not claim.get("finisher")
        },
    )


def auruxxx_round(claim: Claim) -> float:
    """Return the round score of the player a claim describes (seat "P"; "F" finishes unless they do)."""
    finisher = "P" if claim.get("finisher") else "F"
    round_ = auruxxx.Round(
        finisher=finisher,
        golden12=claim.get("golden12", 1),
        happy_man="P" if claim.get("holder") else None,
        passes={"P": claim.get("passes", 0)},
        hands={} if claim.get("finisher") else {"P": auruxxx_cards(claim)},
    )
    return auruxxx.score_player(round_, "P", auruxxx_house_rules(claim)).points / 2


FINISHER_SCORES = {
    5 * passes - 5 * golden12 for passes in range(auruxxx.MAX_PASSES + 1) for golden12 in range(1, auruxxx.GOLDEN12_IN_DECK + 1)
}
"""Every round score the player who went out can have, before the figure halves it."""


def auruxxx_total(claim: Claim) -> float:
    """Return a player's game total from their round scores, checking whether it wins as the claim says, and that each round has
    a player whose score one who went out can have: a round ends only when someone goes out."""
    rows = [claim["rounds"], *claim.get("others", [])]
    finisher = FINISHER_SCORES | {score / 2 for score in FINISHER_SCORES if score > 0}
    assert all(any(row[number] in finisher for row in rows) for number in range(auruxxx.ROUNDS)), f"nobody went out in a round of {rows}"
    players = tuple(f"P{seat}" for seat in range(len(rows)))
    game = auruxxx.Game(
        players=players,
        rounds=tuple(
            auruxxx.Round(
                finisher="X",
                golden12=1,
                happy_man=None,
                hands={player: auruxxx.CountedHand(rows[seat][number]) for seat, player in enumerate(players)},
            )
            for number in range(auruxxx.ROUNDS)
        ),
    )
    result = auruxxx.score_game(game)
    assert ("P0" in result.winners) == claim["wins"], result.winners
    return result.totals["P0"] / 2


def auruxxx_deck(_: Claim) -> int:
    """Return how many cards the AURUXXX deck holds."""
    return (
        auruxxx.NUMBER_COPIES * len(auruxxx.NUMBER_VALUES)
        + auruxxx.GOLDEN12_IN_DECK
        + auruxxx.FIFTY_IN_DECK
        + auruxxx.HAPPY_MAN_CARDS_IN_DECK
        + auruxxx.ACTION_AND_TWO_IN_DECK
    )


AURUXXX: dict[str, Callable[[Claim], float]] = {
    "hand": lambda claim: auruxxx.hand_points(auruxxx_cards(claim), auruxxx_house_rules(claim)),
    "round": auruxxx_round,
    "total": auruxxx_total,
    "rule": lambda claim: int(getattr(auruxxx, claim["name"])),
    "default": lambda claim: int(getattr(auruxxx.HouseRules(), claim["name"])),
    "deck": auruxxx_deck,
}


# --- 12 Days ---------------------------------------------------------------------------------------


def twelve_days_days(claim: Claim) -> tuple[twelve_days.Day, ...]:
    """Return the days a claim lists, after as many won days as come before its first."""
    seats = max(len(played) for played in claim["days"])
    won: list[twelve_days.Day] = [twelve_days.TakenDay(taken_by="P0")] * (claim["first"] - 1)
    listed: list[twelve_days.Day] = [
        twelve_days.PlayedDay(
            played={f"P{seat}": card for seat, card in enumerate(played)}, gift_to=f"P{claim['gift_to']}" if "gift_to" in claim else None
        )
        for played in claim["days"]
    ]
    assert seats >= 2
    return tuple(won + listed)


def twelve_days_received(claim: Claim) -> int:
    """Return the day points whoever receives the last listed day gets, checking the winning card the claim names."""
    last = twelve_days.resolve_days(twelve_days_days(claim))[-1]
    assert last.reveal is not None and last.receiver is not None
    if "wins" in claim:
        assert last.reveal.winning_card == claim["wins"], last.reveal
    return last.points


def twelve_days_winning_card(claim: Claim) -> twelve_days.Card | None:
    """Return the card that wins the one day a claim lists."""
    (played,) = claim["days"]
    return twelve_days.reveal({f"P{seat}": card for seat, card in enumerate(played)}).winning_card


def twelve_days_pot(claim: Claim) -> list[int]:
    """Return the days waiting in the pot after the listed days."""
    return list(twelve_days.resolve_days(twelve_days_days(claim))[-1].pot_after)


def twelve_days_lost(claim: Claim) -> int:
    """Return the day points nobody gets when the listed days end the game."""
    days = twelve_days_days(claim)
    assert len(days) == twelve_days.STANDARD.days
    players = tuple(f"P{seat}" for seat in range(max(len(played) for played in claim["days"])))
    return twelve_days.score_game(twelve_days.Game(players=players, days=days)).lost


def twelve_days_bonus(claim: Claim) -> int:
    """Return the hand bonus of one seat from everyone's final hands."""
    players = tuple(f"P{seat}" for seat in range(len(claim["hands"])))
    hands = {player: tuple(hand) for player, hand in zip(players, claim["hands"])}
    variant = twelve_days.find_variant(claim.get("variant", "standard"))
    return twelve_days.score_game(twelve_days.Game(players=players, hands=hands, variant=variant)).bonus[players[claim["seat"]]]


def twelve_days_variant(claim: Claim) -> int | list[int]:
    """Return one number of a variant: an attribute, its gift cards, the copies of one card, or the lowest and highest value it scores."""
    variant = twelve_days.find_variant(claim["variant"])
    if claim["name"] == "values":
        return [variant.values[0], variant.values[-1]]
    if claim["name"] == "copies":
        return variant.copies(claim["card"])
    if claim["name"] == "gift_cards":
        return sum(variant.copies(card) for card in variant.cards)
    return int(getattr(variant, claim["name"]))


TWELVE_DAYS: dict[str, Callable[[Claim], Any]] = {
    "days": twelve_days_received,
    "wins": twelve_days_winning_card,
    "pot": twelve_days_pot,
    "lost": twelve_days_lost,
    "bonus": twelve_days_bonus,
    "variant": twelve_days_variant,
    "deck": lambda _: sum(map(twelve_days.STANDARD.copies, twelve_days.STANDARD.cards)) + twelve_days.STANDARD.days,
}

COMPUTE = {"auruxxx": AURUXXX, "12days": TWELVE_DAYS}

LEFT_OPEN: dict[str, dict[str, tuple[object, ...]]] = {
    "auruxxx": {
        "golden12_in_hand": auruxxx.GOLDEN12_IN_HAND_CHOICES,
        "two_in_hand": auruxxx.TWO_IN_HAND_CHOICES,
        "halving": tuple(halving.value for halving in auruxxx.Halving),
        "rounding": tuple(rounding.value for rounding in auruxxx.Rounding),
    },
    "12days": {"variant": ("standard", "8nights", "8players")},
}
"""The house rules and variants a claim may name; those it leaves open are tried too. The 12 Days kinds the variant changes are ``bonus``."""
SWEPT = {"auruxxx": ("hand", "round"), "12days": ("bonus",)}
"""The kinds of claim whose numbers a house rule or variant can change."""
BY_DEFAULT = {"de": ("standardmäßig", "ohne hausregel", "im grundspiel"), "en": ("by default", "without a house rule", "in the base game")}
"""How an entry says that what it states holds by default, not under every house rule or variant."""


def under_every_rule_left_open(game: str, claim: Claim) -> dict[str, Any]:
    """Return what a claim computes under each combination of the house rules or variants it leaves open, by combination."""
    open_ = {name: choices for name, choices in LEFT_OPEN[game].items() if name not in claim}
    found: dict[str, Any] = {}
    for combination in itertools.product(*open_.values()):
        chosen = dict(zip(open_, combination))
        if game == "12days" and not fits(claim, str(chosen.get("variant", claim.get("variant", "standard")))):
            continue
        found[str(chosen)] = COMPUTE[game][claim["kind"]]({**claim, **chosen})
    return found


def fits(claim: Claim, variant: str) -> bool:
    """Tell whether a 12 Days claim's hands can be dealt in a variant: its cards are in that deck."""
    deck = twelve_days.find_variant(variant)
    return all(deck.copies(card) > 0 for hand in claim.get("hands", ()) for card in hand)


# --- the checks ------------------------------------------------------------------------------------


NUMBER_WORDS = range(2, 21)
"""Numbers a text may write as a word ("dreimal", "three rounds"); one is too often an article to read."""


def numbers_in(text: str, lang: str) -> set[float]:
    """Return every number a text writes: −5 and -5 alike, 8,5 in German as 8.5 in English, "drei" as 3."""
    text = text.replace("−", "-")
    if lang == "de":
        text = re.sub(r"(\d),(\d)", r"\1.\2", text)
    found = {float(number) for number in re.findall(r"-?\d+(?:\.\d+)?", text)}
    return found | {float(n) for n in NUMBER_WORDS if re.search(rf"\b{num2words(n, lang=lang)}", text, re.IGNORECASE)}


def said(value: float | Sequence[float]) -> list[float]:
    """Return the numbers a claim says, one or several."""
    return [float(v) for v in value] if isinstance(value, list) else [float(value)]


@pytest.mark.parametrize("game", COMPUTE)
def test_every_claim_names_a_known_entry_and_a_known_computation(game: str) -> None:
    ids = {e.id for e in load() if e.game == game}
    for claim in claims(game):
        assert claim["entry"] in ids, claim
        assert claim["kind"] in COMPUTE[game], claim


@pytest.mark.parametrize("game", COMPUTE)
def test_the_rules_compute_every_number_an_answer_states(game: str) -> None:
    wrong = []
    for claim in claims(game):
        computed = COMPUTE[game][claim["kind"]](claim)
        if said(computed) != said(claim["says"]):
            wrong.append(f"{claim['entry']}: the rules compute {computed}, the claim says {claim['says']} ({dict(claim)})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", COMPUTE)
def test_each_claimed_number_is_written_in_its_entry(game: str, lang: str) -> None:
    entries = {e.id: e for e in load() if (e.game, e.lang) == (game, lang)}
    missing = []
    for claim in claims(game):
        entry = entries[claim["entry"]]
        written = numbers_in(f"{entry.question} {entry.answer} {entry.details}", lang)
        if not set(said(claim["says"])) <= written:
            missing.append(f"{entry.id}: {claim['says']} is not written in {sorted(written)}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("game", COMPUTE)
def test_every_entry_that_states_a_score_has_a_claim(game: str) -> None:
    """An entry whose answer gives points ("5 Punkte", "−10", "scores 6") must have its numbers checked."""
    claimed = {claim["entry"] for claim in claims(game)}
    unchecked = [
        e.id
        for e in load()
        if e.game == game
        and e.lang == "en"
        and e.id not in claimed
        and re.search(r"\b\d+(?:\.\d)? points?\b|−\d|\bscores? \d", f"{e.answer} {e.details}")
    ]
    assert not unchecked, unchecked


@pytest.mark.parametrize("game", COMPUTE)
def test_every_stated_number_holds_under_every_house_rule_and_variant_the_entry_leaves_open_or_says_by_default(game: str) -> None:
    """ "Halves only if above 0" is false under the penalty order: 5 − 10 stays −5 by default, but is 2.5 − 10 = −7.5 there."""
    texts = {(e.id, e.lang): f"{e.question} {e.answer} {e.details}".lower() for e in load() if e.game == game}
    wrong = []
    for claim in claims(game):
        if claim["kind"] not in SWEPT[game]:
            continue
        differing = {rules: found for rules, found in under_every_rule_left_open(game, claim).items() if said(found) != said(claim["says"])}
        if differing and not claim.get("by_default"):
            wrong.append(f"{claim['entry']}: {claim['says']} holds only by default, not under {differing} ({dict(claim)})")
        elif differing and not all(any(words in texts[(claim["entry"], lang)] for words in BY_DEFAULT[lang]) for lang in LANGUAGES):
            wrong.append(f"{claim['entry']}: its text must say that {claim['says']} holds by default")
    assert not wrong, "\n".join(wrong)
