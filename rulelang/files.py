"""Where ruleset files are, and reading them as text.

A ruleset is named by a path or by the name of a bundled ruleset
(`twenty-trials` is `rulesets/twenty-trials.yaml`). A variant's `extends:`
names its base the same way, a path being taken from the variant's folder.
"""
from __future__ import annotations

from pathlib import Path

from .errors import LINE_BREAK, Diagnostic, RulesetError, Source, Span, did_you_mean
from .limits import DEFAULT, Limits, check_size

BUNDLED = Path(__file__).resolve().parent.parent / "rulesets"


def bundled_names() -> list[str]:
    return sorted(p.stem for p in BUNDLED.glob("*.yaml"))


def find_ruleset(ref: str, folder: Path | None = None, span: Span | None = None) -> Path:
    """A path (from `folder`, or from here), or the name of a bundled ruleset."""
    path = Path(ref) if folder is None else folder / ref
    for candidate in (path, BUNDLED / f"{ref}.yaml", BUNDLED / ref / "ruleset.yaml"):
        if _is_file(candidate):
            return candidate
    known = bundled_names()
    hint = did_you_mean(ref, known) or ("bundled rulesets: " + ", ".join(known) if known else None)
    raise RulesetError([Diagnostic(span, f"no ruleset file or bundled ruleset named '{ref}'", hint)])


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL in it
        return False


def read_source(path: Path, limits: Limits = DEFAULT) -> Source:
    try:
        size = path.stat().st_size  # a huge file is refused before it is read
        if size > limits.file_bytes:
            check_size(Source(str(path), ""), limits, size)
        data = path.read_bytes()
    except OSError as exc:
        raise RulesetError([Diagnostic(None, f"cannot read {path}: {exc.strerror}")]) from None
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
