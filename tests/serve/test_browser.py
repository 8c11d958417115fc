"""The live preview in a real headless Chromium: cards, zoom, a live edit, errors on their cards,
the card view with its fields and overlays, a build on another paper and its ZIP.

Runs `spellpress serve` on a copy of A Word to the Wise and drives Debian's Chromium
with Playwright. The edit-to-update time is printed, not asserted (speed lives in bench/).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from tests.conftest import WISE

CHROMIUM = Path(os.environ.get("SPELLPRESS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = [pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"), reason="Chromium not installed"),
              pytest.mark.slow]  # make test-fast leaves this module out

EDITED = "consonants-005"  # the L card: `{letter: L, points: 2, count: 9}`


@pytest.fixture
def server(tmp_path):
    game = tmp_path / "word-to-the-wise"
    shutil.copytree(WISE, game)
    process = subprocess.Popen(
        [sys.executable, "-m", "spellpress", "serve", str(game), "--port", "0", "--out", str(tmp_path / "out")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert match, line
    yield match.group(0), game
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    assert process.returncode in (0, -15), process.stdout.read()


def card_images(page) -> dict[str, list[str]]:
    return page.eval_on_selector_all(
        "figure.card[data-card]",
        "els => Object.fromEntries(els.map(f => [f.dataset.card, "
        "[...f.querySelectorAll('img.face')].map(i => i.getAttribute('src'))]))")


def image_loaded(page, selector: str) -> bool:
    return page.eval_on_selector(selector, "img => img.complete && img.naturalWidth > 0")


def wait_for(condition, timeout: float = 10.0, step: float = 0.01) -> float:
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > timeout:
            raise AssertionError("timed out")
        time.sleep(step)
    return time.perf_counter() - started


def test_live_preview_in_chromium(server, tmp_path):
    from playwright.sync_api import sync_playwright

    url, game = server
    cards_file = game / "consonants.yaml"
    original = cards_file.read_text()
    line_of_l = original.splitlines().index("  - {letter: L, points: 2, count: 9}") + 1
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.wait_for_selector("#live.on")

        # every card of every component, front and back, with its id and count
        before = card_images(page)
        game_model = load_game(game)
        assert sorted(before) == sorted(f"{c.id}/{card.id}" for c in game_model.components for card in c.cards)
        # fronts, and each component's shared back once (not beside every card)
        shared = [c for c in game_model.components if c.back is not None and not c.back.per_card]
        sides = sum(len(c.cards) * (1 if c in shared else 2 if c.back else 1) for c in game_model.components) + len(shared)
        assert len(page.query_selector_all("figure.card img.face")) == sides
        assert len(page.query_selector_all("figure.shared-back img.back")) == len(shared) > 0
        assert len(before[f"consonants/{EDITED}"]) == 1  # its back is the deck's shared back
        assert page.inner_text(f"#card-consonants-{EDITED} figcaption") == f"{EDITED} \u00d79"
        page.wait_for_function("[...document.querySelectorAll('#component-consonants img')].slice(0, 6)"
                               ".every(i => i.complete && i.naturalWidth > 0)")
        page.screenshot(path=str(tmp_path / "cards.png"))

        # an edit changes that card's front image, and no other image
        started = time.perf_counter()
        cards_file.write_text(original.replace("{letter: L, points: 2, count: 9}", "{letter: L, points: 6, count: 9}"))
        selector = f"#card-consonants-{EDITED} img.front"
        wait_for(lambda: page.get_attribute(selector, "src") != before[f"consonants/{EDITED}"][0])
        wait_for(lambda: image_loaded(page, selector))
        print(f"\nserve: edit-to-update {1000 * (time.perf_counter() - started):.0f} ms (save to new image shown)")
        after = card_images(page)
        changed = sorted(card for card in before if before[card] != after[card])
        assert changed == [f"consonants/{EDITED}"]

        # a broken file: the error panel names file:line:column, the last good cards stay
        cards_file.write_text(original.replace("{letter: L, points: 2, count: 9}", "{letter: L, points: 2, count: 9"))
        page.wait_for_selector("#errors:not([hidden])")
        panel = page.inner_text("#errors")
        assert re.search(rf"consonants\.yaml:{line_of_l + 1}:\d+: YAML syntax error", panel), panel
        assert len(card_images(page)) == len(before)
        page.screenshot(path=str(tmp_path / "error.png"), full_page=False)

        # fixing the file clears the panel
        cards_file.write_text(original)
        page.wait_for_selector("#errors[hidden]", state="attached")
        assert card_images(page) == before

        # the size slider: up to actual size, and the browser remembers it
        front = f"#card-consonants-{EDITED} img.front"
        small = page.eval_on_selector(front, "img => img.getBoundingClientRect().height")
        page.eval_on_selector("#zoom", "s => { s.value = 1; s.dispatchEvent(new Event('input')); }")
        actual_px = (88 + 2 * 3) / 25.4 * 96  # poker card plus 3 mm bleed each side
        assert page.eval_on_selector(front, "img => img.getBoundingClientRect().height") == pytest.approx(actual_px, abs=1)
        assert small < actual_px / 2
        page.reload()
        page.wait_for_selector("#live.on")
        assert page.input_value("#zoom") == "1" and page.inner_text("#zoom-shown") == "100%"
        assert page.eval_on_selector(front, "img => img.getBoundingClientRect().height") == pytest.approx(actual_px, abs=1)
        page.wait_for_function(f"document.querySelector('{front}').naturalWidth > 0")
        page.screenshot(path=str(tmp_path / "zoom-actual.png"))
        page.eval_on_selector("#zoom", "s => { s.value = 0.3; s.dispatchEvent(new Event('input')); }")

        # a mistake on one card: marked on it, and each error line links to it
        cards_file.write_text(original.replace("{letter: L, points: 2, count: 9}",
                                               "{letter: L, points: 222222222222222222222222, count: 9}"))
        page.wait_for_selector("#errors a.to-card")
        hrefs = page.eval_on_selector_all("#errors a.to-card", "links => links.map(a => a.getAttribute('href'))")
        assert hrefs == [f"/card/consonants/{EDITED}"] * 2, hrefs  # two boxes overflow on that card
        assert page.eval_on_selector_all("figure.has-error", "els => els.map(e => e.dataset.card)") == [f"consonants/{EDITED}"]
        page.screenshot(path=str(tmp_path / "error-on-card.png"))
        page.click("#errors a.to-card")
        page.wait_for_selector(".card-errors")
        assert "does not fit" in page.inner_text(".card-errors")
        assert page.url.endswith(f"/card/consonants/{EDITED}")
        page.screenshot(path=str(tmp_path / "card-error.png"))
        cards_file.write_text(original)
        page.wait_for_selector(".card-errors", state="detached")  # the fix reaches the open card view

        # the card view: actual size, its fields and their source line, overlays, previous/next by keyboard
        page.wait_for_selector(".actual img.front")
        width_px = page.eval_on_selector(".actual img.front", "img => img.getBoundingClientRect().width")
        assert width_px == pytest.approx((63 + 2 * 3) / 25.4 * 96, abs=1)
        assert page.get_attribute(".actual figcaption a", "href").endswith("?dpi=300")
        fields = page.eval_on_selector_all(
            ".about .fields tr",
            "rows => rows.map(r => [r.cells[0] ? r.querySelector('th').textContent : '', r.querySelector('td').textContent])")
        assert ["letter", "L"] in fields and ["points", "2"] in fields, fields
        assert re.search(rf"consonants\.yaml:{line_of_l}:\d+$", page.inner_text(".about .source code"))
        safe = game_model.spec.print.safe
        box = page.eval_on_selector(".actual .safe", "d => { const r = d.getBoundingClientRect(); return [r.width, r.height]; }")
        assert box == pytest.approx([(63 - 2 * safe) / 25.4 * 96, (88 - 2 * safe) / 25.4 * 96], abs=1)
        assert page.is_visible(".actual .bleed-band") and page.is_visible(".actual .trim")
        page.wait_for_function("document.querySelector('.actual img.front').naturalWidth > 0")
        page.screenshot(path=str(tmp_path / "card-overlays.png"))
        page.uncheck("#overlays")
        assert not page.is_visible(".actual .safe") and not page.is_visible(".actual .trim")
        page.screenshot(path=str(tmp_path / "card-plain.png"))
        page.check("#overlays")
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(r"/card/consonants/consonants-006$"))
        page.keyboard.press("ArrowLeft")
        page.wait_for_url(re.compile(rf"/card/consonants/{EDITED}$"))
        assert page.is_visible(".actual .safe")  # the toggle was put back on

        # the Build button on another paper than the game's: the page sends its token, same origin, as JSON;
        # the guard lets it through; everything built comes as one ZIP
        page.goto(url)
        page.select_option("select[name=paper]", "letter")
        page.click("#build button")
        page.wait_for_selector("#downloads #zip, #downloads.failed", timeout=60_000)
        links = page.eval_on_selector_all("#downloads details a", "links => links.map(a => a.getAttribute('href'))")
        assert "/download/word-to-the-wise-letter.pdf" in links, page.inner_text("#downloads")
        assert (tmp_path / "out" / "word-to-the-wise" / "word-to-the-wise-letter.pdf").is_file()
        page.screenshot(path=str(tmp_path / "built.png"))
        with page.expect_download() as download:
            page.click("#zip")
        assert download.value.suggested_filename == "word-to-the-wise.zip"
        names = zipfile.ZipFile(download.value.path()).namelist()
        assert sorted(names) == sorted(link.removeprefix("/download/") for link in links)
        page.goto(url + "sheets")  # the build's choices stay from page to page
        assert page.input_value("select[name=paper]") == "letter"

        # the imposed sheets
        assert len(page.query_selector_all("figure.sheet img")) == 30
        page.wait_for_function("document.querySelector('figure.sheet img').naturalWidth > 0")
        page.screenshot(path=str(tmp_path / "sheets.png"))
        browser.close()
    print(f"screenshots: {tmp_path}")
