"""A damaged table on the web (issue 25, services/integrity.py): its pages and its API say so
in a sentence naming the deal and record, its history up to there stays readable, and no
route answers 5xx; every other table works as before.

The damaged tables are found at start (``create_app`` reads every table back) and kept in
the app's :class:`integrity.DamagedTables`; one found later (a request about a table fails)
is read back whole then and added (:func:`on_server_error`). The pages are the templates'
own, with the sentence put above their body here, so that no template changes for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from flask import Flask, current_app, render_template, render_template_string, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import InternalServerError

from dealer_assist.services import integrity, storage
from dealer_assist.services.integrity import Damage, DamagedTables
from dealer_assist.web import off_loop
from dealer_assist.web.errors import ApiError, error_answer
from dealer_assist.web.extensions import get_db

log = logging.getLogger("dealer_assist.integrity")

DAMAGED = "dealer_assist.damaged"
LOCKED = 423  # what a damaged table answers instead of its state: it can no longer be used


def install(app: Flask) -> None:
    """Read every table back (the latest deal of each, as it is loaded) and keep the damaged
    ones; answer for a table that fails later (:func:`on_server_error`)."""
    db = storage.connect(app.config["DATABASE"])
    try:
        found = integrity.check_tables(db)
    finally:
        db.close()
    app.extensions[DAMAGED] = DamagedTables(found)
    app.register_error_handler(InternalServerError, on_server_error)
    app.log_exception = partial(log_unless_damaged, app.log_exception)  # type: ignore[method-assign]


def log_unless_damaged(log_exception: Callable[[Any], None], exc_info: Any) -> None:
    """Flask logs a route's failure (traceback and all) before it answers: not when the
    table it is about reads back damaged (said once, by :func:`read_back`)."""
    if table_damage() is None:
        log_exception(exc_info)


def damaged_tables(app: Flask | None = None) -> DamagedTables:
    return cast(DamagedTables, (app or current_app).extensions[DAMAGED])


def damage_of(table_id: str) -> Damage | None:
    return damaged_tables().get(table_id)


def locked(damage: Damage) -> ApiError:
    """The API's answer for a damaged table: 423 with the sentence."""
    return ApiError(LOCKED, damage.sentence, damaged=damage.to_json())


def refuse_if_damaged(table_id: str) -> None:
    damage = damage_of(table_id)
    if damage is not None:
        raise locked(damage)


def read_back(table_id: str) -> Damage | None:
    """Read the table back whole now (after something about it failed); a damage found is
    kept. None: the table reads back whole (what failed was something else), or is gone."""
    db = get_db()
    row = storage.table_row(db, table_id)
    if row is None:
        return None
    damage = off_loop.run(integrity.check_table, db, row, whole=True)
    if damage is not None:
        log.warning("%s", damage.sentence)
        damaged_tables().add(damage)
    return damage


def table_damage() -> Damage | None:
    """The damage of the table the failed request was about, found now if not before."""
    table_id = (request.view_args or {}).get("table_id")
    if not isinstance(table_id, str):
        return None
    try:
        return damage_of(table_id) or read_back(table_id)
    except Exception:  # the database itself failed: the usual answer
        log.exception("Reading table %s back after an error failed.", table_id[:64])
        return None


def on_server_error(err: InternalServerError) -> ResponseReturnValue:
    """Any route about a table that failed: if the table reads back damaged, the sentence
    (423: the page or the API's JSON), else the usual 500 answer."""
    damage = table_damage()
    if damage is None:
        return error_answer(err)
    if request.path.startswith("/api/"):
        return error_answer(locked(damage))
    return page(damage), LOCKED


PAGE = """{% extends "base.html" %}
{% block title %}Damaged table · Dealer Assist{% endblock %}
{% block styles %}<link rel="stylesheet" href="{{ url_for('static', filename='css/home.css') }}">
{% endblock %}
{% block body_class %}page-home{% endblock %}
{% block body %}<header class="home-header"><h1>Dealer Assist</h1></header>
<main class="home"><section class="panel" aria-labelledby="damaged-title">
<h2 id="damaged-title">This table is damaged</h2>
<p class="error-banner" role="alert">{{ damage.sentence }}</p>
<p>{% if damage.seq is not none %}<a class="btn" href="/t/{{ damage.table_id }}/history">Its
history, up to there</a> {% endif %}<a class="btn" href="/">Every table on this server</a></p>
</section></main>{% endblock %}"""

# the sentences above another page's body: on the home page as its own error banners (its
# stylesheet gives them room), elsewhere as a strip like the one an imported table has
ABOVE = """{% extends template %}{% block body %}{% if template == "index.html" %}
<div class="home-header">{% for damage in damaged %}
<p class="error-banner" role="alert">{{ damage.sentence }}</p>{% endfor %}</div>{% else %}
{% for damage in damaged %}<p class="imported-banner" role="alert">{{ damage.sentence }}</p>
{% endfor %}{% endif %}{{ super() }}{% endblock %}"""


def page(damage: Damage) -> str:
    """A damaged table's tablet and phone page: the sentence, and the way to its history."""
    return render_template_string(PAGE, damage=damage)


def with_sentences(template: str, damaged: list[Damage], **context: Any) -> str:
    """``template`` as it renders, with the damaged tables' sentences above its body."""
    if not damaged:
        return render_template(template, **context)
    return render_template_string(ABOVE, template=template, damaged=damaged, **context)
