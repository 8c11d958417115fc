"""`spellpress play` in a real headless Chromium: whole games as the human against the bots.

The test plays through the page as a person would (click a card, click a move, type a word), to
the end screen; then it reads the game's record and replays its actions with the engine: the
scores on the end screen must be the engine's. A screenshot of each table is written to
$SPELLPRESS_SHOTS (or the test's folder) to be looked at.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.play.records import load
from spellpress.play.table import replay, scorebook
from spellpress.rules.plugins import rules_for
from tests.build.test_all_games import SHIPPED
from tests.conftest import ROOT

CHROMIUM = Path(os.environ.get("SPELLPRESS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
pytestmark = [pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"), reason="Chromium not installed"),
              pytest.mark.slow]  # whole games in Chromium: tens of seconds each
MAX_CLICKS = 1500


class Server:
    def __init__(self, tmp_path: Path, game: str, *args: str):
        self.out = tmp_path / "out"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "spellpress", "play", str(ROOT / "cards" / game), "--port", "0",
             "--out", str(self.out), "--pause", "0", *args],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, line
        self.url = match.group(0)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for the module: starting and closing it cost about 3 s a test."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        started = launch(playwright)
        yield started
        started.close()


@pytest.fixture
def browser(chromium):
    """The module's Chromium; each test's pages live in their own contexts, all closed after the test."""
    yield chromium
    for context in chromium.contexts:
        context.close()


def open_page(browser, server: Server):
    """The server's table in a new page, once its hand's faces are drawn."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server.url)
    page.wait_for_selector(".fan .card")
    faces_drawn(page)
    return page


@pytest.fixture
def table(browser, tmp_path):
    """open(game, *args): a server playing the game and a page on it, both closed after the test."""
    servers = []

    def open_table(game: str, *args: str):
        server = Server(tmp_path, game, *args)
        servers.append(server)
        return server, open_page(browser, server)

    yield open_table
    for server in servers:
        server.stop()


def play_to_the_end(page, choose, round_shot: Path | None = None) -> None:
    for _ in range(MAX_CLICKS):
        if wait_for_turn(page) == "over":
            return
        if page.is_visible("#round"):  # a round's summary: read, then continue
            check_round(page)
            if round_shot is not None and not round_shot.exists():
                page.screenshot(path=str(round_shot))
            page.click("#round-close")
        choose(page)
    pytest.fail("the game did not end")


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SPELLPRESS_SHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for_turn(page) -> str:
    """'human' when the human has a move, 'over' at the end screen."""
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || (view.human_turn && document.getElementById('moves').children.length)",
        timeout=30_000)
    return "over" if page.is_visible("#end") else "human"


def click_something(page) -> None:
    """A card in the hand if one is playable (then its first move if it has several), else the first move."""
    step = page.evaluate("() => view.step")
    playable = page.query_selector(".fan .card.playable")
    if playable is not None:
        playable.click()
        page.wait_for_function(f"() => view.step !== {step} || document.querySelector('#moves .hint')?.textContent"
                               " === 'Moves with that card:'")
        if page.evaluate(f"() => view.step === {step}"):  # several moves use that card: the first
            page.click("#moves .move[data-move]")
    else:
        page.click("#moves .move[data-move]")
    page.wait_for_function(f"() => view.step !== {step} || !document.getElementById('end').hidden", timeout=30_000)


def faces_drawn(page) -> None:
    page.wait_for_function("() => [...document.querySelectorAll('img.card')].every(i => i.complete && i.naturalWidth > 0)",
                           timeout=60_000)


def check_round(page) -> None:
    """A round's summary: each seat's items add up to its round total."""
    for row in page.query_selector_all("#round .round-scores tr:has(.items)"):
        items = [float(li.get_attribute("data-points")) for li in row.query_selector_all(".items li")]
        assert sum(items) == float(row.query_selector(".total").text_content())


