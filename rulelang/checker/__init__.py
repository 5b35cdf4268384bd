"""Name resolution and type checking: parsed declarations -> resolved IR.

Every name is resolved (local, variable, parameter, zone, role, enum value,
define, procedure) and every expression typed before anything runs. Card
types narrow through `is` tests, so

    if c is action_modifier:
        move c to reserve
    else:
        move c to hand          # c is known not to be a modifier here

checks against the zones' `holds:`. All problems are collected and raised
together.

One module an idea, each a set of functions given the check (`Checker`:
the ruleset's tables, the problems found, the definitions checked so far)
and the scope (`Scope`: local names, and the mode and definitions the rules
are in): `ruleset` (the order of the whole check, the roles each mode
reaches), `statements`, `expressions`, `binders` (and narrowing), `calls`
(defines, procedures, built-ins), `abilities` (and events). Each statement
and expression class has one rule, found through the `STATEMENTS` and
`EXPRESSIONS` tables; a class with none is an error, never skipped.
"""
from .context import Checker, Scope
from .ruleset import check

__all__ = ["Checker", "Scope", "check"]
