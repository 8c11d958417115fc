"""Run many seeded games in batches, on a process pool or a Dask cluster.

Every game's seed is derived from the run's seed and the game's index, and the
results are gathered in index order, so a run gives the same figures whatever
the number of workers or the backend.
"""

from __future__ import annotations

import gc
import logging
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spellpress.pools import close_pool, process_pool
from spellpress.rules.protocol import Outcome
from spellpress.simulate.tally import Tally

SEED_STRIDE = 10_000_019  # a prime: seeds of different runs do not overlap for any sane game count


AGENTS = ("random", "heuristic", "ismcts")


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: the game's heuristic player at a skill, the random player, or the
    IS-MCTS search player with `budget` playouts a move (and a playout `horizon` in turns, None:
    to the game's end)."""

    kind: str = "heuristic"  # one of AGENTS
    skill: float = 1.0
    budget: int = 64
    horizon: int | None = None
    playout: str = "heuristic"  # the playouts' player: "heuristic" or "fast" (the engine's playout_player)

    @property
    def label(self) -> str:
        if self.kind == "ismcts":
            from spellpress.simulate.ismcts import search_label

            return search_label(self.budget, self.horizon, self.playout)
        return "random" if self.kind == "random" else f"heuristic-{self.skill:g}"


def make_player(seat: Seat, rules):
    from spellpress.rules.protocol import RandomPlayer

    if seat.kind == "random":
        return RandomPlayer()
    if seat.kind == "ismcts":
        from spellpress.simulate.ismcts import ISMCTSPlayer

        return ISMCTSPlayer(rules, seat.budget, horizon=seat.horizon, playout=seat.playout)
    return rules.heuristic_player(seat.skill)


@dataclass(frozen=True)
class RunSpec:
    folder: str
    players: int
    games: int
    seed: int = 1
    check: bool = False
    lineup: tuple[Seat, ...] = ()  # one per player; rotated one seat per game. Empty: all heuristic at skill 1
    options: tuple[tuple[str, Any], ...] = ()
    engine: str | None = None  # a rules module path that overrides the game's own (tests, experiments)
    common_random_numbers: bool = False  # each block of `players` games shares one seed, the lineup rotated
    variant: tuple[tuple[str, Any], ...] = ()  # rules./cards. overrides applied to the loaded game (sweeps)
    first: int = 0  # index of the first game: a run continued in batches plays the games of one long run


@dataclass
class GameRecord:
    index: int
    lineup_offset: int  # the lineup was rotated by this many seats for this game
    outcome: Outcome


@dataclass
class RunResult:
    """A run's running totals; the games themselves are kept only when asked (tests, small runs)."""

    spec: RunSpec
    keep_records: bool = False
    records: list[GameRecord] = field(default_factory=list)
    tally: Tally = field(init=False)

    def __post_init__(self) -> None:
        self.tally = Tally(self.spec.players)

    def add(self, record: GameRecord) -> None:
        self.tally.add(record.outcome, record.lineup_offset)
        if self.keep_records:
            self.records.append(record)


DASK_ALLOWED_FAILURES = 3  # Dask's default: a batch is tried on 4 workers before it is a failure
DASK_CONNECT_SECONDS = 10
GREETING_SECONDS = 5  # a Dask scheduler greets a new connection at once; this long means it is something else


def game_seed(run_seed: int, index: int) -> int:
    return run_seed * SEED_STRIDE + index


_CACHE: dict[str, Any] = {}


def _load(folder: str, engine_module: str | None, variant: tuple = ()):
    """The game (a variant of it, for sweeps) and its rules, loaded once per worker process."""
    key = f"{folder}|{engine_module}|{variant!r}"
    if key not in _CACHE and variant:
        from spellpress.simulate.variants import apply_variant, known_rules_keys

        game, rules = _load(folder, engine_module)
        if len(_CACHE) > 16:  # a sweep plays one variant after another: keep the base games, drop old variants
            for old in [k for k in _CACHE if not k.endswith("|()")]:
                del _CACHE[old]
        _CACHE[key] = (apply_variant(game, variant, known_rules_keys(rules)), rules)
    if key not in _CACHE:
        from spellpress.load.game import load_game
        from spellpress.rules.plugins import load_engine, rules_for

        game = load_game(Path(folder), templates=False)  # a run plays the rules: no card template is drawn
        rules = load_engine(engine_module) if engine_module else rules_for(game)
        _CACHE[key] = (game, rules)
    return _CACHE[key]


def play_batch(spec: RunSpec, start: int, stop: int) -> list[GameRecord]:
    from spellpress.simulate.engine_faults import Watchdog, blamed, passes_through, what_failed
    from spellpress.simulate.game_metrics import MOVE_SAMPLE
    from spellpress.simulate.play import play_game
    from spellpress.words.index import settle

    game, rules = _load(spec.folder, spec.engine, spec.variant)
    lineup = spec.lineup or tuple(Seat() for _ in range(spec.players))
    # each failure is raised after its except block, so that the engine's own exception is not chained to
    # it: tblib (imported with Dask) pickles the chain, and a class the engine made inside a function
    # cannot be pickled, which broke the process pool
    failure = None
    try:
        built = [make_player(seat, rules) for seat in lineup]
    except BaseException as exc:  # a game folder's heuristic_player() that fails, told at its line
        failure = None if passes_through(exc) else blamed(exc, rules, start, game_seed(spec.seed, start))
        if failure is None:
            raise
    if failure is not None:
        raise failure
    options = dict(spec.options)
    records = []
    with Watchdog() as watchdog, _heap_frozen():
        for index in range(start, stop):
            offset = index % spec.players
            # seat s is played by lineup member (s - offset): every member visits every seat in turn
            seats = [built[(s - offset) % spec.players] for s in range(spec.players)]
            # with common random numbers the rotated lineups of one block face the same shuffles and
            # rolls, so seat and skill differences are not drowned by the luck of the deal
            seed_index = index // spec.players if spec.common_random_numbers else index
            seed = game_seed(spec.seed, seed_index)
            try:
                outcome = play_game(rules, game, seats, seed, check=spec.check, options=options,
                                    measure_moves=index % MOVE_SAMPLE == 0, watchdog=watchdog)
            except BaseException as exc:  # the engine's fault, told at its line; anything else is a bug
                if passes_through(exc):
                    raise
                failure = blamed(exc, rules, index, seed)
                if failure is None and not isinstance(exc, Exception):  # never a quiet exit 0 with no figures
                    raise RuntimeError(f"the rules engine raised {what_failed(exc)}") from exc
                if failure is None:
                    raise
            if failure is not None:
                raise failure
            records.append(GameRecord(index, offset, outcome))
            settle()  # the first game worked its word tables out key by key (a cold start); the rest use them whole
    return records


@contextmanager
def _heap_frozen() -> Iterator[None]:
    """The objects alive now (the game, its word tables and caches) left out of the cyclic garbage
    collector's passes while a batch plays: it otherwise walks them again and again (5% of A Word
    to the Wise's time, 20% of Word Rummy's). Freed as usual by their reference counts."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


BATCH_MOST = 500  # games in one task: a task's records stay small, progress and Ctrl-C stay prompt


def batches(games: int, workers: int, smallest: int = 25) -> Iterator[tuple[int, int]]:
    """Contiguous index ranges, made as needed: each a quarter of what is left per worker, none tiny
    (scheduling must stay cheap), none huge; the last ones small, so no worker waits long at the end
    for the other's last batch."""
    start = 0
    while start < games:
        size = min(BATCH_MOST, max(smallest, -(-(games - start) // max(1, workers * 4))))
        yield start, min(games, start + size)
        start += size


def run(
    spec: RunSpec,
    *,
    workers: int | None = None,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
    keep_records: bool = False,
    into: RunResult | None = None,
) -> RunResult:
    """Play the spec's games; with `into`, fold them into that result (a run continued in batches)."""
    return run_many([spec], workers=workers, dask=dask, progress=progress, keep_records=keep_records,
                    into=[into] if into else None)[0]


def run_many(
    specs: list[RunSpec],
    *,
    workers: int | None = None,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
    keep_records: bool = False,
    executor: Executor | None = None,
    into: list[RunResult] | None = None,
) -> list[RunResult]:
    """Several runs (a sweep's variants) on one pool or cluster: every run x batch is a task.

    Tasks are submitted a few at a time and their games folded into each run's tally in
    index order, so memory stays bounded whatever the number of games. `executor`, one
    opened by `open_executor`, is used and left open (a tune plays many runs on one pool).
    """
    workers = workers or os.cpu_count() or 1
    results = into or [RunResult(spec, keep_records) for spec in specs]

    def fold(number: int, records: list[GameRecord]) -> None:
        for record in records:
            results[number].add(record)
        if progress:
            progress(len(records))

    if executor is None and dask is None and workers == 1:
        for number, start, stop in _tasks(specs, workers):
            fold(number, play_batch(specs[number], start, stop))
        return results
    if executor is None and dask is None:
        _load_before_fork(specs)
    try:
        with nullcontext(executor) if executor is not None else _executor(workers, dask) as pool:
            _play_in_order(pool, specs, workers, fold)
    except Exception as exc:
        lost = _lost_cluster(exc) if dask is not None else None
        if lost is None:
            raise
        from spellpress.errors import Option, UserError

        raise UserError.at(Option("--dask"), f"the Dask cluster failed: {lost}; no figures are reported") from None
    return results


def _tasks(specs: list[RunSpec], workers: int) -> Iterator[tuple[int, int, int]]:
    """(run number, first game, game after the last) of every batch of every run, in order."""
    for number, spec in enumerate(specs):
        searching = any(seat.kind == "ismcts" for seat in spec.lineup)
        for start, stop in batches(spec.games, workers, smallest=2 if searching else 25):  # a searched game takes seconds
            yield number, spec.first + start, spec.first + stop


def _load_before_fork(specs: list[RunSpec]) -> None:
    """Build the game, its rules and their caches (word finders) once, before the pool forks, so
    every worker starts with them instead of building its own."""
    from spellpress.simulate.engine_faults import blaming

    for spec in specs:
        game, rules = _load(spec.folder, spec.engine, spec.variant)
        blaming(lambda: rules.new_state(game, spec.players, dict(spec.options)),  # noqa: B023 - called at once
                rules, game_seed(spec.seed, 0))


def _play_in_order(executor: Executor, specs: list[RunSpec], workers: int,
                   fold: Callable[[int, list[GameRecord]], None]) -> None:
    """Submit the batches a few at a time and fold each one's games in index order, whatever order
    they finish in."""
    in_flight = 4 * workers  # enough to keep every worker busy while the oldest is folded
    pending: deque = deque()
    for number, start, stop in _tasks(specs, workers):
        pending.append((number, executor.submit(play_batch, specs[number], start, stop)))
        if len(pending) >= in_flight:
            fold(pending[0][0], pending.popleft()[1].result())
    while pending:
        number, future = pending.popleft()
        fold(number, future.result())


def _lost_cluster(exc: Exception) -> str | None:
    """What went wrong, when `exc` says the Dask cluster (not a game) failed: a batch whose workers
    died more often than Dask retries (distributed.scheduler.allowed-failures, 3), or the scheduler gone."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker

    if isinstance(exc, KilledWorker):
        tries = DASK_ALLOWED_FAILURES + 1
        return f"a worker died playing a batch of games ({tries} {'try' if tries == 1 else 'tries'}, as many as allowed; {exc})"
    if isinstance(exc, (CancelledError, OSError, TimeoutError)):
        return f"the scheduler is gone or does not answer ({type(exc).__name__}{f': {exc}' if str(exc) else ''})"
    return None


class _QuietDask:
    """Silences Dask's loggers (`distributed` and its children, some of which have levels of their own) until restored."""

    def __init__(self):
        self.levels = {name: logging.getLogger(name).level for name in
                       ["distributed", *(name for name in logging.root.manager.loggerDict if name.startswith("distributed."))]}
        for name in self.levels:
            logging.getLogger(name).setLevel(logging.CRITICAL)

    def restore(self) -> None:
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)


def nobody_there(address: str) -> str | None:
    """Why no scheduler can answer at a TCP address, when that is known at once: nothing listens on the
    port (refused), or the host has no address. None otherwise: Dask then waits for one up to its
    connect timeout (a scheduler still starting, a slow network), as it would anyway."""
    import socket

    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
    except (ValueError, TypeError):
        return None
    if scheme != "tcp":
        return None
    try:
        with socket.create_connection((host, port), timeout=1):
            return None
    except ConnectionRefusedError:
        return "connection refused: nothing listens on that port"
    except socket.gaierror:
        return f"no such host: {host}"
    except OSError:
        return None


def address_problem(address: str) -> str | None:
    """What is wrong with a --dask address as written (None for 'local' or a TCP HOST:PORT): an unknown
    scheme or a malformed one gave Dask's own traceback, and tls://, ucx:// and inproc:// need what
    Spellpress does not set up (certificates, UCX, this very process)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    if address == "local":
        return None
    if not address.strip():
        return "empty: give a scheduler's address, such as tcp://HOST:8786, or 'local'"
    try:
        scheme, location = parse_address(address)
    except (ValueError, TypeError):
        return "not an address: give tcp://HOST:PORT, or 'local'"
    if scheme != "tcp":
        why = {"tls": "needs TLS certificates, which Spellpress does not pass to Dask",
               "inproc": "names a scheduler inside this very process",
               "ucx": "needs UCX, which Spellpress does not set up"}.get(scheme, "is not a scheme Dask connects by")
        return f"{scheme}:// {why}; give tcp://HOST:PORT, or 'local'"
    try:
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        return f"not a HOST:PORT ({exc})"
    if not host or not isinstance(port, int) or not 0 < port < 65536:
        return "not a HOST:PORT with a port from 1 to 65535"
    return None


def not_a_scheduler(address: str, seconds: float = GREETING_SECONDS) -> str | None:
    """Why what listens at a TCP address is no Dask scheduler, or None. A scheduler greets each new connection
    at once with a small framed message; an HTTP server (the dashboard's port, 8787) says nothing until asked,
    and Dask then waited for it for minutes. Only the first 8 bytes are read: the size of the greeting."""
    import socket
    import struct

    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    host, port = parse_host_port(parse_address(address)[1])
    try:
        with socket.create_connection((host, port), timeout=seconds) as sock:
            sock.settimeout(seconds)
            greeting = b""
            while len(greeting) < 8:
                part = sock.recv(8 - len(greeting))
                if not part:
                    break
                greeting += part
    except TimeoutError:
        return f"something listens there, but says nothing in {seconds:g} s as a scheduler would"
    except OSError as exc:
        return f"no answer ({exc.strerror or exc})"
    if len(greeting) < 8 or struct.unpack("<Q", greeting)[0] > 2**20:
        return "something listens there, but it is not a Dask scheduler"
    return None


class _executor:
    """A process pool, or a Dask cluster's executor ('local' starts a local cluster)."""

    def __init__(self, workers: int, dask: str | None):
        self.workers, self.dask = workers, dask
        self.client: Any = None  # dask.distributed's Client and LocalCluster, imported only for --dask
        self.cluster: Any = None

    def __enter__(self) -> Executor:
        if self.dask is None:
            self.pool = process_pool(self.workers)
            return self.pool
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            from spellpress.errors import Option, UserError

            raise UserError.at(Option("--dask"), "Dask is not installed: pip install 'spellpress[dask]'") from None
        import dask

        # Dask logs each failure with its traceback; the run reports one clear error instead (or retries)
        self.quieted = _QuietDask()

        # a batch on a worker that dies is run again elsewhere, at most this often; a lost scheduler is
        # given up on after the connect timeout, not waited for
        dask.config.set({"distributed.scheduler.allowed-failures": DASK_ALLOWED_FAILURES,
                         "distributed.comm.timeouts.connect": f"{DASK_CONNECT_SECONDS}s"})
        if self.dask == "local":
            self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            from spellpress.errors import Option, UserError

            malformed = address_problem(self.dask)
            if malformed:
                self.quieted.restore()
                raise UserError.at(Option("--dask"), f"{self.dask!r}: {malformed}")
            why = nobody_there(self.dask) or not_a_scheduler(self.dask)
            problem = f"({why})" if why else None
            if problem is None:
                try:
                    self.client = Client(self.dask, timeout="10s")
                except (OSError, TimeoutError) as exc:
                    problem = f"within 10 s ({exc})"
            if problem is not None:
                self.quieted.restore()
                raise UserError.at(Option("--dask"), f"no Dask scheduler answers at {self.dask} {problem}")
        return self.client.get_executor()

    def __exit__(self, kind, value, traceback) -> None:
        if self.dask is None:
            close_pool(self.pool, failed=kind is not None)
            return
        try:  # a dead scheduler cannot be told goodbye: bounded, and quiet
            self.client.close(timeout=DASK_CONNECT_SECONDS)
            if self.cluster is not None:
                self.cluster.close(timeout=DASK_CONNECT_SECONDS)
        except (OSError, TimeoutError):
            pass
        finally:
            self.quieted.restore()


open_executor = _executor  # for callers that play many runs on one pool (tune)
