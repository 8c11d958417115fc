"""How close can an edit of a few cards bring every card's win-rate effect to 0? A bound under the drift law.

A card's effect is the win-rate difference between seats that played it and seats that did not. Changing one
card moves its own effect by m and every other card's by about k * m (the drift law, k < 0 in Magic Spell: a
stronger card takes wins from the seats that played the others). Under that law an edit moving its cards by
m_1..m_n leaves an unchanged card at x + k * D (D = m_1 + ... + m_n) and a changed one at x + m + k * (D - m).

`edit_margin` finds the largest margin m for which some edit of at most `max_changes` cards puts every card
within +/-(limit - m): the cards in `options` may take only their measured moves (or stay), every other card
may be changed by any amount at all (a relaxation: the bound holds whatever moves the space really offers
them). A margin below the verification's half-width means no such edit can be verified; below 0, none exists
under the law.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np

D_STEP = 0.05  # points of total own move between the sums tried (a drift of k * 0.05, about 0.001 points)


def fit_drift(own: Sequence[float], side: Sequence[float]) -> dict:
    """The drift law from single changes: side ~ k * own through the origin (side: the mean move of the other
    cards). k with its 95% interval, R^2 and the number of changes."""
    a, b = np.asarray(own, float), np.asarray(side, float)
    k = float(a @ b / (a @ a))
    residual = b - k * a
    se = math.sqrt(float(residual @ residual) / (len(a) - 1) / float(a @ a))
    total = float(((b - b.mean()) ** 2).sum())
    r2 = 1 - float(residual @ residual) / total if total else 1.0
    return {"k": k, "ci95": (k - 1.96 * se, k + 1.96 * se), "r2": r2, "changes": len(a)}


def drifted(effects: Mapping[str, float], moves: Mapping[str, float], k: float) -> dict[str, float]:
    """Every card's effect after an edit moving the cards of `moves` by their own moves, under the drift law."""
    total = sum(moves.values())
    return {card: x + moves.get(card, 0.0) + k * (total - moves.get(card, 0.0)) for card, x in effects.items()}


def edit_margin(effects: Mapping[str, float], options: Mapping[str, Sequence[float]], k: float, max_changes: int,
                limit: float, low: float = -10.0, high: float = 10.0) -> tuple[float, dict | None]:
    """The largest margin (to 0.01) for which an edit fits every card within +/-(limit - margin), and that edit:
    {"moves": {card: own move}, "forced": other cards the drift pushes out (changed freely), "total_move": D}.
    (low, None) if none does."""
    best: tuple[float, dict | None] = (low, None)
    while high - low > 0.01:
        middle = (low + high) / 2
        found = fitting_edit(effects, options, k, max_changes, limit - middle)
        if found is None:
            high = middle
        else:
            low, best = middle, (middle, found)
    return best


def fitting_edit(effects: Mapping[str, float], options: Mapping[str, Sequence[float]], k: float, max_changes: int,
                 band: float) -> dict | None:
    """An edit of at most `max_changes` cards that puts every card within +/-band under the drift law, or None."""
    others = [card for card in effects if card not in options]
    placed = np.array([effects[card] for card in others])
    largest = sum(max(map(abs, moves), default=0.0) for moves in options.values()) + 2 * band * max_changes + \
        sum(abs(v) for v in effects.values())
    totals = np.arange(-largest, largest + D_STEP, D_STEP)
    choices = [[None, *moves] for moves in options.values()]
    for combo in itertools.product(*choices):
        changed = {card: move for card, move in zip(options, combo, strict=True) if move is not None}
        free = max_changes - len(changed)
        if free < 0:
            continue
        exact = sum(changed.values())
        tried = np.union1d(totals, [exact])  # with no change to spare, the total move is exactly the changes'
        fits = np.ones(len(tried), bool)
        for card in options:  # the measured cards, changed or not, at each total move D
            move = changed.get(card, 0.0)
            fits &= np.abs(effects[card] + move + k * (tried - move)) <= band
        if not fits.any():
            continue
        total = tried[fits]
        drifted = placed[:, None] + k * total[None, :]  # every other card left as it is
        outside = np.abs(drifted) > band
        forced = outside.sum(axis=0)
        # a freely changed card may end anywhere in the band: its own move m satisfies x + m + k (D - m) in band
        down = (-band - drifted) / (1 - k)
        up = (band - drifted) / (1 - k)
        forced_down = np.where(outside, down, 0).sum(axis=0)
        forced_up = np.where(outside, up, 0).sum(axis=0)
        spare = free - forced
        extra_up = _largest_sums(np.where(outside, 0, up), spare)
        extra_down = -_largest_sums(np.where(outside, 0, -down), spare)
        needed = total - exact  # what the free cards' own moves must add up to
        ok = (spare >= 0) & (needed >= forced_down + extra_down - 1e-9) & (needed <= forced_up + extra_up + 1e-9)
        if ok.any():
            at = int(np.argmax(ok))
            return {"moves": changed, "forced": int(forced[at]), "total_move": round(float(total[at]), 2)}
    return None


def _largest_sums(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per column, the sum of its `counts[column]` largest values (0 where the count is 0 or less)."""
    ordered = -np.sort(-values, axis=0)
    running = np.vstack([np.zeros(values.shape[1]), np.cumsum(ordered, axis=0)])
    picked = np.clip(counts, 0, values.shape[0])
    return running[picked, np.arange(values.shape[1])]
