"""Rulesets read before, kept on disk: a command that plays a ruleset whose text
it has read before (run, simulate, compare, sweep, play...) gets its checked
IR back instead of parsing and checking the text again.

Reading and checking is most of what a command costs before its first game
(Twenty Trials: about 0.17 s of 0.4 s, and the import of YAML, Lark and the
front end's readers besides); the IR back from an entry costs about 0.01 s.

An entry is the ruleset as `rulelang.load_ruleset` returns it, for one text
read with one set of parameters and limits. Its name is made, as `check`'s
(cache.py), of everything that can change what is read, all known before
reading: the ruleset's path as named and as found and the SHA-256 of its
bytes, the parameters, the limits, the folders `extends:` may name, the
version of rulelang's source (`cache.code_version`) and Python's. It holds
each link of the ruleset's `extends:` chain, looked up and hashed again
before the entry is believed (`cache.chain_holds`).

The IR is a tree of frozen records, kept as a pickle. Unpickling can run
code, so an entry is believed only when (1) it is a file of this user that
no one else may write, (2) it is at most `MOST_BYTES`, (3) its HMAC-SHA256,
made with the cache's secret key (readable by its owner only, disk_cache.py),
covers every byte after it; and even then (4) it is read by an unpickler that
knows only the classes of the IR's records (never a function or a module of
anything else), and (5) what it gives must be a ruleset. Anyone who can
write an entry past (1) and (3) can already write this user's files, and
so run code as this user without the cache: the cache adds no way in.
Anything else — truncated, damaged, planted, stale, another user's, another
cache's — is no entry: the ruleset is read again, and the entry written
again. Entries are written whole (disk_cache.write_whole) and at most
`MOST_ENTRIES` are kept. `RULELANG_CACHE=off` turns the cache off.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rulelang import disk_cache

from . import cache

if TYPE_CHECKING:
    from rulelang import ir
    from rulelang.limits import Limits
    from rulelang.variants import Tree

FORMAT = "rulelang-read-1"
KIND = "read"  # the cache's folder for these entries
MOST_ENTRIES = 256
MOST_BYTES = 16 << 20  # an entry: Hand of Fate's IR is 0.4 MB


def load(ref: str, params: dict[str, str], limits: Limits, extends_dirs=()) -> ir.Ruleset:
    """The ruleset `rulelang.load_ruleset(ref, params, limits, extends_dirs)` reads: from an
    entry when this text was read before as asked, else read now (and remembered)."""
    where = disk_cache.folder(KIND)
    asked = _asked(ref, params, limits, extends_dirs) if where is not None else None
    if where is None or asked is None:
        from rulelang.loader import load_ruleset
        return load_ruleset(ref, params, limits, extends_dirs)  # (which says what is wrong, if anything is)
    path, data, name = asked
    found = _recall(where, name, path, extends_dirs, limits.file_bytes)
    if found is not None:
        return found
    from rulelang.loader import read_ruleset
    from rulelang.variants import read_tree
    tree = read_tree(path, limits, extends_dirs)
    ruleset = read_ruleset(tree, params, limits)
    if tree.sources[-1].text.encode("utf-8") == data:  # what was hashed is what was read
        _remember(where, name, tree, ruleset)
    return ruleset


def _asked(ref: str, params: dict[str, str], limits: Limits, extends_dirs) -> tuple[Path, bytes, str] | None:
    """The ruleset's file, its bytes and the name of its entry (None: no entry can be trusted, or the
    file cannot be read, which reading it again says)."""
    from rulelang.errors import RulesetError
    from rulelang.files import Unreadable, find_ruleset, read_bytes
    try:
        path = find_ruleset(ref)
        data = read_bytes(path, limits.file_bytes, "a ruleset")
    except (RulesetError, Unreadable, OSError):
        return None
    version = cache.code_version()
    if version is None:
        return None
    said = json.dumps([FORMAT, sys.version, version, ref, str(path), os.path.abspath(path),
                       hashlib.sha256(data).hexdigest(), sorted(params.items()),
                       sorted(dataclasses.asdict(limits).items()), [os.path.abspath(d) for d in extends_dirs]])
    return path, data, hashlib.sha256(said.encode()).hexdigest()


def _recall(where: Path, name: str, root: Path, extends_dirs, file_bytes: int) -> ir.Ruleset | None:
    found = disk_cache.recall_headed(where, name, FORMAT, MOST_BYTES)
    if found is None:
        return None
    head, payload = found
    try:
        links = tuple(cache.Link(*_strings(link)) for link in head["links"])
        ruleset = disk_cache.Records(payload).load()  # (the IR's records only)
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is no entry: the ruleset is read
        return None
    from rulelang import ir
    if not isinstance(ruleset, ir.Ruleset) or not cache.chain_holds(links, root, extends_dirs, file_bytes):
        return None
    return ruleset


def _remember(where: Path, name: str, tree: Tree, ruleset: ir.Ruleset) -> None:
    """Write the entry (whole, or not at all); a cache that cannot be written is no cache."""
    texts = {s.name: s.text for s in tree.sources}
    links = [[variant, ref, base, hashlib.sha256(texts[base].encode("utf-8")).hexdigest()]
             for variant, ref, base in tree.links]
    try:
        payload = pickle.dumps(ruleset, protocol=pickle.HIGHEST_PROTOCOL)
    except (RecursionError, pickle.PicklingError):
        return  # (a ruleset nested deeper than pickle goes: read again next time)
    disk_cache.keep_headed(where, name, FORMAT, {"links": links}, payload, MOST_BYTES, MOST_ENTRIES)


def _strings(value) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(v, str) for v in value):
        raise ValueError("not a link")
    return tuple(value)

