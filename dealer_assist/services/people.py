"""People across tables (R77): a person is a name, compared as names are at a table; the host
may say two names are one person (an alias, undoable, nothing recorded rewritten) and keep a
person's payment handle, shown beside the settle-up's transfers that pay them.

>>> person_key("  Bob ") == person_key("BOB") == person_key("Ｂｏｂ")
True
>>> pay_link("$annie"), pay_link("paypal.me/ann"), pay_link("Venmo @ann-b")
('https://cash.app/$annie', 'https://paypal.me/ann', 'https://venmo.com/u/ann-b')
>>> pay_link("Zelle 555 0100") is None and pay_link("http://example.com") is None
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.errors import SetupError
from dealer_assist.core.names import MAX_NAME, clean_name, same_name_key
from dealer_assist.services import storage
from dealer_assist.services.storage import Connection as Database

MAX_HANDLE = 100  # a handle, an e-mail address or a short IBAN line

# the payment services with a public link form: a handle written as their link (with or
# without https://), a Cash App $cashtag, or "Venmo @user"
LINK_HOSTS = ("paypal.me", "venmo.com", "account.venmo.com", "cash.app", "revolut.me",
              "monzo.me")
_HOSTS = "|".join(re.escape(h) for h in LINK_HOSTS)
_LINK = re.compile(rf"^(?:https://)?(?:www\.)?((?:{_HOSTS})/[^\s<>\"']+)$", re.I)
_CASHTAG = re.compile(r"^\$([A-Za-z][A-Za-z0-9_]{0,19})$")
_VENMO = re.compile(r"^venmo[\s:]+@?([A-Za-z0-9_-]{1,30})$", re.I)
_HTTPS = re.compile(r"^https://[^\s<>\"']+$")


class PeopleRefused(SetupError):
    """A handle or an alias the host cannot have: the message is a sentence."""


def person_key(name: str) -> str:
    """What two names of one person are compared by (R77, as at a table: R9)."""
    return same_name_key(" ".join(name.split()))


def pay_link(handle: str) -> str | None:
    """The handle as a link, where its service has a public link form; else None."""
    text = handle.strip()
    if m := _CASHTAG.match(text):
        return f"https://cash.app/${m.group(1)}"
    if m := _VENMO.match(text):
        return f"https://venmo.com/u/{m.group(1)}"
    if m := _LINK.match(text):
        return f"https://{m.group(1)}"
    if _HTTPS.match(text):
        return text
    return None


def checked_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PeopleRefused(f"{what} must be a name, such as \"Bob\".")
    name = clean_name(value, what=what)
    if len(name) > MAX_NAME:
        raise PeopleRefused(f"{what} has at most {MAX_NAME} characters.")
    return name


def checked_handle(value: Any) -> str | None:
    """A payment handle as kept: text of at most MAX_HANDLE characters without control
    characters; empty or null removes it."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > MAX_HANDLE:
        raise PeopleRefused(f"pay_to must be text of at most {MAX_HANDLE} characters, such "
                            "as \"venmo @ann\" or \"paypal.me/ann\".")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in value):
        raise PeopleRefused("pay_to holds an invisible or control character: type it again.")
    return " ".join(value.split())


@dataclass(frozen=True)
class Alias:
    name: str
    is_name: str


class People:
    """The aliases and payment handles, read in one go: who a name is, and how to pay them."""

    def __init__(self, aliases: Iterable[Alias] = (),
                 handles: Mapping[str, str] | None = None) -> None:
        self.aliases = tuple(aliases)
        self.handles = dict(handles or {})  # person key -> handle
        self._points = {person_key(a.name): (person_key(a.is_name), a.is_name)
                        for a in self.aliases}

    def person(self, name: str) -> tuple[str, str]:
        """The person ``name`` is: their key and the name shown for them (the one an alias
        points to, else ``name``)."""
        key, shown = person_key(name), name
        seen = {key}
        while key in self._points:
            key, shown = self._points[key]
            if key in seen:  # never stored (add refuses a circle), but never loop
                break
            seen.add(key)
        return key, shown

    def pay_to(self, name: str) -> str | None:
        """The handle of the person ``name`` is (their own name's, if stored under it)."""
        return self.handles.get(self.person(name)[0]) or self.handles.get(person_key(name))

    def to_json(self) -> dict[str, Any]:
        return {"aliases": [{"name": a.name, "is": a.is_name} for a in self.aliases]}


def read_people(db: Database) -> People:
    return People(tuple(Alias(r["name"], r["is_name"]) for r in storage.people.aliases(db)),
                  {r["name_key"]: r["pay_to"] for r in storage.people.people(db)})


def handles_json(people: People, names: Iterable[str]) -> list[dict[str, Any]]:
    """Each name with a handle: ``{"name", "pay_to", "pay_link"}``."""
    out = []
    for name in names:
        handle = people.pay_to(name)
        if handle:
            out.append({"name": name, "pay_to": handle, "pay_link": pay_link(handle)})
    return out


def set_pay_to(db: Database, name: Any, body: Any) -> dict[str, Any]:
    """``PUT /api/people/<name>`` with ``{"pay_to": ...}``: stored under the person the name
    is (aliases followed)."""
    shown = checked_name(name, "The person's name")
    if not isinstance(body, dict) or set(body) != {"pay_to"}:
        raise PeopleRefused('Send {"pay_to": "..."}: the person\'s payment handle (empty '
                            "removes it).")
    handle = checked_handle(body["pay_to"])
    with storage.write_transaction(db):
        key, shown = read_people(db).person(shown)
        storage.people.set_pay_to(db, key, shown, handle)
    return {"name": shown, "pay_to": handle, "pay_link": pay_link(handle) if handle else None}


def alias_names(body: Any) -> tuple[str, str]:
    if not isinstance(body, dict) or set(body) != {"name", "is"}:
        raise PeopleRefused('Send {"name": "Bobby", "is": "Bob"}: the name, and the person it '
                            "is.")
    return checked_name(body["name"], "name"), checked_name(body["is"], "is")


def add_alias(db: Database, body: Any) -> People:
    """``POST /api/people/aliases``: ``name`` is the person ``is`` from now on (R77)."""
    name, is_name = alias_names(body)
    if person_key(name) == person_key(is_name):
        raise PeopleRefused(f"{name} and {is_name} are already one person: names are "
                            "compared as at a table.")
    with storage.write_transaction(db):
        people = read_people(db)
        already = next((a for a in people.aliases if person_key(a.name) == person_key(name)),
                       None)
        if already is not None:
            raise PeopleRefused(f"{already.name} is already {already.is_name}: take that back "
                                "first.")
        target_key, _ = people.person(is_name)
        if target_key == person_key(name):
            raise PeopleRefused(f"{is_name} is already {name}: the two are one person.")
        storage.people.add_alias(db, person_key(name), name, person_key(is_name), is_name)
        return read_people(db)


def remove_alias(db: Database, body: Any) -> People:
    """``DELETE /api/people/aliases`` with the body that made it: the two names are two
    people again."""
    name, is_name = alias_names(body)
    with storage.write_transaction(db):
        people = read_people(db)
        if not any(person_key(a.name) == person_key(name)
                   and person_key(a.is_name) == person_key(is_name) for a in people.aliases):
            raise PeopleRefused(f"{name} is not an alias of {is_name}: nothing was changed.")
        storage.people.remove_alias(db, person_key(name))
        return read_people(db)
