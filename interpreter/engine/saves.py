"""A game saved at a decision, as JSON, and resumed later — by playing it again.

A save is a replay: the ruleset (its name and hash), the mode, parameters
and seed, and every answer given so far. Resuming starts a new game from
that seed and answers each decision as saved, checking each answer is one
of the options the rules offer then; where play stops must be where the
save says it stopped (decision, round, step). So a save cannot be edited
into a state no play reaches — an extra card in a hand, a deck in another
order, a counter changed, a card where its zone's `holds:` forbids it:
there is no state in the file to edit. Editing the answers or the seed
gives another game the rules allow, as playing it would; a `check` (a hash
of the rest) catches a save changed by accident or by hand, but is not a
signature — anyone with this code can make it again.

A game begun from a scenario (scenarios.py) carries the scenario's text, and
resumes from it; so a save can hold no position that a scenario could not.

Everything read is checked for its type and range before use: a damaged or
edited save is a `SaveError` naming what is wrong, never an internal error.
"""
from __future__ import annotations

import hashlib
import json

from rulelang import ir
from rulelang.errors import RulesetError
from rulelang.files import Unreadable, read_bytes

from ..runtime.errors import RuleError
from ..runtime.state import State
from .game import Game
from .invariants import InvariantBroken
from .scenarios import Scenario, scenario_of

SAVE_FORMAT = "rulelang-save/2"
OLD_FORMAT = "rulelang-state/1"  # a state, as saved before issue 20: refused (it could be edited at will)
SAVE_BYTES = 16 * 2**20
MOST_ANSWERS = 1_000_000  # a game of more decisions than this is a runaway, not a save
KEYS = ("format", "ruleset", "path", "hash", "mode", "params", "seed", "agents", "answers", "at", "check")
OPTIONAL = ("scenario",)  # written only when there is one: a save without it reads as before


class SaveError(Exception):
    pass


def save(path: str, ruleset: ir.Ruleset, ruleset_path: str | None, mode: str, seed: int,
         agents: dict[str, str], st: State, game: Game | None = None, scenario: Scenario | None = None) -> None:
    data = record(ruleset, ruleset_path, mode, seed, agents, st, game, scenario)
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror}") from None


def record(ruleset: ir.Ruleset, ruleset_path: str | None, mode: str, seed: int, agents: dict[str, str],
           st: State, game: Game | None = None, scenario: Scenario | None = None) -> dict:
    """What a save holds, as data (`save` writes it)."""
    at = {"decisions": st.decisions, "round": st.round,
          "step": game.step_name(st) if game is not None else None}
    data = {"format": SAVE_FORMAT, "ruleset": ruleset.name, "path": ruleset_path,
            "hash": ruleset.source_hash, "mode": mode, "params": dict(ruleset.param_values),
            "seed": seed, "agents": agents, "answers": st.answers(), "at": at}
    if scenario is not None:
        data["scenario"] = scenario.record()
    data["check"] = _check(data)
    return data


