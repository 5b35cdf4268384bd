"""`rulelang run`, `play` and `replay`: one game at a time — headless, in the
terminal, or again from its log."""
from __future__ import annotations

import json
import re
import sys

from interpreter.agents.audit import false_claim
from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.agents.telling import render_ending
from interpreter.agents.terminal import HumanAgent, Quit
from interpreter.analysis.locks import LockedText, LockHeld
from interpreter.analysis.tally import outcome_label
from interpreter.engine.game import Game
from interpreter.engine.logs import GameLog, ReplayError, header, read_log, replay
from interpreter.engine.saves import SaveError, check_same_ruleset
from interpreter.engine.saves import load as load_save
from interpreter.engine.saves import restore as restore_state
from interpreter.engine.saves import save as save_state
from interpreter.engine.scenarios import scenario_of
from interpreter.engine.view import Viewer
from rulelang import RulesetError, apply_params, parse_assignments
from rulelang.files import bundled

from .common import (
    MOST_STEPS,
    UsageError,
    agent_kinds,
    build_game,
    distinct_outputs,
    game_args,
    load,
    loading_args,
    name,
    refuse_inputs,
    ruleset_args,
    scenario,
    whole,
)
from .output import Output


def run_arguments(p) -> None:
    ruleset_args(p)
    game_args(p)
    p.add_argument("--log", metavar="FILE", help="write the game as a JSON Lines log (replay it later)")
    p.add_argument("--log-as", type=name, metavar="ROLE",
                   help="with --log: write one role's log instead: what that role may know "
                        "(the others' options left out; not a replay)")
    p.add_argument("--save", metavar="FILE", help="save the game state to FILE when it stops")
    p.add_argument("--stop-at", type=whole(0, MOST_STEPS), metavar="N",
                   help="stop at decision N (with --save to keep it)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (its mode, seed and parameters)")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(command=cmd_run)


def play_arguments(p) -> None:
    ruleset_args(p)
    game_args(p)
    p.add_argument("--as", dest="role", type=name, metavar="ROLE", help="the role you play (default: the first)")
    p.add_argument("--log", metavar="FILE", help="write the game as a JSON Lines log")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (its mode, seed and parameters)")
    p.set_defaults(command=cmd_play)


def replay_arguments(p) -> None:
    p.add_argument("log", metavar="LOG")
    p.add_argument("--ruleset", metavar="RULESET",
                   help="the ruleset the log was played with (default: the bundled ruleset its header "
                        "names; replay opens no file a log names)")
    loading_args(p)
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument("--as", dest="role", type=name, metavar="ROLE",
                   help="print ROLE's log instead (JSON Lines): only what that role may know, "
                        "as `run --log-as ROLE` writes it")
    p.set_defaults(command=cmd_replay)


ARGUMENTS = {"run": run_arguments, "play": play_arguments, "replay": replay_arguments}


# ------------------------------------------------------------------ helpers


def zone_title(zone, ruleset) -> str:
    """A zone's title on the board: "Hand (the Challenger)" for a zone of one role, unless
    its title names the role already ("Trialmaster's hand")."""
    title = zone.text or zone.name.replace("_", " ")
    title = title[:1].upper() + title[1:]
    if zone.owner in (None, "each"):
        return title
    owner = _named(ruleset, zone.owner)
    named = re.search(rf"\b{re.escape(owner.removeprefix('the '))}\b", title, re.IGNORECASE)  # a word, not a part of one
    return title if named else f"{title} ({owner})"


def describe(outcome: dict) -> str:
    parts = [outcome_label(outcome)]
    for role, score in outcome["scores"].items():
        rating = outcome["ratings"].get(role)
        parts.append(f"{role} score {score}" + (f", rating {rating}" if rating else ""))
    parts.append(f"{outcome['rounds']} rounds, {outcome['decisions']} decisions")
    return " — ".join(parts)


def open_log(path: str | None, head: dict, role: str | None = None, batch: int = 1):
    """The file and the log; `batch` records are written at a time (a headless game's)."""
    if not path:
        return None, None
    try:
        f = Output(LockedText(path), path)  # locked: two runs writing one log would interleave their lines
    except LockHeld:
        raise UsageError(f"another rulelang run is writing the log {path}; write this one elsewhere") from None
    except OSError as exc:
        raise UsageError(f"cannot write the log {path}: {exc.strerror}") from None
    return f, GameLog(f, head, role, batch)


