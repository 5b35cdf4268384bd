"""Fixtures shared by the tests (the helpers themselves are in helpers/)."""
from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

import pytest

# `rulelang check`'s cache (cli/cache.py) in a folder of the test run's own, never the user's:
# set before any test, so the commands tests run in other processes inherit it
os.environ["RULELANG_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulelang-tests-cache-")
atexit.register(shutil.rmtree, os.environ["RULELANG_CACHE_DIR"], True)

# Python's compiled-module cache, even where the environment turns it off (PYTHONDONTWRITEBYTECODE),
# as helpers.rulelang keeps it for the commands it starts: else each process of the run compiles
# every test module and rewrites its asserts again, run after run (about 5 s of CPU a worker)
sys.dont_write_bytecode = False

from rulelang import load_ruleset


@pytest.fixture(scope="session")
def twenty_trials():
    return load_ruleset("twenty-trials")
