"""What the FAQ search learns from players' questions: which entry a question's words and letters point at.

The search's own parts (the lexicon, the weights, the paraphrases) find the entries that share a
question's words. Which of several such entries players mean when they ask in a certain way, and
which entry the letters of a word it never heard point at, those parts cannot say; the questions
players asked, each with the entry that answers it (faq/content/<game>.questions.toml), and each
entry's own question and paraphrases can. They teach a multinomial naive Bayes model: for every
entry, how likely each term and each letter trigram is in a question it answers.

A naive Bayes model is a table of counts, so it is learnt in a blink when a section is built and
needs no library; its weights are plain numbers the browser adds up in the same order, so the
offline search (static/js/faq-offline.js) finds what the server finds.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Features = Mapping[str, float]
"""A question as the model sees it: each term its words stand for, with how sure, and each of its letter trigrams."""

SMOOTHING = 0.1
"""What a feature an entry was never taught counts as (Lidstone): enough that one unknown trigram does not rule an entry
out, little enough that the trigrams and terms an entry's questions do use stand out."""
PLACES = 4
"""Decimal places of every number of the model: the browser adds the very same numbers."""


@dataclass(frozen=True)
class Learned:
    """A naive Bayes model of one section: per entry, how likely a question about it is to hold each feature.

    Every entry is as likely as any other before the question's features are looked at: how many
    paraphrases an entry has, or how many questions were written about it, says how it was written, not
    how often players ask it.
    """

    unseen: tuple[float, ...]
    """The log chance, per entry, of a feature none of its questions held."""
    seen: dict[str, dict[int, float]]
    """Per feature, for each entry some of whose questions held it, how much likelier it is there than unseen (a log ratio)."""

    def shares(self, features: Features) -> list[float]:
        """Return, per entry, the chance the model gives it of answering a question with these features (they add up to 1).

        Features no taught question held say nothing and are left out. The sums run in the order of the
        features' names, as the browser's do.
        """
        known = sorted(name for name in features if name in self.seen)
        held = sum(features[name] for name in known)
        scores = [held * unseen for unseen in self.unseen]
        for name in known:
            value = features[name]
            for at, likelier in self.seen[name].items():
                scores[at] += value * likelier
        top = max(scores, default=0.0)
        raised = [math.exp(score - top) for score in scores]
        total = sum(raised)
        return [value / total for value in raised]

    def offline(self) -> dict[str, object]:
        """Return the model for the browser."""
        return {"unseen": list(self.unseen),
                "seen": {name: [[at, likelier] for at, likelier in found.items()] for name, found in sorted(self.seen.items())}}


def learn(taught: Iterable[tuple[Features, Sequence[int]]], entries: int, smoothing: float = SMOOTHING) -> Learned:
    """Return the model taught by questions, each with its features and the positions of the entries that answer it.

    A question that two entries answer teaches both.
    """
    counts: list[dict[str, float]] = [defaultdict(float) for _ in range(entries)]
    names: set[str] = set()
    for features, answered_by in taught:
        for at in answered_by:
            for name, value in features.items():
                counts[at][name] += value
        names.update(features)
    size = len(names)
    unseen = tuple(round(math.log(smoothing / (sum(counts[at].values()) + smoothing * size)), PLACES) if size else 0.0
                   for at in range(entries))
    seen: dict[str, dict[int, float]] = defaultdict(dict)
    for at in range(entries):
        for name, count in counts[at].items():
            seen[name][at] = round(math.log((count + smoothing) / smoothing), PLACES)
    return Learned(unseen=unseen, seen={name: dict(sorted(found.items())) for name, found in seen.items()})
