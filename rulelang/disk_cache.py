"""Where rulelang keeps what it worked out before, and when it believes it.

Four caches share one folder, each in a folder of its own: what `check`
said of a text (cli/cache.py: `checked/`), the checked IR of a text a
command read (cli/read_cache.py: `read/`), the modes compiled
(interpreter/engine/compiled_cache.py: `compiled/`), and the grammar's
parse tables (syntax.py: `grammar/`). Where: `$RULELANG_CACHE_DIR`, else
`$XDG_CACHE_HOME/rulelang`, else `~/.cache/rulelang`; `RULELANG_CACHE=off`
turns them all off.

The rules every entry follows (docs/reliability.md, *What `check`
remembers*): each folder has a secret key (`.key`, 32 random bytes, made
with the folder, readable by its owner only); an entry is believed only
from a regular file of this user that no one else may write, of bounded
size, whose HMAC-SHA256 under that key is right (`recall`, `keep`); it is
written whole (a temporary file renamed onto its name), and a folder keeps
a bounded number of entries. Whatever cannot be read, written or believed
is no entry: the caller works it out again, as without a cache. What an
entry's name depends on includes rulelang's own source (`code_version`);
what is unpickled is built by `Records`, which knows only record classes.
"""
from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import pickle
import stat
from functools import lru_cache
from pathlib import Path

KEY = ".key"  # a folder's secret (dot files are not entries)
# the modules whose record classes a kept IR may hold (the IR, its types, its places in the files)
IR_RECORDS = ("rulelang.ir.base", "rulelang.ir.components", "rulelang.ir.definitions", "rulelang.ir.expressions",
              "rulelang.ir.modes", "rulelang.ir.ruleset", "rulelang.ir.statements", "rulelang.types",
              "rulelang.errors")


