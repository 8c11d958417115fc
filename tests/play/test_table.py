"""The table behind `spellpress play` without a browser: records replay, undo, words, agreement,
the guard on every move, and the command's errors."""

from __future__ import annotations

import json
import random
import re

import pytest
from starlette.testclient import TestClient

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.play.agreement import agreement
from spellpress.play.app import create_app
from spellpress.play.records import load
from spellpress.play.table import SeatSpec, Table, replay, word_matches
from spellpress.rules.plugins import rules_for
from spellpress.rules.protocol import IllegalAction
from spellpress.serve.guard import TOKEN_HEADER, Guard
from spellpress.serve.preview import Preview
from spellpress.stats import wilson
from tests.conftest import ROOT
from tests.rules.test_example_engine import own_game  # noqa: F401 - the fixture

GAMES = ["word-rummy", "lost-words", "word-to-the-wise", "evocabulary", "spelled", "magic-spell"]


def loaded(game_id: str):
    game = load_game(ROOT / "cards" / game_id)
    return game, rules_for(game)


def play_out(table: Table, human, rng: random.Random, limit: int = 5000) -> None:
    """The human seat's moves from `human(table, legal, rng)`, the bots' their own, to the end."""
    for _ in range(limit):
        if table.over():
            return
        seat = table.to_move()
        if table.seats[seat].kind == "human":
            table.play(seat, human(table, table.legal(), rng))
        else:
            assert table.bot_step()
    pytest.fail("the game did not end")


def random_human(table, legal, rng):
    return rng.choice(legal)


def heuristic_human(table, legal, rng):
    """Plays exactly what the table's advisor would: agreement must then be total."""
    from spellpress.play.table import advisor_rng

    return table.advisor.act(table.state, table.to_move(), advisor_rng(table.seed, table.step))


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.slow
def test_every_game_is_recorded_and_its_record_replays_to_the_same_scores(game_id, tmp_path):
    game, rules = loaded(game_id)
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=9, records=tmp_path)
    play_out(table, random_human, random.Random(1))
    assert table.saved is not None and table.saved.parent == tmp_path / game_id
    record = load(table.saved)
    data = json.loads(table.saved.read_text())
    assert (data["game"], data["seed"], data["seats"]) == (game_id, 9, ["human", "heuristic"])
    assert record.actions == table.record.actions  # JSON lists come back as the engine's tuples
    state = replay(rules, game, 2, record.actions)
    assert state.is_terminal() and state.returns() == record.scores == table.state.returns()
    assert [d.step for d in record.decisions] == sorted(d.step for d in record.decisions)
    assert table.replay_view(0)["steps"] >= len(record.decisions)


@pytest.mark.slow
def test_the_replay_goes_move_by_move(tmp_path):
    game, rules = loaded("word-rummy")
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=4, records=tmp_path)
    play_out(table, random_human, random.Random(2))
    steps = table.replay_view(0)["steps"]
    assert steps == len(table.log)  # one replay step a move in the log
    first, second = table.replay_view(1), table.replay_view(2)
    assert first["last"] == table.log[0].seen_by(0, table.record.seats) and second["last"] != first["last"]
    assert table.replay_view(steps)["observation"]["scores"] == table.state.returns()


def test_undo_takes_back_the_humans_last_move_and_the_bots_since(tmp_path):
    game, rules = loaded("word-rummy")
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=3, records=None)
    with pytest.raises(IllegalAction):
        table.undo()
    rng = random.Random(5)
    for _ in range(6):
        while table.to_move() != 0:
            table.bot_step()
        table.play(0, rng.choice(table.legal()))
    while table.to_move() != 0:
        table.bot_step()
    seen = table.state.observation(0).to_json()
    step = table.step
    table.play(0, table.legal()[0])
    while table.to_move() != 0:
        table.bot_step()
    assert table.step > step
    table.undo()
    assert table.step == step and table.state.observation(0).to_json() == seen
    assert table.state.legal_actions() == table.legal()


def test_a_typed_word_is_matched_to_the_legal_moves():
    game, rules = loaded("word-to-the-wise")
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=2, records=None)
    while table.to_move() != 0:
        table.bot_step()
    legal = table.legal()
    words = [a for a in legal if a[0] == "word"]
    assert words
    assert word_matches(table.state, legal, words[0][1].upper()) == [words[0]]
    assert word_matches(table.state, legal, "qzxqv") == []
    assert word_matches(table.state, legal, "  ") == []