def finish(page, server: Server, game_id: str, tmp_path: Path, name: str) -> None:
    """The end screen's scores are the engine's replay of the record, and so is every point it itemizes."""
    faces_drawn(page)
    page.screenshot(path=str(shots(tmp_path) / f"{name}-end.png"))
    shown = [float(cell) for cell in page.eval_on_selector_all(".scores tr td:last-child", "tds => tds.map(t => t.textContent)")]
    records = sorted((server.out / "play" / game_id).glob("*.json"))
    assert len(records) == 1
    record = load(records[0])
    game = load_game(ROOT / "cards" / game_id)
    rules = rules_for(game)
    state = replay(rules, game, len(record.seats), record.actions, record.options)
    assert state.is_terminal()
    assert state.returns() == record.scores == shown
    assert record.seats[0] == "human" and record.decisions
    assert all(d.seat == 0 for d in record.decisions)
    book = scorebook(rules, game, record).to_json()
    for seat, score in enumerate(state.returns()):
        mine = [(why, p) for _, s, p, why in book if s == seat]
        listed = page.eval_on_selector_all(f".where .items[data-seat='{seat}'] li", "lis => lis.map(l => l.textContent)")
        assert len(listed) == len(mine) and all(why in text for text, (why, _) in zip(listed, mine, strict=False))
        points = page.eval_on_selector_all(f".where .items[data-seat='{seat}'] li", "lis => lis.map(l => +l.dataset.points)")
        assert points == [p for _, s, p, _ in book if s == seat] and sum(points) == score


def words_on_the_page(page, game_id: str) -> list[str]:
    """The words a person could find on the page: the hand's cards and the dice it shows, read with the
    game's word list (the page lists none of them); the words already placed are out."""
    observation = page.evaluate("() => view.observation")
    defs = rules_for(load_game(ROOT / "cards" / game_id)).new_state(load_game(ROOT / "cards" / game_id), 2).defs
    letter_of = {card: letter for letter, card in defs.card_ids.items()}
    viewer = observation["seat"]
    hand = next(z for z in observation["zones"] if z["name"] == f"hand:{viewer}")
    hand_key = "".join(sorted(letter_of[c["card"]] for c in hand["cards"]))
    dice = next((f.split(": ", 1)[1] for f in observation["facts"] if f.startswith("dice: ")), "")
    placed = {z["label"].split(": ")[-1].lower() for z in observation["zones"] if z["name"].startswith("word:")}
    return [w for _, _, w in defs.all_words(hand_key, tuple(d.lower() for d in dice.split())) if w not in placed]


def type_a_word(page, game_id: str) -> None:
    """Type the longest word found on the page, in its own letter order (any other move is clicked)."""
    assert not page.evaluate("() => view.moves.some(m => m.text.startsWith('play '))")  # no word is listed
    words = words_on_the_page(page, game_id) if page.is_visible("#word-form") else []
    if not words:
        click_something(page)
        return
    step = page.evaluate("() => view.step")
    page.fill("#word", max(words, key=len))
    page.click("#word-form button")
    page.wait_for_function(f"() => view.step !== {step} || !document.getElementById('end').hidden")


def type_words(page, game_id: str, round_shot: Path | None = None) -> None:
    """A word that is not one is refused with a message; then every word is typed."""
    wait_for_turn(page)
    page.wait_for_function("() => /your move · \\d+\\.\\d s$/.test(document.getElementById('status').textContent)")
    page.fill("#word", "qzxqv")
    page.click("#word-form button")
    page.wait_for_function("() => document.getElementById('word-message').textContent.includes('not a legal word here')")
    play_to_the_end(page, lambda page: type_a_word(page, game_id), round_shot)


def click_moves(page, game_id: str, round_shot: Path | None = None) -> None:
    play_to_the_end(page, click_something, round_shot)


# every game but Word Rummy (its own test, with undo) played whole: `spellpress play` arguments, how the human plays
WHOLE_GAMES = {"word-to-the-wise": (("--seed", "2", "--seats", "human,heuristic,heuristic"), type_words),
               "un-mot-au-sage": (("--seed", "4", "--seats", "human,heuristic"), type_words),
               "ein-wort-an-die-weisen": (("--seed", "2", "--seats", "human,heuristic"), type_words),
               "una-palabra-al-sabio": (("--seed", "2", "--seats", "human,heuristic"), type_words),
               "lost-words": (("--seed", "5", "--seats", "human,heuristic,heuristic"), click_moves),
               **{game_id: (("--seed", "4", "--seats", "human,heuristic"), click_moves)
                  for game_id in ("evocabulary", "spelled", "magic-spell")}}


def test_every_shipped_game_is_played_in_the_browser():
    assert {"word-rummy", *WHOLE_GAMES} == SHIPPED


