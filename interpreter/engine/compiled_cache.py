"""Compiled modes kept on disk: a game of a ruleset read from text gets its
compiled rules back from an entry instead of compiling them again, and so
never imports the compiler (its passes and code generator are most of what
a command costs before its first game, once the ruleset is read).

`compiled_rules` is the one way a `Game` gets its rules; every command,
`check`, the language server (through `check`) and the agents' adapters ask
through it. An entry's name says everything the compiled code depends on:
what the ruleset was read from (`Ruleset.digest`: its files' names and
texts, the parameters, the limits), the mode, the compiler's passes and
tuning, explicit chance, the step limit, the version of rulelang's source
(`disk_cache.code_version`) and Python's. A ruleset not read from text (made
or changed in Python: no digest), a game whose effects are watched (the
invariants, the sampler's), or a `Game(..., cached=False)` (`check
--no-cache`) compiles, as without a cache.

An entry holds, for each unit of generated code in the order made, its name,
notes, constants and code (`marshal`); then the compiled rules' tables; and
apart, the program the passes made (compiler/nodes.Program), read only if
asked for (a watch firing, the redeal agent). The constants are data: spans,
the decision and chance sites, tables, `itemgetter`s, and generated
functions, kept as the index of their unit (an entry names only units
before the one that uses them; a program's blocks by their place in what
their unit's function returns; the watch check by its conditions'). A
hit runs each unit's code, as compiling it does, in the namespace of the
prelude alone.

The trust is the read cache's (cli/read_cache.py, docs/reliability.md): an
entry is believed only from a file of this user that no one else may write,
of at most `MOST_BYTES`, whose HMAC-SHA256 under the folder's secret key is
right (disk_cache.recall); only then are its bytes unmarshalled and
unpickled, and the unpickler builds only the records named in `CONSTANTS`
(the program's: the IR's and the compiler's nodes). Anything else —
stale, truncated, planted, another user's — is no entry: the mode is
compiled and the entry written again, whole. `RULELANG_CACHE=off` turns it
off with the other caches.
"""
from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import marshal
import pickle
import sys
from pathlib import Path
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any, Callable

from rulelang import disk_cache, ir

from ..compiler import tuning
from ..compiler.compiled import UNITS, CompiledRules, Unit, watch_check
from ..compiler.options import CompileOptions
from ..runtime.layout import Layout

if TYPE_CHECKING:
    from ..compiler.nodes import Program

FORMAT = "rulelang-compiled-1"
KIND = "compiled"  # the cache's folder for these entries
MOST_ENTRIES = 256
MOST_BYTES = 16 << 20  # an entry: Hand of Fate's is 2.2 MB
# the classes an entry's constants and tables may hold (beside Python's own lists, tuples, dicts and sets)
CONSTANTS = frozenset({
    ("rulelang.errors", "Source"), ("rulelang.errors", "Span"), ("interpreter.compiler.notes", "Via"),
    ("interpreter.runtime.decision", "DecisionSite"), ("interpreter.runtime.chance", "ChanceSite"),
    ("interpreter.compiler.compiled", "StepStart"),
    ("interpreter.compiler.options", "CompileOptions"), ("interpreter.compiler.nodes", "Table"),
    ("operator", "itemgetter")})
PROGRAM_RECORDS = disk_cache.IR_RECORDS + ("interpreter.compiler.nodes", "interpreter.compiler.notes")
_TABLES = tuple(f.name for f in dataclasses.fields(CompiledRules) if f.name not in ("program_of", "units"))


def compiled_rules(ruleset: ir.Ruleset, mode: ir.Mode, layout: Layout, passes: CompileOptions,
                   effect=None, explicit_chance: bool = False, cached: bool = True) -> CompiledRules:
    """The mode's rules compiled (compiler/rules.compile_rules): from an entry when they were
    compiled so before, else compiled now (and kept, unless `effect` watches them or not `cached`)."""
    where = disk_cache.folder(KIND) if cached and effect is None else None
    name = _name(ruleset, mode, layout, passes, explicit_chance) if where is not None else None

    def compiled() -> CompiledRules:
        from ..compiler.rules import compile_rules  # (only a mode compiled needs the compiler)
        return compile_rules(ruleset, mode, layout, passes, effect, explicit_chance)
    if where is None or name is None:
        return compiled()
    found = _recall(where, name, lambda: compiled().program)
    if found is not None:
        return found
    rules = compiled()
    _remember(where, name, rules)
    return rules


def _name(ruleset: ir.Ruleset, mode: ir.Mode, layout: Layout, passes: CompileOptions,
          explicit_chance: bool) -> str | None:
    """The entry's name (None: the ruleset was not read from text, or rulelang's source cannot be looked at)."""
    version = disk_cache.code_version()
    if not ruleset.digest or version is None:
        return None
    knobs = sorted((k, v) for k, v in vars(tuning).items() if k.isupper())
    said = json.dumps([FORMAT, sys.version, version, ruleset.digest, mode.name, dataclasses.asdict(passes),
                       explicit_chance, layout.step_limit, knobs])
    return hashlib.sha256(said.encode()).hexdigest()


# ------------------------------------------------------------------ writing


class _Pickler(pickle.Pickler):
    """Pickles a generated function as the index of its unit (by its code's file name), and a
    program's block as (its unit's index, its place in the list that unit's function returns)."""

    def __init__(self, file, rules: CompiledRules):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.units = {u.name: i for i, u in enumerate(rules.units)}
        self.blocks = {id(fn): (self.units[fn.__code__.co_filename], k)
                       for blocks in rules.programs.values() for k, fn in enumerate(blocks)}

    def persistent_id(self, obj):
        if type(obj) is not FunctionType:
            return None
        conditions = getattr(obj, "watch_conditions", None)
        if conditions is not None:  # the watch check: made again of its conditions
            return ("watch", tuple(self.units[c.__code__.co_filename] for c in conditions))
        return self.blocks.get(id(obj)) or \
            (self.units.get(obj.__code__.co_filename) if obj.__code__.co_name == "_f" else None)


def _remember(where: Path, name: str, rules: CompiledRules) -> None:
    """Write the entry (whole, or not at all: what cannot be kept as data is compiled each time)."""
    units = rules.units
    if any(u.code is None for u in units):
        return
    out = io.BytesIO()
    try:
        pickler = _Pickler(out, rules)
        # one pickler for the whole: an object met twice (a site among the constants and the tables) is one
        pickler.dump((len(units), pickle.dumps(rules.program, protocol=pickle.HIGHEST_PROTOCOL)))
        for u in units:
            pickler.dump((u.name, u.what, u.lines, u.consts, marshal.dumps(u.code)))
        pickler.dump({t: getattr(rules, t) for t in _TABLES})
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError, KeyError):
        return  # (compiled each time)
    disk_cache.keep_headed(where, name, FORMAT, {}, out.getvalue(), MOST_BYTES, MOST_ENTRIES)


# ------------------------------------------------------------------ reading


class _Constants(disk_cache.Records):
    """Builds what `_Pickler` wrote: the records named in CONSTANTS, and each generated function
    from its unit, made before (`functions`, in the order of the units; a program's blocks are
    what its unit's function returns, as when compiled)."""

    def __init__(self, data: bytes):
        super().__init__(data, (), CONSTANTS)
        self.functions: list[Callable] = []
        self.blocks: dict[int, list] = {}

    def persistent_load(self, pid):
        if type(pid) is int and 0 <= pid < len(self.functions):
            return self.functions[pid]
        if type(pid) is tuple and len(pid) == 2 and pid[0] == "watch" and type(pid[1]) is tuple:
            return watch_check(tuple(self.persistent_load(i) for i in pid[1]))
        if type(pid) is tuple and len(pid) == 2 and type(pid[0]) is int and 0 <= pid[0] < len(self.functions):
            if pid[0] not in self.blocks:
                self.blocks[pid[0]] = self.functions[pid[0]](None, None)
            return self.blocks[pid[0]][pid[1]]
        raise pickle.UnpicklingError("an entry names only the units before")


def _recall(where: Path, name: str, again: Callable[[], Program]) -> CompiledRules | None:
    found = disk_cache.recall_headed(where, name, FORMAT, MOST_BYTES)
    if found is None:
        return None
    try:
        return _rebuilt(found[1], again)
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is no entry: the mode is compiled
        return None


def _rebuilt(payload: bytes, again: Callable[[], Program]) -> CompiledRules:
    from ..compiler.prelude import GLOBALS
    reader = _Constants(payload)
    count, program = reader.load()
    units = []
    for _ in range(count):
        old, what, lines, consts, data = reader.load()
        code = marshal.loads(data)
        if not isinstance(code, CodeType) or not isinstance(consts, list):
            raise ValueError("not a unit")
        # a name of its own in this process, as compiling gives (linecache finds each unit's notes by it)
        unit_name = f"{old.rpartition('#')[0]}#{next(UNITS)}"
        code = _renamed(code, unit_name)
        unit = Unit(unit_name, what, lines, consts, code)
        namespace: dict[str, Any] = dict(GLOBALS, __name__=unit_name, __loader__=unit)
        exec(code, namespace)  # noqa: S102 - code this cache's key signed, generated by rulelang
        made = namespace["_make"](consts)
        made.rules_title = what
        reader.functions.append(made)
        units.append(unit)
    tables = reader.load()
    return CompiledRules(program_of=_Program(program, again), units=tuple(units), **tables)


def _renamed(code: CodeType, file: str) -> CodeType:
    """The code, and the code of each function in it, under another file name."""
    return code.replace(co_filename=file, co_consts=tuple(
        _renamed(c, file) if isinstance(c, CodeType) else c for c in code.co_consts))


class _Program:
    """The program the passes made, unpickled when first asked for (compiled again if it cannot be)."""

    def __init__(self, data: bytes, again: Callable[[], Program]):
        self.data: bytes | None = data
        self.again = again
        self.value: Program | None = None

    def __call__(self) -> Program:
        if self.value is None:
            from ..compiler.nodes import Program
            try:
                found = disk_cache.Records(self.data or b"", PROGRAM_RECORDS, CONSTANTS).load()
            except Exception:  # noqa: BLE001 - (it was signed: only a change of rulelang's classes gets here)
                found = None
            self.value = found if isinstance(found, Program) else self.again()
            self.data = None
        return self.value
