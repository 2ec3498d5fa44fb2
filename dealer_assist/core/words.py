"""The words of a result, shared by every game: pot labels, who took a pot, hands as said at
the table ("four aces", "an ace-high flush") and lists ("a, b and c").

>>> pot_label(1, 3)
'First side pot'
>>> hand_words("Flush, ace high")
'an ace-high flush'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from dealer_assist.core.result import PotShare

_ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth",
             "Ninth", "Tenth")


def pot_label(index: int, count: int) -> str:
    """"Pot" alone; else "Main pot", then "Side pot" or "First side pot", "Second ..."."""
    if count == 1:
        return "Pot"
    if index == 0:
        return "Main pot"
    if count == 2:
        return "Side pot"
    return f"{_ORDINALS[index - 1]} side pot" if index <= len(_ORDINALS) else f"Side pot {index}"


def winners_words(pot: PotShare) -> str:
    """"Dee"; "Dee and Cy split it"; "Dee (2 shares) and Cy split it" (R26: a share a card)."""
    names = [name if pot.shares.get(name, 1) == 1 else f"{name} ({pot.shares[name]} shares)"
             for name in pot.winners]
    if len(names) == 1 and pot.shares.get(pot.winners[0], 1) == 1:
        return names[0]
    return f"{and_words(names)} split it" if len(names) > 1 else (
        f"{names[0]} takes it")


def and_words(words: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


_HAND_WORDS_SOURCE: tuple[tuple[str, str], ...] = (
    (r"Royal flush", "a royal flush"),
    (r"Straight flush, (\w+) high", r"a \1-high straight flush"),
    (r"Five of a kind, (\w+)", r"five \1"),
    (r"Four of a kind, (\w+)", r"four \1"),
    (r"Full house, (.+)", r"a full house, \1"),
    (r"Flush, (\w+) high", r"a \1-high flush"),
    (r"Straight, (\w+) high", r"a \1-high straight"),
    (r"Three of a kind, (\w+)", r"three \1"),
    (r"Two pair, (.+)", r"two pair, \1"),
    (r"Pair of (\w+)", r"a pair of \1"),
    (r"High card, (\w+)", r"\1 high"),
)


_HAND_WORDS = tuple((re.compile(pattern), words) for pattern, words in _HAND_WORDS_SOURCE)
_A_BEFORE_VOWEL = re.compile(r"\ba (?=[aeiou])")


@lru_cache(maxsize=4096)  # a deck names a few thousand hands; every state names its winners'
def hand_words(name: str) -> str:
    """A hand's name as said at the table: "four aces", "an ace-high flush"."""
    for pattern, words in _HAND_WORDS:
        match = pattern.fullmatch(name)
        if match:
            return _A_BEFORE_VOWEL.sub("an ", match.expand(words))
    return hand_phrase(name)


def hand_phrase(name: str) -> str:
    """A hand's name inside a sentence: "wins with full house, aces full of fours"; a hand
    named by its ranks keeps them as they are ("wins with A-K-Q-J-9 low")."""
    if name[1:2] == "-":
        return name
    return name[:1].lower() + name[1:]


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten")


def number_word(n: int) -> str:
    """"two", "four"; a large number as its digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)
