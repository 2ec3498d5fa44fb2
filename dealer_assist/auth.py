"""Dealer tokens: random, shown once, kept only as a hash, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24  # 192 bits: nobody guesses it
TABLE_ID_BYTES = 6  # 8 URL-safe characters: short enough to type, long enough not to collide


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def hash_token(token: str) -> str:
    """A random 192-bit token needs no slow hash: sha256 of it cannot be reversed."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, token_hash: str) -> bool:
    if not token or not isinstance(token, str) or len(token) > 200:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
