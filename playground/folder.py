"""The folder served: the only files the playground reads or writes.

Every path a page sends is a name relative to the folder. It is resolved
with every symbolic link followed, and refused unless where it leads is
inside the folder (a link to /etc/passwd, `../x`, an absolute path, a NUL:
refused alike) and is a ruleset, a scenario or a save (.yaml, .yml, .json)
outside hidden folders. Files are read through `rulelang.files` (regular files only,
bounded), and written whole: to a temporary file beside the target, then
renamed over it, so a crash never leaves half a ruleset. Bundled rulesets
are read by name and never written.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulelang.errors import RulesetError
from rulelang.files import Unreadable, bundled, bundled_names, decode, read_bytes

MOST_BYTES = 1_000_000  # a ruleset, a scenario or a save the playground reads or writes
MOST_FILES = 2_000  # listed from the folder (its first, in name order)
KINDS = {".yaml": "ruleset", ".yml": "ruleset", ".json": "save"}
SKIPPED = {".git", "__pycache__", "node_modules", ".venv", "venv"}


class Refused(Exception):
    """A path or a file the playground will not touch; the message says why."""


@dataclass(frozen=True)
class Folder:
    root: Path  # resolved

    @classmethod
    def at(cls, path: str | Path) -> Folder:
        root = Path(os.path.realpath(path))
        if not root.is_dir():
            raise Refused(f"{path} is not a folder")
        return cls(root)

    def resolve(self, name: str) -> Path:
        """The real path of a file named relative to the folder, if it is inside it."""
        if not isinstance(name, str) or not name or "\0" in name or len(name) > 1000:
            raise Refused("a file is named by its path in the folder served")
        if os.path.isabs(name):
            raise Refused(f"{name}: name files by their path in the folder served, not from /")
        real = Path(os.path.realpath(self.root / name))
        if not real.is_relative_to(self.root):
            raise Refused(f"{name} is outside the folder served ({self.root})")
        if real.suffix.lower() not in KINDS or any(part.startswith(".") for part in Path(self.name(real)).parts):
            # the folder may hold other files (a .git, keys): the playground touches its own kinds only
            raise Refused(f"{name}: the playground reads and writes rulesets and scenarios (.yaml) and saves "
                          "(.json) only, outside hidden folders")
        return real

    def name(self, path: Path) -> str:
        """A real path inside the folder, as a page names it."""
        return path.relative_to(self.root).as_posix()

    def read(self, name: str) -> str:
        """A file's text: a file of the folder, or a bundled ruleset by its name (`bundled:NAME`)."""
        path = self.path_of(name)
        try:
            return decode(read_bytes(path, MOST_BYTES, "a file the playground opens"), str(path))
        except Unreadable as exc:
            raise Refused(str(exc).replace(str(self.root) + "/", "")) from None
        except RulesetError as exc:
            raise Refused(exc.diagnostics[0].message) from None

    def path_of(self, name: str) -> Path:
        """The real path of a file of the folder, or of a bundled ruleset (`bundled:NAME`)."""
        if isinstance(name, str) and name.startswith("bundled:"):
            path = bundled(name[len("bundled:"):])
            if path is None:
                raise Refused(f"no bundled ruleset named {name[len('bundled:'):]!r}")
            return path
        return self.resolve(name)

    def writable(self, name: str) -> bool:
        return not name.startswith("bundled:")

    def write(self, name: str, text: str) -> str:
        """Write a file of the folder whole (a temporary file renamed over it); its name."""
        if not self.writable(name):
            raise Refused("a bundled ruleset is not written: save it under a name in the folder")
        path = self.resolve(name)
        data = text.encode("utf-8")
        if len(data) > MOST_BYTES:
            raise Refused(f"{name} would be {len(data):,} bytes, more than the playground writes ({MOST_BYTES:,})")
        if path.exists() and not path.is_file():
            raise Refused(f"{name} is not a regular file")
        if not path.parent.is_dir():
            raise Refused(f"there is no folder {self.name(path.parent)} in the folder served")
        fd, temp = tempfile.mkstemp(prefix=".rulelang-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if path.exists():
                os.chmod(temp, path.stat().st_mode & 0o777)
            os.replace(temp, path)
        except OSError as exc:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise Refused(f"cannot write {name}: {exc.strerror}") from None
        return self.name(path)

    def files(self) -> list[dict]:
        """The rulesets, scenarios and saves in the folder (links leading outside it left out)."""
        found: list[dict] = []
        for top, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
            for n in sorted(names):
                kind = KINDS.get(os.path.splitext(n)[1].lower())
                if kind is None or n.startswith("."):
                    continue
                path = Path(top) / n
                try:
                    real = self.resolve(str(path.relative_to(self.root)))
                except Refused:
                    continue
                if kind == "ruleset" and _is_scenario(real):
                    kind = "scenario"
                found.append({"path": path.relative_to(self.root).as_posix(), "kind": kind})
                if len(found) >= MOST_FILES:
                    return found
        return found


def _is_scenario(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return is_scenario(head)


def is_scenario(text: str) -> bool:
    """A YAML text that starts as a scenario does (`scenario:` or `ruleset:` among its first keys)."""
    return any(line.startswith(("scenario:", "ruleset:")) for line in text.splitlines()[:40])


def bundled_rulesets() -> list[str]:
    return [f"bundled:{n}" for n in bundled_names()]
