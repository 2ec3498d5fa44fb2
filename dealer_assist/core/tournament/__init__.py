"""A tournament night (R89-R94), pure: the structure and the clock, entries, rebuys, the
add-on, late registration, places, payouts and chops, seating and balancing. A tournament is
its records replayed (``state.Tournament``); it never reads a table or names a game."""
