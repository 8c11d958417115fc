"""The search of `spellpress tune`: an Optuna study over a Space, judged by Targets.

- Common random numbers: every candidate plays the same seeded games (rung r's games have
  seed `seed * 1000 + r`), so two candidates differ by their rules, not by their luck.
- Successive halving: rung r plays `min_games * eta**r` games in all (the last rung: `games`);
  after each rung but the last, a candidate not among the best 1/eta of the candidates that
  reached that rung stops there (pruned).
- Determinism: trials run one after another (each one's games spread over the pool or the
  cluster), and the sampler is reseeded before each trial from the seed and the number of
  trials finished, so the same seed gives the same trials on a pool or on Dask, and a study
  resumed from its file continues exactly as an uninterrupted one would.
- A candidate already played (the sampler may draw it again) is not played again: with
  common random numbers it would give the same figures.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spellpress.errors import UserError
from spellpress.tune.space import Space, current_value, suggest
from spellpress.tune.targets import Target, distance, letter_figures, objective, other_figures, simulated_figures

SEARCH_SEED_BLOCK = 1000  # rung r plays seed * 1000 + r; verification plays seed * 1000 + 500 + k
VERIFY_OFFSET = 500
INFEASIBLE = 100.0  # the objective of a candidate that breaks a constraint (it plays no game)


@dataclass(frozen=True)
class Plan:
    """Everything that decides a study's trials: two runs with equal plans give equal studies."""

    folder: str
    players: int
    seed: int
    space: Space
    targets: tuple[Target, ...]
    games: int  # games a candidate that survives every rung plays
    min_games: int  # the first rung
    eta: int
    options: tuple = ()
    min_count: int = 1
    fixed_decks: tuple[str, ...] = ()  # components whose card total stays as it is
    letter_samples: int = 2000
    sampler: str = "tpe"  # one of SAMPLERS

    def rungs(self) -> list[int]:
        """Games played in all after each rung, every one a multiple of the players (seats rotate evenly)."""
        if not any(t.simulated for t in self.targets):
            return []
        whole = lambda n: -(-n // self.players) * self.players  # noqa: E731
        rungs, games = [], self.min_games
        while games < self.games:
            rungs.append(whole(games))
            games *= self.eta
        rungs.append(whole(self.games))
        return sorted(set(rungs))

    def fingerprint(self) -> str:
        return json.dumps({"players": self.players, "seed": self.seed, "space": repr(self.space),
                           "targets": repr(self.targets), "games": self.games, "min_games": self.min_games,
                           "eta": self.eta, "options": repr(self.options), "min_count": self.min_count,
                           "fixed_decks": self.fixed_decks, "letter_samples": self.letter_samples,
                           "sampler": self.sampler}, sort_keys=True)


# --- the games of a candidate ---------------------------------------------------------------------------------

def merge_tallies(into, more) -> None:
    """Fold `more` (the games of a later rung) into `into`: every figure is a sum or a count."""
    into.games += more.games
    into.finished += more.finished
    for name in ("seat_wins", "seat_scores", "member_wins"):
        setattr(into, name, [a + b for a, b in zip(getattr(into, name), getattr(more, name), strict=False)])
    if into.teams is None and more.teams:
        into.teams, into.team_wins = more.teams, list(more.team_wins)
    elif more.teams:
        into.team_wins = [a + b for a, b in zip(into.team_wins, more.team_wins, strict=False)]
    into.lengths.update(more.lengths)
    into.margins = [a + b for a, b in zip(into.margins, more.margins, strict=False)]
    into.spreads = [a + b for a, b in zip(into.spreads, more.spreads, strict=False)]
    for key, (seats, wins) in more.played.items():
        counts = into.played.setdefault(key, [0, 0.0])
        counts[0] += seats
        counts[1] += wins
    into.shares += more.shares
    into.word_points.merge(more.word_points)
    for name, value in more.figure_sums.items():
        into.figure_sums[name] = into.figure_sums.get(name, 0.0) + value
    for name, (total, count) in more.metric_sums.items():
        into.metric_sums.setdefault(name, [0.0, 0])
        into.metric_sums[name][0] += total
        into.metric_sums[name][1] += count


def run_chunks(plan: Plan, variants: list[tuple], chunks: list[tuple[int, int]], executor, workers: int,
               progress: Callable[[int], None] | None = None) -> list:
    """Play `chunks` (seed, games) for every variant on one pool: a Tally per variant, chunks merged."""
    from spellpress.simulate.api import RunSpec, run_many

    specs = [RunSpec(plan.folder, plan.players, games, seed, options=plan.options, variant=variant)
             for variant in variants for seed, games in chunks]
    results = run_many(specs, workers=workers, executor=executor, progress=progress)
    tallies = []
    for number in range(len(variants)):
        parts = [r.tally for r in results[number * len(chunks):(number + 1) * len(chunks)]]
        for part in parts[1:]:
            merge_tallies(parts[0], part)
        tallies.append(parts[0])
    return tallies


def constraint_problems(game, rules, plan: Plan, variant: tuple) -> list[str]:
    """Why a candidate cannot be printed or played (empty when it can): counts, deck sizes, the engine's checks."""
    from spellpress.simulate.variants import apply_variant, checked_variant
    from spellpress.tune.space import card_names, label

    names = card_names(game)
    problems = [f"{label(((key, value),), names)} is below {plan.min_count}" for key, value in variant
                if key.endswith(".count") and value < plan.min_count]
    problems += [f"{label(((key, value),), names)} is negative, where the game has {current_value(game, rules, key)}"
                 for key, value in variant if key.startswith("cards.") and not key.endswith(".count")
                 and isinstance(value, (int, float)) and value < 0 <= current_value(game, rules, key)]
    if problems:
        return problems
    try:  # a game without a rules engine (letter targets only): the changed cards, checked like a build's
        changed = checked_variant(game, rules, variant, dict(plan.options)) if rules else apply_variant(game, variant)
    except UserError as exc:
        return [p.message for p in exc.problems]
    for component_id in plan.fixed_decks:
        before = sum(card.count for card in game.component(component_id).cards)
        after = sum(card.count for card in changed.component(component_id).cards)
        if before != after:
            problems.append(f"{component_id} would have {after} cards, not {before} (--fixed-deck)")
    if rules is not None and plan.players not in rules.players_allowed(changed):
        problems.append(f"takes no {plan.players} players")
    return problems


def untriable(game, rules, plan: Plan, vary: list[str]) -> list:
    """Why the game as it is cannot be played (the engine refuses its rules), when no --vary key can mend it:
    the problems, for the command to stop on before any trial. A refusal placed at a varied rules key is left to
    the search, whose candidates change that key. Empty when the game can be tried."""
    from spellpress.errors import Location, Problem
    from spellpress.load.yamlsrc import read_yaml
    from spellpress.simulate.variants import checked_variant, split_vary

    if rules is None:
        return []
    try:
        checked_variant(game, rules, (), dict(plan.options))
    except UserError as exc:
        problems = exc.problems
    else:
        return []
    source = read_yaml(game.root / "game.yaml")
    # the lines of the varied rules keys game.yaml has (one left to the engine's default is placed nowhere)
    varied = {source.marks[path][0] for key, _ in split_vary(vary)
              if (path := tuple(key.split("."))) in source.marks and key.startswith("rules.")}
    here = source.path.resolve()
    if any(isinstance(p.location, Location) and p.location.line in varied and p.location.path.resolve() == here
           for p in problems):
        return []
    return [Problem(p.location, p.message.removeprefix("variant : ")) for p in problems]


def figures_of(game, rules, plan: Plan, variant: tuple, tally=None) -> dict:
    """The figures the targets read: simulated ones from a tally, letter ones from the letter analysis."""
    from spellpress.simulate.variants import apply_variant, known_rules_keys

    figures: dict = simulated_figures(tally) if tally is not None else {}
    letter_targets = tuple(t for t in plan.targets if not t.simulated)
    if letter_targets:
        changed = apply_variant(game, variant, known_rules_keys(rules))
        figures.update(letter_figures(changed, letter_targets, plan.letter_samples, plan.seed))
    return figures


def uncertainty(plan: Plan, figures: dict) -> float:
    """How far the score may move on more games: the widest 95% half-interval among the simulated targets'
    worst figures, in distances (the band's half-width is 1), times 1.25 as the score is (worst + mean / 4)."""
    from spellpress.tune.targets import _checks

    widest = 0.0
    for target in plan.targets:
        if not target.simulated:
            continue  # the letter figures do not change with games
        checks = _checks(target, figures)
        if checks:
            _, _, (low, high) = max(checks, key=lambda check: target.distance(check[1]))
            widest = max(widest, (high - low) / (target.high - target.low))
    return 1.25 * widest


def score(plan: Plan, figures: dict) -> tuple[float, dict[str, float]]:
    distances = {t.name: distance(t, figures) for t in plan.targets}
    return objective(list(distances.values()), figures.get("stalls", 0), figures.get("games", 1)), distances


# --- the study ------------------------------------------------------------------------------------------------

def _pruner(eta: int, min_peers: int):
    from optuna.pruners import BasePruner
    from optuna.trial import TrialState

    class HalvingPruner(BasePruner):
        """Successive halving over finished trials only: a trial interrupted by Ctrl-C (failed) is no
        peer, so a resumed study judges exactly as an uninterrupted one (Optuna's own pruner reads
        the intermediate values of every trial, failed ones included)."""

        def prune(self, study, trial) -> bool:
            step = trial.last_step
            if step is None:
                return False
            value = trial.intermediate_values[step]
            finished = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))
            peers = [t for t in finished if step in t.intermediate_values]
            if len(peers) < min_peers:
                return False
            key = f"uncertainty {step}"
            ranked = sorted([(t.intermediate_values[step], t.user_attrs.get(key, 0.0)) for t in finished
                             if step in t.intermediate_values] + [(value, trial.user_attrs.get(key, 0.0))])
            cutoff, cutoff_half = ranked[max(1, len(ranked) // eta) - 1]
            # not among the best 1/eta, and worse beyond the noise than the last that goes on: a close call
            # plays the next rung instead (the games go where candidates are close)
            return value - trial.user_attrs.get(key, 0.0) > cutoff + cutoff_half

    return HalvingPruner()


def open_study(path: Path, name: str, plan: Plan, fresh: bool, game_hash: str):
    """The study in `path` (a journal file), created or resumed; a study of another plan is refused."""
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if fresh and path.exists():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    storage = JournalStorage(JournalFileBackend(str(path)))
    study = optuna.create_study(study_name=name, storage=storage, load_if_exists=True, direction="minimize",
                                pruner=_pruner(plan.eta, min_peers=max(2, plan.eta)))
    made_for = study.user_attrs.get("plan"), study.user_attrs.get("game_files")
    if made_for == (None, None):
        study.set_user_attr("plan", plan.fingerprint())
        study.set_user_attr("game_files", game_hash)
    elif made_for != (plan.fingerprint(), game_hash):
        what = "the game's files have changed" if made_for[0] == plan.fingerprint() else "other options"
        raise UserError.at(_location(path), f"this study was made with {what}; resume it with the same command, "
                                            "or start over with --fresh")
    for trial in study.get_trials(deepcopy=False):
        if trial.state.name == "RUNNING":  # left by a run that was killed: never a peer, never resumed
            storage.set_trial_state_values(trial._trial_id, state=optuna.trial.TrialState.FAIL)
    return study


def _location(path: Path):
    from spellpress.errors import Location

    return Location(path)


def finished_trials(study) -> list:
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))