@pytest.mark.parametrize("game_id", sorted(WHOLE_GAMES))
def test_a_whole_game_in_the_browser(game_id, table, tmp_path):
    """One game at a time (the machine is shared): the person plays it to the end screen."""
    arguments, play = WHOLE_GAMES[game_id]
    server, page = table(game_id, *arguments)
    page.screenshot(path=str(shots(tmp_path) / f"{game_id}-table.png"))
    play(page, game_id, shots(tmp_path) / f"{game_id}-round.png")
    finish(page, server, game_id, tmp_path, game_id)
    if game_id == "word-to-the-wise":
        decisions = load(next((server.out / "play" / game_id).glob("*.json"))).decisions
        assert sum(d.chosen.startswith("play ") for d in decisions) >= 3


def test_a_whole_game_of_word_rummy_against_a_bot(table, tmp_path):
    server, page = table("word-rummy", "--seed", "11", "--seats", "human,heuristic")
    assert page.eval_on_selector(".fan .card", "img => img.getBoundingClientRect().width") >= 120  # readable
    wait_for_turn(page)
    assert page.text_content("#status") == "Seat 1 (you): your move"
    page.screenshot(path=str(shots(tmp_path) / "word-rummy-table.png"))
    wait_for_turn(page)
    click_something(page)
    wait_for_turn(page)
    before = page.evaluate("() => [view.step, JSON.stringify(view.observation)]")
    click_something(page)
    wait_for_turn(page)
    page.click("#undo")  # take back the last move: the table is as it was before it
    page.wait_for_function(f"() => view.step === {before[0]}")
    assert page.evaluate("() => JSON.stringify(view.observation)") == before[1]
    play_to_the_end(page, click_something, shots(tmp_path) / "word-rummy-round.png")
    finish(page, server, "word-rummy", tmp_path, "word-rummy")


def test_a_saved_game_replays_move_by_move_in_the_page(table, tmp_path):
    from spellpress.play.table import SeatSpec, Table

    game = load_game(ROOT / "cards" / "lost-words")
    rules = rules_for(game)
    played = Table(game, rules, [SeatSpec("human"), SeatSpec("heuristic")], seed=12, records=tmp_path / "records")
    while not played.over():
        if played.to_move() == 0:
            played.play(0, played.legal()[-1])
        else:
            played.bot_step()
    server, page = table("lost-words", "--replay", str(played.saved))
    page.wait_for_function("() => document.getElementById('replay-step').textContent.startsWith('move 0 of ')")
    steps = int(page.text_content("#replay-step").split()[-1])
    assert steps == played.replay_view(0)["steps"]
    seen = []
    for move in range(1, 4):
        page.click("#forward")
        page.wait_for_function(f"() => document.getElementById('replay-step').textContent.startsWith('move {move} of ')")
        seen.append(page.evaluate("() => JSON.stringify(view.observation)"))
        assert page.text_content("#log-lines") == "last move: " + played.replay_view(move)["last"]
    assert len(set(seen)) == 3  # each move changes the table
    page.click("#back")
    page.wait_for_function("() => document.getElementById('replay-step').textContent.startsWith('move 2 of ')")
    assert page.evaluate("() => JSON.stringify(view.observation)") == seen[1]


def go_out_or_click(page) -> None:
    """Go out when the hand can, typing its words as a person who found them would (the page lists no
    going out), else click something."""
    words = page.is_visible("#word-form") and words_to_go_out(page)
    if not words:
        click_something(page)
        return
    step = page.evaluate("() => { document.getElementById('word-message').textContent = ''; return view.step; }")
    page.fill("#word", words)
    page.click("#word-form button")
    page.wait_for_function(f"() => view.step !== {step} || document.getElementById('word-message').textContent")
    message = page.text_content("#word-message")
    if "several moves" in message:  # the words leave either of two cards out: the first
        page.click("#moves .move[data-move]")
    elif message:  # refused: the card left out was just taken from the discard pile, say
        assert message.endswith("not a legal word here"), message
        click_something(page)
        return
    page.wait_for_function(f"() => view.step !== {step}")


