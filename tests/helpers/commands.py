"""The command line run in the test's own process: quicker than a subprocess, same words."""
from __future__ import annotations

from cli.main import main


def cli(capsys, *args) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `rulelang ARGS` (argparse's usage errors included)."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err
