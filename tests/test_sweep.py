"""`rulelang sweep`: configurations, common seeds, the same rows on every
backend, resuming, targets, and the mistakes a command line can make."""
import csv
import importlib.util
import io
import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import time

import pytest
from helpers import ROOT, rulelang

from cli.main import main
from cli.sweep import agent_lists
from interpreter.analysis.sweep import Point, plan, ranked
from interpreter.analysis.target import TargetError, parse_target
from interpreter.analysis.work import Setup
from interpreter.engine.game import Game
from rulelang import load_ruleset, version

SMALL = ["sweep", "twenty-trials-small-hand", "--grid", "hand_size=3,5", "--agent", "challenger=random,first",
         "--games", "40", "--seed", "5"]


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


# ------------------------------------------------------------------ what is played


def test_configurations_are_rulesets_times_grid_times_agents():
    sweep = plan([("twenty-trials-small-hand", load_ruleset("twenty-trials-small-hand")),
                  ("twenty-trials", load_ruleset("twenty-trials"))],
                 {"hand_size": ["3", "4", "5"], "action_modifiers": ["false", "true"]},
                 {"challenger": ["random", "greedy:samples=2"]}, games=10)
    # the variant takes both parameters (3 × 2), the base only action_modifiers (2); each with 2 agents
    assert len(sweep.configurations) == (3 * 2 + 2) * 2
    first, last = sweep.configurations[0], sweep.configurations[-1]
    assert (first.params, first.agents) == ({"hand_size": 3, "action_modifiers": False}, {"challenger": "random"})
    assert (last.entry, last.params, last.agents) == ("twenty-trials", {"action_modifiers": True},
                                                      {"challenger": "greedy:samples=2"})
    assert last.setup.ruleset.param_values["action_modifiers"] is True
    assert list(sweep.fields())[:10] == ["config", "rulelang", "ruleset", "ruleset_hash", "mode",
                                         "param_trial_modifiers", "param_action_modifiers", "param_hand_size",
                                         "agent_challenger", "seed"]
    assert sweep.fields()["param_hand_size"] is int and sweep.fields()["param_action_modifiers"] is bool
    # chunks cover every game once, in order, and a resumed sweep starts where the rows end
    chunks = sweep.chunks(workers=3)
    assert [(c.config, s) for c in chunks for s in c.seeds] == [(k, s) for k in range(16) for s in range(10)]
    assert [(c.config, s) for c in sweep.chunks(3, skip=37) for s in c.seeds][0] == (3, 7)


def test_a_setup_carries_the_chance_mode_to_a_fresh_worker():
    """A worker that compiles the game again (spawned, or on Dask) compiles it as the parent did."""
    pig = load_ruleset("pig-race")
    explicit = Game(pig, "race", explicit_chance=True)
    kinds = {role: "random" for role in explicit.roles}
    setup = pickle.loads(pickle.dumps(Setup.of(explicit, kinds)))
    assert setup.game().explicit_chance and not Setup.of(Game(pig, "race"), kinds).game().explicit_chance
    assert setup.key != Setup.of(Game(pig, "race"), kinds).key  # a worker's cache keeps the two apart
    sweep = plan([("pig-race", pig)], {}, {}, games=5, mode="race", explicit_chance=True)
    assert all(c.setup.game().explicit_chance for c in sweep.configurations)


def test_every_row_is_the_game_rulelang_run_plays(tmp_path):
    r = rulelang(*SMALL, "--jobs", "2", "--out", str(tmp_path / "rows.csv"))
    assert r.returncode == 0, r.stderr
    table = rows((tmp_path / "rows.csv").read_text())
    assert len(table) == 4 * 40
    assert [(int(t["config"]), int(t["seed"])) for t in table] == [(k, s) for k in range(4) for s in range(5, 45)]
    for k, seed, hand, agent in [(3, 44, "5", "first"), (2, 17, "5", "random")]:
        row = next(t for t in table if int(t["config"]) == k and int(t["seed"]) == seed)
        assert (row["param_hand_size"], row["agent_challenger"]) == (hand, agent)
        run = rulelang("run", "twenty-trials-small-hand", "--set", f"hand_size={hand}", "--agent",
                       f"challenger={agent}", "--seed", str(seed), "--json")
        outcome = json.loads(run.stdout)
        assert (row["result_challenger"], int(row["place_challenger"]), int(row["score_challenger"]),
                int(row["rounds"]), int(row["decisions"])) == \
            (outcome["results"]["challenger"], outcome["places"]["challenger"], outcome["scores"]["challenger"],
             outcome["rounds"], outcome["decisions"])
        assert row["ranked_by"] == outcome.get("ranked_by", "") and len(row["check"]) == 16


