"""``Chain``: a list that shares its past, so that copying it costs nothing.

A deal's log and a table's records only ever grow at the end, and every action makes a new
deal and a new table from the old ones (R9: the old ones stay as they were). A plain list
would be copied at each step, which makes replaying n records cost n²; a chain is a linked
list of ``(item, earlier)`` nodes, so a copy is one object, an append one node, and taking the
last item back (undo) is the node before it. Reading the last few items (the state's log) walks
only those.

>>> log = Chain(["Ann checks."])
>>> twin = log.copy()
>>> twin.append("Bob bets 2.")
>>> list(log), list(twin), len(twin), twin[-1]
(['Ann checks.'], ['Ann checks.', 'Bob bets 2.'], 2, 'Bob bets 2.')
>>> twin.without_last() == log
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")

# a node is (item, the node before it); None is the empty chain
_Node = tuple[Any, Any] | None


class Chain(Sequence[T], Generic[T]):
    __slots__ = ("_length", "_tip")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._tip: _Node = None
        self._length = 0
        for item in items:
            self.append(item)

    @classmethod
    def _of(cls, tip: _Node, length: int) -> Chain[T]:
        chain: Chain[T] = object.__new__(cls)
        chain._tip = tip
        chain._length = length
        return chain

    def append(self, item: T) -> None:
        """Add ``item`` at the end of this chain only (its copies do not see it)."""
        self._tip = (item, self._tip)
        self._length += 1

    def copy(self) -> Chain[T]:
        return self._of(self._tip, self._length)

    def plus(self, item: T) -> Chain[T]:
        """A new chain: this one and ``item``."""
        return self._of((item, self._tip), self._length + 1)

    def without_last(self) -> Chain[T]:
        if self._tip is None:
            raise IndexError("an empty chain has no last item")
        return self._of(self._tip[1], self._length - 1)

    def last(self, count: int) -> list[T]:
        """The last ``count`` items (fewer if there are fewer), oldest first; walks only them."""
        out: list[T] = []
        node = self._tip
        while node is not None and len(out) < count:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[T]:
        return iter(self.last(self._length))

    def __reversed__(self) -> Iterator[T]:
        node = self._tip
        while node is not None:
            yield node[0]
            node = node[1]

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        n = self._length
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1 and stop == n:  # a tail, such as log[-20:]: walk only it
                return self.last(max(0, n - start))
            return self.last(n)[index]
        position = index + n if index < 0 else index
        if not 0 <= position < n:
            raise IndexError("chain index out of range")
        node = self._tip
        for _ in range(n - 1 - position):
            assert node is not None
            node = node[1]
        assert node is not None
        return node[0]  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Chain):
            return self._tip is other._tip or list(self) == list(other)
        if isinstance(other, list | tuple):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Chain({list(self)!r})"
