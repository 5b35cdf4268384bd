"""`rulelang check`: load, check and compile rulesets, and report every problem —
as text for people, or as JSON (`--format json`) for CI and other tools; and
`rulelang lsp`, the language server editors start.

Compiling finds what only the code generator can (Python's own bounds), so
`check` compiles modes — but only the compilations that can differ, so its
cost follows the text of the ruleset, not what the text multiplies:

* A ruleset with a number of players (`players: 2..4`) is read at the
  fewest and at the most players. Names that exist only from some count on
  (a mode's `roles: [player_4]`) are found at the fewest; the rules grow with
  the count (a loop over the players, a zone each player has), so Python's
  bounds are met first at the most. A count in between is read and compiled
  when a game is played at it (`--set players=N`), as any count is.
* Modes with the same rules (YAML aliases of one mode, copies under other
  names and titles) compile to the same program: each is compiled once.

* What was read and compiled cleanly once is not again: cache.py keeps, on
  disk, which texts (at which parameters) passed under which version of
  rulelang (`RULELANG_CACHE`).

`compiled` is the one place `check` compiles a mode.
"""
from __future__ import annotations

import dataclasses
import json
import sys

from rulelang import RulesetError, ir, lint, parse_assignments, pins
from rulelang.files import find_ruleset

from . import cache
from .common import UsageError, limits, load, loading_args, ruleset_args


def check_arguments(p) -> None:
    ruleset_args(p, many=True)
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: every problem as data on standard output — file, range, severity, message, "
                        "hint (docs/editors.md)")
    p.add_argument("--strict-text", action="store_true",
                   help="a text whose rules changed since it was checked is an error, not a warning (for CI)")
    p.add_argument("--texts", action="store_true",
                   help="list every hand-written text with the fingerprint of the rules it describes "
                        "(to pin a text: write `checked: FINGERPRINT` beside it)")
    p.set_defaults(command=cmd_check)


def lsp_arguments(p) -> None:
    p.add_argument("--stdio", action="store_true", help="talk on standard input and output (the default)")
    loading_args(p)
    p.set_defaults(command=cmd_lsp)


ARGUMENTS = {"check": check_arguments, "lsp": lsp_arguments}


def cmd_check(args) -> int:
    text = args.format == "text"
    reports, problems = [], []
    try:
        params = parse_assignments(args.set)
    except RulesetError as exc:
        if text:
            raise
        params, problems = None, [(None, d) for d in exc.diagnostics]
    for ref in args.ruleset if params is not None else ():
        try:
            rs, counts = _checked(args, ref, params)
        except RulesetError as exc:
            problems += [(ref, d) for d in exc.diagnostics]
            reports.append({"ruleset": ref, "ok": False})
            if text:
                print(exc.format(), file=sys.stderr)
            continue
        stale = set(pins.stale(rs)) if args.strict_text else set()  # --strict-text: stale texts are errors
        warnings = [dataclasses.replace(w, severity="error") if w in stale else w for w in lint.warnings(rs)]
        problems += [(ref, w) for w in warnings]
        if text:
            for warning in warnings:
                print(warning.format(), file=sys.stderr)
        if stale:
            reports.append({"ruleset": ref, "ok": False})
            continue
        summary = _summary(ref, rs, params, counts)
        reports.append({"ruleset": ref, "ok": True, "files": list(rs.files), "summary": summary})
        if text:
            if args.texts:
                for t in pins.texts(rs):
                    state = "not pinned" if t.checked is None else "stale" if t.stale else "checked"
                    print(f"{t.span}: {t.what}: {t.current} ({state})")
            print(summary)
    if not text:
        from queries.problems import Problem  # the editors' records: one format for every front door
        found = [Problem.of(d, _file(ref)).as_json() for ref, d in problems]
        print(json.dumps({"rulesets": reports, "problems": found}, indent=2))
    return 2 if any(d.severity == "error" for _, d in problems) else 0


def _checked(args, ref: str, params: dict) -> tuple[ir.Ruleset, list[int | None]]:
    """The ruleset as the command line sets it (RulesetError if it, or any
    compilation that can differ, fails), and the player counts it was read at."""
    rs = load(args, ref, params)
    counts = [rs.param_values.get("players")]
    if rs.players is not None and "players" not in params:
        counts = sorted({rs.players.low, rs.players.high})
    entry = cache.key(rs, params, counts, limits(args))
    if cache.known(entry):
        return rs, counts  # read and compiled cleanly before, as it is now
    done: set = set()
    for n in counts:
        seated = rs if n == rs.param_values.get("players") else load(args, ref, {**params, "players": str(n)})
        for mode in seated.modes.values():
            same = (n, rules_of(mode))
            if same not in done:
                done.add(same)
                compiled(seated, mode.name)
    cache.remember(entry)
    return rs, counts


def rules_of(mode: ir.Mode) -> ir.Mode:
    """What a mode compiles from: the mode without its name and what it says to people."""
    return dataclasses.replace(mode, name="", title="", text=None, assumed=None, quick=())


def compiled(ruleset: ir.Ruleset, mode: str) -> None:
    from interpreter.engine.game import Game  # (only what is compiled needs the interpreter)
    Game(ruleset, mode)


def _summary(ref: str, rs, params: dict, counts) -> str:
    modes = ", ".join(rs.modes)
    who = f"players: {rs.players.low}..{rs.players.high}" if rs.players is not None and len(counts) > 1 \
        else f"roles: {', '.join(r.name for r in rs.roles)}"
    return (f"{ref}: ok — {rs.title}; modes: {modes}; {who}; "
            f"{len(rs.cards)} components of {len(rs.card_types)} types; {len(rs.zones)} zones; "
            f"{len(rs.params)} parameters; {len(rs.rulings)} rulings")


def _file(ref: str | None) -> str | None:
    """The file a ruleset's unplaced problems are about (None: no file of that name)."""
    if ref is None:
        return None
    try:
        return str(find_ruleset(ref))
    except RulesetError:
        return None


def cmd_lsp(args) -> int:
    try:
        import pygls  # noqa: F401 - the extra it needs

        import langserver
    except ImportError:
        raise UsageError("the language server needs the lsp extra: pip install 'rulelang[lsp]'") from None
    langserver.serve(args.extends_dir, limits(args))
    return 0

