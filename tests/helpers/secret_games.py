"""Generated games for the secrecy checks (tests/test_secrets.py): small games
of two players over nine distinct cards, whose zones are seen by all, by their
owner or by no one, face up or face down, and whose rounds choose, draw, pick
at random, move, shuffle and flip between them — so that decisions offer
cards their chooser can and cannot see, from every kind of place.

A choice's options never depend on what its chooser cannot see (no `where`
on a hidden card): that is the leak `rulelang check` warns of, not one the
viewer could hide.
"""
from __future__ import annotations

from hypothesis import strategies as st

ROLES = ("alice", "bob")
SHARED = ("bag", "pile", "vault")
OWNED = ("hand", "shelf")
PLACES = [*SHARED, *(f"{z} of {r}" for z in OWNED for r in ROLES)]


def _indent(text: str, by: int) -> str:
    return "\n".join(" " * by + line for line in text.splitlines())


@st.composite
def statements(draw, n: int) -> str:
    """One statement of a round, guarded so that it never fails."""
    source, dest = draw(st.sampled_from(PLACES)), draw(st.sampled_from(PLACES))
    who = draw(st.sampled_from(ROLES))
    kind = draw(st.sampled_from(["choose", "choose two", "draw", "random", "shuffle", "flip", "choose a place"]))
    if kind == "choose":
        return f"if not empty({source}):\n  {who} chooses c in {source} as pick_{n}:\n    move c to {dest}"
    if kind == "choose two":
        return f"if size({source}) >= 2:\n  {who} chooses c, d in {source} as pair_{n}:\n    move c, d to {dest}"
    if kind == "choose a place":  # a card and a place to put it: a card the chooser may not see, a zone it does
        return (f"if not empty({source}):\n  {who} chooses c in {source}, z in [{dest}, {source}] as "
                f"put_{n}:\n    move c to z")
    if kind == "draw":
        return f"draw {draw(st.integers(1, 2))} from {source} to {dest}"
    if kind == "random":
        return f"if not empty({source}):\n  take random c in {source}:\n    move c to {dest}"
    if kind == "shuffle":
        return f"shuffle {source}"
    return f"if not empty({source}):\n  flip top({source})"


@st.composite
def secret_games(draw) -> str:
    """A ruleset's text."""
    zones = []
    for name in SHARED:
        seen = draw(st.sampled_from(["all", "none"]))
        facing = draw(st.sampled_from(["up", "down"]))
        zones.append(f"  {name}: {{seen_by: {seen}, facing: {facing}}}")
    for name in OWNED:
        seen = draw(st.sampled_from(["all", "owner", "none"]))
        facing = draw(st.sampled_from(["up", "down"]))
        zones.append(f"  {name}: {{owner: each, seen_by: {seen}, facing: {facing}}}")
    deal = draw(st.lists(st.tuples(st.sampled_from(PLACES), st.integers(0, 3)), max_size=3))
    setup = ["move box to bag", "shuffle bag"] + [f"draw {k} from bag to {z}" for z, k in deal]
    body = [draw(statements(i)) for i in range(draw(st.integers(1, 4)))]
    rounds = draw(st.integers(1, 4))
    step = "\n".join(["turns += 1", f"if turns > {rounds}:", "  end game", *body])
    visibility = draw(st.sampled_from(["", "    visibility: {vault: all}\n", "    visibility: {hand: all}\n"]))
    return f"""game: generated-secrets
title: Generated secrets
roles: [alice, bob]
cards:
  gem:
    fields: {{value: 1..9}}
    label: "gem {{value}}"
    table: |
      value
{_indent(chr(10).join(str(v) for v in range(1, 10)), 6)}
zones:
{chr(10).join(zones)}
vars:
  turns: 0
setup: |
{_indent(chr(10).join(setup), 2)}
modes:
  play:
{visibility}    round:
      - step: Turn
        do: |
{_indent(step, 10)}
    score:
      alice: size(hand of alice)
      bob: size(hand of bob)
"""
