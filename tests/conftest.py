"""Fixtures shared by the tests (the helpers themselves are in helpers/)."""
from __future__ import annotations

import pytest

from rulelang import load_ruleset


@pytest.fixture(scope="session")
def twenty_trials():
    return load_ruleset("twenty-trials")
