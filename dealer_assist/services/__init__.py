"""Services with no flask: storage, acting on a table, history, export and import, the ledger.
"""
