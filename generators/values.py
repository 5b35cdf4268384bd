"""Values the players keep in English: a variable by its name (*trials completed*, "your *bid*"), by what its
`text:` says it is ("the dealer"), a true/false one or a card's switch as the condition it stands for ("the
active player's turn has ended", "the Encounter card is sprung").
"""
from __future__ import annotations

import re
from dataclasses import replace

from rulelang import ir
from rulelang.types import BOOL, ROLE, EnumT

from . import grammar
from .clauses import clause_of
from .document import clean, em
from .english import Context, build, expression, is_current, phrase
from .nouns import noun, possessive, printed_field, takes_s, value_words, words
from .phrases import Bound, Clause, Phrase, Words
from .phrases import words as seq


@expression(ir.Var)
def expr_var(ctx: Context, e: ir.Var) -> Phrase:
    """A variable by its name (*trials completed*); a player held in one by what its `text:`
    says it is ("the active player"); a true/false one as the condition its `text:` states."""
    v = ctx.rs.vars.get(e.name)
    if e.ty == BOOL:
        return flag_clause(ctx, e)
    said = by_text(v) if v is not None and e.owner is None else None
    if said is not None and v is not None and v.type == ROLE and takes_s(said):
        # a player, referred to again as one: "the active player has a skill card that they may play"
        return Bound(said, name=f"the variable {e.name}", noun=noun("player"))
    if said is not None:
        return Words(said)  # "the suit to follow", "the player who leads the trick"
    name = em(value_words(ctx.rs, e.name))
    return Words(name) if e.owner is None else owned(ctx, name, e.owner)


def by_text(v: ir.VarDef) -> str | None:
    """What the rules call the game's variable holding a player or a value of a kind, where its
    `text:` says what it is ("the dealer", "the suit to follow"): its name is then never printed."""
    said = described(v.text) if v.text and v.owner is None else None
    return said if said and said.startswith("the ") and (v.type == ROLE or isinstance(v.type, EnumT)) else None


def described(text: str) -> str:
    """A `text:` as the rules use it in a sentence: its trailing aside dropped ("the starting
    player (who holds the die)" -> "the starting player")."""
    return re.sub(r"\s*\([^()]*\)$", "", clean(text)).strip()


def flag_clause(ctx: Context, e: ir.Expr) -> Clause:
    """A true/false variable or card state as the condition it stands for: a variable's `text:`
    ("the active player's turn has ended"; for a player's own, what the player does: "faces
    the room"), or the state's name said of the card ("the Encounter card is sprung")."""
    if isinstance(e, ir.Field):
        subject = build(ctx, e.obj)
        return _predicate(subject, printed_field(ctx.rs, e.name))
    name = e.name if isinstance(e, (ir.Var, ir.Local)) else ""
    v = ctx.rs.vars.get(name)
    text = described(v.text) if v is not None and v.text else None
    if isinstance(e, ir.Var) and e.owner is not None:
        owner = build(ctx, e.owner)
        return _predicate(owner, text or f"has {em(words(name))} on")
    if text is None:
        return Clause(Words(em(words(name))), "is on")
    said = clause_of([text])
    return said if isinstance(said, Clause) else Clause(Words(text), "holds")


def _predicate(subject: Phrase, text: str) -> Clause:
    """"is sprung", "faces the room": a verb phrase as it is, anything else after "is"."""
    first, _, rest = text.partition(" ")
    if is_verb_phrase(text):
        return Clause(subject, first, Words(rest) if rest else None)
    return Clause(subject, "is", Words(text))


def predicate_words(text: str) -> str:
    """A player's own true/false variable's `text:` as what is said of the player: "has passed" as it
    is, "out of the round" as "is out of the round"."""
    return text if is_verb_phrase(text) else f"is {text}"


def is_verb_phrase(text: str) -> bool:
    """Whether a text starts with its verb ("has passed", "faces the room"), not a word said after "is"."""
    first = text.partition(" ")[0]
    return first in grammar.AUXILIARIES or re.fullmatch(r"[a-z]+(s|es)", first) is not None \
        and first not in ("this", "its") and not first.endswith("ss")


def owned(ctx: Context, name: str, owner: ir.Expr) -> Phrase:
    """A player's own variable: "your *bid*", "North's *bid*", "that player's *bid*"."""
    if isinstance(owner, ir.RoleRef) and owner.role == ctx.you or is_current(ctx, owner):
        return Words(f"your {name}")
    who = build(ctx, owner)
    if isinstance(who, Bound):  # kept a bound name, so a condition on it reads "a player whose *bid* …"
        return seq(replace(who, text=possessive(who.text)), f" {name}")
    if isinstance(who, Words) and takes_s(who.text):  # a name: one word group, it takes the 's
        return Words(f"{possessive(who.text)} {name}")
    return seq(f"the {name} of ", who)


def whose_it_is(ctx: Context, e: ir.Expr) -> list | None:
    """A player as whose a card becomes: "yours", "White's", "White's if X is Y; otherwise Black's"."""
    if is_current(ctx, e) or isinstance(e, ir.RoleRef) and e.role == ctx.you:
        return ["yours"]
    if isinstance(e, ir.IfExpr):
        then, otherwise = whose_it_is(ctx, e.then), whose_it_is(ctx, e.otherwise)
        return None if then is None or otherwise is None else [*then, " if ", e.cond, "; otherwise ", *otherwise]
    said = phrase(ctx, e)
    return [possessive(said.text)] if isinstance(e, ir.RoleRef) and isinstance(said, Words) and takes_s(said.text) \
        else None
