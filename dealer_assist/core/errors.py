"""Typed refusals. Every message is a sentence a dealer understands (R9).

Every one is a :class:`DealerAssistError` (a ``ValueError``): whatever was refused, nothing
changed. Like python-chess's ``InvalidMoveError`` / ``IllegalMoveError``, what is wrong with
the *input* and what the *rules* refuse are different types:

- :class:`InvalidInputError`: the input cannot be read (a body of the wrong shape, a card R1
  does not accept). :class:`InvalidActionError` is an action body of that kind.
- :class:`IllegalActionError`: a well-formed action the rules do not allow now.
- :class:`SetupError`: a table that cannot be made as asked.
- :class:`StaleTableError`: the table moved on (another writer took the seq first, or the
  ``expect_seq`` the dealer sent is old); the same action may be right on the new table.
- :class:`ImportRefusedError`: a file that cannot be imported.

The web answers 400 to each, except 409 to a stale table (``web/acting.py``).
"""

from __future__ import annotations


class DealerAssistError(ValueError):
    """Base of every refusal: the input was wrong and nothing changed."""


class InvalidInputError(DealerAssistError):
    """Input that cannot be read at all, whatever the table's state."""


class BadCardError(InvalidInputError):
    """A card that R1 does not accept."""


class InvalidActionError(InvalidInputError):
    """An action body of the wrong shape: an unknown type, a field that is not there or
    holds the wrong kind of value."""


class IllegalActionError(DealerAssistError):
    """A well-formed action the rules do not allow now (R9)."""


class SetupError(DealerAssistError):
    """A table that cannot be made as asked (players, variant, house rules)."""


class StaleTableError(DealerAssistError):
    """Another writer took this seq first, or ``expect_seq`` is not the table's seq (the
    caller answers 409)."""


class ImportRefusedError(DealerAssistError):
    """A file that cannot be imported: the message is a sentence for the host."""
