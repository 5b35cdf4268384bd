"""Game logs as JSON Lines, and replaying them.

A log is a header (ruleset, its hash, mode, parameters, seed, agents), one
line per decision (who, what, the index chosen and the option's text) and
the outcome; before each decision (and the outcome), one line per roll and
random pick since the decision before it. A game begun from a scenario
(scenarios.py) has it in the header: its text in the referee's log, which
replays from it, and only its name and hash in a player's log. Replaying feeds the logged choices
back and fails loudly at the first decision, roll or pick the ruleset no
longer makes the same way.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from rulelang import ir
from rulelang.errors import RulesetError
from rulelang.files import Unreadable, read_bytes

from ..runtime.chance import Decided, Told, since_decision, since_own
from ..runtime.state import State
from .game import Game
from .view import Viewer

if TYPE_CHECKING:  # (a scenario is read, with YAML, only when a log has one)
    from .scenarios import Scenario

LOG_FORMAT = "rulelang-log/1"
LOG_BYTES = 64 * 2**20  # about 300,000 decisions: far more than a game makes


def header(ruleset: ir.Ruleset, path: str | None, mode: str, seed: int, agents: dict[str, str],
           scenario: Scenario | None = None) -> dict:
    head = {"type": "header", "format": LOG_FORMAT, "ruleset": ruleset.name, "path": path,
            "hash": ruleset.source_hash, "mode": mode, "params": dict(ruleset.param_values),
            "seed": seed, "agents": agents}
    if scenario is not None:
        head["scenario"] = scenario.record()
    return head


class GameLog:
    """The referee's log (every decision in full: a replay), or with `role`
    one player's log: its own decisions in full, and of the others' who
    decided what label and the option as that player is told of it once play
    goes on (a card named only if the player then sees it, else as a hidden
    card). Rolls are public; a picked card is named in a player's log only if
    that player sees it.

    A log costs what its records cost: a decision's record is one `json.dumps`
    of the option's text, the rest made once a game. `batch` records are kept
    and written together, whole lines only, so a log cut short (a killed
    process) still ends at a record's end; `flush` writes what is kept (the
    outcome does)."""

    def __init__(self, out: IO[str], head: dict, role: str | None = None, batch: int = 1):
        self.out, self.role, self.batch = out, role, max(1, batch)
        self._lines: list[str] = []
        self._said: dict = {}  # (step, role, label, at) -> the record's middle, as JSON
        self.told = None  # another's decision: its record but the option, written once play has gone on
        if role is not None and "scenario" in head:  # its text may name cards this player cannot see
            head = dict(head, scenario={k: head["scenario"][k] for k in ("name", "hash")})
        self.write(head if role is None else dict(head, log_of=role))

    def write(self, record: dict) -> None:
        self._add(json.dumps(record))

    def _add(self, line: str) -> None:
        self._lines.append(line)
        if len(self._lines) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if self._lines:
            self.out.write("\n".join(self._lines) + "\n")
            self._lines.clear()
        self.out.flush()

    def chance(self, viewer: Viewer, st: State) -> None:
        """The rolls and picks since the last decision, and what was revealed or announced."""
        if st.events is not None:
            for e in since_own(st.events):
                if type(e) is Told:
                    record = viewer.told(st, e, self.role, everything=self.role is None)
                elif type(e) is Decided:
                    continue
                else:
                    record = viewer.chance_event(st, e, self.role, everything=self.role is None)
                self.write({"type": record["type"], "n": st.decisions, **record})

    def decision(self, game: Game, viewer: Viewer, st: State, index: int) -> None:
        """The record of a decision (made as `json.dumps` of {"type": "decision", "n", "round",
        "step", "role", "label"[, "at", "choice"], "option"[, "options"]} would make it)."""
        self.tell(viewer, st)
        if st.events is not None:
            self.chance(viewer, st)
        d = st.pending
        full = self.role is None or d.role == self.role  # another role's record: who, what label, what is seen
        step = game.step_name(st)
        key = (step, d.role, d.site, full)
        middle = self._said.get(key)
        if middle is None:
            middle = self._said[key] = (f', "step": {json.dumps(step)}, "role": {json.dumps(d.role)}, '
                                        f'"label": {json.dumps(d.site.label)}'
                                        + (f', "at": {json.dumps(d.site.at)}' if full else ""))
        line = f'{{"type": "decision", "n": {st.decisions}, "round": {st.round}{middle}'
        if full:
            option = viewer.option(st, index) if self.role is None else viewer.option(st, index, self.role)
            self._add(line + f', "choice": {index}, "option": {json.dumps(option)}, "options": {len(d.options)}}}')
        else:  # another's: the option as this player sees it once play has gone on from it
            env = st.stack[-1].env
            self.told = (line, Decided(d.role, d.site, d.options[index], tuple(env[n] for n in d.site.reads)))

    def tell(self, viewer: Viewer, st: State) -> None:
        """Write another's decision, its option as this player sees it now."""
        if self.told is not None:
            line, decided = self.told
            self.told = None
            self._add(line + f', "option": {json.dumps(viewer.choice(st, decided, self.role)["option"])}}}')

    def outcome(self, viewer: Viewer, st: State) -> None:
        self.tell(viewer, st)
        self.chance(viewer, st)
        self.write({"type": "outcome", **st.outcome})
        self.flush()

    def stopped(self, viewer: Viewer, st: State) -> None:
        """Play stopped before the end, as asked (`run --stop-at`): the log ends here, whole."""
        self.chance(viewer, st)
        self.write({"type": "stop", "n": st.decisions})


