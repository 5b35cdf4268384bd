"""What a game gives each player at its end, through every adapter.

    a win    +1        a game cut short (step limit, max_moves)   0 for all
    a loss   -1        a draw                                      0

**An illegal action** — an id the action mask does not allow — is the same
in OpenSpiel, PettingZoo and Gymnasium: it ends the game at once, as a
forfeit by the player who made it. The offender gets -1. The others get 0;
in a zero-sum game (below), they share +1, so that the returns still sum to
zero. Nothing is raised: each library's own tests (PettingZoo's seed tests
sample actions without the mask) and its learners see a game that ended.
PettingZoo's classic games end a game the same way (`TerminateIllegalWrapper`).

**Zero-sum.** A mode is declared zero-sum (to OpenSpiel: `Utility.ZERO_SUM`,
so its `exploitability` and sequence-form solvers accept it) when every way
it can end gives returns that sum to zero: two roles, no `eliminate`, and
every `win X` and `lose X` naming one role, not a team — then every end is a
win and a loss, a draw, or a forfeit. Anything else is general-sum.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import ROLE
from rulelang.walk import walk

from ..engine.game import Game

FORFEIT = -1.0


def zero_sum(game: Game) -> bool:
    """Whether every end of this mode gives returns that sum to zero (see above)."""
    if len(game.roles) != 2:
        return False
    rs, mode = game.ruleset, game.mode
    blocks = (rs.setup, mode.setup, tuple(s.body for s in mode.round), tuple(w.body for w in mode.watches),
              tuple(p.body for p in rs.procedures.values()), tuple(a.body for a in rs.abilities.values()))
    for n in walk(blocks):
        if isinstance(n, ir.Eliminate):
            return False
        if isinstance(n, ir.EndGame) and n.kind in ("win", "lose") and (n.role is None or n.role.ty != ROLE):
            return False
    return True


def forfeited(roles: list[str], offender: str, zero: bool) -> list[float]:
    """The returns of a game `offender` ended with an illegal action, per role in order."""
    share = (1.0 / (len(roles) - 1)) if zero and len(roles) > 1 else 0.0
    return [FORFEIT if r == offender else share for r in roles]