SAMPLERS = ("tpe", "cmaes", "random")


def _sampler(plan: Plan, finished: int, trials: int):
    """A fresh sampler for each trial, seeded from the study's seed and the trials finished: the same
    history gives the same next candidate, whether the study ran straight through or was resumed.
    (CMA-ES keeps its search state in the trials themselves, and is shown the trials finished, not the
    trial's number, so it resumes too.)"""
    import warnings

    import optuna

    seed = plan.seed * 7919 + finished
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        tpe = optuna.samplers.TPESampler(seed=seed, multivariate=True, group=True,
                                         n_startup_trials=max(4, min(10, trials // 4)))
        if plan.sampler == "random":
            return optuna.samplers.RandomSampler(seed=seed)
        if plan.sampler == "cmaes":
            return _resumable_cmaes(finished)(seed=seed, n_startup_trials=1, with_margin=True,
                                              independent_sampler=tpe, warn_independent_sampling=False)
        return tpe


def _resumable_cmaes(finished: int):
    """Optuna's CMA-ES, shown the trial's place among the finished trials instead of its number.

    CMA-ES seeds each draw with the trial's number, and a resumed study has one more number per interrupted
    (failed) trial: its draws after the interruption differed from an uninterrupted run's. The trials
    finished before it are the same in both."""
    import copy

    import optuna

    class ResumableCmaEs(optuna.samplers.CmaEsSampler):
        def sample_relative(self, study, trial, search_space):
            shown = copy.copy(trial)
            shown.number = finished
            return super().sample_relative(study, shown, search_space)

    return ResumableCmaEs


def variant_key(variant) -> str:
    return json.dumps([[k, v] for k, v in variant])


@dataclass
class Progress:
    """What the search reports as it goes (the command draws the bar)."""

    trial: Callable[[int, float | None, str], None] = lambda finished, best, label: None
    games: Callable[[int], None] = lambda n: None


def search(study, game, rules, plan: Plan, trials: int, executor, workers: int, progress: Progress | None = None) -> None:
    """Run trials until `trials` have finished (complete or pruned); Ctrl-C leaves the current one failed."""
    from optuna.trial import TrialState

    from spellpress.tune.space import card_names, label

    names = card_names(game)
    progress = progress or Progress()
    rungs = plan.rungs()
    known = {t.user_attrs["variant_key"]: t for t in finished_trials(study) if "variant_key" in t.user_attrs}
    if not known and not any(t.state.name == "WAITING" for t in study.get_trials(deepcopy=False)):
        study.enqueue_trial(baseline_params(plan.space))  # the game as it is: the first trial, a reference
    while len(finished := finished_trials(study)) < trials:
        study.sampler = _sampler(plan, len(finished), trials)
        trial = study.ask()
        try:
            variant = suggest(trial, plan.space)
            key = variant_key(variant)
            trial.set_user_attr("variant", [[k, v] for k, v in variant])
            trial.set_user_attr("variant_key", key)
            trial.set_user_attr("index", len(finished))
            state, value = _play(trial, game, rules, plan, variant, rungs, known.get(key), executor, workers, progress)
        except BaseException:
            study.tell(trial, state=TrialState.FAIL)
            raise
        if state == "pruned":
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, value)
        known.setdefault(key, study.get_trials(deepcopy=False)[trial.number])
        if not variant and "probed" not in study.user_attrs:
            _enqueue_seeds(study, game, rules, plan)
            _enqueue_probes(study, game, plan, study.get_trials(deepcopy=False)[trial.number])
        best = _best_value(study)
        progress.trial(len(finished) + 1, best, label(variant, names))


def _best_value(study) -> float | None:
    values = [t.value for t in study.get_trials(deepcopy=False) if t.state.name == "COMPLETE" and t.value is not None
              and not t.user_attrs.get("infeasible")]
    return min(values) if values else None


def _play(trial, game, rules, plan, variant, rungs, before, executor, workers, progress) -> tuple[str, float | None]:
    """Play a candidate rung by rung; 'pruned' or 'complete' and its objective."""
    if before is not None:  # the same candidate again: the same games would give the same figures
        for name in ("figures", "distances", "infeasible"):
            if name in before.user_attrs:
                trial.set_user_attr(name, before.user_attrs[name])
        trial.set_user_attr("games", 0)
        trial.set_user_attr("repeat_of", before.user_attrs.get("index"))
        return ("pruned", None) if before.state.name == "PRUNED" else ("complete", before.value)
    problems = constraint_problems(game, rules, plan, variant)
    if problems:
        trial.set_user_attr("infeasible", problems)
        trial.set_user_attr("games", 0)
        return "complete", INFEASIBLE + len(problems)
    if not rungs:  # letter targets only: no games
        figures = figures_of(game, rules, plan, variant)
        value, distances = score(plan, figures)
        _record(trial, figures, distances, 0)
        return "complete", value
    letters = figures_of(game, rules, plan, variant)  # letter targets: judged once, they play no games
    tally, played = None, 0
    for rung, total in enumerate(rungs):
        chunk = run_chunks(plan, [variant], [(plan.seed * SEARCH_SEED_BLOCK + rung, total - played)], executor, workers,
                           progress.games)[0]
        played = total
        if tally is None:
            tally = chunk
        else:
            merge_tallies(tally, chunk)
        figures = {**letters, **simulated_figures(tally)}
        value, distances = score(plan, figures)
        _record(trial, figures, distances, played)
        trial.set_user_attr(f"uncertainty {rung}", uncertainty(plan, figures))
        trial.report(value, rung)
        if rung < len(rungs) - 1 and trial.should_prune():
            return "pruned", value
    return "complete", value


def _record(trial, figures: dict, distances: dict, games: int) -> None:
    """The figures kept with a trial: small enough for the study file (no per-card rows)."""
    kept = {k: v for k, v in figures.items() if k not in ("cards", "points_rank")}
    if "points_rank" in figures:
        kept["points_rank"] = {k: v for k, v in figures["points_rank"].items() if k != "suggested"}
    if "cards" in figures and figures["cards"]:
        ranked = sorted(figures["cards"].items(), key=lambda item: -abs(item[1]["difference"]))
        kept["worst_card"] = {"key": ranked[0][0], **ranked[0][1]}
        kept["worst_cards"] = [key for key, _ in ranked[:PROBED_CARDS]]
    trial.set_user_attr("figures", kept)
    trial.set_user_attr("distances", distances)
    trial.set_user_attr("games", games)


def _enqueue_seeds(study, game, rules, plan: Plan) -> None:
    """After the game as it is has played, with letter targets only (no games: a candidate is scored at once):
    queue sparse edits found directly, before the sampler's guesses. The search's later trials start from them.

    - a greedy coordinate descent over single changes: each step makes the one change (a new card, or another
      value for a card already changed) that lowers the score most, never more cards than --max-changes;
      queued are its end and, for each smaller number of cards, the best it found with that many;
    - for a points_rank target, "print the suggested points": every points card set to its suggested value
      within the --vary range; with --max-changes N, the N cards furthest from it.
    Queued once (kept in the study, so a resumed study has them too)."""
    if plan.rungs() or not plan.space.families:
        return
    seeds = greedy_path(game, rules, plan)
    seeds = seeds[-1:] + suggested_points(game, rules, plan) + seeds[-2::-1]
    queued: list[dict] = []
    for changes in seeds:
        if changes and changes not in queued:
            queued.append(changes)
            study.enqueue_trial(params_for(plan.space, changes))


def _scored(game, rules, plan: Plan, changes: dict) -> float | None:
    """A candidate's score with letter targets only; None when it breaks a constraint."""
    variant = tuple(changes.items())
    if constraint_problems(game, rules, plan, variant):
        return None
    return score(plan, figures_of(game, rules, plan, variant))[0]


GREEDY_EVALUATIONS = 5000  # candidates the descent scores at most (a few seconds of points changes)


def greedy_path(game, rules, plan: Plan) -> list[dict]:
    """The steps of a greedy coordinate descent from the game as it is: {key: new value} after each step."""
    dealt = any(t.name in ("word_rate", "going_out") for t in plan.targets)
    # a count changes the hands dealt, and a word_rate or going_out target then deals them anew (a second or so a
    # candidate): those members are left to the sampler, and the whole descent is capped, so it stays seconds
    members = [dim for family in plan.space.families for dim in family.members
               if not (dealt and dim.key.endswith(".count"))]
    limit = plan.space.max_changes or len(members)
    evaluations = GREEDY_EVALUATIONS
    current: dict[str, Any] = {}
    best, path = _scored(game, rules, plan, {}), []
    if best is None:
        return []
    for _ in range(2 * limit):  # a card may be changed again, so a few more steps than cards
        step = None
        for dim in members:
            if dim.key not in current and len(current) >= limit:
                continue
            for drawn in _draws(dim):
                value = dim.value(drawn)
                if value == current.get(dim.key, dim.current):
                    continue
                changed = {k: v for k, v in {**current, dim.key: value}.items() if k != dim.key or value != dim.current}
                evaluations -= 1
                if evaluations < 0:
                    break
                scored = _scored(game, rules, plan, changed)
                if scored is not None and scored < (step[0] if step else best) - 1e-12:
                    step = (scored, changed)
        if step is None:
            break
        best, current = step
        path.append(current)
        if evaluations < 0:  # the best of a step cut short still stands
            break
    by_size: dict[int, dict] = {}
    for changes in path:  # later steps score better: the last of each size is its best
        by_size[len(changes)] = changes
    return [by_size[size] for size in sorted(by_size)]


def suggested_points(game, rules, plan: Plan) -> list[dict]:
    """'Print the suggested points' as a candidate (a points_rank target and a family of points): [] otherwise."""
    if not any(t.name == "points_rank" for t in plan.targets):
        return []
    suggested = figures_of(game, rules, plan, ())["points_rank"]["suggested"]
    gaps = []
    for family in plan.space.families:
        for dim in family.members:
            _, component_id, card_id, field = dim.key.split(".")
            card = next(c for c in game.component(component_id).cards if c.id == card_id)
            face = str(card.fields.get("letter", card_id)).lower()
            if field != "points" or face not in suggested or not isinstance(dim.current, int):
                continue
            if dim.choices:
                value = min(dim.choices, key=lambda v: abs(v - suggested[face]))
            elif dim.low is not None and dim.high is not None:
                shift = dim.current if dim.relative else 0
                value = min(max(int(suggested[face]), int(dim.low) + shift), int(dim.high) + shift)
            else:
                continue
            if value != dim.current:
                gaps.append((-abs(value - dim.current), dim.key, value))
    gaps.sort()
    chosen = gaps[:plan.space.max_changes] if plan.space.max_changes is not None else gaps
    return [{key: value for _, key, value in sorted(chosen, key=lambda g: g[1])}] if chosen else []


def params_for(space: Space, changes: dict) -> dict:
    """The Optuna parameters that make `suggest` give these family changes (every other key as the game has it)."""
    from spellpress.tune.space import _member_label

    members = {dim.key: (family, dim) for family in space.families for dim in family.members}
    params = baseline_params(space)
    if space.max_changes is not None and len(changes) > space.max_changes:
        raise ValueError(f"{len(changes)} changes, more than --max-changes {space.max_changes}")
    for slot, (key, value) in enumerate(changes.items(), 1):
        family, dim = members[key]
        drawn = value - dim.current if dim.relative else value
        if space.max_changes is None:
            params[key] = drawn
        else:
            params[f"change #{slot}"] = _member_label(key)
            params[f"change #{slot} {family.pattern}"] = drawn
    return params


PROBED_CARDS = 2  # a cards target: the game's worst cards are tried first, one change at a time


def _enqueue_probes(study, game, plan: Plan, baseline) -> None:
    """After the game as it is has played: queue single changes to its worst cards (a cards target).

    A family of thirty cards makes the sampler's first guesses mostly about other cards; the cards
    that break the target are where a fix most likely lies. The probes are trials like any other
    (kept in the study, so a resumed study has them too), queued once.
    """
    study.set_user_attr("probed", True)
    if not any(t.name == "cards" for t in plan.targets) or not plan.space.families:
        return
    limit = next(t.high for t in plan.targets if t.name == "cards")
    worst = [key for key in baseline.user_attrs.get("figures", {}).get("worst_cards", [])]
    figures = baseline.user_attrs.get("figures", {})
    if figures.get("worst_card") and abs(100 * figures["worst_card"]["difference"]) <= limit:
        return  # every card already holds
    for played in worst:
        for family in plan.space.families:
            for dim in family.members:
                if not _names_card(game, dim.key, played):
                    continue
                for drawn in _draws(dim):
                    study.enqueue_trial(params_for(plan.space, {dim.key: dim.value(drawn)}))


def _names_card(game, key: str, played: str) -> bool:
    """Whether a family member's card is the one a `played` figure names ('spell:sycophant', 'letters:QU')."""
    from spellpress.simulate.variants import CARD_NAMES

    _, component_id, card_id, _ = key.split(".")
    name = played.split(":", 1)[-1].lower()
    card = next(c for c in game.component(component_id).cards if c.id == card_id)
    return card.id.lower() == name or any(str(card.fields.get(f, "")).lower() == name for f in CARD_NAMES)


def _draws(dim) -> list:
    """Every value a member's parameter may take but the unchanged one (whole-number ranges and lists)."""
    if dim.choices:
        return [v for v in dim.choices if v != dim.current]
    if isinstance(dim.low, int) and isinstance(dim.high, int):
        unchanged = 0 if dim.relative else dim.current
        return [v for v in range(dim.low, dim.high + 1) if v != unchanged]
    return []


# --- proposals and their verification -------------------------------------------------------------------------

def proposals(study, count: int, partial: bool = False) -> list:
    """The best `count` distinct feasible changes that played every rung, best first (ties: the earlier).
    `partial` (an interrupted search): stopped and interrupted candidates too, by the figures of their last rung."""
    states = ("COMPLETE", "PRUNED", "FAIL") if partial else ("COMPLETE",)
    found = [t for t in study.get_trials(deepcopy=False) if t.state.name in states and t.user_attrs.get("variant")
             and not t.user_attrs.get("infeasible") and "repeat_of" not in t.user_attrs and _score(t) is not None]
    found.sort(key=lambda t: (t.state.name != "COMPLETE", _score(t), t.user_attrs["index"]))
    return found[:count]


def _score(trial) -> float | None:
    if trial.value is not None:
        return trial.value
    return trial.intermediate_values[trial.last_step] if trial.last_step is not None else None


def verify(game, rules, plan: Plan, variants: list[tuple], games: int, executor, workers: int,
           progress: Callable[[int], None] | None = None) -> list[dict]:
    """Re-play every variant on fresh seeds (the same for all: common random numbers) and judge its targets
    together, as simulate judges a run: a decided verdict is wrong at most 5% of the time."""
    from spellpress.simulate.api import Decision
    from spellpress.tune.targets import judged, overall, verdict

    simulated = any(t.simulated for t in plan.targets)
    chunks = [(plan.seed * SEARCH_SEED_BLOCK + VERIFY_OFFSET, -(-games // plan.players) * plan.players)]
    tallies = run_chunks(plan, variants, chunks, executor, workers, progress) if simulated else [None] * len(variants)
    rows = []
    for variant, tally in zip(variants, tallies, strict=False):
        fresh = Plan(**{**plan.__dict__, "seed": plan.seed * SEARCH_SEED_BLOCK + VERIFY_OFFSET})  # fresh letter samples too
        figures = figures_of(game, rules, fresh, variant, tally)
        intervals = judged(plan.targets, figures)  # simulate's rule: a miss shares the 5% among every interval read
        decision = Decision(intervals, (1,))  # one look
        verdicts = [verdict(t, figures, decision.z, decision.z_inside) for t in plan.targets]
        _, distances = score(plan, figures)
        rows.append({"variant": [[k, v] for k, v in variant], "figures": figures, "other": other_figures(figures),
                     "distances": distances, "judged": intervals, "z": decision.z, "z_inside": decision.z_inside,
                     "targets": verdicts, "verdict": overall(verdicts, figures.get("stalls", 0))})
    return rows


def spent(study) -> dict:
    """Games and trials the search used, by outcome."""
    counts = Counter(t.state.name.lower() for t in study.get_trials(deepcopy=False)
                     if t.state.name not in ("WAITING", "RUNNING"))  # queued probes not yet played
    games = sum(t.user_attrs.get("games", 0) for t in study.get_trials(deepcopy=False))
    repeats = sum(1 for t in study.get_trials(deepcopy=False) if "repeat_of" in t.user_attrs)
    infeasible = sum(1 for t in study.get_trials(deepcopy=False) if t.user_attrs.get("infeasible"))
    return {"trials": dict(sorted(counts.items())), "games": games, "repeats": repeats, "infeasible": infeasible}


def baseline_params(space: Space) -> dict[str, Any]:
    """The unchanged game as Optuna parameters, for the parameters whose distribution holds it."""
    from spellpress.tune.space import NO_CARD

    params: dict[str, Any] = {}
    free = () if space.max_changes is not None else tuple(m for f in space.families for m in f.members)
    for dim in space.dimensions + free:
        drawn = 0 if dim.relative else dim.current
        if drawn in dim.choices if dim.choices else dim.low is not None and dim.high is not None and dim.low <= drawn <= dim.high:
            params[dim.key] = drawn
    if space.max_changes is not None:
        params.update({f"change #{slot}": NO_CARD for slot in range(1, space.max_changes + 1)})
    return params