def resumed(args) -> tuple:
    """The ruleset under the saved parameters, and the save: a resumed game
    keeps its mode, seed and parameters, so the command line may only repeat them."""
    data = load_save(args.resume)
    saved = data.get("params")
    if not isinstance(saved, dict):
        raise SaveError(f"{args.resume} is damaged: its parameters are not a mapping")
    try:
        ruleset = load(args, params=saved)
    except RulesetError as exc:
        if any(d.span for d in exc.diagnostics):
            raise  # the ruleset itself is wrong
        raise SaveError(f"the parameters of {args.resume} do not fit the ruleset: "
                        f"{exc.diagnostics[0].message}") from None
    given = apply_params(ruleset, parse_assignments(args.set)).param_values
    check_same_ruleset(data, ruleset)
    conflicts = [f"--mode {args.mode} (saved: {data['mode']})"] if args.mode not in (None, data["mode"]) else []
    conflicts += [f"--seed {args.seed} (saved: {data['seed']})"] if args.seed not in (None, data["seed"]) else []
    conflicts += [f"--set {k}={v} (saved: {json.dumps(ruleset.param_values[k])})"
                  for k, v in parse_assignments(args.set).items() if given[k] != ruleset.param_values[k]]
    if conflicts:
        raise UsageError(f"{args.resume} continues a game with its own mode, seed and parameters, "
                         f"which the command line contradicts: {'; '.join(conflicts)}")
    return ruleset, data


# ------------------------------------------------------------------ commands


def start(args, history: bool = False) -> tuple:
    """The ruleset, the game, where it starts (a new game, a scenario's position, or a saved
    game: --resume) and the scenario it began from."""
    if not args.resume:
        found = scenario(args)
        ruleset = load(args)
        game = build_game(ruleset, args, history)
        seed = args.seed or 0
        return ruleset, game, seed, found.start(game, seed) if found else None, found
    ruleset, data = resumed(args)
    args.mode = data["mode"]
    game = build_game(ruleset, args, history)
    found = scenario_of(data["scenario"]) if "scenario" in data else None
    return ruleset, game, data["seed"], restore_state(game, data, args.resume), found


def cmd_run(args) -> int:
    if args.log_as is not None and not args.log:
        raise UsageError("--log-as ROLE writes that role's log: it goes with --log FILE")
    ruleset, game, seed, state, found = start(args)
    refuse_inputs({"--log": args.log, "--save": args.save}, ruleset, args)
    distinct_outputs({"--log": args.log, "--save": args.save})
    kinds = agent_kinds(game, args.agent)
    if "human" in kinds.values():
        raise UsageError("`run` plays headless; use `rulelang play` to play as a person")
    agents = {role: make_agent(kind, seed, role) for role, kind in kinds.items()}
    if args.log_as is not None and args.log_as not in game.roles:
        raise UsageError(f"--log-as: no role '{args.log_as}' in mode {game.mode.name} (roles: {', '.join(game.roles)})")
    log_file, log = open_log(args.log, header(ruleset, args.ruleset, game.mode.name, seed, kinds, found),
                             args.log_as, batch=256)
    try:
        st = play(game, seed, agents, state=state, log=log, stop_at=args.stop_at, timeout=args.decision_timeout)
    finally:
        if log_file:
            log.flush()  # what a game stopped short of its end (an error, --stop-at) has logged
            log_file.close()
    if args.save:
        save_state(args.save, ruleset, args.ruleset, game.mode.name, seed, kinds, st, game, found)
    if st.outcome is None:
        print(f"stopped at decision {st.decisions} (round {st.round}, {game.step_name(st)})"
              + (f"; saved to {args.save}" if args.save else ""))
        return 0
    print(json.dumps(st.outcome) if args.json else describe(st.outcome))
    return 0