@dataclass
class LoggedGame:
    head: dict
    decisions: list[dict]
    outcome: dict | None
    chance: list[dict]  # the rolls and picks, in order; each `n` is the number of decisions before it
    stopped: bool = False  # it ends where play was stopped (`run --stop-at`), not at the game's end


class ReplayError(Exception):
    pass


def read_log(path: str) -> LoggedGame:
    try:
        text = read_bytes(path, LOG_BYTES, "a game log").decode("utf-8")
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (Unreadable, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ReplayError(f"cannot read the log {path}: {exc}") from None
    except RecursionError:
        raise ReplayError(f"{path} is not a rulelang game log: its JSON is nested too deeply") from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        raise ReplayError(f"{path} is damaged: it holds a number of more than 4,300 digits") from None
    if not records or not isinstance(records[0], dict) or records[0].get("type") != "header" \
            or records[0].get("format") != LOG_FORMAT:
        raise ReplayError(f"{path} is not a rulelang game log (no '{LOG_FORMAT}' header)")
    if "log_of" in records[0]:
        raise ReplayError(f"{path} is {records[0]['log_of']}'s log, which leaves out the others' choices; "
                          "only a full log (without --log-as) replays")
    for k, record in enumerate(records, 1):
        problem = _problem(record) or _out_of_order(record, k, records)
        if problem:
            raise ReplayError(f"{path} is damaged: record {k} {problem}")
    last = records[-1].get("type")
    if last not in ("outcome", "stop"):
        raise ReplayError(f"{path} is cut short: it ends without the game's outcome (the run that wrote it was "
                          "stopped, or the file was cut); it replays only whole")
    return LoggedGame(records[0], [r for r in records if r.get("type") == "decision"],
                      records[-1] if last == "outcome" else None,
                      [r for r in records if r.get("type") in ("roll", "pick")], last == "stop")


def _out_of_order(record: dict, k: int, records: list) -> str | None:
    """What is out of place: a header after the first record, a record after the
    end, a decision not numbered as the decisions before it count, a roll or
    pick numbered otherwise than the decisions before it."""
    kind = record.get("type")
    if kind == "header" and k > 1:
        return "is a second header"
    if k > 1 and records[k - 2].get("type") in ("outcome", "stop"):
        return f"({kind}) comes after the end of the game"
    if kind == "header" or kind == "outcome":
        return None
    decided = sum(1 for r in records[:k - 1] if r.get("type") == "decision")
    if record["n"] != decided:
        return f"({kind}) is numbered {record['n']}, but {decided} decisions come before it"
    return None


def _whole(v, low=0) -> bool:
    return type(v) is int and low <= v < 10**18


def _text(v) -> bool:
    return isinstance(v, str) and len(v) < 100_000


# what each kind of record must hold, and of what type: a log is read from anyone
_FIELDS = {
    "header": {"ruleset": _text, "hash": _text, "mode": _text, "seed": _whole,
               "params": lambda v: isinstance(v, dict) and all(
                   _text(k) and (type(x) is bool or _whole(x, -10**18) or _text(x)) for k, x in v.items())},
    "decision": {"n": _whole, "round": _whole, "step": _text, "role": _text, "label": _text},
    "roll": {"n": _whole, "die": _text, "faces": lambda v: isinstance(v, list) and all(type(f) is int for f in v)},
    "pick": {"n": _whole, "picked": _text},
    "reveal": {"n": _whole},
    "announce": {"n": _whole},
    "outcome": {},
    "stop": {"n": _whole},
}
_FULL = {"choice": _whole, "options": _whole, "option": lambda v: v is None or _text(v)}  # a decision, in full


def _problem(record) -> str | None:
    """What is wrong with a record of a log, if anything."""
    if not isinstance(record, dict):
        return "is not a mapping"
    kind = record.get("type")
    if kind not in _FIELDS:
        return f"is of no kind a log holds ({str(kind)[:40]!r})"
    fields = dict(_FIELDS[kind], **(_FULL if kind == "decision" else {}))
    for name, ok in fields.items():
        if name not in record or not ok(record[name]):
            return f"({kind}) has no valid '{name}'" if name not in record else \
                f"({kind}) has '{name}' of the wrong type or range: {json.dumps(record[name])[:40]}"
    return None


def replay(game: Game, logged: LoggedGame, log: GameLog | None = None) -> State:
    """Re-play the logged choices; raise ReplayError where the game differs.
    `log` writes the game again as it goes: a player's log (`GameLog(...,
    role)`) projects a referee's log onto what that player may know."""
    viewer = Viewer(game)
    st = _start(game, logged.head)
    for record in logged.decisions:
        same_chance(viewer, st, logged.chance, f"before decision {record['n']}")
        d = game.decision(st)
        if d is None:
            raise ReplayError(f"decision {record['n']}: the log continues, but the game is already over")
        index = record["choice"]
        offered = len(d.options)
        option = viewer.option(st, index) if 0 <= index < offered else None
        if (d.role, d.label, offered, option) != (record["role"], record["label"], record["options"],
                                                   record["option"]):
            raise ReplayError(
                f"decision {record['n']} (round {record['round']}, {record['step']}): the log has "
                f"{record['role']} answer '{record['label']}' with '{record['option']}' "
                f"(option {index + 1} of {record['options']}), but the ruleset now asks {d.role} "
                f"'{d.label}' ({d.at}) with {offered} options" + (f", option {index + 1} being '{option}'" if option else ""))
        if log is not None:
            log.decision(game, viewer, st, index)
        game.apply(st, index)
    same_chance(viewer, st, logged.chance, "at the end" if st.outcome is not None else "after the last decision")
    if logged.outcome is not None:
        expected = {k: v for k, v in logged.outcome.items() if k != "type"}
        if st.outcome != expected:
            raise ReplayError(f"the replayed game ends {st.outcome}, the log says {expected}")
    if logged.stopped and st.outcome is not None:
        raise ReplayError(f"the log says play stopped at decision {st.decisions}, but the replayed game ends there")
    if log is not None:
        if st.outcome is not None:
            log.outcome(viewer, st)
        else:
            log.stopped(viewer, st)
    return st


def _start(game: Game, head: dict) -> State:
    """The logged game's first position: its scenario's, or the rules' own."""
    record = head.get("scenario")
    if record is None:
        return game.new_state(head["seed"])
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise ReplayError("the log's scenario is not one a log holds (its name, hash, path and text)")
    from .scenarios import scenario_of
    try:
        return scenario_of(record).start(game, head["seed"])
    except RulesetError as exc:
        raise ReplayError(f"the log's scenario does not fit the ruleset: {exc.diagnostics[0].message}") from None


def same_chance(viewer: Viewer, st: State, logged: list[dict], where: str) -> None:
    """Raise ReplayError unless the game rolled and picked, since the last
    decision, what the log says (the dice and what was picked, not the lines)."""
    now = [_said(viewer.chance_event(st, e, None, everything=True)) for e in since_decision(st.events or [])]
    then = [_said(r) for r in logged if r.get("n") == st.decisions]
    if now != then:
        raise ReplayError(f"{where} (round {st.round}): the log has {'; '.join(then) or 'no roll or pick'}, "
                          f"but the ruleset now makes {'; '.join(now) or 'none'}")


def _said(record: dict) -> str:
    if record.get("type") == "roll":
        return f"a roll of {record.get('die')}: {record.get('faces')}"
    return f"a pick: {record.get('picked')!r}"