def test_agreement_counts_the_recorded_human_moves_the_heuristic_would_make(tmp_path):
    game, rules = loaded("word-rummy")
    for seed, human in ((1, heuristic_human), (2, random_human)):
        table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=seed, records=tmp_path)
        play_out(table, human, random.Random(seed))
    copy_cat, randomly = sorted((tmp_path / "word-rummy").glob("*.json"), key=lambda p: load(p).seed)
    same, total = agreement(rules, game, [copy_cat], rules.heuristic_player(1.0))
    assert total == len(load(copy_cat).decisions) > 10 and same == total
    assert all(d.agrees for d in load(copy_cat).decisions)
    same, total = agreement(rules, game, [randomly], rules.heuristic_player(1.0))
    assert same == sum(d.agrees for d in load(randomly).decisions) < total
    low, high = wilson(same, total)
    assert low < same / total < high


def app_client(tmp_path, game_id="word-rummy", seed=6, players=2):
    game, rules = loaded(game_id)
    table = Table(game, rules, [SeatSpec("human")] + [SeatSpec("heuristic")] * (players - 1), seed=seed, records=tmp_path)
    guard = Guard.for_address("127.0.0.1", 8766)
    preview = Preview(ROOT / "cards" / game_id)
    preview.refresh()
    client = TestClient(create_app(table, preview, guard), base_url="http://127.0.0.1:8766")
    return client, guard, table


def test_a_move_needs_the_pages_origin_and_the_token(tmp_path):
    client, guard, table = app_client(tmp_path)
    page = client.get("/")
    assert page.status_code == 200 and guard.token in page.text
    view = client.get("/api/state").json()
    assert view["human_turn"] and view["moves"]
    move = {"move": 0, "step": view["step"], "games": view["games"]}
    own = {"Origin": "http://127.0.0.1:8766", "Content-Type": "application/json"}
    assert client.post("/api/move", json=move, headers={"Origin": "http://127.0.0.1:8766"}).status_code == 403
    assert client.post("/api/move", json=move, headers={**own, TOKEN_HEADER: "guess"}).status_code == 403
    evil = {"Origin": "http://evil.example", TOKEN_HEADER: guard.token}
    assert client.post("/api/move", json=move, headers=evil).status_code == 403
    assert client.get("/api/state", headers={"Host": "evil.example:8766"}).status_code == 400
    assert table.step == view["step"]  # nothing moved
    answer = client.post("/api/move", json=move, headers={**own, TOKEN_HEADER: guard.token})
    assert answer.status_code == 200 and answer.json()["step"] > view["step"]
    again = client.post("/api/move", json=move, headers={**own, TOKEN_HEADER: guard.token})  # a double click
    assert again.status_code == 409 and again.json()["view"]["step"] == answer.json()["step"]
    face = client.get("/face/letters/a.png")
    assert face.status_code == 200 and face.content.startswith(b"\x89PNG")
    assert client.get("/face/letters/..%2F..%2Fgame.png").status_code == 404


def test_a_word_that_is_no_move_is_refused_clearly(tmp_path):
    client, guard, table = app_client(tmp_path, "word-to-the-wise")
    while table.to_move() != 0:
        table.bot_step()
    view = client.get("/api/state").json()
    headers = {"Origin": "http://127.0.0.1:8766", "Content-Type": "application/json", TOKEN_HEADER: guard.token}
    answer = client.post("/api/move", json={"word": "qzxqv", "step": view["step"], "games": view["games"]}, headers=headers)
    assert answer.status_code == 422 and answer.json()["error"] == "not a legal word here"


