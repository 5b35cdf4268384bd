"""The playground's web application: a page of static files, and a small
JSON API over the folder served, the shared analysis, the generators, the
engine and the simulations.

    app = create_app(Folder.at("."), token)    # an ASGI application (Starlette)

Every request is guarded (guard.py); every answer about a game is made
from one seat's observation (tables.py).
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.agents.asking import AgentError
from interpreter.engine.saves import SaveError, check_same_ruleset, restore
from interpreter.engine.saves import load as load_save
from interpreter.engine.scenarios import read_scenario, scenario_of
from interpreter.runtime.errors import RuleError
from rulelang import RulesetError
from rulelang.files import bundled

from . import documents, editing
from .folder import Folder, Refused, bundled_rulesets
from .guard import Guard, TooLarge
from .jobs import Busy, Jobs
from .rulesets import Named, Rulesets, describe
from .tables import PERSON, Table, Tables, new_seed, seat_spec
from .tables import Refused as NotAllowed

STATIC = Path(__file__).resolve().parent / "static"
MOST_GAMES = 1_000_000  # games of one simulation from the page
MOST_SEED = 10**18 - 1


class Playground:
    """What the routes share: the folder, its rulesets, the tables, the documents, the jobs."""

    def __init__(self, folder: Folder, opened: str | None = None):
        self.folder, self.opened = folder, opened
        self.rulesets = Rulesets(folder)
        self.tables = Tables()
        self.documents = documents.Documents()
        self.jobs = Jobs()

    def message(self, text: str) -> str:
        """An error as the page shows it: files by their names in the folder."""
        return text.replace(str(self.folder.root) + "/", "")


def create_app(folder: Folder, token: str, port: int, opened: str | None = None) -> Guard:
    pg = Playground(folder, opened)

    def api(work):
        """A JSON endpoint: the request's JSON in, `work(pg, data)` run off the event loop, JSON out."""
        async def endpoint(request: Request) -> Response:
            try:
                data = json.loads(await request.body() or b"{}")
            except TooLarge as exc:
                return JSONResponse({"error": str(exc)}, 413)
            except ValueError:
                return JSONResponse({"error": "the request is not JSON"}, 400)
            if not isinstance(data, dict):
                return JSONResponse({"error": "the request is not a JSON object"}, 400)
            try:
                return JSONResponse(await run_in_threadpool(work, pg, data))
            except RulesetError as exc:
                return JSONResponse({"error": pg.message(exc.format()),
                                     "problems": [editing.problem_json(pg.rulesets, d) for d in exc.diagnostics]}, 400)
            except RuleError as exc:
                return JSONResponse({"error": pg.message(exc.diagnostic.format())}, 400)
            except (Refused, NotAllowed, SaveError, AgentError, Busy, KeyError, TypeError, ValueError) as exc:
                return JSONResponse({"error": pg.message(str(exc))}, 400)
        return endpoint

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def document(request: Request) -> Response:
        data = pg.documents.get(request.path_params["name"])
        if data is None:
            return Response("gone: read it again", 404, media_type="text/plain")
        return Response(data, media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": documents.DOCUMENT_POLICY,
                                 "x-frame-options": "SAMEORIGIN"})

    routes = [Route("/", index), Route("/doc/{name:str}", document),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    routes += [Route(f"/api/{name}", api(work), methods=["POST"]) for name, work in API.items()]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        pg.jobs.close()  # a simulation does not outlive the server

    app = Starlette(routes=routes, lifespan=lifespan)
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    return Guard(app, token, hosts)


# ------------------------------------------------------------------ files and the editor


def files(pg: Playground, data: dict) -> dict:
    return {"folder": pg.folder.root.name, "files": pg.folder.files(), "bundled": bundled_rulesets(),
            "opened": pg.opened}


def open_file(pg: Playground, data: dict) -> dict:
    name = str(data.get("path", ""))
    return {"path": name, "text": pg.folder.read(name), "writable": pg.folder.writable(name)}


def save_file(pg: Playground, data: dict) -> dict:
    text = data.get("text")
    if not isinstance(text, str):
        raise Refused("nothing to save")
    return {"saved": pg.folder.write(str(data.get("path", "")), text)}


def check(pg: Playground, data: dict) -> dict:
    """The diagnostics of the editor's text: a ruleset's from the shared analysis, a scenario's from its reader."""
    return {"problems": editing.problems(pg.rulesets, pg.folder, str(data.get("path", "")), data.get("text"),
                                         data.get("ruleset"))}


def info(pg: Playground, data: dict) -> dict:
    return describe(pg.rulesets.ruleset(Named.of(data)))


# ------------------------------------------------------------------ read


def read(pg: Playground, data: dict) -> dict:
    rs = pg.rulesets.ruleset(Named.of(data))
    mode = data.get("mode") or None
    if mode is not None and mode not in rs.modes:
        raise Refused(f"no mode '{mode}'")
    name = pg.documents.rules(rs, mode, bool(data.get("quick")))
    return {"doc": f"/doc/{name}", "title": rs.title}


def cards(pg: Playground, data: dict) -> dict:
    return documents.cards(pg.rulesets.ruleset(Named.of(data)))


# ------------------------------------------------------------------ play


def _seats(data: dict) -> dict[str, str]:
    seats = data.get("seats") or {}
    if not isinstance(seats, dict):
        raise Refused("seats are a mapping of roles to `person` or an agent")
    return {str(k): seat_spec(str(v)) for k, v in seats.items()}


def _seed(data: dict) -> int:
    seed = data.get("seed")
    if seed in (None, ""):
        return new_seed()  # kept by the table, never sent: it would tell the deal
    if isinstance(seed, str) and seed.strip().isdigit():
        seed = int(seed.strip())
    if type(seed) is not int or not 0 <= seed <= MOST_SEED:
        raise Refused("a seed is a whole number of at most 18 digits")
    return seed


def _scenario(pg: Playground, data: dict):
    name = data.get("scenario")
    if not name:
        return None
    return read_scenario(pg.folder.read(str(name)), str(pg.folder.resolve(str(name))))


def play_new(pg: Playground, data: dict) -> dict:
    named = Named.of(data)
    found = _scenario(pg, data)
    if found is not None and found.params:
        named = Named(named.name, named.text, tuple(sorted({**dict(named.params), **found.params}.items())))
    game = pg.rulesets.game(named, data.get("mode") or (found.mode if found else None))
    table = Table(game, named.name, _seed(data), _seats(data), found)
    key = pg.tables.add(table)
    return _after(table, key, data.get("seat") or _first_person(table))


def _first_person(table: Table) -> str:
    return next((r for r, s in table.seats.items() if s == PERSON), table.game.roles[0])


def _after(table: Table, key: str, seat: str) -> dict:
    """Agents play on (a bounded number of decisions), then the seat's view."""
    with table.lock:
        thinking = table.play_agents()
        view = table.view(seat)
    return {"table": key, "thinking": thinking, **view}


def play_view(pg: Playground, data: dict) -> dict:
    key = str(data.get("table", ""))
    return _after(pg.tables.get(key), key, str(data.get("seat", "")))


def play_answer(pg: Playground, data: dict) -> dict:
    key, seat = str(data.get("table", "")), str(data.get("seat", ""))
    table = pg.tables.get(key)
    with table.lock:
        table.answer(seat, data.get("option"))
    return _after(table, key, seat)


def play_undo(pg: Playground, data: dict) -> dict:
    key, seat = str(data.get("table", "")), str(data.get("seat", ""))
    table = pg.tables.get(key)
    with table.lock:
        table.undo(seat)
        return {"table": key, "thinking": False, **table.view(seat)}


def play_save(pg: Playground, data: dict) -> dict:
    table = pg.tables.get(str(data.get("table", "")))
    name = str(data.get("name", ""))
    if not name.endswith(".json"):
        raise Refused("a saved game is a .json file")
    with table.lock:
        record = table.save()
    return {"saved": pg.folder.write(name, json.dumps(record))}


def play_load(pg: Playground, data: dict) -> dict:
    """A saved game of the folder (the command line's format), checked and played again to where it stopped."""
    name = str(data.get("path", ""))
    saved = load_save(str(pg.folder.resolve(name)))
    ruleset = str(data.get("ruleset") or saved.get("path") or "")
    if not ruleset.startswith("bundled:") and not (pg.folder.root / ruleset).is_file() and bundled(ruleset):
        ruleset = f"bundled:{ruleset}"  # saved as the command line names a bundled ruleset
    named = Named(ruleset, data.get("text") if isinstance(data.get("text"), str) else None,
                  tuple(sorted((k, str(v).lower() if isinstance(v, bool) else str(v))
                               for k, v in saved["params"].items())))
    game = pg.rulesets.game(named, saved["mode"])
    check_same_ruleset(saved, game.ruleset)
    restore(game, saved, name)  # every answer checked against the options offered then
    seats = {role: PERSON if spec == "human" else spec for role, spec in saved["agents"].items()}
    found = scenario_of(saved["scenario"]) if "scenario" in saved else None
    table = Table(game, named.name, saved["seed"], {**seats, **_seats(data)}, found)
    table.replay_answers(saved["answers"])
    key = pg.tables.add(table)
    return _after(table, key, data.get("seat") or _first_person(table))


# ------------------------------------------------------------------ simulate and compare


def simulate(pg: Playground, data: dict) -> dict:
    games = data.get("games")
    if type(games) is not int or not 1 <= games <= MOST_GAMES:
        raise Refused(f"games: a whole number from 1 to {MOST_GAMES:,}")
    entries = data.get("entries")
    if not isinstance(entries, list) or not 1 <= len(entries) <= 4:
        raise Refused("simulate one ruleset, or compare two to four")
    plays = []
    for entry in entries:
        named = Named.of(entry)
        rs = pg.rulesets.ruleset(named)  # checked here, its problems located for the page
        plays.append({"label": str(entry.get("label") or named.name)[:80], "path": str(pg.folder.path_of(named.name)),
                      "text": pg.rulesets.text(named), "params": dict(named.params)})
        if data.get("mode") and data["mode"] not in rs.modes:
            raise Refused(f"{named.name} has no mode '{data['mode']}'")
    agents = {str(k): seat_spec(str(v)) for k, v in (data.get("agents") or {}).items() if v != PERSON}
    request = {"entries": plays, "games": games, "seed": _seed({"seed": data.get("seed") or 0}),
               "mode": data.get("mode") or None, "agents": agents}
    return {"job": pg.jobs.start(request)}


def job_status(pg: Playground, data: dict) -> dict:
    job = pg.jobs.get(str(data.get("job", "")))
    if job is None:
        raise Refused("no such simulation")
    return job.status()


def job_cancel(pg: Playground, data: dict) -> dict:
    job = pg.jobs.get(str(data.get("job", "")))
    if job is None:
        raise Refused("no such simulation")
    job.cancel()
    return job.status()


API = {"files": files, "open": open_file, "save": save_file, "check": check, "info": info, "read": read,
       "cards": cards, "play/new": play_new, "play/view": play_view, "play/answer": play_answer,
       "play/undo": play_undo, "play/save": play_save, "play/load": play_load, "simulate": simulate,
       "jobs/status": job_status, "jobs/cancel": job_cancel}
