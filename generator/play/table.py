"""One table of `spellpress play`: a game in progress, its seats (humans and bots), its record.

No web here: the app calls these methods under one lock. Chance is drawn from the table's seeded
generator and recorded like every move, so the record replays the game exactly; undo replays the
record up to the human's last move. At each human move the game's heuristic is asked what it
would have played (its own generator, seeded by the seed and the step), for the end screen and
for `spellpress play --agreement`.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spellpress.model.game import Game
from spellpress.play.records import Decision, Record, save
from spellpress.rules.chance import draw_chance
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, Rules, State

HUMAN = "human"
REMOTE = "remote"  # a person at another browser, by the seat's own link
PEOPLE = (HUMAN, REMOTE)
BOTS = ("heuristic", "random", "ismcts")
MOVES_SHOWN = 400  # moves listed to click; a typed word is matched against all of them
LOG_SHOWN = 40


@dataclass(frozen=True)
class SeatSpec:
    kind: str  # human or one of BOTS
    budget: int = 32  # ismcts playouts a move
    seconds: float | None = 0.8  # ismcts: stop searching after this long (None: the whole budget)

    @property
    def label(self) -> str:
        return f"ismcts-{self.budget}" if self.kind == "ismcts" else self.kind


def bot(seat: SeatSpec, rules: Rules):
    """The player in a seat (None for a human)."""
    from spellpress.rules.protocol import RandomPlayer
    from spellpress.simulate.ismcts import ISMCTSPlayer

    if seat.kind in PEOPLE:
        return None
    if seat.kind == "random":
        return RandomPlayer()
    if seat.kind == "ismcts":
        return ISMCTSPlayer(rules, seat.budget, seconds=seat.seconds)
    return rules.heuristic_player(1.0)


def advisor_rng(seed: int, step: int) -> random.Random:
    return random.Random(seed * 1_000_003 + step)


def replay(rules: Rules, game: Game, players: int, actions: list, options: dict | None = None) -> State:
    """The state after these actions, from the start."""
    state = rules.new_state(game, players, options or None)
    for action in actions:
        state.apply(action)
    return state


def word_matches(state: State, legal: list, text: str) -> list:
    """Legal actions that play the typed word (State.action_word): cards in any order that spell it."""
    word = " ".join(text.lower().split())
    if not word:
        return []
    return [a for a in legal if state.action_word(a, word) == word]


@dataclass
class Entry:
    """One move in the log: said in the third person. A move chosen in secret is shown to the other
    seats only once the engine stops hiding choices (at step `revealed`), and then as the engine says
    it may be told (`shown`; None: it stays secret, as a word that was never placed)."""

    step: int
    seat: int
    text: str
    secret: bool = False
    action: Any = None
    revealed: int | None = None
    shown: str | None = None

    def seen_by(self, viewer: int | None, labels: list[str]) -> str:
        who = f"seat {self.seat + 1} ({labels[self.seat]})"
        if not self.secret or viewer == self.seat:
            return who + self.text
        return who + self.shown if self.shown is not None else f"{who} chose in secret"


PAST = {"play": "played", "place": "placed", "discard": "discarded", "draw": "drew", "take": "took", "buy": "bought",
        "pass": "passed", "exchange": "exchanged", "attack": "attacked", "spell": "spelled", "scrap": "scrapped",
        "start": "started", "change": "changed", "end": "ended", "research": "researched", "rest": "rested",
        "weave": "wove", "cast": "cast", "scrounge": "scrounged", "pick": "picked", "give": "gave",
        "return": "returned", "drop": "dropped", "keep": "kept", "put": "put", "challenge": "challenged",
        "risk": "risked", "make": "made", "destroy": "destroyed", "stop": "stopped", "go": "went"}


def third_person(text: str) -> str:
    """A move as the mover says it ("exchange your Fern with the spare Heron"), as the log tells it
    after the seat's name ("exchanged their Fern with the spare Heron"); ": text" for another verb."""
    verb, _, rest = text.partition(" ")
    if verb not in PAST:
        return f": {text}"
    rest = re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "they", rest))
    rest = re.sub(r"\band (\w+)", lambda m: f"and {PAST.get(m.group(1), m.group(1))}", rest)
    return f" {PAST[verb]}" + (f" {rest}" if rest else "")