def words_to_go_out(page) -> str:
    """The words of the hand shown but one card, if it has them: the page's cards read with the game's words."""
    content = rules_for(game := load_game(ROOT / "cards" / "word-rummy")).new_state(game, 2).content
    kind_of = {card: kind for kind, card in content.card_ids.items()}
    observation = page.evaluate("() => view.observation")
    hand = next(z for z in observation["zones"] if z["name"] == f"hand:{observation['seat']}")
    kinds = sorted(kind_of[c["card"]] for c in hand["cards"])
    for k in dict.fromkeys(kinds):
        rest = list(kinds)
        rest.remove(k)
        split = content.best(tuple(rest))
        if split.uses_every_card:
            return " ".join(word for word, _ in split.words)
    return ""


def test_two_people_play_word_rummy_by_their_links(browser, tmp_path):
    """Two browser contexts, each at its remote seat's link, play a whole game; each page sees the
    other's moves by server push; a seat's page shows only its own hand."""
    server = Server(tmp_path, "word-rummy", "--seed", "11", "--seats", "remote,remote")
    try:
        links = [re.search(r"http://\S+/seat/\S+", server.process.stdout.readline()).group(0) for _ in range(2)]
        pages = []
        for link in links:
            page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            page.goto(link)
            page.wait_for_selector(".fan .card")
            pages.append(page)
        assert page.request.get(server.url + "api/state").status == 403  # no secret: refused
        for _ in range(3 * MAX_CLICKS):
            if all(p.is_visible("#end") for p in pages):
                break
            mover = next((i for i, p in enumerate(pages) if p.evaluate("() => view.human_turn && !view.over")), None)
            if mover is None:  # the other page learns of the last move by push
                pages[0].wait_for_timeout(100)
                continue
            other = pages[1 - mover]
            assert other.evaluate("() => view.waiting") and not other.query_selector_all("#moves .move")
            if pages[mover].is_visible("#round"):
                pages[mover].click("#round-close")
            go_out_or_click(pages[mover])
        else:
            pytest.fail("the game did not end")
        for seat, page in enumerate(pages):
            hands = page.evaluate(
                "() => view.observation.zones.filter(z => z.kind === 'hand').map(z => [z.name, z.cards.length])")
            assert dict(hands)[f"hand:{1 - seat}"] == 0 and page.evaluate("() => view.viewer") == seat
        pages[0].screenshot(path=str(shots(tmp_path) / "word-rummy-remote-end.png"))
        record = load(next((server.out / "play" / "word-rummy").glob("*.json")))
        assert record.seats == ["remote", "remote"] and {d.seat for d in record.decisions} == {0, 1}
        assert {d.seat for d in record.decisions if d.chosen.endswith("and go out")} == {0, 1}  # typed, both
    finally:
        server.stop()


@pytest.mark.parametrize("width, height", [(1280, 800), (1920, 1080)])
def test_the_table_reads_at_a_glance(browser, tmp_path, width, height):
    """No scrolling at 1280x800 (hand, table and log in view); a fan of 12 cards stays in the window;
    Z over a card shows it at its printed size."""
    server = Server(tmp_path, "spelled", "--seed", "3", "--seats", "human,heuristic")
    try:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(server.url)
        page.wait_for_selector(".fan .card")
        assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight")
        for part in ("#hand-area .fan", ".middle", "#log"):
            box = page.eval_on_selector(part, "e => e.getBoundingClientRect().toJSON()")
            assert box["top"] >= 0 and box["bottom"] <= height + 1 and box["right"] <= width + 1, part
        page.evaluate("""() => { const z = view.observation.zones.find(z => z.name === `hand:${view.viewer}`);
            while (z.cards.length < 12) z.cards.push(z.cards[z.cards.length % z.cards.length]); render(); }""")
        boxes = page.eval_on_selector_all(".fan .card", "cs => cs.map(c => c.getBoundingClientRect().toJSON())")
        assert len(boxes) == 12 and all(b["left"] >= 0 and b["right"] <= width and b["bottom"] <= height for b in boxes)
        page.hover(".fan .card")
        page.keyboard.press("z")
        page.wait_for_selector("#zoom:not([hidden])")
        shown = page.eval_on_selector("#zoom img", "i => i.getBoundingClientRect().width")
        size = load_game(ROOT / "cards" / "spelled").component("starter").size
        assert shown == pytest.approx(size[0] * 96 / 25.4, abs=1)  # CSS millimetres: the printed size
        page.screenshot(path=str(shots(tmp_path) / f"spelled-zoom-{width}.png"))
        page.keyboard.press("Escape")
        assert page.is_hidden("#zoom")
    finally:
        server.stop()
