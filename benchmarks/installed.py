"""Whole processes timed as an installed rulelang runs: with its bytecode.

An installed package has its modules compiled (pip writes the bytecode); a
checkout run with PYTHONDONTWRITEBYTECODE set, as some shells and CI set it,
compiles every module it imports again in every process (0.15-0.2 s of
`simulate`'s start-up). The start-up benchmarks therefore compile rulelang's
packages in each tree they time, once and untimed, and run their processes
without that variable, whatever the caller's environment.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PACKAGES = ("rulelang", "interpreter", "generators", "cli")


def as_installed(*trees: Path) -> dict[str, str]:
    """Compile the packages of each tree (untimed), and the environment to time processes in."""
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", *PACKAGES], cwd=tree, check=True,
                       stdout=subprocess.DEVNULL)
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
