"""Where ruleset files are, and reading the files a user gives.

A ruleset is named by a path or by the name of a bundled ruleset
(`twenty-trials` is `rulesets/twenty-trials.yaml`, `pig-race` the example
`rulesets/examples/pig-race.yaml`). A variant's `extends:`
names its base the same way, a path being taken from the variant's folder,
but only a file inside a folder the user chose (`Folders`): a ruleset is
text people share, and must not make the program read `~/.ssh/config` or
`/proc/self/environ`.

Every file the program reads on a user's behalf (rulesets, saved games,
logs, rows to resume, agent files) is read with `read_bytes`: a regular file
of bounded size, opened without blocking, so a FIFO, a device, a socket or
`/proc/kmsg` is refused before a byte is read, and `/dev/zero` or a file
that grows is never read past the limit.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import LINE_BREAK, Crosses, Diagnostic, RulesetError, Source, Span, did_you_mean
from .limits import DEFAULT, Limits, over
from .records import record

BUNDLED = Path(__file__).resolve().parent.parent / "rulesets"


EXAMPLES = BUNDLED / "examples"  # small games showing the language, found by name like the others


def bundled_names() -> list[str]:
    return sorted(p.stem for p in (*BUNDLED.glob("*.yaml"), *EXAMPLES.glob("*.yaml")))


def bundled(ref: str) -> Path | None:
    """The bundled ruleset a name names, if any (a path is no name)."""
    if "/" in ref or "\\" in ref or ref in ("", ".", ".."):
        return None
    for candidate in (BUNDLED / f"{ref}.yaml", BUNDLED / ref / "ruleset.yaml", EXAMPLES / f"{ref}.yaml"):
        if _exists(candidate):
            return candidate
    return None


def find_ruleset(ref: str) -> Path:
    """The ruleset the user named: a path (from here), or the name of a bundled ruleset."""
    path = Path(ref)
    if _exists(path):
        return path
    found = bundled(ref)
    if found is None:
        raise RulesetError([_no_ruleset(ref, None)])
    return found


@record
class Folders:
    """Where `extends:` may find a base file: the folder of the ruleset the
    user named, and the folders given with `--extends-dir`. Bundled names
    are always allowed."""
    roots: tuple[Path, ...]

    @classmethod
    def around(cls, ruleset: Path, extra=()) -> "Folders":
        return cls(tuple(dict.fromkeys(Path(os.path.realpath(p)) for p in (ruleset.parent, *extra))))

    def holds(self, path: Path) -> bool:
        real = Path(os.path.realpath(path))  # a link is judged by where it leads
        return any(real.is_relative_to(root) for root in self.roots)

    def find(self, ref: str, variant: Path, span: Span) -> Path:
        """The base `extends: REF` names in the file `variant`."""
        path = variant.parent / ref
        if _exists(path):
            if not self.holds(path):
                real = os.path.realpath(path)
                where = "which is" if real == os.path.abspath(path) else f"which leads to {real},"
                raise RulesetError([Diagnostic(
                    span, f"`extends:` names {path}, {where} outside the folders a ruleset may read "
                          f"({', '.join(str(r) for r in self.roots)})",
                    "name a bundled ruleset, put the base in the variant's folder, "
                    "or give its folder with --extends-dir DIR")])
            return path
        found = bundled(ref)
        if found is None:
            raise RulesetError([_no_ruleset(ref, span)])
        return found


def _no_ruleset(ref: str, span: Span | None) -> Diagnostic:
    known = bundled_names()
    hint = did_you_mean(ref, known) or ("bundled rulesets: " + ", ".join(known) if known else None)
    return Diagnostic(span, f"no ruleset file or bundled ruleset named '{ref}'", hint)


def _exists(path: Path) -> bool:
    """Something is there that is not a folder (what it is, read_bytes tells)."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):  # a name too long for the file system, a NUL in it
        return False


class Unreadable(Crosses, Exception):
    """A file that cannot be read safely; the message names it and says why, never what it holds."""

    def __init__(self, message: str, too_big: bool = False):
        super().__init__(message)
        self.too_big = too_big


def open_regular(path: str | Path, what: str):
    """The regular file at `path`, open for reading in binary; `what` names it in errors ("a saved game")."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as exc:
        raise Unreadable(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise Unreadable(f"{path} is not a regular file ({_kind(mode)}); {what} is a file")
    return os.fdopen(fd, "rb")


def read_bytes(path: str | Path, most: int, what: str) -> bytes:
    """The bytes of the regular file at `path`, if it holds at most `most` bytes."""
    with open_regular(path, what) as f:
        size = os.fstat(f.fileno()).st_size
        if size > most:
            raise Unreadable(f"{path} is {size:,} bytes, more than {what} may be ({most:,})", True)
        chunks, total = [], 0
        try:  # in pieces: /proc files say they hold 0 bytes, a file may grow, and read(n) takes n bytes at once
            while total <= most and (chunk := f.read(min(1 << 20, most + 1 - total))):
                chunks.append(chunk)
                total += len(chunk)
        except OSError as exc:
            raise Unreadable(f"cannot read {path}: {exc.strerror}") from None
    if total > most:
        raise Unreadable(f"{path} is more than {what} may be ({most:,} bytes)", True)
    return b"".join(chunks)


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((name for test, name in kinds if test(mode)), "not a file")


def read_source(path: Path, limits: Limits = DEFAULT) -> Source:
    try:
        data = read_bytes(path, limits.file_bytes, "a ruleset")
    except Unreadable as exc:
        if exc.too_big:  # placed in the file, like every limit a ruleset reaches
            raise RulesetError([Diagnostic(Span(Source(str(path), ""), 1, 1), str(exc), over(
                "real rulesets are a few tens of kilobytes", limits.file_bytes, "file_bytes"))]) from None
        raise RulesetError([Diagnostic(None, str(exc))]) from None
    return Source(str(path), decode(data, str(path)))


def decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lines = LINE_BREAK.split(data[:exc.start].decode("utf-8"))  # the text up to the first bad byte
        source = Source(name, data.decode("utf-8", errors="replace"))
        raise RulesetError([Diagnostic(Span(source, len(lines), len(lines[-1]) + 1), "the file is not valid UTF-8 text",
                                       "save the ruleset as UTF-8")]) from None


_SHOWN_AS: dict[str, str] = {}


def location(span: Span) -> str:
    """`FILE:LINE` as logs and generated code name a place in the rules: a
    bundled ruleset by its name under rulesets/, wherever it is installed."""
    name = _SHOWN_AS.get(span.source.name)
    if name is None:
        try:
            name = "rulesets/" + Path(span.source.name).resolve().relative_to(BUNDLED).as_posix()
        except (ValueError, OSError):
            name = span.source.name
        _SHOWN_AS[span.source.name] = name
    return f"{name}:{span.line}"
