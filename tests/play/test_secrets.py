"""Nothing secret reaches the browser: every page and JSON answer of `spellpress play`, through whole
games of every shipped game over HTTP, holds only what the viewing seat's observation shows.

At every answer the table's state is re-dealt for the viewer (what it cannot see: other hands, the
deck) and the table's view of the re-dealt state must be the answer (the log aside: it is checked
on its own). In a race (A Word to the Wise, Un mot au sage) no answer during a person's choice holds
a word the hand can make, and no answer holds a bot's word before the engine reveals it.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from spellpress.play.table import HUMAN, LOG_SHOWN
from spellpress.rules.word_to_the_wise.state import CHOOSE, RECHOOSE, TIEBREAK, TIME
from tests.build.test_all_games import SHIPPED
from tests.play.test_table import app_client, headers
from tests.rules.test_observation import determinize

RACES = ("word-to-the-wise", "un-mot-au-sage")
ROUNDS = 20  # rounds of each race watched, over as many games as it takes


def redealt_view(table, viewer: int, rng: random.Random) -> dict:
    real = shown = table.state
    if table.over() and hasattr(real, "pending"):  # A Word to the Wise keeps its last targets, placed
        shown = real.clone()
        shown.pending = [None] * real.players
    table.state, table._moves_cache = determinize(table.rules, shown, viewer, rng), None
    try:
        return table.view(viewer)
    finally:
        table.state, table._moves_cache = real, None


def tokens(text: str) -> set[str]:
    """The words written in capitals (as the table writes a word), standing alone."""
    return set(re.findall(r"(?<![\w-])[A-ZÀ-Ÿ]{2,}(?![\w-])", text))


class Secrets:
    """The words a viewer may never see: in a race, every bot's chosen word until the engine places
    it, and for good when it never does (the last player's, one another seat placed first); during
    the person's own choice, every word the hand makes."""

    def __init__(self):
        self.chosen: dict[tuple[int, int], set[str]] = {}  # (round, seat) -> words it chose
        self.unplaced: set[str] = set()
        self.rounds_scored = 0
        self.log_of_scored_rounds = 0  # the table's log entries written before the last round was scored

    def past_log(self, table) -> int:
        """How many of the table's log entries belong to rounds already scored (public for good)."""
        scored = len(getattr(table.state, "logs", ()))
        if scored > self.rounds_scored:
            self.rounds_scored, self.log_of_scored_rounds = scored, len(table.log)
        return self.log_of_scored_rounds

    def words(self, table, viewer: int) -> set[str]:
        state = table.state
        if table.game.id not in RACES:
            return set()
        for number, log in enumerate(state.logs, 1):  # a round scored: what was chosen and not placed
            for seat in range(state.players):
                words = self.chosen.pop((number, seat), set())
                self.unplaced |= words - {p.word.upper() for p in log.placed if p.seat == seat}
        words = set(self.unplaced)
        if state.phase in (CHOOSE, TIME, TIEBREAK, RECHOOSE):  # the engine's phases, not choices_hidden
            placed = {p.seat for p in state.placed}
            for seat, target in enumerate(state.pending):
                if seat != viewer and target is not None:
                    self.chosen.setdefault((state.turns + 1, seat), set()).add(target[0].upper())
                    if seat not in placed:
                        words.add(target[0].upper())
            if table.to_move() == viewer:
                words |= {a[1].upper() for a in table.legal() if state.action_word(a)}
        return words


def check(table, answer: dict, html: str, rng: random.Random, secrets: Secrets) -> None:
    viewer = answer["viewer"]
    for _ in range(2):
        seen = redealt_view(table, viewer, rng)
        assert {k: v for k, v in seen.items() if k != "log"} == {k: v for k, v in answer.items() if k not in ("log", "joined")}
    labels = [spec.label for spec in table.seats]
    assert answer["log"] == [entry.seen_by(viewer, labels) for entry in table.log[-LOG_SHOWN:]]
    if table.rules.words_typed:
        assert not any(table.state.action_word(table.legal()[m["i"]]) for m in answer["moves"])
    # public: what the observation shows (re-dealt above) and the summaries of past rounds (their scores)
    public = tokens(json.dumps(answer["observation"])) | tokens(json.dumps(answer["rounds"]))
    # and what the log showed in rounds already scored: a hand may make again a word it played then
    public |= tokens(json.dumps([entry.seen_by(viewer, labels) for entry in table.log[:secrets.past_log(table)]]))
    if answer["over"]:  # the end screen: what the heuristic would have played with the person's own hands
        public |= tokens(json.dumps(answer["over"].get("differences", [])))
    leaked = secrets.words(table, viewer) - public
    assert not leaked & tokens(json.dumps(answer) + html), leaked & tokens(json.dumps(answer) + html)


def play_over_http(game_id: str, seed: int, rng: random.Random, tmp_path) -> int:
    """A whole game: the person clicks a listed move or types a word (in its own letter order), the
    bots move through /api/step; every answer is checked. Returns the rounds played."""
    client, guard, table = app_client(tmp_path, game_id, seed=seed, players=3 if game_id in RACES else 2)
    html = client.get("/").text.replace(guard.token, "")
    answer = client.get("/api/state").json()
    secrets = Secrets()
    for _ in range(20_000):
        check(table, answer, html, rng, secrets)
        if answer["over"]:
            return table.state.turns
        if answer["human_turn"]:
            words = [a for a in table.legal() if table.state.action_word(a)]
            move = {"step": answer["step"], "games": answer["games"]}
            if words and rng.random() < 0.7:
                move["word"] = table.state.action_word(rng.choice(words))
            else:
                move["move"] = rng.choice(answer["moves"])["i"]
            response = client.post("/api/move", json=move, headers=headers(guard))
            if response.status_code == 422 and "choices" in response.json():  # one word, several builds
                assert not secrets.words(table, answer["viewer"]) & tokens(response.text)
                move["choice"] = response.json()["choices"][0]["i"]
                response = client.post("/api/move", json=move, headers=headers(guard))
        else:
            assert table.seats[answer["to_move"]].kind != HUMAN
            response = client.post("/api/step", json={"step": answer["step"], "games": answer["games"]},
                                   headers=headers(guard))
        assert response.status_code == 200, response.text
        answer = response.json()
    pytest.fail("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_no_answer_holds_what_the_seat_cannot_see(game_id, tmp_path):
    rng = random.Random(3)
    rounds, seed = 0, 1
    while True:
        rounds += play_over_http(game_id, seed, rng, tmp_path / str(seed))
        seed += 1
        if game_id not in RACES or rounds >= ROUNDS:
            break
    assert rounds >= (ROUNDS if game_id in RACES else 1)
