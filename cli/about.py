"""What rulelang knows about itself: its version (`rulelang --version`), the
rulesets it ships (`rulelang rulesets`) and its documents (`rulelang docs`).

The documents are the project's `docs/*.md` and README: a checkout reads
them where they are; an installed rulelang has them in
`PREFIX/share/doc/rulelang` (pyproject.toml's data files). So help that
names a document names one the reader has: `rulelang docs agents`.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rulelang import RulesetError, load_ruleset
from rulelang.files import bundled_names

from .common import UsageError

HERE = Path(__file__).resolve().parent


def rulesets_arguments(p) -> None:
    p.set_defaults(command=cmd_rulesets)


def docs_arguments(p) -> None:
    p.add_argument("name", nargs="?", metavar="NAME", help="the document to print (default: list them)")
    p.add_argument("--where", action="store_true", help="print the folder the documents are in")
    p.set_defaults(command=cmd_docs)


ARGUMENTS = {"rulesets": rulesets_arguments, "docs": docs_arguments}


def cmd_rulesets(args) -> int:
    rows = []
    for name in bundled_names():
        try:
            rs = load_ruleset(name)
        except RulesetError:  # a bundled ruleset always loads (tests/test_examples.py); said, not hidden
            rows.append((name, "(does not load: rulelang check it)", ""))
            continue
        players = f"{rs.players.low}–{rs.players.high} players" if rs.players is not None and \
            rs.players.low != rs.players.high else f"roles: {', '.join(r.name for r in rs.roles)}"
        rows.append((name, rs.title, f"modes: {', '.join(rs.modes)}; {players}"))
    width = max(len(name) for name, _, _ in rows)
    for name, title, what in rows:
        print(f"{name:<{width}}  {title}" + (f" — {what}" if what else ""))
    return 0


def folders() -> list[Path]:
    """Where the documents may be: beside the code (a checkout), then where an install puts them."""
    found = [HERE.parent / "docs", Path(sys.prefix) / "share" / "doc" / "rulelang"]
    try:
        import site
        found.append(Path(site.getuserbase()) / "share" / "doc" / "rulelang")
    except (ImportError, AttributeError):
        pass
    return [f for f in found if f.is_dir()]


def documents() -> dict[str, Path]:
    """Each document by name (`agents` for agents.md), README as `readme`."""
    found: dict[str, Path] = {}
    for folder in folders():
        for path in sorted(folder.glob("*.md")):
            found.setdefault(path.stem.lower(), path)
        readme = folder.parent / "README.md" if folder.name == "docs" else folder / "README.md"
        if readme.is_file():
            found.setdefault("readme", readme)
    return found


def cmd_docs(args) -> int:
    docs = documents()
    if not docs:
        raise UsageError("rulelang's documents are not installed here (they come with a checkout, and with "
                         "`pip install`, in PREFIX/share/doc/rulelang)")
    if args.where:
        print(folders()[0])
        return 0
    if args.name is None:
        width = max(len(n) for n in docs)
        for name, path in docs.items():
            print(f"{name:<{width}}  {_title(path)}")
        return 0
    path = docs.get(args.name.lower().removesuffix(".md"))
    if path is None:
        from rulelang.errors import did_you_mean
        raise UsageError(f"no document '{args.name}'; " + (did_you_mean(args.name, docs) or
                                                           f"documents: {', '.join(docs)}"))
    print(path.read_text(encoding="utf-8"), end="")
    return 0


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem
