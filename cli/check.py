"""`rulelang check`: load, check and compile rulesets, and report every problem —
as text for people, or as JSON (`--format json`) for CI and other tools; and
`rulelang lsp`, the language server editors start.

Compiling finds what only the code generator can (Python's own bounds), so
`check` compiles modes — but only the compilations that can differ, so its
cost follows the text of the ruleset, not what the text multiplies:

* A ruleset with a number of players (`players: 2..4`) is read (parsed once,
  checked at each count) at the fewest and at the most players, and compiled
  at the most. Names that exist only from some count on (a mode's
  `roles: [player_4]`) are found by reading at the fewest. What only a
  compilation finds is Python's bound on nesting (20 loops inside one
  another), met where the rules nest deepest: the rules grow with the count
  (a loop over the players, a zone each player has: with one player the loop
  is folded away), so the bound is met first at the most. Rules that run
  only below the most (`if count(players) == 1:` nesting 20 loops) are
  compiled, and such an error reported, when a game is played at that count,
  as for any count in between (`--set players=N` checks one count).
* Modes with the same rules (YAML aliases of one mode, copies under other
  names and titles) compile to the same program: each is compiled once.

* What passed once is not checked again: cache.py keeps, on disk, what
  `check` printed of each text it passed (at these options, under this
  version of rulelang), looked up from the files' bytes before anything is
  parsed (`RULELANG_CACHE`, `--no-cache`).

`compiled` is the one place `check` compiles a mode.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from typing import TYPE_CHECKING

from rulelang.errors import RulesetError
from rulelang.files import Unreadable, find_ruleset, read_bytes

from . import cache
from .common import UsageError, limits, loading_args, ruleset_args

if TYPE_CHECKING:  # (the front end is imported when a ruleset is read: not when `check` knows the text)
    from rulelang import ir
    from rulelang.variants import Tree


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
    p.add_argument("--no-cache", action="store_true",
                   help="check and compile every ruleset, without reading or writing what was checked before "
                        "(as RULELANG_CACHE=off; docs/reliability.md)")
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
        from rulelang.params import parse_assignments
        params = parse_assignments(args.set)
    except RulesetError as exc:
        if text:
            raise
        params, problems = None, [_problem(d, None) for d in exc.diagnostics]
    refs = args.ruleset if params is not None else []
    for i, ref in enumerate(refs):
        outcome = _outcome(args, ref, params, last=i == len(refs) - 1)
        reports.append(outcome.report)
        problems += outcome.problems
        if text:
            for line in outcome.err:
                print(line, file=sys.stderr)
            for line in outcome.out:
                print(line)
    if not text:
        print(json.dumps({"rulesets": reports, "problems": problems}, indent=2))
    return 2 if any(p["severity"] == "error" for p in problems) else 0


def _outcome(args, ref: str, params: dict, last: bool) -> cache.Outcome:
    """What `check` says of one ruleset: as it said before of the same text and options
    (cache.py), or found now (and remembered if it passed). What checking the `last` ruleset built
    is left to the end of the command: collecting it walks every object the check made (a sixth of a
    cold check of Hand of Fate) to free cycles that the process's end frees anyway."""
    asked = cache.Asked(ref, tuple(args.set), tuple(getattr(args, "limit", None) or ()),
                        tuple(getattr(args, "extends_dir", ())),
                        tuple(o for o in ("strict_text", "texts") if getattr(args, o)))
    name = data = None
    if not args.no_cache:
        try:
            path, most = find_ruleset(ref), limits(args).file_bytes
            data = read_bytes(path, most, "a ruleset")
            name = asked.name(path, data)
            remembered = cache.recall(name, path, asked.extends_dirs, most)
        except (RulesetError, Unreadable, OSError):
            remembered = None  # the check below says what is wrong
        if remembered is not None:
            return remembered
    import gc
    from rulelang.collector import collector_paused
    with collector_paused():  # reading, linting and compiling build trees of objects with nothing to free
        found = _found(args, ref, params, name, data)
        if last:
            gc.freeze()  # (`main` unfreezes it when it was called by code that goes on)
    return found


