"""The rules' tests: worked examples, property tests over every game's legal records, refusals.

Each game's strategies register themselves here, once (``tests.rules.strategies``).
"""

from tests.rules import auruxxx_strategies, twelve_days_strategies

__all__ = ["auruxxx_strategies", "twelve_days_strategies"]
