"""The playground's server through Starlette's test client: who may talk to
it, which files it touches, what it says of a ruleset (the language server's
analysis), and that a seat is sent its own observation only.
The same flows in a real browser: test_playground_browser.py (slow)."""
from __future__ import annotations

import json
import os
import re
import shutil
import time

import pytest

pytest.importorskip("starlette", reason="the web extra")  # CI installs it: the README's set-up line

from helpers import ROOT, rulelang
from starlette.testclient import TestClient

from playground import make_app
from playground.guard import MOST_BODY
from queries import analyse
from rulelang.files import bundled

TOKEN = "a-token-for-tests"
PORT = 8123
HEADERS = {"x-rulelang": "1"}
TRIALS = bundled("twenty-trials")


@pytest.fixture
def folder(tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    shutil.copy(TRIALS, served / "twenty-trials.yaml")
    (tmp_path / "secret.yaml").write_text("secret: outside the folder\n")
    return served


@pytest.fixture
def client(folder):
    with TestClient(make_app(str(folder), TOKEN, PORT), base_url=f"http://127.0.0.1:{PORT}") as c:
        c.cookies.set("rulelang_token", TOKEN)
        yield c


def api(client, endpoint, status=200, **data):
    r = client.post(f"/api/{endpoint}", json=data, headers=HEADERS)
    assert r.status_code == status, r.text
    return r.json()


# ------------------------------------------------------------------ who may talk to it


def test_the_token_in_the_address_lets_a_browser_in_and_nothing_else_does(folder):
    with TestClient(make_app(str(folder), TOKEN, PORT), base_url=f"http://127.0.0.1:{PORT}") as c:
        assert c.get("/").status_code == 403
        assert c.post("/api/files", json={}, headers=HEADERS).status_code == 403
        assert c.get("/?token=wrong", follow_redirects=False).status_code == 403
        r = c.get(f"/?token={TOKEN}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/"  # the token leaves the address bar
        assert "HttpOnly" in r.headers["set-cookie"] and "SameSite=Strict" in r.headers["set-cookie"]
        page = c.get("/")
        assert page.status_code == 200 and "rulelang playground" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"


def test_another_host_name_is_refused(client):
    """A page of another site whose name was rebound to 127.0.0.1 still sends its own Host."""
    r = client.post("/api/files", json={}, headers={**HEADERS, "host": "evil.example:8123"})
    assert r.status_code == 421


def test_the_api_answers_its_own_page_only(client):
    assert client.post("/api/files", json={}).status_code == 403  # no X-Rulelang: a form or another origin
    r = client.post("/api/files", content=b"{}", headers={**HEADERS, "content-type": "text/plain"})
    assert r.status_code == 403
    assert client.get("/api/files", headers=HEADERS).status_code == 403


def test_requests_are_bounded(client):
    big = json.dumps({"path": "x.yaml", "text": "x" * (MOST_BODY + 10)})
    r = client.post("/api/check", content=big, headers={**HEADERS, "content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/check", content=b"[1, 2", headers={**HEADERS, "content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]


# ------------------------------------------------------------------ files


@pytest.mark.parametrize("name", ["../secret.yaml", "/etc/passwd", "link.yaml", "sub/../../secret.yaml", "a\0b",
                                  ".git/config.yaml", "key.pem"])
def test_no_file_outside_the_folder_is_read_or_written(client, folder, name):
    os.symlink(folder.parent / "secret.yaml", folder / "link.yaml")
    (folder / ".git").mkdir()
    (folder / ".git" / "config.yaml").write_text("secret: in a hidden folder\n")
    (folder / "key.pem").write_text("secret: a key\n")
    answer = api(client, "open", 400, path=name)
    assert any(why in answer["error"] for why in ("outside the folder", "path in the folder", "(.yaml)")), answer
    assert "secret" not in json.dumps(answer).replace("secret.yaml", "")
    api(client, "save", 400, path=name, text="written: no\n")
    assert (folder.parent / "secret.yaml").read_text() == "secret: outside the folder\n"
    assert (folder / "key.pem").read_text() == "secret: a key\n"
    listed = [f["path"] for f in api(client, "files")["files"]]
    assert listed == ["twenty-trials.yaml"]  # the link leads outside: not listed


def test_save_writes_rulesets_scenarios_and_saves_only_and_never_a_bundled_ruleset(client, folder):
    text = TRIALS.read_text().replace("title: \"Gauntlet: The Twenty Trials\"", "title: Mine")
    assert api(client, "save", path="mine.yaml", text=text) == {"saved": "mine.yaml"}
    assert (folder / "mine.yaml").read_text() == text
    assert "error" in api(client, "save", 400, path="run.py", text="import os\n")
    assert "bundled" in api(client, "save", 400, path="bundled:twenty-trials", text=text)["error"]
    assert not list(folder.glob(".rulelang-*"))  # no temporary file left behind
    opened = api(client, "open", path="bundled:kuhn-poker")
    assert opened["writable"] is False and "Kuhn" in opened["text"]


# ------------------------------------------------------------------ the editor's diagnostics


def test_diagnostics_are_the_language_servers_located_and_with_hints(client, folder):
    text = TRIALS.read_text().replace("when:", "whn:", 1)
    problems = api(client, "check", path="twenty-trials.yaml", text=text)["problems"]
    expected = [p.as_json() for p in analyse(text, str(folder / "twenty-trials.yaml")).problems]
    assert [p["message"] for p in problems] == [p["message"] for p in expected]
    assert [p["range"] for p in problems] == [p["range"] for p in expected]
    (first,) = problems
    line = text.splitlines().index(next(x for x in text.splitlines() if "whn:" in x)) + 1
    assert first["range"]["start"]["line"] == line and first["hint"] == "did you mean 'when'?"
    assert first["file"] == "twenty-trials.yaml"  # named in the folder, not by its path on this machine
    assert api(client, "check", path="twenty-trials.yaml", text=TRIALS.read_text())["problems"] == []


def test_a_broken_ruleset_is_refused_where_it_is_played_with_its_problems_located(client):
    answer = api(client, "play/new", 400, path="twenty-trials.yaml", text="game: x\nroles: [\n", seats={})
    assert answer["problems"][0]["range"]["start"]["line"] == 3


# ------------------------------------------------------------------ read


def test_the_summary_is_served_sandboxed_with_the_rulesets_text_escaped(client):
    text = TRIALS.read_text().replace('title: "Gauntlet: The Twenty Trials"', 'title: "<script>alert(1)</script>"')
    made = api(client, "read", path="twenty-trials.yaml", text=text, quick=False)
    doc = client.get(made["doc"])
    assert doc.status_code == 200 and "sandbox" in doc.headers["content-security-policy"]
    assert "<script>alert(1)" not in doc.text and "&lt;script&gt;alert(1)" in doc.text
    quick = client.get(api(client, "read", path="twenty-trials.yaml", quick=True)["doc"])
    assert quick.status_code == 200 and "Twenty Trials" in quick.text
    cards = api(client, "cards", path="twenty-trials.yaml")
    assert cards["cards"] and all(c["svg"].startswith("<svg") or c["svg"].startswith("<?xml") for c in cards["cards"])


# ------------------------------------------------------------------ play


def test_a_twenty_trials_game_is_played_answered_undone_and_saved(client, folder):
    view = api(client, "play/new", path="twenty-trials.yaml", seats={"challenger": "person"}, seed=7)
    assert view["options"] and view["board"].startswith("<svg")
    table, seat = view["table"], view["seat"]
    after = api(client, "play/answer", table=table, seat=seat, option=0)
    assert after["can_undo"]
    api(client, "play/save", table=table, name="mid.json")  # the command line continues it, as it names the ruleset
    resumed = rulelang("run", "twenty-trials.yaml", "--resume", "mid.json", "--json", cwd=folder,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["decisions"] > 1, resumed.stderr
    assert api(client, "play/answer", 400, table=table, seat=seat, option=999)["error"]
    back = api(client, "play/undo", table=table, seat=seat)
    assert back["options"] == view["options"] and not back["can_undo"]
    for _ in range(2000):
        if "outcome" in back:
            break
        back = api(client, "play/answer", table=table, seat=seat, option=0)
    assert "outcome" in back and back["outcome"]["text"]
    api(client, "play/save", table=table, name="game.json")
    saved = json.loads((folder / "game.json").read_text())
    assert saved["seed"] == 7 and saved["answers"]
    loaded = api(client, "play/load", path="game.json")
    assert "outcome" in loaded


def test_each_seat_is_sent_its_own_card_and_never_the_others(client, folder):
    """Kuhn poker, hot-seat: each player's card is in that player's view, and in no other answer."""
    for seed in range(6):
        alice = api(client, "play/new", path="bundled:kuhn-poker", seats={"alice": "person", "bob": "person"},
                    seed=seed, seat="alice")
        bob = api(client, "play/view", table=alice["table"], seat="bob")
        mine = {name: set(re.findall(r'data-card="([^"]+)"', view["board"])) for name, view in
                (("alice", alice), ("bob", bob))}
        assert len(mine["alice"]) == 1 and len(mine["bob"]) == 1 and mine["alice"] != mine["bob"]
        for name, other in (("alice", "bob"), ("bob", "alice")):
            view = alice if name == "alice" else bob
            (hidden,) = mine[other]
            assert not re.search(rf"\b{hidden}\b", json.dumps(view), re.IGNORECASE), (seed, name)
    api(client, "play/save", table=alice["table"], name="kuhn.json")  # a bundled ruleset's save, loaded again
    assert json.loads((folder / "kuhn.json").read_text())["path"] == "kuhn-poker"
    assert api(client, "play/load", path="kuhn.json", seat="alice")["board"] == alice["board"]


def test_a_game_starts_from_a_scenario_of_the_folder_and_a_scenarios_mistakes_are_located(client, folder):
    scenario = (ROOT / "tests" / "scenarios" / "twenty-trials-last-trial.yaml").read_text()
    (folder / "last.yaml").write_text(scenario)
    assert {"path": "last.yaml", "kind": "scenario"} in api(client, "files")["files"]
    view = api(client, "play/new", path="twenty-trials.yaml", scenario="last.yaml", seats={}, seed=4)
    assert view["round"] == 20 and view["vars"]["trials_completed"] == 19
    played = api(client, "play/answer", table=view["table"], seat=view["seat"], option=0)
    api(client, "play/save", table=view["table"], name="last-game.json")
    loaded = api(client, "play/load", path="last-game.json")  # it begins from the scenario the save carries
    assert {k: loaded[k] for k in ("round", "step", "vars", "board")} == {k: played[k] for k in
                                                                        ("round", "step", "vars", "board")}
    wrong = scenario.replace("strength 13", "strength 31")
    (problem,) = api(client, "check", path="last.yaml", text=wrong)["problems"]
    line = wrong.splitlines().index("  trial_deck: [strength 31]") + 1
    assert problem["range"]["start"]["line"] == line and problem["file"] == "last.yaml"
    assert api(client, "check", path="last.yaml", text=scenario)["problems"] == []


def test_seats_take_built_in_agents_of_bounded_strength_only(client):
    for spec in ("mcts:iterations=100000000", "plugin.agents:Mine", "../agent.py"):
        api(client, "play/new", 400, path="twenty-trials.yaml", seats={"challenger": spec})


# ------------------------------------------------------------------ simulate


def _finished(client, job, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status = api(client, "jobs/status", job=job)
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError("the simulation did not end")


def test_a_simulation_reports_win_rates_with_intervals_and_a_comparison_both(client, folder):
    job = api(client, "simulate", entries=[{"path": "twenty-trials.yaml"}], games=40, seed=1)["job"]
    status = _finished(client, job)
    assert status["state"] == "done" and status["done"] == 40
    rate = status["result"]["tally"]["win_rate"]["challenger"]
    assert rate["ci95"][0] <= rate["rate"] <= rate["ci95"][1]
    assert "win rate (95% interval)" in status["result"]["text"]
    assert status["result"]["charts"][0]["svg"].startswith("<svg")
    shutil.copy(bundled("twenty-trials-small-hand"), folder / "small.yaml")
    job = api(client, "simulate", entries=[{"path": "twenty-trials.yaml"}, {"path": "small.yaml", "label": "small"}],
              games=20, seed=1)["job"]
    status = _finished(client, job)
    assert status["state"] == "done" and status["result"]["kind"] == "compare"
    assert status["result"]["labels"] == ["twenty-trials.yaml", "small"]


def test_a_long_simulation_is_cancelled(client):
    job = api(client, "simulate", entries=[{"path": "twenty-trials.yaml"}], games=1_000_000)["job"]
    assert api(client, "jobs/cancel", job=job)["state"] == "cancelled"
    assert _finished(client, job, 10)["state"] == "cancelled"
    assert "error" in api(client, "simulate", 400, entries=[{"path": "twenty-trials.yaml"}], games=10**9)


# ------------------------------------------------------------------ the command and the package


def test_rulelang_serve_listens_on_127_0_0_1_with_a_token_and_stops_on_ctrl_c(folder):
    import signal
    import subprocess
    import sys
    import urllib.error
    import urllib.request


    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", str(folder)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
        assert url and len(url.group(2)) >= 32, line
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{url.group(1)}/", timeout=10)
        assert refused.value.code == 403
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        page = browser.open(url.group(0), timeout=10)  # the token for a cookie, and the page
        assert page.status == 200 and page.url.endswith(":" + url.group(1) + "/")
        assert b"rulelang playground" in page.read()
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(10) in (0, 130), proc.stderr.read()


def test_rulelang_serve_of_nothing_there_says_so(tmp_path):
    r = rulelang("serve", str(tmp_path / "missing"))
    assert r.returncode == 2 and "no such folder, file or bundled ruleset" in r.stderr and "Traceback" not in r.stderr


def test_the_page_ships_in_the_package():
    """Every static file is package data (pyproject.toml), so a wheel serves the page with no build step."""
    import fnmatch
    import tomllib

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["playground"]
    static = ROOT / "playground" / "static"
    files = [p.relative_to(static.parent).as_posix() for p in static.rglob("*") if p.is_file()]
    assert files and all(any(fnmatch.fnmatch(f, g) for g in globs) for f in files), files


@pytest.mark.parametrize("name", ["gauntlet-gobbots", "oh-hell", *(pytest.param(n, marks=pytest.mark.slow) for n in
                                                                     ("gauntlet-16-7", "hand-of-fate-ordeals"))])
def test_every_kind_of_table_is_drawn_for_each_seat(client, name):
    """Grids with their maps, graphs, hands and piles: well-formed SVG, each seat's own."""
    from xml.etree import ElementTree

    first = api(client, "play/new", path=f"bundled:{name}", seats={}, seed=2)
    for seat in first["seats"]:
        view = api(client, "play/view", table=first["table"], seat=seat)
        ElementTree.fromstring(view["board"])  # escaped: it parses
        assert view["seat"] == seat and ("options" in view)
        if view["options"]:
            chosen = api(client, "play/answer", table=first["table"], seat=seat, option=len(view["options"]) - 1)
            assert chosen["can_undo"]
