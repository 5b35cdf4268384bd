"""What `rulelang check` has read and compiled cleanly before, kept on disk
so that checking a ruleset again costs reading it once.

An entry says one thing: this ruleset, at these parameters, was read at
each of these numbers of players and every mode compiled there, without an
error, under this version of rulelang and this Python. Its name is the
SHA-256 of all of that:

* the ruleset's text (every file of its `extends:` chain: `source_hash`) and
  the files' paths, the parameters the command line set, the numbers of
  players `check` reads it at, and the front end's limits (`--limit`);
* the source of rulelang itself (every `.py` file of the front end, the
  interpreter and the command line, which says what `check` compiles), so a
  changed compiler never trusts an old verdict;
* Python's version, whose own bounds (nesting) the compiler meets.

The entry's content is its own name: one that is truncated, damaged or
written by something else does not match and is compiled again. It holds no
code and nothing that runs: the worst a planted entry can do is spare
`check` one compilation, and the mode is compiled (and its error reported)
when a game is played. Entries are written whole (a temporary file renamed
onto the name), and the oldest are removed past `MOST_ENTRIES`.

Where: `$RULELANG_CACHE_DIR`, else `$XDG_CACHE_HOME/rulelang`, else
`~/.cache/rulelang`; `RULELANG_CACHE=off` turns it off. A cache that cannot
be read or written is no cache: `check` compiles, as it would without one.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from rulelang import ir
from rulelang.limits import Limits

MOST_ENTRIES = 4096  # 65 bytes each
FORMAT = "rulelang-checked-1"


def folder() -> Path | None:
    """Where the entries are (None: the cache is turned off)."""
    if os.environ.get("RULELANG_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    base = os.environ.get("RULELANG_CACHE_DIR")
    if base:
        return Path(base) / "checked"
    xdg = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    except RuntimeError:  # no home to keep it in
        return None
    return root / "rulelang" / "checked"


@lru_cache(maxsize=1)
def code_version() -> str | None:
    """The SHA-256 of rulelang's own source: the front end's, the interpreter's and the command
    line's (None: a file of it cannot be read, so no verdict can be trusted to be this version's)."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    try:
        for package in ("rulelang", "interpreter", "cli"):
            for path in sorted((root / package).rglob("*.py")):
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()


def key(ruleset: ir.Ruleset, params: dict, counts: list, limits: Limits) -> str | None:
    """The name of the entry for `ruleset` as read with `params` (the command line's) under
    `limits`, checked at each of `counts` players (None: no entry can be trusted)."""
    version = code_version()
    if version is None:
        return None
    said = json.dumps([FORMAT, sys.version, version, ruleset.source_hash, list(ruleset.files),
                       params, counts, repr(limits)], sort_keys=True, default=repr)
    return hashlib.sha256(said.encode()).hexdigest()


def known(name: str | None) -> bool:
    """Whether an entry of that name is there, whole."""
    where = folder()
    if where is None or name is None:
        return False
    try:
        with open(where / name, "rb") as f:
            return f.read(100) == name.encode() + b"\n"
    except (OSError, ValueError):
        return False


def remember(name: str | None) -> None:
    """Write the entry (whole, or not at all), and keep the cache within its bound."""
    where = folder()
    if where is None or name is None:
        return
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temporary = tempfile.mkstemp(dir=where, prefix=".", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(name.encode() + b"\n")
            os.replace(temporary, where / name)
        except BaseException:
            os.unlink(temporary)
            raise
        _prune(where)
    except OSError:
        pass  # a read-only or full disk: no cache, the same verdicts


def _prune(where: Path) -> None:
    entries = list(os.scandir(where))
    if len(entries) <= MOST_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat().st_mtime)
    for entry in entries[:len(entries) - MOST_ENTRIES // 2]:  # half at a time: not on every write
        try:
            os.unlink(entry.path)
        except OSError:
            pass
