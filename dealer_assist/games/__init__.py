"""The games: one module each, carrying everything the app knows of that game (its name, players,
house rules, layout, line names, what the public may see, the words of its results).
``dealer_assist.games.registry`` lists them; ``dealer_assist.core.game`` is the interface they
implement."""