def log_entry(state: State, action: Any, seat: int, step: int) -> Entry:
    """The entry for a move about to be applied (its string may read the position)."""
    return Entry(step, seat, third_person(state.action_to_string(action)), state.choices_hidden(), action)


def told(entry: Entry, state: State, action: Any) -> None:
    """Add to the entry of a move just applied what it did that the table does not show."""
    news = state.action_news(action, entry.seat)
    if news:
        entry.text += f" · {news}"


def reveal(entries: list[Entry], state: State, step: int) -> None:
    """Once the engine stops hiding choices, tell each secret move as it now may be told."""
    if not state.choices_hidden():
        for entry in entries:
            if entry.secret and entry.revealed is None:
                said = state.action_revealed(entry.action, entry.seat)
                entry.revealed, entry.shown = step, None if said is None else third_person(said)


@dataclass
class Scorebook:
    """Where every point came from: (step, round, seat, points, why) items, from the engine's
    State.score_items or, for an engine without it, each seat's change of score with the move that
    made it; and the rounds closed so far, each with its items and the scores after it."""

    items: list[tuple[int, int | None, int, float, str]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def starting(cls, state: State) -> Scorebook:
        """A scorebook with the points each seat has at the start (Spelled's health, a catch-up)."""
        return cls([(-1, state.round_number(), seat, float(points), "at the start")
                    for seat, points in enumerate(state.returns()) if points])

    def apply(self, state: State, action: Any, step: int, why: str) -> None:
        """Apply the action to the state, itemizing what it scored."""
        itemized = type(state).score_items is not State.score_items
        before = state.clone() if itemized else None
        scores, round_number = state.returns(), state.round_number()
        state.apply(action)
        items = state.score_items(before, action) if before is not None else None
        if items is None:
            items = [(seat, now - then, why) for seat, (now, then) in enumerate(zip(state.returns(), scores,
                                                                                    strict=False)) if now != then]
        self.items += [(step, round_number, seat, float(points), text) for seat, points, text in items]
        if round_number is not None and state.round_number() != round_number:
            self.rounds.append({"round": round_number, "step": step, "scores": list(state.returns()),
                                "items": [[seat, points, text] for _, r, seat, points, text in self.items if r == round_number]})

    def undo(self, step: int) -> None:
        """Forget what the actions from `step` on scored."""
        self.items = [item for item in self.items if item[0] < step]  # the start's, -1, stay
        self.rounds = [summary for summary in self.rounds if summary["step"] < step]

    def to_json(self) -> list[list[Any]]:
        return [[round_number, seat, points, why] for _, round_number, seat, points, why in self.items]


def scorebook(rules: Rules, game: Game, record: Record) -> Scorebook:
    """A record's scorebook, from the engine's replay of its actions."""
    state = rules.new_state(game, len(record.seats), record.options or None)
    book = Scorebook.starting(state)
    for step, action in enumerate(record.actions):
        seat = state.current_player()
        book.apply(state, action, step, third_person(state.action_to_string(action)).strip(" :") if seat >= 0 else "chance")
    return book


class Table:
    def __init__(self, game: Game, rules: Rules, seats: list[SeatSpec], seed: int, records: Path | None,
                 options: dict | None = None, pause: float = 0.6, timed: bool = True):
        self.game, self.rules, self.seats, self.records = game, rules, seats, records
        self.options = dict(options or {})
        self.pause = pause  # seconds the page waits before asking a bot to move
        # a race (A Word to the Wise): a human's word is timed by how long they really took, the bots'
        # by the engine's speed model (an engine offers it by State.time_taken(seconds))
        self.timed = timed
        self.clock = time.monotonic
        self.thinking_since: float | None = None
        self.searched: dict[int, float] = {}  # seat -> seconds its last choice took
        self.bots = [bot(s, rules) for s in seats]
        self.advisor = rules.heuristic_player(1.0)
        self.games = 0
        self.saved: Path | None = None
        self.new_game(seed)

    # -- the game ----------------------------------------------------------------------
    def new_game(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.state = self.rules.new_state(self.game, len(self.seats), self.options or None)
        self.record = Record(self.game.id, seed, [s.label for s in self.seats], options=self.options)
        self.log: list[Entry] = []
        self.book = Scorebook.starting(self.state)
        self.viewer = self.humans[0] if self.humans else 0
        self.games += 1
        self.saved = None
        self.searched = {}
        self._moves_cache: tuple[int, list] | None = None
        self._settle()

    @property
    def humans(self) -> list[int]:
        return [seat for seat, spec in enumerate(self.seats) if spec.kind == HUMAN]

    @property
    def step(self) -> int:
        return len(self.record.actions)

    def over(self) -> bool:
        return self.state.current_player() == TERMINAL or self.state.turns >= self.rules.turn_cap

    def to_move(self) -> int | None:
        seat = self.state.current_player()
        return None if seat < 0 or self.over() else seat

    def legal(self) -> list:
        if self._moves_cache is None or self._moves_cache[0] != self.step:
            self._moves_cache = (self.step, list(self.state.legal_actions()))
        return self._moves_cache[1]

    def _apply(self, action: Any, seat: int | None) -> None:
        if seat is not None:
            self.log.append(log_entry(self.state, action, seat, self.step))
        why = self.log[-1].text.strip(" :") if seat is not None else "chance"
        self.book.apply(self.state, action, self.step, why)
        self.record.actions.append(action)
        if seat is not None:
            told(self.log[-1], self.state, action)
        reveal(self.log, self.state, self.step)

    def _settle(self) -> None:
        """Play chance events until a seat must decide or the game ends."""
        while not self.over() and self.state.current_player() == CHANCE:
            action = self._timed_outcome()
            if action is None:
                action = draw_chance(self.state.chance_outcomes(), self.rng)
            self._apply(action, None)
        if self.over():
            self._finish()
        else:
            seat = self.state.current_player()
            if self.seats[seat].kind in PEOPLE:
                self.viewer = seat if self.seats[seat].kind == HUMAN else self.viewer
                self.thinking_since = self.clock()

    def _timed_outcome(self):
        """A human's real search time as the engine's chance outcome, in a timed race; else None."""
        timing = getattr(self.state, "time_taken", None)
        seat = self.state.chance_seat() if timing and hasattr(self.state, "chance_seat") else None
        if not self.timed or timing is None or seat is None or seat not in self.searched:
            return None
        return timing(self.searched.pop(seat))

    def _finish(self) -> None:
        if self.record.scores is not None:
            return
        self.record.scores = list(self.state.returns())
        if self.records is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.saved = save(self.record, self.records / self.game.id, f"{self.game.id}-{stamp}-seed{self.seed}-{self.games}")

    def play(self, seat: int, action: Any) -> None:
        """A human's move (IllegalAction if it is not theirs to make or not legal)."""
        if self.to_move() != seat or self.seats[seat].kind not in PEOPLE:
            raise IllegalAction(f"it is not seat {seat + 1}'s move")
        if action not in self.state.legal_actions():
            raise IllegalAction(f"not a legal move: {action!r}")
        if self.thinking_since is not None:
            self.searched[seat] = self.clock() - self.thinking_since
        advice = self.advisor.act(self.state, seat, advisor_rng(self.seed, self.step))
        self.record.decisions.append(Decision(self.step, seat, self.state.action_to_string(action),
                                              self.state.action_to_string(advice)))
        self._apply(action, seat)
        self._settle()

    def bot_step(self) -> bool:
        """One bot move (and the chance events after it); False when a bot is not to move."""
        seat = self.to_move()
        if seat is None or self.bots[seat] is None:
            return False
        action = self.bots[seat].act(self.state, seat, self.rng)
        self._apply(action, seat)
        self._settle()
        return True

    def last_mover(self) -> int | None:
        """The seat of the last person's move, which undo takes back."""
        return self.record.decisions[-1].seat if self.record.decisions else None

    def can_undo(self) -> bool:
        return bool(self.record.decisions) and self.record.scores is None

    def undo(self) -> None:
        """Back to just before the human's last move (the bots' moves since are undone too)."""
        if not self.can_undo():
            raise IllegalAction("nothing to undo")
        last = self.record.decisions.pop()
        actions = self.record.actions[:last.step]
        self.state = replay(self.rules, self.game, len(self.seats), actions, self.options)
        self.record.actions = actions
        self.log = [entry for entry in self.log if entry.step < last.step]
        self.book.undo(last.step)
        for entry in self.log:
            if entry.revealed is not None and entry.revealed >= last.step:
                entry.revealed = entry.shown = None
        self.log.append(Entry(last.step, last.seat, " took back its last move"))
        self.viewer = last.seat
        self.searched = {}
        self.thinking_since = self.clock()

    # -- what the page shows -------------------------------------------------------------
    def offered(self) -> list[tuple[int, Any]]:
        """The legal moves the page lists, with their indices: in a game where finding the word is
        the play (Rules.words_typed) no move a word stands for: the person types it."""
        legal = self.legal()
        if not self.rules.words_typed:
            return list(enumerate(legal))
        return [(i, a) for i, a in enumerate(legal) if self.state.action_word(a) is None]

    def takes_word(self) -> bool:
        """Does a move here take a typed word (State.takes_word: in a race, whether or not the hand
        makes one, which is for the person to find)?"""
        return self.state.takes_word()

    def move_json(self, index: int, action: Any) -> dict[str, Any]:
        return {"i": index, "text": self.state.action_to_string(action),
                "cards": [c.to_json() for c in self.state.action_cards(action)]}

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """What the page of `viewer` (by default the seat on screen) may show: its observation, its
        moves when it is to move, the log as it may see it."""
        viewer = self.viewer if viewer is None else viewer
        seat = self.to_move()
        person = seat is not None and self.seats[seat].kind in PEOPLE
        mine = person and seat == viewer
        moves, more, word = [], False, False
        if mine:
            offered = self.offered()
            more = len(offered) > MOVES_SHOWN
            moves = [self.move_json(i, a) for i, a in offered[:MOVES_SHOWN]]
            word = self.takes_word()
        over = None
        if self.over():
            scores = self.state.returns()
            best = max(scores)
            decisions = self.record.decisions
            over = {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == best],
                    "stalled": self.state.current_player() != TERMINAL,
                    "agreed": sum(d.agrees for d in decisions), "decisions": len(decisions),
                    "differences": [{"seat": d.seat, "chosen": d.chosen, "heuristic": d.heuristic}
                                    for d in decisions if not d.agrees][-30:],
                    "record": self.saved.name if self.saved else None, "items": self.book.to_json()}
        labels = [spec.label for spec in self.seats]
        return {"game": self.game.name, "step": self.step, "games": self.games, "seed": self.seed,
                "seats": [{"seat": s, "kind": spec.kind, "label": spec.label} for s, spec in enumerate(self.seats)],
                "viewer": viewer, "to_move": seat, "human_turn": mine, "waiting": person and not mine,
                "observation": self.state.observation(viewer).to_json(),
                "moves": moves, "more_moves": more, "takes_word": word, "undo": self.can_undo(),
                "log": [entry.seen_by(viewer, labels) for entry in self.log[-LOG_SHOWN:]],
                "log_start": max(1, len(self.log) - LOG_SHOWN + 1),
                "rounds": [{k: v for k, v in r.items() if k != "step"} for r in self.book.rounds],
                "over": over, "pause": self.pause, "race": self.timed and hasattr(self.state, "time_taken")}

    def replay_view(self, move: int, record: Record | None = None) -> dict[str, Any]:
        """The table after `move` player moves of a record (this game's by default) and the chance
        events after them, seen by the record's first human, with the move just made."""
        record = record or self.record
        state = self.rules.new_state(self.game, len(record.seats), record.options or None)
        humans = [s for s, label in enumerate(record.seats) if label in PEOPLE] or [0]
        made, moves = 0, sum(1 for _ in _player_moves(self.rules, self.game, record))
        move = max(0, min(move, moves))
        entries: list[Entry] = []
        for step, action in enumerate(record.actions):
            seat = state.current_player()
            if seat >= 0:
                if made == move:
                    break
                entries.append(log_entry(state, action, seat, step))
                made += 1
            state.apply(action)
            if seat >= 0:
                told(entries[-1], state, action)
            reveal(entries, state, step)
        last = entries[-1].seen_by(humans[0], record.seats) if entries else None
        return {"step": move, "steps": moves, "viewer": humans[0], "last": last,
                "observation": state.observation(humans[0]).to_json()}


def _player_moves(rules: Rules, game: Game, record: Record):
    """The indices of a record's actions that seats chose (the rest are chance)."""
    state = rules.new_state(game, len(record.seats), record.options or None)
    for index, action in enumerate(record.actions):
        if state.current_player() >= 0:
            yield index
        state.apply(action)
