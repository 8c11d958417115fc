"""What other packages (tune) may use of simulate/: typed run options, the verdicts' one rule, and the
loaders and pools a caller that plays many runs needs. Everything else in simulate/ is its own business.

The rule (`Decision`): a verdict reads several intervals (seats, cards, a length...), perhaps at
several looks at a growing run. "Some interval wholly outside" is read at the normal quantile that spends
the 5% error over the looks and shares it among the intervals (`Decision.z`, spellpress.stats.sequential_z);
"every interval inside" at the one-sided quantile of the look's share, not shared (`Decision.z_inside`,
spellpress.stats.inside_z). A decided verdict is then wrong at most 5% of the time, wherever the truth
lies. `simulate` and `tune` both judge by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spellpress.errors import Option, UserError
from spellpress.simulate.runner import RunResult, RunSpec, open_executor, run_many
from spellpress.simulate.tally import Tally
from spellpress.stats import ERROR_RATE, inside_z, judged_intervals, sequential_z

RulesOptions = tuple[tuple[str, object], ...]  # --option KEY=VALUE pairs, values parsed, in the order given

__all__ = ["ERROR_RATE", "Decision", "RulesOptions", "RunResult", "RunSpec", "Tally", "find_card",
           "judged_intervals", "load_once", "open_executor", "parse_options", "run_many", "seat_wins"]


def parse_options(pairs: Sequence[str]) -> RulesOptions:
    """--option KEY=VALUE items -> (key, value) pairs, each value read as sweep reads one (exit 2 when malformed)."""
    from spellpress.simulate.variants import parse_value

    options = []
    for pair in pairs:
        if "=" not in pair:
            raise UserError.at(Option("--option"), f"expected KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        options.append((key.strip(), parse_value(value)))
    return tuple(options)


@dataclass(frozen=True)
class Decision:
    """How a verdict's intervals are drawn: `judged` intervals read together at look `look` of `looks`."""

    judged: int
    looks: tuple[int, ...]
    look: int = 0
    error_rate: float = ERROR_RATE

    @property
    def z(self) -> float:
        """The quantile of the intervals of which one wholly outside its band decides a miss."""
        return sequential_z(self.looks, self.look, self.judged, self.error_rate)

    @property
    def z_inside(self) -> float:
        """The quantile of the intervals that must all lie inside their bands to decide a hold."""
        return inside_z(self.looks, self.look, self.error_rate)


def seat_wins(tally: Tally) -> list[float]:
    """The wins a balance verdict judges: the teams' in a team mode, else the seats'."""
    return list(tally.team_wins) if tally.teams else list(tally.seat_wins)


def load_once(folder: str, variant: tuple = ()):
    """(game, rules) of a game folder (a variant of it), loaded once per process: load it before a pool forks
    and every worker starts with the game and its caches built."""
    from spellpress.simulate.runner import _load

    return _load(folder, None, variant)


def find_card(component, name: str, key: str):
    """The card of `component` that `name` names (its id, or its letter, word, name or title when only one card
    has it); exit 2 naming the --vary `key` when none or several do."""
    from spellpress.simulate.variants import _find_card

    return _find_card(component, name, key)
