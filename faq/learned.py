"""What the FAQ search learns from players' questions: which entry a question's words and letters point at.

The search's own parts (the lexicon, the weights, the paraphrases) find the entries that share a
question's words. Which of several such entries players mean when they ask in a certain way, and
which entry the letters of a word it never heard point at, those parts cannot say; the questions
players asked, each with the entry that answers it (faq/content/<game>.questions.toml), and each
entry's own question, paraphrases, answer and details can. They teach a multinomial naive Bayes
model: for every entry, how likely each term, letter trigram, word and pair of words in a row is
in a question it answers (Section.features says what a question's features are).

A naive Bayes model is a table of counts, so it is learnt in a blink when a section is built and
needs no library; its weights are plain numbers the browser adds up in the same order, so the
offline search (static/js/faq-offline.js) finds what the server finds.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Features = Mapping[str, float]
"""A question as the model sees it: each of its features by name, with how much it counts."""

SMOOTHING = 0.1
"""What a feature an entry was never taught counts as (Lidstone): enough that one unknown trigram does not rule an entry
out, little enough that the trigrams and terms an entry's questions do use stand out."""
PLACES = 4
"""Decimal places of every number of the model: the browser adds the very same numbers."""
LEAST_TEXTS = 3
"""The fewest taught texts a feature must be found in to be learnt: a pair of words or a trigram only one or two questions
hold says more of their writer than of the entry, and the phone would carry it for nothing (a third of the model)."""


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
        return {
            "unseen": list(self.unseen),
            "seen": {name: [[at, likelier] for at, likelier in found.items()] for name, found in sorted(self.seen.items())},
        }


def learn(
    taught: Iterable[tuple[Features, Sequence[int]]], entries: int, smoothing: float = SMOOTHING, least: int = LEAST_TEXTS
) -> Learned:
    """Return the model taught by questions, each with its features and the positions of the entries that answer it.

    A question that two entries answer teaches both. Only the features ``least`` of the questions hold are learnt.
    """
    questions = list(taught)
    held = Counter(name for features, _ in questions for name in features)
    names = {name for name, texts in held.items() if texts >= least}
    counts: list[dict[str, float]] = [defaultdict(float) for _ in range(entries)]
    for features, answered_by in questions:
        for at in answered_by:
            for name, value in features.items():
                if name in names:
                    counts[at][name] += value
    size = len(names)
    unseen = tuple(
        round(math.log(smoothing / (sum(counts[at].values()) + smoothing * size)), PLACES) if size else 0.0 for at in range(entries)
    )
    seen: dict[str, dict[int, float]] = defaultdict(dict)
    for at in range(entries):
        for name, count in counts[at].items():
            seen[name][at] = round(math.log((count + smoothing) / smoothing), PLACES)
    return Learned(unseen=unseen, seen={name: dict(sorted(found.items())) for name, found in seen.items()})
