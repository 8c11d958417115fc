"""Is a rules engine sound? Plays seeded random and heuristic games and checks the protocol's promises.

At every position: chance outcomes are distinct, with positive probabilities summing to 1;
`legal_actions()` is not empty, has no repeats, and gives the same list twice and on a clone, as many
actions as `count_legal_actions()` says;
`returns()` is finite for every seat; every action taken comes back equal from the JSON of a game
record (`spellpress play` saves and replays games so). At sampled positions, more: every listed action (up to
ACTIONS_TRIED of them, spread over the list) applies on a clone and leaves its invariants whole;
a clone shares no list, dict or set with its original, and playing either on leaves the other as
it was; a determinized state (`State.determinize`) keeps what the seat sees (whose move, its
legal actions, the scores, the invariants), leaves the real state untouched, and leaks nothing:
two states the seat cannot tell apart re-deal alike from the same generator. Every game ends
before the engine's turn cap, and the same seeded games give the same outcomes on one worker and
on two worker processes.

`check_engine(folder)` returns a `Report`; `assert_conforms(folder)` is the pytest helper.
This runs the engine's code: only check engines you trust as much as any program you run.
"""

from __future__ import annotations

import inspect
import json
import math
import random
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spellpress.errors import Location
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, Rules, State, can_determinize
from spellpress.simulate.state_walk import first_difference, shared_containers, snapshot

CHECKS = {
    "play": "plays without an error",
    "chance": "chance outcomes: distinct, probabilities positive and summing to 1",
    "legal": "legal actions: the same list every time, no repeats, as many as counted, each one applies",
    "clone": "clone: shares no state with its original",
    "determinize": "determinize: keeps what the seat sees, re-deals only what it cannot, leaks nothing",
    "observation": "observation: never shows what the seat cannot see (unchanged by a re-deal)",
    "scores": "scores: finite for every seat",
    "record": "actions: JSON values a game record keeps and gives back equal (spellpress play)",
    "end": "every heuristic game ends within the turn cap",
    "workers": "same seed, same game on 1 and on 2 worker processes",
}
ACTIONS_TRIED = 12  # listed actions applied on clones at a sampled position
DETERMINIZATIONS = 1  # at a sampled position
LOCKSTEP_ACTIONS = 40  # actions played on two determinizations side by side in the leak check
PROBABILITY_TOLERANCE = 1e-9
FINDINGS_PER_CHECK = 3  # the first few of each kind are enough to act on
KEPT_HANDS = 3  # positions with an opponent's hand that could be re-dealt, all kept: a determinize() that leaks


@dataclass
class Finding:
    check: str
    message: str
    where: Location | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass
class Report:
    engine: str
    games: list[str] = field(default_factory=list)  # "heuristic, 2 players, seed 1: 54 turns"
    positions: Counter = field(default_factory=Counter)  # check -> positions it looked at
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def failed(self, check: str) -> list[Finding]:
        return [f for f in self.findings if f.check == check]

    def add(self, check: str, message: str, where: Location | Callable[[], Location | None] | None = None) -> None:
        if len(self.failed(check)) < FINDINGS_PER_CHECK and all(f.message != message for f in self.findings):
            self.findings.append(Finding(check, message, where() if callable(where) else where))


def method_location(state: State, name: str) -> Location | None:
    """Where the engine defines `name` (its file and the line of the def)."""
    method = getattr(type(state), name, None)
    if method is None:
        return None
    try:
        path = inspect.getsourcefile(method)
        return Location(Path(path), inspect.getsourcelines(method)[1], 1) if path else None
    except (OSError, TypeError):
        return None


def raised_at(state: State, exc: BaseException) -> Location | None:
    """The last frame of the traceback inside the engine's own files (else None)."""
    home = Path(inspect.getsourcefile(type(state)) or ".").parent
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).parent == home]
    return Location(Path(frames[-1].filename), frames[-1].lineno or 0, 1) if frames else None


def _pick_chance(state: State, rng: random.Random):
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


