"""Legal actions that are built only when read.

A word game's move list can hold every word a hand makes; building it is the costly part of
`--check`, which only asks `action in state.legal_actions()`, and of the runner's move counts,
which only ask `len()`. An engine returns a LazyMoves: read as a list (index, iteration,
equality) it builds every move once; asked whether one action is legal it answers from that
action alone; asked its length it may count without building (`size`). The subclass must give
the same answer every way (a test per engine compares them on real positions).
"""

from __future__ import annotations

from collections.abc import Sequence


class LazyMoves(Sequence):
    def __init__(self) -> None:
        self._moves: list | None = None

    def build(self) -> list:
        """Every legal action, in the engine's order."""
        raise NotImplementedError

    def allows(self, action) -> bool:
        """Whether `action` is among build()'s actions, without building them."""
        raise NotImplementedError

    def size(self) -> int:
        """len(build()), which a subclass may count without building the moves."""
        return len(self._all())

    def _all(self) -> list:
        if self._moves is None:
            self._moves = self.build()
        return self._moves

    def __len__(self) -> int:
        if self._moves is not None:
            return len(self._moves)
        return self.size()

    def __getitem__(self, index):
        return self._all()[index]

    def __iter__(self):
        return iter(self._all())

    def __contains__(self, action) -> bool:
        if self._moves is not None:
            return action in self._moves
        return self.allows(action)

    def __eq__(self, other) -> bool:
        return list(self) == (list(other) if isinstance(other, (list, LazyMoves)) else other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._all()!r})"
