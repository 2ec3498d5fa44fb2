"""The people rows (R77): a person's payment handle, and the names the host said are one
person. Both are keyed by a name as names are compared (``name_key``); nothing recorded at a
table is ever rewritten by them."""

from __future__ import annotations

from typing import Any

from dealer_assist.services.storage.connection import Connection, now


def people(db: Connection) -> list[dict[str, Any]]:
    """Every person with a payment handle: ``name_key``, ``name``, ``pay_to``."""
    return db.query("SELECT name_key, name, pay_to FROM people WHERE pay_to IS NOT NULL"
                    " ORDER BY name_key")


def set_pay_to(db: Connection, name_key: str, name: str, pay_to: str | None) -> None:
    """Store (or, with None, remove) the payment handle of the person ``name_key``."""
    db.execute("INSERT INTO people (name_key, name, pay_to, updated) VALUES (?, ?, ?, ?)"
               " ON CONFLICT (name_key) DO UPDATE SET name = excluded.name,"
               " pay_to = excluded.pay_to, updated = excluded.updated",
               [name_key, name, pay_to, now()])


def aliases(db: Connection) -> list[dict[str, Any]]:
    """Every alias, oldest first: ``name_key``, ``name``, ``is_key``, ``is_name``."""
    return db.query("SELECT name_key, name, is_key, is_name, created FROM aliases"
                    " ORDER BY created, name_key")


def add_alias(db: Connection, name_key: str, name: str, is_key: str, is_name: str) -> None:
    db.execute("INSERT INTO aliases (name_key, name, is_key, is_name, created)"
               " VALUES (?, ?, ?, ?, ?)", [name_key, name, is_key, is_name, now()])


def remove_alias(db: Connection, name_key: str) -> bool:
    """Take an alias back; whether there was one."""
    return db.execute("DELETE FROM aliases WHERE name_key = ?", [name_key]).rowcount > 0