def _check(data: dict) -> str:
    body = json.dumps({k: data.get(k) for k in (*KEYS, *(k for k in OPTIONAL if k in data)) if k != "check"},
                      sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()[:32]


def load(path: str) -> dict:
    """The saved record, every field checked for its type (`restore` plays it again)."""
    try:
        data = json.loads(read_bytes(path, SAVE_BYTES, "a saved game"))
    except (Unreadable, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read the saved game {path}: {exc}") from None
    except RecursionError:
        raise SaveError(f"{path} is not a saved rulelang game: its JSON is nested too deeply") from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        raise SaveError(f"{path} is damaged: it holds a number of more than 4,300 digits") from None
    if isinstance(data, dict) and data.get("format") == OLD_FORMAT:
        raise SaveError(f"{path} was saved by an older rulelang, as a game state; states are no longer "
                        "resumed (one could be edited into a game no play reaches): play the game again "
                        "from its log (rulelang replay LOG) or its seed")
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path} is not a saved rulelang game")
    problems = _problems(data)
    if problems:
        raise SaveError(f"{path} is damaged: {problems[0]}")
    if data["check"] != _check(data):
        raise SaveError(f"{path} is damaged or was edited: its check does not match what it holds "
                        "(a save is resumed only as it was written)")
    return data


def _problems(data: dict) -> list[str]:
    """What is not of the type and range a save holds."""
    def text(v, empty=False):
        return isinstance(v, str) and (empty or v != "") and len(v) < 1000

    def whole(v, low=0, high=10**18 - 1):
        return type(v) is int and low <= v <= high

    out = [f"'{k}' is missing" for k in KEYS if k not in data]
    out += [f"it holds '{_short(k)}', which no save holds" for k in data if k not in KEYS + OPTIONAL]
    if out:
        return out
    if not text(data["ruleset"]) or not text(data["hash"]):
        out.append("its ruleset's name and hash must be text")
    if not (data["path"] is None or text(data["path"])):
        out.append("its ruleset's path must be text")
    if not text(data["mode"]):
        out.append(f"its mode must be a name, not {_short(data['mode'])}")
    params = data["params"]
    if not isinstance(params, dict) or not all(
            text(k) and (type(v) in (int, bool) and (type(v) is bool or whole(v, -10**18 + 1)) or text(v, True))
            for k, v in params.items()):
        out.append("its parameters must be a mapping of names to numbers, true/false or text")
    if not whole(data["seed"]):
        out.append(f"its seed must be a whole number of at most 18 digits, not {_short(data['seed'])}")
    if not isinstance(data["agents"], dict) or not all(text(k) and text(v) for k, v in data["agents"].items()):
        out.append("its agents must be a mapping of roles to agent names")
    answers = data["answers"]
    if not isinstance(answers, list) or len(answers) > MOST_ANSWERS or \
            not all(whole(a, -(10**9), 10**9) for a in answers):
        out.append(f"its answers must be a list of at most {MOST_ANSWERS:,} whole numbers (option indexes)")
    at = data["at"]
    if not isinstance(at, dict) or set(at) != {"decisions", "round", "step"} or not whole(at["decisions"]) \
            or not whole(at["round"]) or not (at["step"] is None or text(at["step"])):
        out.append("where it stopped ('at') must give the decisions, round and step")
    if not text(data["check"]):
        out.append("its check must be text")
    scenario = data.get("scenario")
    if "scenario" in data and not (isinstance(scenario, dict) and set(scenario) == {"name", "hash", "path", "text"}
                                   and all(text(v) for k, v in scenario.items() if k != "text")
                                   and isinstance(scenario["text"], str) and len(scenario["text"]) <= SAVE_BYTES):
        out.append("its scenario must give the scenario's name, hash, path and text")
    return out


def _short(value) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


def restore(game: Game, data: dict, path: str) -> State:
    """The saved game, played again from its seed with its answers, under the very
    ruleset that saved it (from its scenario, if it began from one); each answer checked
    against the options offered then."""
    st = start(game, data, path)
    for n, answer in enumerate(data["answers"], 1):
        try:
            if st.chance is not None:
                if answer >= 0:
                    raise SaveError(f"answer {n} is {answer}, but a chance event is pending there")
                game.apply_chance(st, -1 - answer)
                continue
            d = game.decision(st)
            if d is None:
                raise SaveError(f"it holds {len(data['answers']):,} answers, but the game ends after {n - 1:,}")
            if not 0 <= answer < len(d.options):
                raise SaveError(f"answer {n} is {answer}, but decision '{d.label}' ({d.at}) has "
                                f"{len(d.options)} options (0..{len(d.options) - 1})")
            game.apply(st, answer)
        except SaveError as exc:
            raise SaveError(f"{path} is damaged or was edited: {exc}") from None
        except (RuleError, InvariantBroken) as exc:
            raise SaveError(f"{path} is damaged or was edited: played again, answer {n} ends in an error of "
                            f"the rules: {exc.diagnostic.message}") from None
    at = {"decisions": st.decisions, "round": st.round, "step": game.step_name(st)}
    said = data["at"]
    if (said["decisions"], said["round"]) != (at["decisions"], at["round"]) or \
            said["step"] is not None and said["step"] != at["step"]:
        raise SaveError(f"{path} is damaged or was edited: it says it stopped at decision {said['decisions']:,} "
                        f"(round {said['round']:,}, {said['step']}), but its answers lead to decision "
                        f"{at['decisions']:,} (round {at['round']:,}, {at['step']})")
    return st


def start(game: Game, data: dict, path: str) -> State:
    """A saved game's first position: its scenario's, or the rules' own."""
    if "scenario" not in data:
        return game.new_state(data["seed"])
    try:
        return scenario_of(data["scenario"]).start(game, data["seed"])
    except RulesetError as exc:
        raise SaveError(f"{path} is damaged or was edited: its scenario does not fit the ruleset: "
                        f"{exc.diagnostics[0].message}") from None
    except (RuleError, InvariantBroken) as exc:
        raise SaveError(f"{path}: its scenario ends in an error of the rules: {exc.diagnostic.message}") from None


def check_same_ruleset(data: dict, ruleset: ir.Ruleset) -> None:
    if data["hash"] != ruleset.source_hash:
        raise SaveError(f"the saved game was played under another version of {data['ruleset']} "
                        f"(hash {data['hash']}, now {ruleset.source_hash}); it cannot resume")