def test_the_summary_ranks_by_the_target_and_json_carries_every_interval(capsys):
    target = ["--target", "win_rate.challenger >= 10% and rounds < 19"]
    assert main([*SMALL, "--jobs", "1", *target]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "4 configurations × 40 games, the same seeds for each (5..44)"
    assert lines[1].startswith("target: win_rate.challenger >= 10% and rounds < 19 — met by ")
    header = lines[3].split()
    assert header[:3] == ["#", "hand_size", "agent"] and header[-1] == "target"
    assert main([*SMALL, "--jobs", "1", "--json", *target]) == 0
    data = json.loads(capsys.readouterr().out)
    results = data["results"]
    assert [d["target"]["met"] for d in results] == sorted((d["target"]["met"] for d in results), reverse=True)
    distances = [d["target"]["distance"] for d in results if not d["target"]["met"]]
    assert distances == sorted(distances)
    first = results[0]["figures"]["win_rate.challenger"]
    assert first["ci95"][0] <= first["value"] <= first["ci95"][1]
    assert [line.split()[0] for line in lines[4:8]] == [str(d["config"]) for d in results]


# ------------------------------------------------------------------ the same rows on every backend


@pytest.mark.slow  # a Dask cluster starts in seconds: the slow run
def test_local_and_dask_backends_write_byte_identical_rows(tmp_path):
    pytest.importorskip("distributed")
    suffix = "parquet" if importlib.util.find_spec("pyarrow") else "csv"  # Parquet goes through JSON Lines rows
    outputs = {}
    for name, where in [("one", ["--jobs", "1"]), ("two", ["--jobs", "2", "--chunk", "7"]),
                        ("dask", ["--dask", "local", "--jobs", "2"])]:
        out = tmp_path / f"{name}.{suffix}"
        r = rulelang(*SMALL, *where, "--out", str(out), "--json")
        assert r.returncode == 0, r.stderr
        outputs[name] = (out.read_bytes(), json.loads(r.stdout))
    assert outputs["one"] == outputs["two"] == outputs["dask"]
    assert not list(tmp_path.glob("*.partial.jsonl"))  # a finished Parquet file leaves no journal


def test_parquet_columns_are_typed(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "rows.parquet"
    assert rulelang(*SMALL, "--jobs", "1", "--out", str(out)).returncode == 0
    table = pq.read_table(out)
    types = {f.name: str(f.type) for f in table.schema}
    assert (types["config"], types["param_hand_size"], types["agent_challenger"], types["score_challenger"]) == \
        ("int64", "int64", "string", "int64")
    assert (types["ranked_by"], types["place_challenger"], types["check"]) == ("string", "int64", "string")
    assert table.num_rows == 160 and table.column("param_hand_size").to_pylist()[::40] == [3, 3, 5, 5]
    about = json.loads(table.schema.metadata[b"rulelang"])  # what made the rows, in the file's own metadata
    assert about["version"] == version() and len(about["runs"]) == 4
    assert about["runs"][3]["param_hand_size"] == 5 and about["runs"][3]["agent_challenger"] == "first"


# ------------------------------------------------------------------ an interrupted sweep


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
def test_an_interrupted_sweep_resumes_to_the_same_file(tmp_path):
    """Parquet's rows go to a JSON Lines journal until the sweep ends: both formats in one."""
    suffix = "parquet" if importlib.util.find_spec("pyarrow") else "jsonl"
    command = ["sweep", "twenty-trials-small-hand", "--grid", "hand_size=3,4,5", "--games", "600", "--jobs", "2"]
    whole = tmp_path / f"whole.{suffix}"
    r = rulelang(*command, "--out", str(whole), "--json")
    assert r.returncode == 0, r.stderr
    out = tmp_path / f"rows.{suffix}"
    journal = tmp_path / f"rows.{suffix}.partial.jsonl" if suffix == "parquet" else out
    proc = subprocess.Popen([sys.executable, "-m", "cli", *command, "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while proc.poll() is None and not (journal.exists() and journal.read_bytes().count(b"\n") > 700):
            time.sleep(0.01)
        assert proc.poll() is None, "the sweep finished before it could be killed: play more games"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert 700 < journal.read_bytes().count(b"\n") < 1800 and not (suffix == "parquet" and out.exists())
    resumed = rulelang(*command, "--out", str(out), "--json", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == whole.read_bytes()
    assert json.loads(resumed.stdout) == json.loads(r.stdout)
    # a finished sweep resumed again plays nothing, and writes the same file
    assert rulelang(*command, "--out", str(out), "--json", "--resume").stdout == r.stdout
    assert out.read_bytes() == whole.read_bytes()


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
def test_resume_refuses_the_rows_of_another_sweep(tmp_path):
    out = tmp_path / "rows.csv"
    assert rulelang(*SMALL, "--jobs", "1", "--out", str(out)).returncode == 0
    before = out.read_bytes()
    other = [a.replace("hand_size=3,5", "hand_size=3,6") for a in SMALL]
    r = rulelang(*other, "--out", str(out), "--resume")  # the chain of checks starts from every configuration
    assert r.returncode == 1 and "row 1 (config 0, seed 5) is not as this run writes it: it was written by " \
                                  "another run" in r.stderr, r.stderr
    r = rulelang(*[a.replace("5", "6") if a == "5" else a for a in SMALL], "--out", str(out), "--resume")
    assert r.returncode == 1 and "its row 1 is the game of config 0, seed 5, where this run's is the game of " \
                                  "config 0, seed 6" in r.stderr, r.stderr
    assert out.read_bytes() == before
    lines = before.decode().splitlines(keepends=True)
    lines[50] = lines[50].replace(",win,", ",lose,") if ",win," in lines[50] else lines[50].replace(",lose,", ",win,")
    out.write_text("".join(lines))  # a row edited: found as in simulate's rows (records.read_rows)
    r = rulelang(*SMALL, "--jobs", "1", "--out", str(out), "--resume")
    assert r.returncode == 1 and "row 50 (config 1, seed 14) is not as this run writes it: it was changed" \
        in r.stderr, r.stderr


def test_two_sweeps_writing_one_file_are_refused(tmp_path):
    """The lock of records.RowWriter, on the file (on the journal, for Parquet)."""
    from interpreter.analysis.records import open_rows
    from interpreter.analysis.sweep import plan as planned
    names = ["rows.csv"] + (["rows.parquet"] if importlib.util.find_spec("pyarrow") else [])
    fields = planned([("twenty-trials-small-hand", load_ruleset("twenty-trials-small-hand"))], {}, {}, 1).fields()
    for name in names:
        out = tmp_path / name
        writer = open_rows(str(out), fields)
        try:
            r = rulelang(*SMALL, "--jobs", "1", "--out", str(out))
            assert r.returncode == 1 and f"another rulelang run is writing {out}" in r.stderr, r.stderr
        finally:
            writer.close()


TABLE = """
game: table
title: Table
players: {count: 2..4, default: 3, names: [north, east, south, west]}
vars:
  turns: {initial: 0, owner: each}
modes:
  main:
    score: turns
    round:
      - step: Turns
        do: |
          for p in clockwise(north):
            turns of p += 1
          if round == 2:
            end game
"""


def test_a_count_of_players_is_swept_as_rulesets_and_rows_carry_places(tmp_path, capsys):
    path = tmp_path / "table.yaml"
    path.write_text(TABLE)
    r = rulelang("sweep", str(path), "--grid", "players=2,3", "--games", "3")
    assert r.returncode == 2 and "the number of players makes the roles" in r.stderr, r.stderr
    out = tmp_path / "rows.csv"
    r = rulelang("sweep", f"{path}:players=2", f"{path}:players=4", "--games", "3", "--jobs", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    table = rows(out.read_text())
    names = list(table[0])
    at = names.index("ranked_by")
    assert names[at:at + 5] == ["ranked_by", "result_north", "place_north", "score_north", "rating_north"]
    assert list(table[0])[-4:] == ["rounds", "decisions", "error", "check"] and all(t["check"] for t in table)
    assert [t["place_west"] for t in table] == ["", "", "", "1", "1", "1"]  # west sits only at a table of four


# ------------------------------------------------------------------ targets


def test_targets_are_parsed_not_evaluated():
    names = ["win_rate.challenger", "rounds", "measure.refreshes_used"]
    target = parse_target("25% <= win_rate.challenger <= 0.35 and (rounds > 2 * 7 or abs(rounds - 10) < 1)", names)
    assert target.distance({"win_rate.challenger": 0.3, "rounds": 15}) == (True, 0.0)
    met, off = target.distance({"win_rate.challenger": 0.2, "rounds": 12})
    assert not met and off == pytest.approx(0.05 + 1)  # 0.05 below the range; 12 is 2 from 14 and 1 from 11
    assert target.distance({"win_rate.challenger": 0.3}) == (False, float("inf"))  # a figure no game gave
    assert target.names() == ["win_rate.challenger", "rounds"]
    assert target.bands() == {"win_rate.challenger": (0.25, 0.35)}
    for text, message in [
        ("win_rate.challengr < 0.3", "no figure 'win_rate.challengr' (column 1)"),
        ("__import__('os').system('x')", "unexpected"),
        ("rounds", "a number, not a condition"),
        ("rounds < 3 and 4", "a number where a condition was expected"),
        ("0.2 <=", "the target ends too soon"),
        ("rounds <> 3", "unexpected '>' (column 9)"),
    ]:
        with pytest.raises(TargetError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_target(text, names)


def test_ranking_puts_the_target_met_first_then_the_nearest():
    def point(index, met, distance):
        return Point(type("C", (), {"index": index})(), {}, 0, met, distance)
    order = ranked([point(0, False, 0.3), point(1, True, 0.0), point(2, False, 0.1), point(3, True, 0.0)])
    assert [p.configuration.index for p in order] == [1, 3, 2, 0]


def test_agent_lists_read_options_with_commas():
    assert agent_lists(["challenger=random,greedy:samples=2,depth=1,mcts:iterations=50", "challenger=first"]) == \
        {"challenger": ["random", "greedy:samples=2,depth=1", "mcts:iterations=50", "first"]}


# ------------------------------------------------------------------ mistakes


@pytest.mark.parametrize("args, message", [
    (["--grid", "hand_sise=3,4"], "no ruleset of the sweep has a parameter 'hand_sise'; did you mean 'hand_size'?"),
    (["--grid", "hand_size=3,40"], "parameter 'hand_size': 40 is outside 2..8"),
    (["--grid", "hand_size"], "--grid expects PARAM=V1,V2,..., not 'hand_size'"),
    (["--grid", "hand_size=3", "--grid", "hand_size=4"], "--grid hand_size is given twice"),
    (["--grid", "hand_size=3", "--set", "hand_size=4"], "hand_size is both swept (--grid) and set (--set)"),
    (["--agent", "challenger=greedy,nonsense"], "--agent challenger: unknown agent 'nonsense'"),
    (["--agent", "trialmaster=random"], "no role 'trialmaster' in mode challenger"),
    (["--agent", "challenger=human"], "a sweep has no person in it"),
    (["--target", "win_rate.challenger"], "a number, not a condition"),
    (["--target", "0.2 < win_rat.challenger"], "no figure 'win_rat.challenger'"),
    (["--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"], "a --scheduler's cluster has its own"),
    (["--out", "x.txt"], "--out writes .csv, .jsonl, .json, .parquet files, not x.txt"),
    (["--resume"], "--resume continues the file of --out"),
    (["--chunk", "0"], "--chunk: expected a whole number from 1"),
    (["--jobs", "0"], "--jobs: expected a whole number from 1"),
    (["--seed", "x"], "--seed: expected a whole number"),
    (["--mode", "solo"], "has no mode 'solo'"),
])
def test_bad_sweep_command_lines(args, message, capsys):
    try:  # in this process: faster
        code = main(["sweep", "twenty-trials-small-hand", "--games", "5", *args])
    except SystemExit as exc:  # argparse's usage errors (the bounded numbers)
        code = exc.code
    assert code == 2
    stderr = capsys.readouterr().err
    assert message in stderr and "Traceback" not in stderr, stderr


def test_an_unreachable_scheduler_is_a_clear_error():
    pytest.importorskip("distributed")
    r = rulelang("sweep", "twenty-trials-small-hand", "--games", "5", "--scheduler", "tcp://127.0.0.1:9")
    assert r.returncode == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr, r.stderr


def test_missing_extras_say_how_to_get_them(tmp_path):
    """Without pyarrow or Dask installed (here: made unimportable), a clear message, before any game."""
    blocker = tmp_path / "blocked"
    blocker.mkdir()
    for name in ("pyarrow", "distributed"):
        (blocker / name).mkdir()
        (blocker / name / "__init__.py").write_text("raise ImportError('not installed')\n")
    env = dict(os.environ, PYTHONPATH=f"{blocker}{os.pathsep}{ROOT}")
    r = rulelang(*SMALL, "--out", str(tmp_path / "rows.parquet"), env=env)
    assert r.returncode == 2 and "pip install 'rulelang[parquet]'" in r.stderr, r.stderr
    r = rulelang(*SMALL, "--dask", "local", env=env)
    assert r.returncode == 2 and "pip install 'rulelang[dask]'" in r.stderr, r.stderr


@pytest.mark.slow
def test_a_cluster_of_scheduler_and_worker_processes_gives_the_same_rows(tmp_path):
    """As docs/sweeps.md starts one on several machines: `dask scheduler`, `dask worker`, `--scheduler`."""
    pytest.importorskip("distributed")
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    started = [subprocess.Popen([sys.executable, "-m", "dask", *command], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
               for command in (["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                               ["worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"])]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the scheduler listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        local = rulelang(*SMALL, "--jobs", "1", "--out", str(tmp_path / "local.csv"), "--json")
        remote = rulelang(*SMALL, "--scheduler", address, "--out", str(tmp_path / "remote.csv"), "--json")
        assert remote.returncode == 0, remote.stderr
        assert (tmp_path / "remote.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
        assert remote.stdout == local.stdout
    finally:
        for process in started:
            process.terminate()
            process.wait(timeout=30)


@pytest.mark.slow
def test_losing_the_last_dask_worker_is_one_plain_message(tmp_path):
    """No Dask chatter, no asyncio traceback: the backend says the cluster has no worker, once."""
    pytest.importorskip("distributed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port",
                                  str(port), "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # the run, in a process of its own as the command line runs it: its stderr is what a person sees
    code = f"""
import subprocess, sys, time
from interpreter.analysis.backends import BackendError, Dask
from interpreter.analysis.sweep import plan
from rulelang import load_ruleset
worker = subprocess.Popen([sys.executable, "-m", "dask", "worker", {address!r}, "--nthreads", "1", "--no-nanny",
                           "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
backend = Dask({address!r}, patience=3)
while not backend._threads():
    time.sleep(0.2)
sweep = plan([("twenty-trials", load_ruleset("twenty-trials"))], {{}}, {{}}, games=200_000)
try:
    for k, _ in enumerate(backend.run([c.setup for c in sweep.configurations], sweep.chunks(1, 50))):
        if k == 2:
            worker.kill()
except BackendError as exc:
    print("rulelang:", exc, file=sys.stderr)
backend.close()
"""
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        scheduler.kill()
        scheduler.wait(timeout=30)
    assert r.stderr.strip().splitlines() == [f"rulelang: the Dask cluster ({address}) has had no worker for 3 s; "
                                             "start workers, or use local processes (--jobs)"], r.stderr
