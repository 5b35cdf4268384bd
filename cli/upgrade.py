"""`rulelang upgrade`: a ruleset of an older language version rewritten for this one."""
from __future__ import annotations

from pathlib import Path

from rulelang.upgrade import describe as said_upgrade
from rulelang.upgrade import upgrade
from rulelang.upgrade import write as write_upgrade

from .common import UsageError


def upgrade_arguments(p) -> None:
    p.add_argument("ruleset", help="the ruleset file to rewrite (in place: it says what it changed)")
    p.add_argument("--dry-run", action="store_true", help="say what would change, and change nothing")
    p.set_defaults(command=cmd_upgrade)


ARGUMENTS = {"upgrade": upgrade_arguments}


def cmd_upgrade(args) -> int:
    path = Path(args.ruleset)
    if not path.is_file():
        raise UsageError(f"upgrade rewrites a ruleset file: {args.ruleset} is not one"
                         + (" (a bundled ruleset is upgraded where it is kept, not by name)" if "/" not in
                            args.ruleset and not args.ruleset.endswith((".yaml", ".yml")) else ""))
    result = upgrade(path)
    if result is not None and not args.dry_run:
        write_upgrade(path, result.text)
    print(said_upgrade(path, result) + (" (nothing written: --dry-run)" if result is not None and args.dry_run else ""))
    return 0