@pytest.mark.parametrize("seats, message", [
    ("human,wizard", "unknown seat 'wizard'"),
    ("human,heuristic,heuristic,heuristic,heuristic,heuristic", "6 seats, but the game is for 2 to 5 players"),
])
def test_bad_seats_are_a_clear_error(seats, message, capsys):
    assert main(["play", "word-rummy", "--seats", seats, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "--seats" in err and message in err and "Traceback" not in err


def test_an_ismcts_seat_stops_searching_at_its_time_limit(monkeypatch):
    from spellpress.play.table import bot
    from spellpress.simulate.ismcts import ISMCTSPlayer

    game, rules = loaded("lost-words")
    table = Table(game, rules, [SeatSpec("heuristic"), SeatSpec("heuristic")], seed=1, records=None)
    while len(table.legal()) < 2:
        table.bot_step()
    playouts = []
    original = ISMCTSPlayer._playout
    monkeypatch.setattr(ISMCTSPlayer, "_playout", lambda self, *a: playouts.append(1) or original(self, *a))
    bot(SeatSpec("ismcts", 40, 0.0), rules).act(table.state, table.to_move(), random.Random(1))
    assert len(playouts) == 1  # the time was up after the first playout
    bot(SeatSpec("ismcts", 40, None), rules).act(table.state, table.to_move(), random.Random(1))
    assert 1 < len(playouts) - 1 <= 40  # no limit: up to the whole budget


@pytest.mark.parametrize("seconds", [0.01, 4.0, 1000.0])
def test_a_word_to_the_wise_is_a_race_against_the_clock(seconds):
    """The human's word is timed by how long they took (the model's nearest step), the bots' by the model."""
    import math

    game, rules = loaded("word-to-the-wise")
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=2, records=None)
    now = [0.0]
    table.clock = lambda: now[0]
    for _ in range(200):
        while table.to_move() is not None and table.seats[table.to_move()].kind != "human":
            table.bot_step()
        words = [a for a in table.legal() if a[0] == "word"]
        if words:
            break
        table.play(0, table.legal()[0])
    table.thinking_since = now[0]
    now[0] += seconds
    table.play(0, words[0])
    while table.to_move() is not None and table.seats[table.to_move()].kind != "human":
        table.bot_step()  # the bots choose after the human; then the search times, the race
    state, p = table.state, table.state.p
    assert state.phase == 6  # the race is run; the human decides on challenges next
    quantiles = state.defs.quantiles
    model = p.seconds(len(words[0][1]))
    nearest = min(range(len(quantiles)), key=lambda j: abs(math.log(model * quantiles[j]) - math.log(seconds)))
    assert state.times[0] == pytest.approx(model * quantiles[nearest])
    assert nearest == {0.01: 0, 1000.0: len(quantiles) - 1}.get(seconds, nearest)
    if seconds == 4.0:
        assert abs(math.log(state.times[0] / 4.0)) < 0.1  # within the model's range: about the time taken


@pytest.mark.slow
def test_english_and_french_editions_in_one_process_keep_their_own_words():
    """A Word to the Wise and Un mot au sage share an engine: each keeps its own dictionary."""
    english, english_rules = loaded("word-to-the-wise")
    french, french_rules = loaded("un-mot-au-sage")
    english_words = english_rules.new_state(english, 2).defs.words
    french_words = french_rules.new_state(french, 2).defs.words
    assert "apaisa" in french_words and "apaisa" not in english_words
    assert "kitchen" in english_words and "kitchen" not in french_words


def test_the_agreement_command_reports_a_share_with_its_interval(tmp_path, capsys):
    game, rules = loaded("word-rummy")
    records = tmp_path / "play"
    assert main(["play", "word-rummy", "--agreement", "--out", str(tmp_path)]) == 0
    assert "no recorded games of word-rummy yet" in capsys.readouterr().out
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=1, records=records)
    play_out(table, heuristic_human, random.Random(1))
    moves = len(table.record.decisions)
    assert main(["play", "word-rummy", "--agreement", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert ("the heuristic player would have chosen the same move 100% of the time "
            f"({moves} of {moves} human moves; 95% interval") in out
    assert re.search(r"the random player would have chosen the same move \d+% of the time", out)


def test_a_designers_own_game_folder_plays_through_its_engine(own_game, tmp_path):  # noqa: F811 - the fixture
    """The new --rules starter in a game folder: its table, moves by card, record and replay."""
    game = load_game(own_game)
    rules = rules_for(game)
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic"), SeatSpec("random")], seed=3, records=tmp_path)
    view = table.view()
    hand = next(z for z in view["observation"]["zones"] if z["name"] == "hand:0")
    assert len(hand["cards"]) == 3 and all(m["cards"][0] in hand["cards"] for m in view["moves"])
    play_out(table, random_human, random.Random(3))
    record = load(table.saved)
    assert replay(rules, game, 3, record.actions).returns() == record.scores


def test_hot_seat_shows_each_person_their_own_hand_only():
    game, rules = loaded("lost-words")
    table = Table(game, rules, [SeatSpec("human"), SeatSpec("human")], seed=8, records=None)
    rng = random.Random(8)
    viewers = set()
    for _ in range(60):
        view = table.view()
        seat = view["to_move"]
        assert view["viewer"] == seat and view["human_turn"]
        hands = {z["name"]: z for z in view["observation"]["zones"] if z["kind"] == "hand"}
        assert hands[f"hand:{1 - seat}"]["cards"] == [] and hands[f"hand:{1 - seat}"]["hidden"] > 0
        viewers.add(seat)
        table.play(seat, rng.choice(table.legal()))
    assert viewers == {0, 1}


def test_a_record_that_is_not_one_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["play", "word-rummy", "--replay", str(bad), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "not a Spellpress game record" in err and "Traceback" not in err


def headers(guard):
    return {"Origin": "http://127.0.0.1:8766", "Content-Type": "application/json", TOKEN_HEADER: guard.token}


@pytest.mark.slow
def test_spelled_takes_a_typed_word_whatever_the_order_of_its_cards(tmp_path):
    """COKE typed in its own letter order plays the C, O, K, E cards however the hand holds them."""
    from itertools import permutations

    client, guard, table = app_client(tmp_path, "spelled")
    while not (table.to_move() == 0 and table.state.phase == "main"):
        table.bot_step() if table.to_move() != 0 else table.play(0, table.legal()[0])
    state = table.state
    uids = [next(u for u, d in enumerate(state.defs) if d.letter.lower() == letter) for letter in "coke"]
    assert state.action_word(("spell", tuple(uids)), "coke") == "coke"
    for order in permutations(uids):
        state.hand[0] = list(order)
        table._moves_cache = None
        legal = table.legal()
        found = word_matches(state, legal, "COKE ")
        assert len(found) == 1 and sorted(found[0][1]) == sorted(uids)
        assert state.action_to_string(found[0]) == "spell COKE"
        assert word_matches(state, legal, "eock") == []
    view = client.get("/api/state").json()
    assert view["takes_word"]
    answer = client.post("/api/move", json={"word": "coke", "step": view["step"], "games": view["games"]},
                         headers=headers(guard))
    assert answer.status_code == 200 and "seat 1 (human) spelled COKE" in answer.json()["log"]


def test_a_double_click_on_undo_undoes_once(tmp_path):
    client, guard, table = app_client(tmp_path)
    for _ in range(3):
        view = client.get("/api/state").json()
        client.post("/api/move", json={"move": view["moves"][0]["i"], "step": view["step"], "games": view["games"]},
                    headers=headers(guard))
        while table.to_move() != 0:
            table.bot_step()
    view = client.get("/api/state").json()
    undo = {"step": view["step"], "games": view["games"]}
    first = client.post("/api/undo", json=undo, headers=headers(guard))
    second = client.post("/api/undo", json=undo, headers=headers(guard))  # the same click, twice
    assert first.status_code == 200 and second.status_code == 409
    assert len(table.record.decisions) == 2 and second.json()["view"]["step"] == first.json()["step"]


def test_the_log_tells_moves_in_the_third_person_and_a_failed_heron_aloud():
    from spellpress.play.table import third_person

    assert third_person("exchange your Fern for the spare Heron") == " exchanged their Fern for the spare Heron"
    assert third_person("discard Q and go out") == " discarded Q and went out"
    assert third_person("publish (the leader): 5") == ": publish (the leader): 5"
    game, rules = loaded("lost-words")
    for seed in range(1, 40):
        table = Table(game, rules, [SeatSpec("heuristic"), SeatSpec("heuristic")], seed=seed, records=None)
        while not table.over():
            state, seat = table.state, table.to_move()
            held = {state.defs.word[c] for other in range(state.players) if other != seat for c in state.hands[other]}
            asks = [a for a in table.legal() if a[0] == "play" and len(a) == 3
                    and state.defs.effects[a[1]].kind == "ask-everyone" and a[2] not in held]
            if asks:
                table._apply(asks[0], seat)
                word = asks[0][2]
                assert table.log[-1].seen_by(None, ["heuristic"] * 2) == (
                    f"seat {seat + 1} (heuristic) played {state.defs.names.get(asks[0][1])}: {word.capitalize()}"
                    f" · nobody had {word.upper()}: seat {seat + 1} misses its next turn")
                return
            table.bot_step()
    pytest.fail("no seat could ask for a word nobody held")


@pytest.mark.slow
def test_remote_seats_see_and_play_only_their_own_seat(tmp_path, capsys):
    """Two people by their links: each sees its own hand only; another seat's secret, a wrong one or
    none is refused; the game plays to the end, and the record names the seats as people."""
    from spellpress.play.seats import SEAT_HEADER, seat_keys

    game, rules = loaded("word-rummy")
    table = Table(game, rules, [SeatSpec("remote"), SeatSpec("remote")], seed=6, records=tmp_path)
    keys = seat_keys(table)
    key = {seat: k for k, seat in keys.items()}
    guard = Guard.for_address("127.0.0.1", 8766)
    preview = Preview(ROOT / "cards" / "word-rummy")
    preview.refresh()
    client = TestClient(create_app(table, preview, guard, keys=keys), base_url="http://127.0.0.1:8766")
    assert client.get(f"/seat/{key[1]}").status_code == 200 and client.get("/seat/guess").status_code == 403
    assert guard.token in client.get(f"/seat/{key[1]}").text and key[1] in client.get(f"/seat/{key[1]}").text
    assert key[0] not in client.get("/").text and key[0] not in client.get(f"/seat/{key[1]}").text
    assert client.get("/api/state").status_code == 403  # nobody plays at the host's screen
    assert client.get("/api/state", headers={SEAT_HEADER: "guess"}).status_code == 403
    rng = random.Random(4)
    for _ in range(3000):
        views = [client.get("/api/state", headers={SEAT_HEADER: key[seat]}).json() for seat in (0, 1)]
        for seat, view in enumerate(views):
            hands = {z["name"]: z for z in view["observation"]["zones"] if z["kind"] == "hand"}
            assert view["viewer"] == seat and not hands[f"hand:{1 - seat}"]["cards"]
        if views[0]["over"]:
            break
        mover = views[0]["to_move"]
        view = views[mover]
        assert view["human_turn"] and views[1 - mover]["waiting"] and not views[1 - mover]["moves"]
        move = {"move": rng.choice(view["moves"])["i"], "step": view["step"], "games": view["games"]}
        outs = [a for a in table.legal() if table.state.action_word(a)]
        if outs:  # the person goes out, typing the words of the hand
            move = {"word": table.state.action_word(outs[0]), "choice": table.legal().index(outs[0]),
                    "step": view["step"], "games": view["games"]}
        for wrong in ({}, {SEAT_HEADER: key[1 - mover]}):
            assert client.post("/api/move", json=move, headers={**headers(guard), **wrong}).status_code == 403
        answer = client.post("/api/move", json=move, headers={**headers(guard), SEAT_HEADER: key[mover]})
        assert answer.status_code == 200 and answer.json()["viewer"] == mover
    else:
        pytest.fail("the game did not end")
    record = load(table.saved)
    assert record.seats == ["remote", "remote"] and {d.seat for d in record.decisions} == {0, 1}
    assert "seat 1 (remote) joined" in capsys.readouterr().out


def test_word_rummy_goes_out_by_the_words_typed_never_by_a_listed_move():
    game, rules = loaded("word-rummy")
    for seed in range(1, 30):
        table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=seed, records=None)
        while not table.over():
            if table.to_move() != 0:
                table.bot_step()
                continue
            view, state = table.view(), table.state
            assert not any(m["text"].endswith("go out") for m in view["moves"])
            assert view["takes_word"] == (state.phase.name == "DISCARD")  # whether or not the hand goes out
            outs = [a for a in table.legal() if a[0] == "discard" and a[2]]
            if not outs:
                table.play(0, next(a for a in table.legal() if not (a[0] == "discard" and a[2])))
                continue
            words = state.action_word(outs[0]).split()
            typed = " ".join(reversed(words)).upper()  # in any order of the words
            found = word_matches(state, table.legal(), typed)  # a wild may leave another card out instead
            assert outs[0] in found and set(found) <= set(outs)
            if len(words) > 1:
                assert word_matches(state, table.legal(), " ".join(words[1:])) == []  # not every card
            return
    pytest.fail("the human never could go out")


@pytest.mark.slow
def test_the_stats_command_sets_people_against_the_bots(tmp_path, capsys):
    game, rules = loaded("word-rummy")
    assert main(["play", "word-rummy", "--stats", "--out", str(tmp_path)]) == 0
    assert "no recorded games of word-rummy yet" in capsys.readouterr().out
    for seed in (1, 2):
        table = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=seed, records=tmp_path / "play")
        play_out(table, random_human, random.Random(seed))
    assert main(["play", "word-rummy", "--stats", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    from spellpress.play.stats import gather

    sides, lengths = gather(rules, game, sorted((tmp_path / "play" / "word-rummy").glob("*.json")))
    assert len(sides["people"].points) == len(sides["bots"].points) == len(lengths) == 2
    assert sides["bots"].went_out > 0 and sides["bots"].words  # the heuristic goes out, with words
    assert "Word Rummy: 2 recorded game(s)" in out and re.search(r"games won\s+\d+% \(\d+-\d+%, \d of 2\)", out)
    assert re.search(r"points a game\s+-?\d+\.\d \(-?\d+\.\d to -?\d+\.\d, n=2\)", out)
