"""What `rulelang check` said of a text it passed, kept on disk, so that
checking the same text again costs reading its files, not the ruleset.

An entry says: this text (the ruleset's file and every file of its
`extends:` chain, byte for byte), checked with these options under this
version of rulelang and this Python, passed, and `check` printed this. It
is looked up before anything is parsed, by a name made of what `check` is
asked, all known before reading the ruleset (`Asked.name`):

* the ruleset's path as named and as found, and the SHA-256 of its bytes;
* the command line's parameters (`--set`), limits (`--limit`), folders
  (`--extends-dir`) and the options that change what is printed
  (`--strict-text`, `--texts`);
* the source of rulelang itself (`code_version`: every `.py` and `.lark` file
  of the front end, the interpreter and the command line, by its name, size
  and time of last change, as Python's own bytecode cache knows a source
  unchanged), so a changed compiler never trusts an old verdict; the
  installed PyYAML and Lark, which read the text; and Python's version, whose
  bounds the compiler meets.

The files a ruleset `extends:` are named in the text itself, so the entry
holds each link of the chain (the file, the name its `extends:` gives, the
file found, the SHA-256 of its bytes); before it is believed, each name is
looked up again as the loader would and each file hashed again.

An entry is data, never code: JSON of strings, numbers and lists, read with
`json` and refused unless its shape is exactly that of an entry, its name is
its own, and it is at most `MOST_BYTES`. It carries an HMAC-SHA256 made with
a secret key of this cache (created with the cache, readable by its owner
only), and entries and key are believed only from files of this user that
others cannot write: an entry someone else planted or edited, one copied
from another cache, one truncated or damaged is no entry, and the ruleset is
checked and compiled again. What an entry holds is printed as it is: the
lines `check` wrote (warnings and the summary) and the JSON of its report.

Entries are written whole (a temporary file renamed onto the name), only
for texts that passed, and the oldest are removed past `MOST_ENTRIES`.
Where: `$RULELANG_CACHE_DIR`, else `$XDG_CACHE_HOME/rulelang`, else
`~/.cache/rulelang`; `RULELANG_CACHE=off` or `check --no-cache` turns it
off. A cache that cannot be read or written is no cache: `check` checks, as
it would without one.

The folder, the key, the checks of a file's owner and the whole writes are
rulelang/disk_cache.py's, shared with the cache of rulesets read
(read_cache.py) and the grammar's tables, each in a folder of its own.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
from pathlib import Path

from rulelang import disk_cache
from rulelang.disk_cache import code_version
from rulelang.records import record

MOST_ENTRIES = 4096
MOST_BYTES = 1 << 20  # an entry: a few warnings and a summary line (a bigger one is neither written nor read)
FORMAT = "rulelang-checked-2"
KIND = "checked"  # its folder in the cache folder (rulelang/disk_cache.py)


@record
class Outcome:
    """What `check` says of one ruleset: its report and problems in `--format json`
    (JSON records), and the lines it writes to standard error and output as text."""
    report: dict
    problems: tuple[dict, ...]
    err: tuple[str, ...]
    out: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return bool(self.report.get("ok"))


@record
class Link:
    """One `extends:` of a ruleset's chain: the file that says it, the name it gives,
    the file that name was found to be, and the SHA-256 of that file's text."""
    variant: str
    ref: str
    base: str
    digest: str


@record
class Asked:
    """What `check` is asked of one ruleset, as the command line says it."""
    ref: str
    sets: tuple[str, ...]
    limits: tuple[str, ...]
    extends_dirs: tuple[str, ...]
    options: tuple[str, ...]  # the options that change what is printed

    def name(self, path: Path, data: bytes) -> str | None:
        """The entry's name for the ruleset file at `path` holding `data` (None: none can be trusted)."""
        version = code_version()
        if version is None:
            return None
        said = json.dumps([FORMAT, sys.version, version, self.ref, str(path), os.path.abspath(path),
                           hashlib.sha256(data).hexdigest(), self.sets, self.limits,
                           [os.path.abspath(d) for d in self.extends_dirs], self.options])
        return hashlib.sha256(said.encode()).hexdigest()