def _found(args, ref: str, params: dict, name: str | None, data: bytes | None) -> cache.Outcome:
    """What `check` finds of one ruleset now (remembered if it passed and `name` is its entry's)."""
    from rulelang import lint, pins
    try:
        tree, rs, counts = _checked(args, ref, params)
    except RulesetError as exc:
        return cache.Outcome({"ruleset": ref, "ok": False}, tuple(_problem(d, ref) for d in exc.diagnostics),
                             (exc.format(),), ())
    stale = set(pins.stale(rs)) if args.strict_text else set()  # --strict-text: stale texts are errors
    warnings = [dataclasses.replace(w, severity="error") if w in stale else w for w in lint.warnings(rs)]
    found, err = tuple(_problem(w, ref) for w in warnings), tuple(w.format() for w in warnings)
    if stale:
        return cache.Outcome({"ruleset": ref, "ok": False}, found, err, ())
    summary = _summary(ref, rs, params, counts)
    out = tuple(f"{t.span}: {t.what}: {t.current} "
                f"({'not pinned' if t.checked is None else 'stale' if t.stale else 'checked'})"
                for t in (pins.texts(rs) if args.texts else ())) + (summary,)
    outcome = cache.Outcome({"ruleset": ref, "ok": True, "files": list(rs.files), "summary": summary},
                            found, err, out)
    if data is not None and tree.sources[-1].text.encode("utf-8") == data:  # what was hashed is what was read
        texts = {s.name: s.text for s in tree.sources}
        cache.remember(name, tuple(cache.Link(variant, base_ref, base, _digest(texts[base]))
                                   for variant, base_ref, base in tree.links), outcome)
    return outcome


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _problem(d, ref: str | None) -> dict:
    from queries.problems import Problem  # the editors' records: one format for every front door
    return Problem.of(d, _file(ref)).as_json()


def _checked(args, ref: str, params: dict) -> tuple[Tree, ir.Ruleset, list[int | None]]:
    """The ruleset's files, the ruleset as the command line sets it (RulesetError if it,
    or any compilation that can differ, fails), and the player counts it was read at."""
    from rulelang.loader import read_ruleset
    from rulelang.variants import read_tree
    tree = read_tree(find_ruleset(ref), limits(args), getattr(args, "extends_dir", ()))  # read at every count
    rs = read_ruleset(tree, params, limits(args))
    counts = [rs.param_values.get("players")]
    if rs.players is not None and "players" not in params:
        counts = sorted({rs.players.low, rs.players.high})
    seated = rs
    for n in counts:  # read at each count; compiled at the last, the most players
        seated = rs if n == rs.param_values.get("players") else \
            read_ruleset(tree, {**params, "players": str(n)}, limits(args))
    done: set = set()
    for mode in seated.modes.values():
        same = rules_of(mode)
        if same not in done:
            done.add(same)
            compiled(seated, mode.name, cached=not args.no_cache)
    return tree, rs, counts


def rules_of(mode: ir.Mode) -> ir.Mode:
    """What a mode compiles from: the mode without its name and what it says to people."""
    return dataclasses.replace(mode, name="", title="", text=None, assumed=None, quick=())


def compiled(ruleset: ir.Ruleset, mode: str, cached: bool = True) -> None:
    """Compile a mode (`cached`: or find it compiled before, in the cache of compiled modes: an entry
    is only ever written for a mode that compiled)."""
    from interpreter.engine.game import Game  # (only what is compiled needs the interpreter)
    Game(ruleset, mode, cached=cached)


def _summary(ref: str, rs, params: dict, counts) -> str:
    modes = ", ".join(rs.modes)
    who = f"players: {rs.players.low}..{rs.players.high}" if rs.players is not None and len(counts) > 1 \
        else f"roles: {', '.join(r.name for r in rs.roles)}"
    return (f"{ref}: ok — {rs.title}; modes: {modes}; {who}; "
            f"{_n(rs.cards, 'component')} of {_n(rs.card_types, 'type')}; {_n(rs.zones, 'zone')}; "
            f"{_n(rs.params, 'parameter')}; {_n(rs.rulings, 'ruling')}")


def _n(things, noun: str) -> str:
    return f"{len(things)} {noun}" + ("" if len(things) == 1 else "s")


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