def folder(kind: str) -> Path | None:
    """Where the entries of a kind are (None: the caches are turned off, or there is no home for them)."""
    if os.environ.get("RULELANG_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    base = os.environ.get("RULELANG_CACHE_DIR")
    if base:
        return Path(base) / kind
    xdg = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    except RuntimeError:  # no home to keep it in
        return None
    return root / "rulelang" / kind


@lru_cache(maxsize=1)
def code_version() -> str | None:
    """A digest of rulelang's own source — the front end's, the interpreter's and the command
    line's — from each file's name, size and time of last change: the facts Python's own bytecode
    cache trusts to say a source is unchanged (hashing the bytes of every file cost more than what
    a warm command saves); and of the libraries that read a text (PyYAML, Lark), found but not
    imported, by their first file, which an upgrade writes again. None: a file of it cannot be
    looked at, so no entry can be trusted."""
    return source_version(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def source_version(root: str) -> str | None:
    """`code_version` of the checkout at `root`."""
    from importlib.util import find_spec
    digest = hashlib.sha256()
    try:
        for package in ("rulelang", "interpreter", "cli"):
            _sources(digest, os.path.join(root, package), package)
        for library in ("yaml", "lark"):
            spec = find_spec(library)
            origin = spec.origin if spec is not None and spec.origin else ""
            info = os.stat(origin)
            digest.update(f"{library}:{origin}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    except (OSError, ImportError, ValueError):
        return None
    return digest.hexdigest()


def _sources(digest, folder: str, label: str) -> None:
    """Every source file under a folder (not in `__pycache__`), in the order of their names, by its
    name, size and time of last change (a walk by `os.scandir`: os.walk's and relpath's string work
    cost twice the stat calls)."""
    with os.scandir(folder) as found:
        entries = sorted(found, key=lambda e: e.name)
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                _sources(digest, entry.path, f"{label}/{entry.name}")
        elif entry.name.endswith((".py", ".lark")):
            info = entry.stat()
            digest.update(f"{label}/{entry.name}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())


def secret(where: Path, make: bool) -> bytes | None:
    """A folder's key (made, with its folder, if asked and absent; None: there is none this user
    alone can write; OSError: the folder cannot be made)."""
    path = where / KEY
    if make and not path.exists():
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
        except FileExistsError:
            pass  # another process made it meanwhile
    key = own_file(path, 64)
    return key if key is not None and len(key) == 32 else None


def own_file(path: Path, most: int) -> bytes | None:
    """The bytes of a regular file of this user that no one else may write, of at most `most` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > most or info.st_mode & 0o022 or \
                hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            return None
        data = f.read(most + 1)
    return data if len(data) <= most else None


def recall(where: Path, name: str, most: int) -> bytes | None:
    """The payload of the entry `keep` wrote under that name (None: no entry this folder's key signed,
    in a file of this user's own of at most `most` bytes)."""
    key = secret(where, make=False)
    entry = own_file(where / name, most) if key is not None else None
    return opened(key, entry) if key is not None and entry is not None else None


def recall_headed(where: Path, name: str, form: str, most: int) -> tuple[dict, bytes] | None:
    """The head and payload of the entry `keep_headed` wrote under that name in that format (None:
    no such entry: see `recall`)."""
    signed = recall(where, name, most)
    if signed is None:
        return None
    said, _, payload = signed.partition(b"\n")
    try:
        head = json.loads(said)
    except ValueError:
        return None
    if not isinstance(head, dict) or head.get("format") != form or head.get("name") != name:
        return None
    return head, payload


def keep_headed(where: Path, name: str, form: str, head: dict, payload: bytes, most: int, most_entries: int) -> None:
    """`keep` an entry whose first line is JSON naming its format and itself, with `head`'s items."""
    keep(where, name, json.dumps({"format": form, "name": name, **head}).encode() + b"\n" + payload, most,
         most_entries)


def keep(where: Path, name: str, payload: bytes, most: int, most_entries: int) -> None:
    """Write an entry of the payload, signed with the folder's key (made if need be), if it is at most
    `most` bytes; a folder that cannot be written is no cache (nothing is raised)."""
    try:
        key = secret(where, make=True)
        entry = seal(key, payload) if key is not None else b""
        if key is not None and len(entry) <= most:
            write_whole(where, name, entry, most_entries)
    except OSError:
        pass


def seal(key: bytes, payload: bytes) -> bytes:
    """An entry: the HMAC of the payload, a line break, the payload."""
    return _mac(key, payload) + b"\n" + payload


def opened(key: bytes, entry: bytes) -> bytes | None:
    """The payload of an entry `seal` made with this key (None: any other bytes)."""
    mac, _, payload = entry.partition(b"\n")
    return payload if hmac.compare_digest(mac, _mac(key, payload)) else None


def _mac(key: bytes, payload: bytes) -> bytes:
    return hmac.new(key, payload, hashlib.sha256).hexdigest().encode()


def write_whole(where: Path, name: str, data: bytes, most_entries: int) -> None:
    """Write an entry whole (a temporary file renamed onto its name: never half of one), and keep
    the folder within `most_entries` (OSError: not written)."""
    import tempfile  # (only a command that writes an entry pays for it)
    fd, temporary = tempfile.mkstemp(dir=where, prefix=".", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, where / name)
    except BaseException:
        os.unlink(temporary)
        raise
    _prune(where, most_entries)


def _prune(where: Path, most: int) -> None:
    entries = [e for e in os.scandir(where) if not e.name.startswith(".")]
    if len(entries) <= most:
        return
    entries.sort(key=lambda e: e.stat().st_mtime)
    for entry in entries[:len(entries) - most // 2]:  # half at a time: not on every write
        try:
            os.unlink(entry.path)
        except OSError:
            pass


class Records(pickle.Unpickler):
    """An unpickler that builds the record classes of some modules (their frozen dataclasses and
    FrozenMap) and a few classes named one by one, and nothing else: never a function, never a
    class of another module (what a signed entry holds; the signature is the trust, this a second
    line)."""

    def __init__(self, data: bytes, modules: tuple[str, ...] = IR_RECORDS, named: frozenset = frozenset()):
        super().__init__(io.BytesIO(data))
        self.modules, self.named = modules, named

    def find_class(self, module: str, name: str):
        from dataclasses import is_dataclass
        from importlib import import_module
        if (module, name) in self.named:
            return getattr(import_module(module), name)
        if module in self.modules:
            found = getattr(import_module(module), name, None)
            if isinstance(found, type) and found.__module__ == module and \
                    (is_dataclass(found) or found is import_module("rulelang.ir.base").FrozenMap):
                return found
        raise pickle.UnpicklingError(f"an entry holds only records, not {module}.{name}")
