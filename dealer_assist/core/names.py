"""Names as a table keeps them (R9, R70): normalised so that lookalikes are one name, and
refused where they hide a character.

>>> clean_name("  Ａnn   Lee ")
'Ann Lee'
>>> same_name_key("ANN") == same_name_key("ann")
True
"""

from __future__ import annotations

import unicodedata

from dealer_assist.core.errors import SetupError

MAX_NAME = 40
# format (Cf: zero-width, bidi controls), control, surrogate and private-use characters: a
# name holding one looks like another, or reads backwards
INVISIBLE_CATEGORIES = ("Cf", "Cc", "Cs", "Co")


def clean_name(text: str, stored: bool = False, what: str = "A player's name") -> str:
    """A name as it is kept: NFKC-normalised (a fullwidth "Ａnn" is "Ann"), with runs of
    spaces made one; a name with invisible or direction characters is refused."""
    if stored:
        return " ".join(text.split())
    bad = next((ch for ch in text if unicodedata.category(ch) in INVISIBLE_CATEGORIES), None)
    if bad is not None:
        raise SetupError(f"{what} holds an invisible or direction character (U+{ord(bad):04X}): "
                         "type it again with letters, digits and spaces only.")
    return " ".join(unicodedata.normalize("NFKC", text).split())


def same_name_key(name: str) -> str:
    """What two names are compared by: "Ann", "ANN" and "Ａｎｎ" are one player."""
    return unicodedata.normalize("NFKC", name).casefold()