def cmd_play(args) -> int:
    ruleset, game, seed, state, found = start(args, history=True)  # a person is told what the others did
    refuse_inputs({"--log": args.log}, ruleset, args)
    role = args.role or game.roles[0]
    if role not in game.roles:
        raise UsageError(f"no role '{role}' in mode {game.mode.name} (roles: {', '.join(game.roles)})")
    kinds = agent_kinds(game, args.agent)
    kinds[role] = "human"
    possible = game.possible  # zones no card can reach in this mode are not shown
    titles = {z.name: zone_title(z, ruleset) for z in ruleset.zones.values() if possible is None or possible.get(z.name)}
    viewer = Viewer(game)
    current: dict = {}

    def save(path: str) -> str:
        try:
            refuse_inputs({"save to": path}, ruleset, args)
            distinct_outputs({"--log": args.log, "save to": path})
            save_state(path, ruleset, args.ruleset, game.mode.name, seed, kinds, current["state"], game, found)
        except (SaveError, UsageError) as exc:
            return str(exc)
        return f"saved to {path}; continue with: rulelang play {args.ruleset} --resume {path}"

    agents = {r: HumanAgent(titles, save=save) if k == "human" else make_agent(k, seed, r) for r, k in kinds.items()}
    st = state if state is not None else game.new_state(seed)
    current["state"] = st
    print(f"{ruleset.title} — {game.mode.title}. You play {_named(ruleset, role)}. Type ? for help.")
    log_file, log = open_log(args.log, header(ruleset, args.ruleset, game.mode.name, seed, kinds, found))
    try:
        play(game, seed, agents, state=st, log=log, viewer=viewer, timeout=args.decision_timeout)
    except Quit:
        print("\nYou left the game.")
        return 0
    finally:
        if log_file:
            log_file.close()
    agents[role].show(viewer.observe(st, role), role, game)  # the last board, what happened since the last choice
    print("\n" + render_ending(st.outcome, role))
    return 0


def replayed_ruleset(args, head: dict) -> str:
    """What a log replays under. A log is data that may come from anywhere, so
    replay opens no file it names: the ruleset is the one --ruleset gives, or
    the bundled ruleset the header names — if the log was played with it (the
    bundled name, or a ruleset of the same text: the same hash)."""
    if args.ruleset:
        return args.ruleset
    name, path = head.get("ruleset"), head.get("path")
    if isinstance(name, str) and bundled(name) and (path in (None, name) or load(args, name, {}).source_hash
                                                    == head.get("hash")):
        return name
    raise UsageError(f"{args.log} was played with the ruleset {path or name!r}, and replay opens no file "
                     f"a log names: give it with --ruleset FILE")


def cmd_replay(args) -> int:
    logged = read_log(args.log)
    head = logged.head
    ruleset = load(args, replayed_ruleset(args, head), dict(head["params"]))
    if ruleset.name != head["ruleset"]:
        raise UsageError(f"{args.log} is a game of {head['ruleset']!r}, and {args.ruleset} is {ruleset.name!r}")
    game = Game(ruleset, head["mode"], cached=True)
    if args.role is not None and args.role not in game.roles:
        raise UsageError(f"--as: no role '{args.role}' in mode {game.mode.name} (roles: {', '.join(game.roles)})")
    claim = false_claim(game, head["seed"], head.get("agents", {}), logged.decisions)
    if claim:
        raise ReplayError(f"{args.log} was edited: {claim}")
    st = replay(game, logged, GameLog(sys.stdout, head, args.role) if args.role is not None else None)
    if args.role is not None:
        return 0  # stdout holds the player's log
    if st.outcome is None:
        print(f"play was stopped at decision {st.decisions} (round {st.round}); the game is not over")
        return 0
    print(json.dumps(st.outcome) if args.json else describe(st.outcome))
    if ruleset.source_hash != head["hash"]:
        print("note: the ruleset has changed since the log was written, but it still plays the same game")
    return 0


def _named(ruleset, role: str) -> str:
    """A role as the printed rules name it: "the Challenger", "Player 1" (not "the player_1")."""
    from generators.nouns import role_name  # (only `play` needs the printed names)
    found = next((r for r in ruleset.roles if r.name == role), None)
    return role_name(found) if found is not None else role.replace("_", " ")
