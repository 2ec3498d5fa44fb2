"""Linear replay (R8): undo replays from the table's last checkpoint, a few records back, not
from the deal's start; the table it gives is the one a replay of the deal from its start gives.
The speed is measured by bench/bench_replay.py (docs/benchmarks.md)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.core.autoplay import legal_actions
from dealer_assist.core.chain import Chain
from dealer_assist.core.table import CHECKPOINT_EVERY, Table
from dealer_assist.games.registry import all_games, new_table
from dealer_assist.web.state import table_state


def replayed_state(t: Table) -> dict[str, Any]:
    """The dealer's state of a fresh replay of ``t``'s deal records from its base totals,
    with ``t``'s seq and undo words (a replay has no undo in it)."""
    fresh = Table.replay(t.setup, t.base, list(t.actions), seq=t.seq - len(t.actions))
    fresh.undone = t.undone
    return table_state(fresh, dealer=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from([g.variant for g in all_games()]),
       seed=st.integers(0, 2**32 - 1))
def test_r8_every_undo_gives_the_table_a_replay_from_the_start_gives(
        variant: str, seed: int) -> None:
    rng = random.Random(seed)
    game = next(g for g in all_games() if g.variant == variant)
    t = new_table(variant, [f"P{i}" for i in range(game.players[0] + 1)])
    undos = 0

    def undo(t: Table) -> Table:
        nonlocal undos
        chips = t.chips()
        t = t.apply(t.prepare({"type": "undo"}))
        undos += 1
        assert table_state(t, dealer=True) == replayed_state(t)
        assert t.chips() == chips
        return t

    for _ in range(300):
        if t.deal_over:
            try:
                t = t.apply(t.prepare({"type": "start_deal"}))
            except ValueError:  # the game is over (a fixed number of deals, or one player left)
                if undos == 0:  # a short game that the dice never undid: undo its last record
                    t = undo(t)
                break
        elif t.can_undo and rng.random() < 0.3:
            t = undo(t)
        else:
            t = t.apply(t.prepare(rng.choice(legal_actions(t, rng))))
    assert undos > 0


def test_r8_undo_after_many_records_takes_back_one_at_a_time() -> None:
    """Undo past several checkpoints, one record each time, down to the deal's start."""
    players = [{"name": "Ann", "stack": 10**6}, {"name": "Bob", "stack": 10**6}]
    t = new_table("texas_dozen", players)
    t = t.apply(t.prepare({"type": "start_deal"}))
    t = t.apply(t.prepare({"type": "next"}))
    tables = [t]
    for _ in range(5 * CHECKPOINT_EVERY):
        step = t.step()
        t = t.apply(t.prepare({"type": "raise", "player": step["player"],
                               "amount": step["min_raise_to"]}))
        tables.append(t)
    for earlier in reversed(tables[:-1]):
        t = t.apply(t.prepare({"type": "undo"}))
        assert list(t.actions) == list(earlier.actions)
        assert {**table_state(t, dealer=True), "seq": 0, "undone": None} == {
            **table_state(earlier, dealer=True), "seq": 0, "undone": None}
    t = t.apply(t.prepare({"type": "undo"}))  # the next: only the start_deal is left
    assert [a.type for a in t.actions] == ["start_deal"] and t.can_undo
    t = t.apply(t.prepare({"type": "undo"}))  # R74: and then the start: between deals again
    assert t.deal is None and not t.can_undo


def test_a_chain_copy_never_sees_what_is_appended_after_it() -> None:
    log: Chain[str] = Chain(["a", "b"])
    twin = log.copy()
    twin.append("c")
    log.append("d")
    assert list(log) == ["a", "b", "d"] and list(twin) == ["a", "b", "c"]
    assert log[-2:] == ["b", "d"] and twin[1:] == ["b", "c"] and twin[0] == "a"
    assert log == ["a", "b", "d"] and twin.without_last() == ["a", "b"]
    assert log[-10:] == ["a", "b", "d"] and log[::2] == ["a", "d"]
