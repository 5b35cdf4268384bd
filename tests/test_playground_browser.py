"""The playground in a real browser: `rulelang serve` started as a user
starts it, Debian's Chromium driven by Playwright, every panel used by
clicking and typing. Slow (about a minute): `python -m pytest -q -m slow`.

The browser is the system's (/usr/bin/chromium, `apt-get install chromium`:
.ci/run installs it); without it these tests fail, they never skip.
RULELANG_SCREENSHOTS=docs/images makes the README's pictures of each panel.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from rulelang.files import bundled

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("RULELANG_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
WAIT = 30_000  # ms: the longest any one thing may take on a loaded machine
SHOTS = Path(os.environ["RULELANG_SCREENSHOTS"]) if os.environ.get("RULELANG_SCREENSHOTS") else None


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    shutil.copy(bundled("twenty-trials"), folder / "twenty-trials.yaml")
    shutil.copy(bundled("twenty-trials-small-hand"), folder / "small-hand.yaml")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", str(folder / "twenty-trials.yaml")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                            start_new_session=True)
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", line)
    assert found, f"rulelang serve printed {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
    yield found.group(0), folder
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: pip install '.[test]'")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no browser at {CHROMIUM}: apt-get install -y chromium (.ci/run does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, served):
    url, _ = served
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    assert "token" not in page.url  # the token left the address bar for a cookie
    page.wait_for_selector("#check-status.ok")
    yield page
    context.close()
    assert not errors, errors


def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"playground-{name}.png"))


def edit(page, at: int, remove: int = 0, insert: str = "") -> None:
    """Type in the editor as a person does: the cursor put at `at`, keys pressed."""
    page.evaluate("([a, b]) => { const t = document.getElementById('text'); t.focus(); t.setSelectionRange(a, b); }",
                  [at, at + remove])
    if remove:
        page.keyboard.press("Delete")
    if insert:
        page.keyboard.type(insert)


def tab(page, name: str) -> None:
    page.click(f"#tabs button[data-tab={name}]")


def test_an_error_is_located_as_you_type_then_fixed_and_saved(page, served):
    _, folder = served
    text = page.input_value("#text")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "when:" in x)
    edit(page, text.index("when:") + 2, remove=1)  # when -> whn
    problem = page.locator("#problems li.error").first
    problem.wait_for()
    assert "unknown key 'whn'" in problem.inner_text() and "did you mean 'when'?" in problem.inner_text()
    assert problem.locator(".where").inner_text().startswith(f"{line}:")
    assert page.locator("#gutter .error").inner_text() == str(line)
    assert page.locator("#marks mark.error").inner_text() == "whn"
    problem.click()  # the cursor goes to the problem
    assert page.evaluate("document.getElementById('text').selectionStart") == text.index("when:")
    problem.scroll_into_view_if_needed()
    shot(page, "edit")
    edit(page, text.index("when:") + 2, insert="e")
    page.wait_for_selector("#check-status.ok")
    title = text.index('title: "Gauntlet: The Twenty Trials"')
    edit(page, title + len('title: "'), remove=len("Gauntlet: "))
    edit(page, title + len('title: "The Twenty Trials'), insert=", mine")
    page.wait_for_selector("#check-status.ok")
    page.click("#save")
    page.wait_for_selector("#message:has-text('saved twenty-trials.yaml')")
    assert 'title: "The Twenty Trials, mine"' in (folder / "twenty-trials.yaml").read_text()
    page.wait_for_selector("#title:has-text('The Twenty Trials, mine')")


def test_the_summary_the_quick_reference_and_the_cards_are_read(page):
    tab(page, "read")
    page.click("#read-summary")
    page.wait_for_selector("#read-status:has-text('rules summary')")
    frame = page.frame_locator("#doc")
    assert "Twenty Trials" in frame.locator("h1").first.inner_text()
    assert frame.locator("text=Challenger").count() > 0
    shot(page, "read")
    page.click("#read-quick")
    page.wait_for_selector("#read-status:has-text('quick reference')")
    page.click("#read-cards")
    page.wait_for_selector("#cards figure img")
    assert page.locator("#cards figure").count() > 10
    assert page.evaluate("[...document.querySelectorAll('#cards img')].every(i => i.complete && i.naturalWidth > 0)")


def test_a_twenty_trials_game_is_played_to_its_end_by_clicking(page):
    tab(page, "play")
    page.select_option("#seats select[data-role=challenger]", "person")
    page.fill("#seed", "3")
    page.click("#new-game")
    page.wait_for_selector("#decision button.option")
    shot(page, "play")
    clicked_board = False
    for _ in range(400):
        if page.locator("#outcome").is_visible():
            break
        shown = page.get_attribute("#board", "data-shown")
        target = page.locator("#board [data-target]")
        if not clicked_board and target.count():  # the card or the space an option names
            target.first.click()
            clicked_board = True
            if page.locator("#decision button.option.named").count():  # it names several: pick one
                page.locator("#decision button.option.named").first.click()
        else:
            page.locator("#decision button.option").first.click()
        page.wait_for_function("(n) => document.getElementById('board').dataset.shown !== n", arg=shown)
    outcome = page.locator("#outcome")
    assert outcome.is_visible() and "Game over" in outcome.inner_text()
    assert clicked_board, "no card or space of the board was clicked"


def test_a_seat_of_a_hidden_information_game_sees_only_its_own_card(page):
    """Kuhn poker, hot-seat: no answer to Alice's page and nothing in it names Bob's card, and the other way round."""
    answers: list[str] = []
    page.on("response", lambda r: answers.append(r.text()) if "/api/play/" in r.url else None)
    page.select_option("#file", "bundled:kuhn-poker")
    page.wait_for_selector("#title:has-text('Kuhn Poker')")
    tab(page, "play")
    page.select_option("#seats select[data-role=alice]", "person")
    page.select_option("#seats select[data-role=bob]", "person")
    page.click("#new-game")
    page.wait_for_selector("#board [data-card]")
    alice_card = page.get_attribute("#board [data-card]", "data-card")
    alice_answers = list(answers)
    alice_page = page.inner_html("#play")
    page.select_option("#seat", "bob")
    page.wait_for_selector(f"#board [data-card]:not([data-card='{alice_card}'])")
    bob_card = page.get_attribute("#board [data-card]", "data-card")
    bob_page = page.inner_html("#play")
    bob_answers = answers[len(alice_answers):]
    assert alice_card != bob_card
    word = lambda card: re.compile(rf"\b{card}\b", re.IGNORECASE)
    for text in [alice_page, *alice_answers]:
        assert not word(bob_card).search(text)
    for text in [bob_page, *bob_answers]:
        assert not word(alice_card).search(text)
    assert page.locator("#board rect.back").count() >= 1  # the deck, and nothing of it


def test_500_games_are_simulated_with_a_win_rate_and_its_interval(page):
    tab(page, "simulate")
    page.fill("#games", "500")
    page.click("#run-sim")
    page.wait_for_selector("#progress-text:has-text('500 / 500 games')")
    page.wait_for_selector("#sim-text:has-text('win rate (95% interval)')")
    text = page.inner_text("#sim-text")
    assert re.search(r"challenger: \d+\.\d%\s+\[\d+\.\d%, \d+\.\d%\]", text), text
    assert page.locator("#sim-charts svg.chart line.interval").count() >= 2
    shot(page, "simulate")


def test_two_variants_are_compared_and_a_long_run_cancelled(page):
    tab(page, "simulate")
    page.select_option("#compare", "small-hand.yaml")
    page.fill("#games", "300")
    page.click("#run-sim")
    page.wait_for_selector("#progress-text:has-text('600 / 600 games')")
    page.wait_for_selector("#sim-charts figure")
    text = page.inner_text("#sim-text")
    assert "twenty-trials.yaml" in text and "small-hand.yaml" in text, text
    assert page.locator("#sim-charts svg.chart rect.bar").count() >= 2
    shot(page, "compare")
    page.select_option("#compare", "")
    page.fill("#games", "1000000")
    page.click("#run-sim")
    page.wait_for_selector("#cancel-sim:not([disabled])")
    page.click("#cancel-sim")
    page.wait_for_selector("#progress-text:has-text('cancelled')")


def test_a_scenario_is_written_checked_and_played_from(page, served):
    """The last trial, set up by hand: a misspelt card located, fixed, saved, and a game started from it."""
    _, folder = served
    tab(page, "play")
    page.click("#new-scenario")
    page.wait_for_selector("#edit.active")
    page.wait_for_selector("#check-status.ok")

    def put(after: str, insert: str, remove: int = 0) -> None:
        text = page.input_value("#text")
        edit(page, text.index(after) + len(after), remove, insert)

    put("round: ", "20", remove=1)
    put("  trial_deck: [", "strength 31")
    problem = page.locator("#problems li.error").first
    problem.wait_for()
    assert "strength 31" in problem.inner_text()
    put("  trial_deck: [strength ", "13", remove=2)
    put("  hand: [", "8 dark sun, 5 dark sun")
    put("  action_deck: [", "1 light sun")
    put("  trials_completed: ", "19", remove=1)
    page.wait_for_selector("#check-status.ok")
    page.click("#save")
    page.wait_for_selector("#message:has-text('saved twenty-trials-scenario.yaml')")
    assert "strength 13" in (folder / "twenty-trials-scenario.yaml").read_text()
    tab(page, "play")
    page.select_option("#scenario", "twenty-trials-scenario.yaml")
    page.select_option("#seats select[data-role=challenger]", "person")
    page.click("#new-game")
    page.wait_for_selector("#play-status:has-text('round 20')")
    assert "19" in page.inner_text("#vars")
    for _ in range(20):
        if page.locator("#outcome").is_visible():
            break
        shown = page.get_attribute("#board", "data-shown")
        page.locator("#decision button.option").first.click()
        page.wait_for_function("(n) => document.getElementById('board').dataset.shown !== n", arg=shown)
    assert "Game over" in page.inner_text("#outcome")