def recall(name: str | None, root: Path, extends_dirs, file_bytes: int) -> Outcome | None:
    """The outcome an entry of that name holds, if it is whole, this cache's own, and every
    file of the ruleset's `extends:` chain is as it was (None: check the ruleset)."""
    where = disk_cache.folder(KIND)
    if where is None or name is None:
        return None
    key = disk_cache.secret(where, make=False)
    data = disk_cache.own_file(where / name, MOST_BYTES) if key is not None else None
    if data is None:
        return None
    try:
        entry = json.loads(data)
        outcome, links = _read(entry, name)
        if not hmac.compare_digest(entry["mac"], _mac(key, entry)):
            return None
    except (ValueError, TypeError, KeyError, RecursionError):  # (JSON nested a million deep: no entry either)
        return None
    return outcome if chain_holds(links, root, extends_dirs, file_bytes) else None


def chain_holds(links: tuple[Link, ...], root: Path, extends_dirs, file_bytes: int) -> bool:
    """Whether every `extends:` of a ruleset's chain still names the file it named, holding the same bytes."""
    from rulelang.errors import RulesetError
    from rulelang.files import Folders, Unreadable, read_bytes
    folders = Folders.around(root, extends_dirs)
    try:
        for link in links:  # looked up again, as the loader does, and read again
            found = folders.find(link.ref, Path(link.variant), None)
            if str(found) != link.base or \
                    hashlib.sha256(read_bytes(found, file_bytes, "a ruleset")).hexdigest() != link.digest:
                return False
    except (RulesetError, Unreadable, OSError):
        return False
    return True


def remember(name: str | None, links: tuple[Link, ...], outcome: Outcome) -> None:
    """Write the entry of a ruleset that passed (whole, or not at all), and keep the cache within its bound."""
    where = disk_cache.folder(KIND)
    if where is None or name is None or not outcome.ok:
        return
    try:
        key = disk_cache.secret(where, make=True)
        if key is None:
            return
        entry = {"format": FORMAT, "name": name, "links": [[k.variant, k.ref, k.base, k.digest] for k in links],
                 "report": outcome.report, "problems": list(outcome.problems), "err": list(outcome.err),
                 "out": list(outcome.out)}
        entry["mac"] = _mac(key, entry)
        data = json.dumps(entry).encode()
        if len(data) <= MOST_BYTES:
            disk_cache.write_whole(where, name, data, MOST_ENTRIES)
    except OSError:
        pass  # a read-only or full disk: no cache, the same verdicts


def _read(entry, name: str) -> tuple[Outcome, tuple[Link, ...]]:
    """The outcome and links of an entry, if its shape is exactly an entry's (else ValueError)."""
    if not isinstance(entry, dict) or set(entry) != {"format", "name", "links", "report", "problems", "err",
                                                     "out", "mac"}:
        raise ValueError("not an entry")
    if entry["format"] != FORMAT or entry["name"] != name or not isinstance(entry["mac"], str):
        raise ValueError("not this entry")
    links = tuple(Link(*_strings(k, 4)) for k in _list(entry["links"]))
    report, problems = entry["report"], _list(entry["problems"])
    if not isinstance(report, dict) or report.get("ok") is not True or \
            not all(isinstance(p, dict) for p in problems):
        raise ValueError("not a report")
    return Outcome(report, tuple(problems), _strings(entry["err"]), _strings(entry["out"])), links


def _list(value) -> list:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return value


def _strings(value, count: int | None = None) -> tuple[str, ...]:
    if not all(isinstance(v, str) for v in _list(value)) or count is not None and len(value) != count:
        raise ValueError("not strings")
    return tuple(value)


def _mac(key: bytes, entry: dict) -> str:
    said = json.dumps({k: v for k, v in entry.items() if k != "mac"}, sort_keys=True)
    return hmac.new(key, said.encode(), hashlib.sha256).hexdigest()
