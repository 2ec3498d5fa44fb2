"""Typed refusals. Every message is a sentence a dealer understands (R9)."""

from __future__ import annotations


class DealerAssistError(ValueError):
    """Base of every refusal: the input was wrong and nothing changed."""


class BadCardError(DealerAssistError):
    """A card that R1 does not accept."""


class SetupError(DealerAssistError):
    """A table that cannot be made as asked (players, variant, house rules)."""


class IllegalActionError(DealerAssistError):
    """An action the rules do not allow now (R9)."""
