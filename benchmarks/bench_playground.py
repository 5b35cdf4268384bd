"""What the playground's page waits for, against the same work done in-process.

    python benchmarks/bench_playground.py [--ruleset hand-of-fate-ordeals] [--keys 20] [--games 2000]

`rulelang serve` is started as a user starts it and asked over HTTP as the
page asks it (the token's cookie, the JSON API):
  - a keystroke: the editor's text, a letter added or taken from a zone's
    name, checked (`/api/check`), against `queries.analyse` of the same text
    in this process (the language server's keystroke work);
  - a click: one decision answered in a Twenty Trials game (`/api/play/answer`,
    the seat's view and board drawn), against `Game.apply` of that answer;
  - a simulation: N games from the Simulate panel (started, polled to its
    end), against `rulelang simulate` of the same games in a fresh process.
Times are wall-clock medians (the machine may be loaded: compare within a run).
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.engine.game import Game  # noqa: E402
from queries import analyse  # noqa: E402
from rulelang import load_ruleset  # noqa: E402
from rulelang.files import bundled  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ruleset", default="hand-of-fate-ordeals")
    p.add_argument("--keys", type=int, default=20)
    p.add_argument("--games", type=int, default=2000)
    args = p.parse_args()
    folder = Path(tempfile.mkdtemp())
    shutil.copy(bundled(args.ruleset), folder / "r.yaml")
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", str(folder)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        opener.open(url).read()
        base = url.split("/?")[0]

        def api(name: str, **data) -> dict:
            request = urllib.request.Request(f"{base}/api/{name}", json.dumps(data).encode(),
                                             {"content-type": "application/json", "x-rulelang": "1"})
            return json.loads(opener.open(request).read())

        text = (folder / "r.yaml").read_text()
        zone = next(z for z in load_ruleset(args.ruleset).zones)
        texts = [text.replace(f" {zone}", f" {zone}x", 1) if k % 2 == 0 else text for k in range(args.keys)]
        served, local = [], []
        for t in texts:
            start = time.perf_counter()
            api("check", path="r.yaml", text=t)
            served.append(time.perf_counter() - start)
            start = time.perf_counter()
            analyse(t, str(folder / "r.yaml")).problems
            local.append(time.perf_counter() - start)
        report(f"keystroke, {args.ruleset}", served, local, "queries.analyse in-process")

        shutil.copy(bundled("twenty-trials"), folder / "t.yaml")
        view = api("play/new", path="t.yaml", seats={"challenger": "person"}, seed=1)
        game = Game(load_ruleset("twenty-trials"))
        st = game.new_state(1)
        served, local = [], []
        while "outcome" not in view:
            start = time.perf_counter()
            view = api("play/answer", table=view["table"], seat="challenger", option=0)
            served.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.apply(st, 0)
            local.append(time.perf_counter() - start)
        report("click, twenty-trials", served, local, "Game.apply")

        start = time.perf_counter()
        job = api("simulate", entries=[{"path": "t.yaml"}], games=args.games, seed=0)["job"]
        while api("jobs/status", job=job)["state"] == "running":
            time.sleep(0.05)
        page = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cli", "simulate", "twenty-trials", "--games", str(args.games),
                        "--jobs", "2"], cwd=ROOT, check=True, capture_output=True)
        cli = time.perf_counter() - start
        print(f"simulate {args.games} games: page {page:.2f} s, rulelang simulate {cli:.2f} s "
              f"(ratio {page / cli:.2f})")
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(10)
        shutil.rmtree(folder)


def report(what: str, served: list[float], local: list[float], baseline: str) -> None:
    a, b = statistics.median(served), statistics.median(local)
    print(f"{what}: median {a * 1000:.1f} ms through the page, {b * 1000:.1f} ms {baseline} "
          f"(ratio {a / b:.2f}, {len(served)} samples)")


if __name__ == "__main__":
    main()
