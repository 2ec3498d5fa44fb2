"""The host's view of a table after the night: deals grouped by night, replays, the ledger and
settle-up, and the CSV and JSON exports (with the import that reads the JSON back).

Everything here is read from the stored records and deal rows (:mod:`..storage`); nothing is
ever written back except by :func:`import_table`, which makes a *new* table. No web imports:
``web/history_api.py`` serves these answers.

One job a module:

- :mod:`.stored`: one table as stored, read in one snapshot, and what every view needs;
- :mod:`.view`: the history page's JSON, deals grouped by night;
- :mod:`.books`: the ledger and the settle-up;
- :mod:`.replay`: one deal step by step;
- :mod:`.export`: the CSV and the JSON export; :mod:`.importing`: the import.
"""

from __future__ import annotations

from dealer_assist.services.history.books import table_ledger
from dealer_assist.services.history.export import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    csv_cell,
    deals_csv,
    export_table,
)
from dealer_assist.services.history.importing import (
    MAX_IMPORT_ACTIONS,
    ImportRefused,
    Rebuilt,
    import_table,
    rebuild,
)
from dealer_assist.services.history.replay import replay_deal
from dealer_assist.services.history.stored import (
    Stored,
    current_table,
    everyone,
    read_table,
)
from dealer_assist.services.history.view import NIGHT_GAP, group_nights, table_history

__all__ = [
    "EXPORT_FORMAT", "EXPORT_VERSION", "MAX_IMPORT_ACTIONS", "NIGHT_GAP", "ImportRefused",
    "Rebuilt", "Stored", "csv_cell", "current_table", "deals_csv", "everyone", "export_table",
    "group_nights", "import_table", "read_table", "rebuild", "replay_deal", "table_history",
    "table_ledger",
]