class _Checker:
    def __init__(self, rules: Rules, report: Report):
        self.rules, self.report = rules, report

    # -- every position -------------------------------------------------------------
    def chance(self, state: State) -> bool:
        self.report.positions["chance"] += 1
        outcomes = list(state.chance_outcomes())
        where = lambda: method_location(state, "chance_outcomes")  # noqa: E731
        probabilities = [p for _, p in outcomes]
        if not outcomes:
            self.report.add("chance", "chance is to act but chance_outcomes() lists nothing", where)
        elif any(not (isinstance(p, (int, float)) and math.isfinite(p) and p > 0) for p in probabilities):
            bad = next(p for p in probabilities if not (isinstance(p, (int, float)) and math.isfinite(p) and p > 0))
            self.report.add("chance", f"chance_outcomes() gives a probability of {bad!r} (each must be above 0)", where)
        elif abs(math.fsum(probabilities) - 1) > PROBABILITY_TOLERANCE:
            self.report.add("chance", f"chance_outcomes() probabilities sum to {math.fsum(probabilities):.6g}, not 1 "
                            f"(turn {state.turns}, {len(outcomes)} outcomes)", where)
        elif len(set(a for a, _ in outcomes)) != len(outcomes):
            self.report.add("chance", "chance_outcomes() lists an outcome twice: give each once with its whole probability",
                            where)
        else:
            return True
        return False

    def legal(self, state: State, twice: bool) -> list | None:
        self.report.positions["legal"] += 1
        where = lambda: method_location(state, "legal_actions")  # noqa: E731
        first = list(state.legal_actions())
        if not first:
            self.report.add("legal", f"seat {state.current_player()} is to act but legal_actions() is empty "
                                     f"(turn {state.turns})", where)
            return None
        if twice and list(state.legal_actions()) != first:
            self.report.add("legal", "legal_actions() gave two different lists for the same position "
                            "(a set iterated, a random number drawn?): the order must be deterministic", where)
            return None
        if len(set(first)) != len(first):
            repeated = next(a for a, n in Counter(first).items() if n > 1)
            self.report.add("legal", f"legal_actions() lists {repeated!r} twice", where)
            return None
        count = state.count_legal_actions()
        if count != len(first):  # an engine's cheaper count (the runner's move figures read it)
            self.report.add("legal", f"count_legal_actions() gives {count}, but legal_actions() lists {len(first)} "
                            f"(turn {state.turns})", method_location(state, "count_legal_actions"))
            return None
        return first

    def recordable(self, state: State, action: Any, method: str) -> bool:
        """A game of `spellpress play` is saved as JSON and replayed from it: the action must come back equal."""
        from spellpress.rules.action_json import from_json_value, to_json_value

        self.report.positions["record"] += 1
        try:
            if from_json_value(json.loads(json.dumps(to_json_value(action), allow_nan=False))) == action:
                return True
        except (TypeError, ValueError):
            pass
        self.report.add("record", f"{method}() gives the action {action!r}, which a game record (spellpress play) "
                        "cannot keep: an action must be a string, a finite number, a boolean, None, or a tuple of "
                        "these", method_location(state, method))
        return False

    def scores(self, state: State) -> None:
        self.report.positions["scores"] += 1
        scores = list(state.returns())
        if len(scores) != state.players or not all(isinstance(s, (int, float)) and math.isfinite(s) for s in scores):
            self.report.add("scores", f"returns() gives {scores!r} for {state.players} seats (turn {state.turns}): "
                            "one finite number a seat", method_location(state, "returns"))

    # -- sampled positions -----------------------------------------------------------------
    def actions_apply(self, state: State, legal: list) -> None:
        step = max(1, len(legal) // ACTIONS_TRIED)
        for action in legal[::step][:ACTIONS_TRIED]:
            trial = state.clone()
            try:
                trial.apply(action)
                trial.check_invariants()
            except IllegalAction as exc:
                self.report.add("legal", f"legal_actions() lists {action!r} but apply() refuses it: {exc}",
                                raised_at(state, exc) or method_location(state, "apply"))
                return
            except AssertionError as exc:
                self.report.add("legal", f"applying the listed {action!r} breaks the invariants: {exc}",
                                raised_at(state, exc) or method_location(state, "apply"))
                return

    def clone(self, state: State, rng: random.Random) -> None:
        self.report.positions["clone"] += 1
        where = lambda: method_location(state, "clone")  # noqa: E731
        copy = state.clone()
        shared = shared_containers(state, copy)
        if copy is state or shared:
            what = "itself" if copy is state else ", ".join(shared[:4]) + (" ..." if len(shared) > 4 else "")
            self.report.add("clone", f"clone() shares {what} with the original: a move played on the copy "
                            "changes the real game", where)
            return
        different = first_difference(snapshot(copy, caches=False), snapshot(state, caches=False))
        if different:
            self.report.add("clone", f"clone() is not the same position: `{different}` differs", where)
            return
        before = snapshot(state)
        _play_on(copy, rng, 3)
        if snapshot(state) != before:
            self.report.add("clone", "playing a clone on changed the original: they share state", where)

    def determinize(self, state: State, seat: int, rng: random.Random) -> None:
        self.report.positions["determinize"] += 1
        where = lambda: method_location(state, "determinize")  # noqa: E731
        before = snapshot(state)
        legal = list(state.legal_actions())
        for _ in range(DETERMINIZATIONS):
            seed = rng.randrange(2**32)
            seen = state.determinize(seat, random.Random(seed))
            if snapshot(state) != before:
                self.report.add("determinize", "determinize() changed the real state; it must work on a clone", where)
                return
            if seen is state or shared_containers(state, seen):
                self.report.add("determinize", "determinize() returns a state that shares lists with the real one; "
                                "start from self.clone()", where)
                return
            try:
                seen.check_invariants()
            except AssertionError as exc:
                self.report.add("determinize", f"a determinized state breaks the invariants (cards lost or added): {exc}", where)
                return
            if (seen.current_player(), seen.turns, seen.returns()) != (state.current_player(), state.turns, state.returns()):
                self.report.add("determinize", "a determinized state changes what the seat sees: whose move, the turn "
                                "or the scores", where)
                return
            if list(seen.legal_actions()) != legal:
                self.report.add("determinize", f"seat {seat}'s legal actions differ after determinize(): its own choices "
                                "must not depend on what it cannot see (its own cards re-dealt?)", where)
                return
            self.report.positions["observation"] += 1
            if seen.observation(seat) != state.observation(seat):
                self.report.add("observation", f"observation(seat {seat}) shows what the seat cannot see: it changes when "
                                "the cards hidden from the seat are re-dealt", method_location(state, "observation"))
                return
            # a state the seat cannot tell from the real one, re-dealt with the same generator, must give the same deal
            other = state.determinize(seat, random.Random(seed ^ 0x5EED))
            first, second = state.determinize(seat, random.Random(seed)), other.determinize(seat, random.Random(seed))
            where_differs = first_difference(snapshot(first, caches=False), snapshot(second, caches=False))
            difference = where_differs and _lockstep(first, second, random.Random(seed))  # does it change the play?
            if difference:
                self.report.add("determinize", f"determinize(seat {seat}) depends on the real hidden cards: two positions "
                                f"seat {seat} cannot tell apart re-deal differently from the same generator (`{where_differs}`; "
                                f"{difference}); re-deal from what the seat cannot see, sorted (spellpress.rules.redeal)", where)
                return
            if snapshot(seen) != before:
                self.report.positions["determinize re-dealt"] += 1
            self._hidden_hands(state, seen, seat)

    def _hidden_hands(self, state: State, seen: State, seat: int) -> None:
        """Count the opponents' hands the seat cannot see that could have been re-dealt (other hidden
        cards to swap with) and those that were: a determinize() that keeps every such hand as it
        really is lets the search player play with the opponents' cards visible (check_engine judges
        the counts at the end: one such position may keep a hand by chance, every one cannot)."""
        view = state.observation(seat)
        hidden_in_view = sum(zone.hidden for zone in view.zones)
        for zone in view.zones:
            if zone.kind != "hand" or zone.owner in (None, seat) or not zone.hidden or hidden_in_view <= zone.hidden:
                continue
            real, dealt = _hand(state.observation(zone.owner), zone.name), _hand(seen.observation(zone.owner), zone.name)
            if real is None or dealt is None:
                continue
            self.report.positions["hidden hands"] += 1
            if real != dealt:
                self.report.positions["hidden hands re-dealt"] += 1


def _hand(view, name: str) -> Counter | None:
    """The cards of zone `name` as its owner sees them (a multiset), or None where the owner sees none face up."""
    for zone in view.zones:
        if zone.name == name and not zone.hidden:
            return Counter(zone.cards)
    return None


def _play_on(state: State, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        seat = state.current_player()
        if seat == TERMINAL:
            return
        state.apply(_pick_chance(state, rng) if seat == CHANCE else rng.choice(list(state.legal_actions())))


def _lockstep(first: State, second: State, rng: random.Random) -> str | None:
    """Play both on with the same choices; the first way they differ, or None."""
    for step in range(LOCKSTEP_ACTIONS):
        seat = first.current_player()
        if seat != second.current_player() or first.returns() != second.returns():
            return f"after {step} actions: whose move or the scores differ"
        if seat == TERMINAL:
            return None
        if seat == CHANCE:
            outcomes = list(first.chance_outcomes())
            if outcomes != list(second.chance_outcomes()):
                return f"after {step} actions: the chance outcomes differ"
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            options = list(first.legal_actions())
            if options != list(second.legal_actions()):
                return f"after {step} actions: seat {seat}'s legal actions differ"
            action = rng.choice(options)
        first.apply(action)
        second.apply(action)
    return None


def _sampled(decision: int) -> bool:
    """The first decisions, then ever sparser (1, 2, 4, 8 ...) and every 50th: a long game costs little more."""
    return decision < 3 or decision & (decision - 1) == 0 or decision % 50 == 0


def play_checked(rules: Rules, game, players: int, chooser: str, seed: int, report: Report) -> None:
    """One game, checked at every position (and more at sampled ones)."""
    rng = random.Random(seed)
    heuristic = [rules.heuristic_player(1.0) for _ in range(players)]
    checker = _Checker(rules, report)
    state = rules.new_state(game, players)
    decisions = 0
    while True:
        seat = state.current_player()
        checker.scores(state)
        if seat == TERMINAL:
            report.games.append(f"{chooser}, {players} players, seed {seed}: {state.turns} {rules.length_unit}")
            state.outcome()
            return
        if state.turns >= rules.turn_cap:
            if chooser == "random":  # players who choose at random may never finish: not the engine's fault
                report.notes.append(f"a random game at {players} players (seed {seed}) reached the turn cap "
                                    f"({rules.turn_cap} {rules.length_unit}) unfinished")
            else:
                report.add("end", f"a {chooser} game at {players} players (seed {seed}) is still running after the turn "
                           f"cap of {rules.turn_cap} {rules.length_unit} (Rules.turn_cap): it may never end",
                           method_location(state, "current_player"))
            return
        if seat == CHANCE:
            if not checker.chance(state):
                return
            action = _pick_chance(state, rng)
            if not checker.recordable(state, action, "chance_outcomes"):
                return
            state.apply(action)
            continue
        sampled = _sampled(decisions)
        legal = checker.legal(state, twice=sampled) if sampled or chooser == "random" else None
        if legal is None and (sampled or chooser == "random"):
            return
        if sampled and legal is not None:
            checker.actions_apply(state, legal)
            checker.clone(state, random.Random(rng.randrange(2**32)))
            if can_determinize(state):
                checker.determinize(state, seat, random.Random(rng.randrange(2**32)))
        decisions += 1
        action = rng.choice(legal) if chooser == "random" and legal is not None else heuristic[seat].act(state, seat, rng)
        if not checker.recordable(state, action, "legal_actions"):
            return
        state.apply(action)


def _guarded(report: Report, state_of: Callable[[], State], run: Callable[[], None]) -> None:
    """Run a check; an exception in the engine becomes a finding at its line, not a crash."""
    from spellpress.simulate.engine_faults import passes_through, what_failed

    try:
        run()
    except BaseException as exc:  # the engine's code failed (sys.exit() and GeneratorExit too): report where
        if passes_through(exc):
            raise
        try:
            where = raised_at(state_of(), exc)
        except Exception:
            where = None
        report.add("play", f"the engine failed while playing: {what_failed(exc)}", where)


def game_plan(rules: Rules, game, players: list[int] | None = None, seed: int = 1, random_games: int = 1,
              heuristic_games: int = 2) -> list[tuple[int, str, int]]:
    """(players, random|heuristic, seed) of each game to check: random and heuristic games at the first
    player count (default the fewest), one heuristic game at each other (default the most)."""
    allowed = rules.players_allowed(game)
    counts = players or sorted({allowed.start, allowed.stop - 1})
    plan = [(counts[0], "random", seed * 1000 + g) for g in range(random_games)]
    plan += [(counts[0], "heuristic", seed * 1000 + 500 + g) for g in range(heuristic_games)]
    return plan + [(count, "heuristic", seed * 1000 + 500) for count in counts[1:]]


def check_engine(folder: Path, *, players: list[int] | None = None, seed: int = 1, random_games: int = 1,
                 heuristic_games: int = 2, worker_games: int = 2, workers: bool = True,
                 progress: Callable[[int], None] | None = None) -> Report:
    """Play and check the game's engine (see the module doc); never raises for the engine's faults.
    `progress` is told of each game played (the plan's games, then the workers' comparison)."""
    from spellpress.load.game import load_game
    from spellpress.rules.plugins import rules_for

    game = load_game(folder)
    rules = rules_for(game)
    report = Report(rules.id)
    plan = game_plan(rules, game, players, seed, random_games, heuristic_games)
    probe = lambda: rules.new_state(game, plan[0][0])  # noqa: E731  (where an engine's file is)
    for count, chooser, game_seed in plan:
        _guarded(report, probe, lambda: play_checked(rules, game, count, chooser, game_seed, report))  # noqa: B023 - called at once
        if progress:
            progress(1)
    if not can_determinize(probe()):
        report.notes.append(f"{type(probe()).__name__} does not define determinize(seat, rng): the search player "
                            "(--agents ismcts) refuses this engine")
    elif report.positions["determinize"] and not report.positions["determinize re-dealt"]:
        report.notes.append("determinize() never changed anything: right only if no seat ever holds a card another cannot see")
    elif report.positions["hidden hands"] >= KEPT_HANDS and not report.positions["hidden hands re-dealt"]:
        report.add("determinize", f"determinize(seat) kept every opponent's hidden hand as it really is, in all "
                   f"{report.positions['hidden hands']} positions where it could have been re-dealt with other hidden cards: "
                   "the search player would play with those hands visible; re-deal the opponents' hands with the deck "
                   "(spellpress.rules.redeal)", method_location(probe(), "determinize"))
    if workers and worker_games:
        _guarded(report, probe, lambda: same_on_two_workers(folder, plan[0][0], worker_games, seed, report))
        if progress:
            progress(1)
    return report


def _comparable(records) -> list:
    return [(r.index, r.outcome.scores, r.outcome.winners, r.outcome.turns, sorted(r.outcome.figures.items()),
             sorted((k, sorted(v)) for k, v in r.outcome.played.items())) for r in records]


def same_on_two_workers(folder: Path, players: int, games: int, seed: int, report: Report) -> None:
    """The same seeded heuristic games on one worker (this process) and on two worker processes."""
    from spellpress.simulate.runner import RunSpec, run

    spec = RunSpec(str(Path(folder).resolve()), players, games, seed=seed)
    here = run(spec, workers=1, keep_records=True).records
    there = run(spec, workers=2, keep_records=True).records
    report.positions["workers"] += games
    for mine, theirs in zip(_comparable(here), _comparable(there), strict=False):
        if mine != theirs:
            report.add("workers", f"game {mine[0]} (seed {seed}, {players} players) ends differently on two workers: "
                       "a random number not drawn from the game's generator, or state kept between games?")
            return


def summary_lines(report: Report) -> list[tuple[str, str, str]]:
    """(ok|FAIL, the check, what was looked at) per check, for the terminal."""
    rows = []
    for check, what in CHECKS.items():
        looked = report.positions[check]
        detail = {"play": f"{len(report.games)} games", "end": f"{len(report.games)} games ended",
                  "workers": f"{looked} games compared"}.get(check, f"{looked} positions")
        if check == "determinize":
            detail += (f", {report.positions['determinize re-dealt']} re-dealt, "
                       f"{report.positions['hidden hands re-dealt']} of {report.positions['hidden hands']} hidden hands re-dealt")
        skipped = not looked and check in ("workers", "determinize", "observation") and not report.failed(check)
        rows.append(("FAIL" if report.failed(check) else "skipped" if skipped else "ok", what, detail))
    return rows


def assert_conforms(folder: Path, **options: Any) -> Report:
    """For tests: check the engine of the game in `folder` and fail with every finding."""
    report = check_engine(Path(folder), **options)
    assert report.ok, f"{report.engine} does not conform:\n" + "\n".join(f"  [{f.check}] {f}" for f in report.findings)
    return report
