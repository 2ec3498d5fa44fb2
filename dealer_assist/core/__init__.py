"""The rules core: cards, hands, pots, layouts, actions, the deal and the table.

Pure Python: nothing here imports flask, sqlite or the web and service layers.
"""
