"""The rules language in English: one rendering function per IR node class, over an explicit context.

    draw 4 from action_deck to hand   ->  "Draw 4 cards from the Action Deck to your hand."
    exists t in chamber where t is trial  ->  "there is a trial card in the Chamber"

`context(rs, mode)` makes the `Context` the renderings read: the ruleset,
the mode, who "you" is, and the bound names in scope. It is frozen: a
binder's scope is a new context passed down (`inside(ctx, binder)`), never a
dictionary saved and restored. The one thing rendering adds to is
`ctx.used`, where the defines and procedures printed by name are collected
for the glossary. `expr(ctx, e)` answers a value or condition as text,
`stmt(ctx, s)` and `block(ctx, stmts)` list items. Inside, an expression
becomes a phrase tree (`generators/phrases.py`) before it is text, and every
sentence is *settled*: its grouping is kept by phrasing ("both … and …",
"either … or …", a bulleted "all of the following hold:", "… if …;
otherwise …") so that it has one reading only. Other packages use
`generators/prose.py`, the public entry point, not this module.

How a new construct gets its English
------------------------------------
Register one function for its IR class, in the module of its kind:

* an expression: `@expression(ir.Foo) def foo(ctx, e) -> Phrase` in
  `expressions.py`. Build it from words and the phrases of its parts, never
  from their flat text: `words("roll ", build(ctx, e.count), " dice")`; a
  condition is a `Clause(subject, verb, rest)` so that it can be negated,
  agree with a plural subject and be merged ("the deck and the discard pile
  are empty"). Optionally `@negation(ir.Foo)` says its negation where the
  clause's own ("is not …") would read badly (None: use the clause's).
* a statement: `@statement(ir.Foo) def foo(ctx, s) -> list[Item]` in
  `statements.py`; `say(ctx, "roll ", s.count, " dice into ", s.target)` makes
  the sentence (strings are the sentence's own words, IR nodes its slots) and
  settles it, a nested block goes in the item's children (`nested`).

The guarantee to keep: a phrase built from parts never flattens a
compound part into text (`expr(...)` inside an f-string does); the tests
render generated expressions in the slots of sentences and check every
settled tree with `phrases.problems` (`tests/test_grouping.py`).
Quantifiers (`exists`, `count`, ...) are in `quantifiers.py`, and the
helpers that build, negate and merge clauses in `clauses.py`.
`tests/test_printing.py` fails for any IR class without a rendering, and a
missing one raises `MissingRendering` instead of printing a placeholder.

Names: with one deciding role in the mode the rules speak to the reader
("you", "your hand"); otherwise roles go by their names ("the
Trialmaster", "North"). A card bound by a choice is "a soldier", then
"that soldier", unless two bound names share a noun (then *a*, *b*). A
define's `text:` is a term used by name (`{param}` stands for the
argument's phrase); a define without one is written out where it is
used if it is small, else named by its identifier in italics.
"""
from __future__ import annotations

import re
from itertools import groupby
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

from rulelang import ir
from rulelang.types import INT, NONE, ROLE, CardT, EnumT, ListT, ZoneT
from rulelang.walk import map_children

from .document import Item, clean, em, sentence
from .flow import again, changed_locals, tidy, together
from .listtypes import list_item
from .normalize import normal
from . import grammar
from .grammar import ordinal, third_person, times
from .nouns import (CARD, Noun, kinds_noun, noun, possessive, role_name, takes_s, words, zone_article,
                    zone_title)
from .phrases import Bound, Intro, Phrase, Words, bound, inline, lay, settle
from .pronouns import refer_after
from .scope import deciders
from .phrases import words as seq

__all__ = ["Context", "context", "MissingRendering", "node_classes", "expr", "stmt", "block", "words", "sentence"]


class MissingRendering(Exception):
    """An IR node class without an English rendering: a bug in the generator."""


@dataclass
class Used:
    """What rendering found the rules use by name: the defines and procedures to define
    under *Terms*, in order of first use (the one thing rendering adds to)."""
    terms: dict[str, None] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """What a rendering needs to know, passed down explicitly: a nested scope is a new context."""
    rs: ir.Ruleset
    mode: ir.Mode | None
    you: str | None  # the role the rules speak to ("you"), if one role decides in this mode
    refs: Mapping[str, Bound] = field(default_factory=dict)  # bound names in scope -> how they are referred to
    used: Used = field(default_factory=Used, compare=False)
    turn: bool = False  # in the steps of a turn: whose turn it is (`current`) is "you"
    # a term's true/false parameters with words of their own (`params:`): name -> (its reference, its clause)
    flags: Mapping[str, tuple[Bound, Phrase]] = field(default_factory=dict)

    @property
    def terms(self) -> dict[str, None]:
        return self.used.terms

    @property
    def people(self) -> frozenset[str]:
        """The words that name a person in the rules' text: the roles' names ("Dealer", "North")."""
        return frozenset(role_name(r).removeprefix("the ") for r in self.rs.roles)

    def with_refs(self, refs: Mapping[str, Bound]) -> Context:
        """This context with more bound names in scope."""
        return replace(self, refs={**self.refs, **refs})


def context(rs: ir.Ruleset, mode: ir.Mode | None = None) -> Context:
    """The context for printing `mode`'s rules (or the whole ruleset's)."""
    from . import calls, choices, expressions, moves, quantifiers, statements  # noqa: F401  -- their renderings register on import
    roles = mode.roles if mode is not None else tuple(r.name for r in rs.roles)
    deciding = deciders(rs, mode) if mode is not None else set(roles)
    speaking = [r for r in roles if r in deciding] or list(roles)
    seats = rs.players is not None and rs.players.high > 1  # a count of players: never "you"
    you = speaking[0] if len(speaking) == 1 and not seats else None  # a mode one role plays speaks to it
    return Context(rs, mode, you)


# ------------------------------------------------------------ dispatch

EXPRESSIONS: dict[type, Callable] = {}
NEGATIONS: dict[type, Callable] = {}
STATEMENTS: dict[type, Callable] = {}


def _register(table: dict, cls: type):
    def register(f):
        table[cls] = f
        return f
    return register


def expression(cls: type):
    """`@expression(ir.Foo)`: the phrase of a Foo."""
    return _register(EXPRESSIONS, cls)


def negation(cls: type):
    """`@negation(ir.Foo)`: the phrase of `not Foo`, where the clause's own negation reads badly (or None)."""
    return _register(NEGATIONS, cls)


def statement(cls: type):
    """`@statement(ir.Foo)`: the list items of a Foo."""
    return _register(STATEMENTS, cls)


def _rendering(table: dict, kind: str, node):
    found = table.get(type(node))
    if found is None:
        raise MissingRendering(f"no English for {type(node).__name__} (register an @{kind} for it in "
                               f"generators/{'statements' if kind == 'statement' else 'expressions'}.py)")
    return found


def phrase(ctx: Context, e: ir.Expr) -> Phrase:
    """An expression's phrase tree (in its printed form: `normalize.normal`)."""
    return build(ctx, normal(e, ctx.rs))


def build(ctx: Context, e: ir.Expr) -> Phrase:
    """The phrase of an expression already in printed form."""
    made = _rendering(EXPRESSIONS, "expression", e)(ctx, e)
    return Words(made) if isinstance(made, str) else made


def negated(ctx: Context, e: ir.Expr) -> Phrase | None:
    """The node's own negation, if it has one."""
    special = NEGATIONS.get(type(e))
    return special(ctx, e) if special is not None else None


def expr(ctx: Context, e: ir.Expr) -> str:
    """A value or condition as text that stands on its own (a sentence's slot)."""
    return inline(settle(phrase(ctx, e)))


def flat(p: Phrase) -> str:
    """A phrase settled and flattened to text (a sentence's slot)."""
    return inline(settle(p))


def cond(ctx: Context, e: ir.Expr, negate: bool = False) -> str:
    """A condition as a clause; negated in words (`not empty(deck)` -> "the deck is not empty")."""
    return expr(ctx, ir.Unary("not", e, ty=e.ty) if negate else e)


def stmt(ctx: Context, s: ir.Stmt) -> list[Item]:
    """A statement's list items: the words the ruleset gives for it (`"words":` in the rules),
    else its generated English."""
    if s.prose is not None:
        return [Item(sentence(clean(s.prose.text)))]
    return _rendering(STATEMENTS, "statement", s)(ctx, s)


def block(ctx: Context, stmts: ir.Block) -> list[Item]:
    """A block's list items, as players experience it: the ruleset's own words where it gives
    them (for as many statements as they cover), the rest without the rules' own bookkeeping
    (`flow.tidy`); a value noted by `let` is referred to as its noun from there on."""
    items: list[Item] = []
    run: list[ir.Stmt] = []  # statements the ruleset gives no words for, said together
    i = 0
    while i <= len(stmts):
        s = stmts[i] if i < len(stmts) else None
        if s is None or s.prose is not None:
            for t in again(together(tidy(ctx.rs, tuple(run)))):
                items += stmt(ctx, t)
                ctx = _noted(ctx, t)
            run = []
            if s is None:
                break
            items += stmt(ctx, s)
            for t in stmts[i:i + s.prose.count]:
                ctx = _noted(ctx, t)
            i += s.prose.count
            continue
        run.append(s)
        i += 1
    return _repeated(ctx, items)


def _repeated(ctx: Context, items: list[Item]) -> list[Item]:
    """The same instruction one after another, said once: "Repeat three times: …" (three choices
    of a card the rules tell apart by their decisions' names, which are not printed)."""
    out: list[Item] = []
    for item, run in groupby(items):
        count = len(list(run))
        out.append(nested(ctx, Words(f"repeat {times(count)}"), [item]) if count > 1 else item)
    return out


def _noted(ctx: Context, s: ir.Stmt) -> Context:
    """The context after a statement: a value it notes (`let`, `roll … into`) is in scope."""
    if isinstance(s, ir.Let):
        return ctx.with_refs({s.name: let_ref(ctx, s)})
    if isinstance(s, ir.Roll) and s.declares:
        return ctx.with_refs({s.target.name: Bound(placeholder(s.target.name), name=s.target.name)})
    return ctx


# ------------------------------------------------------------ sentences


def slots(ctx: Context, *parts) -> Phrase:
    """A sentence's phrase: strings are its own words (boundaries), IR expressions its slots."""
    return seq(*(bound(p) if isinstance(p, str) else phrase(ctx, p) if isinstance(p, ir.Expr) else p
                 for p in parts if p != ""))


def say(ctx: Context, *parts, body: list[Item] | None = None) -> Item:
    """One sentence, settled; a bulleted list it needs goes under it, before `body`."""
    laid = lay(slots(ctx, *parts), lists=not body, people=ctx.people)
    return Item(sentence(laid.text), laid.items + (body or []))


def nested(ctx: Context, head: Phrase, body: list[Item], then: str = "") -> Item:
    """`head: body` — inline when the body is one short sentence (one colon a sentence), else a sub-list."""
    laid = lay(head, lists=False, people=ctx.people)
    if len(body) == 1 and not body[0].children and (": " not in body[0].text or then and ": " not in laid.text):
        said = lower_first(ctx, body[0].text)
        if then:  # "…, then moves it": one sentence, what the head named is referred to (`pronouns`)
            said = refer_after(head, said, ctx.refs, ctx.people)
        return Item(sentence(f"{laid.text}{then or ':'} {said}"))
    return Item(sentence(laid.text + (f"{then}:" if then else ":")), body)


def lower_first(ctx: Context, text: str) -> str:
    """A sentence going on after a colon: its capital dropped, unless it starts with a name (Red, North, P)."""
    rs = ctx.rs
    names = [role_name(r) for r in rs.roles] + [zone_title(z) for z in rs.zones.values() if zone_article(z) == ""]
    if any(text.startswith(n + " ") for n in names if n[:1].isupper()) or text[1:2].isupper() or \
            re.match(r"[A-Z]\b", text):
        return text
    return text[:1].lower() + text[1:]


# ------------------------------------------------------------ names


def role(ctx: Context, name: str) -> str:
    return "you" if name == ctx.you else role_name(role_def(ctx.rs, name))


def role_ref(ctx: Context, name: str) -> Bound:
    """A role by its name ("the Trialmaster"), a person the rules may refer to again ("they")."""
    return Bound(role(ctx, name), name=f"the role {name}", noun=noun("player"))


def role_def(rs: ir.Ruleset, name: str) -> ir.Role:
    return next(r for r in rs.roles if r.name == name)


def subject(ctx: Context, who: ir.Expr) -> tuple[Phrase, bool]:
    """(who, spoken to): "you" takes the verb's plain form."""
    if isinstance(who, ir.RoleRef) and who.role == ctx.you or is_current(ctx, who):
        return Words("you"), True
    return phrase(ctx, who), False


def is_current(ctx: Context, e: ir.Expr) -> bool:
    """`current` in a turn's steps: the player spoken to ("you")."""
    return ctx.turn and isinstance(e, ir.BuiltinCall) and e.name == "current"


def verb(ctx: Context, who: ir.Expr, plain_verb: str) -> Phrase:
    """"you choose", "the Trialmaster chooses"."""
    said, you = subject(ctx, who)
    return seq(said, bound(f" {plain_verb if you else third_person(plain_verb)}"))


def zone(ctx: Context, name: str, owner: ir.Expr | None = None) -> Phrase:
    if name == "box":
        return Words("the box")
    z = ctx.rs.zones[name]
    title = zone_title(z)
    who = owner.role if isinstance(owner, ir.RoleRef) else z.owner if z.owner not in (None, "each") else None
    owners = (words(who).lower() + "'s ", "player's ") if who is not None else ("player's ",)
    if who is not None or owner is not None:
        for own in owners:  # "Trialmaster's hand", "player's card": it names its owner already
            if title.lower().startswith(own):
                title = title[len(own):]
    if who is not None and who == ctx.you:
        return Words(f"your {title}")
    if who is not None:  # a role, referred to again as any player is: "… in their hand"
        return seq(replace(role_ref(ctx, who), text=possessive(role(ctx, who))), f" {title}")
    if is_current(ctx, owner):
        return Words(f"your {title}")
    if owner is not None:
        said = build(ctx, owner)
        if isinstance(said, Bound):  # kept a bound name: "every player's score sheet is empty"
            return seq(replace(said, text=possessive(said.text)), f" {title}")
        if isinstance(said, Words) and takes_s(said.text):
            return Words(f"{possessive(said.text)} {title}")
        return seq(f"the {title} of ", said)
    art = zone_article(z)
    return Words(f"{art} {title}" if art else title)


def zone_noun(ctx: Context, z: ir.Expr) -> Noun:
    """What a zone holds: "action card", "card"."""
    zones = ctx.rs.zones
    if isinstance(z, ir.ZoneRef) and z.zone in zones and zones[z.zone].holds:
        return kinds_noun(ctx.rs, zones[z.zone].holds)
    if isinstance(z.ty, ZoneT) and z.ty.kinds:  # a space in a local, a zone a term returns: "seed", "man";
        held = kinds_noun(ctx.rs, sorted(z.ty.kinds))  # but a card is "a card" ("the top card of the deck")
        return CARD if held.one.split()[-1] == "card" else held
    return CARD


def item_noun(ctx: Context, ty) -> Noun | None:
    """The noun for a value of this type, if it has one: a card's, "player", "number", a
    kind of value's ("symbol"), "space"."""
    if isinstance(ty, CardT) and ty.kinds:
        return kinds_noun(ctx.rs, sorted(ty.kinds))
    if isinstance(ty, CardT):
        return CARD
    if isinstance(ty, EnumT) and ty.name in ctx.rs.enums:
        return noun(words(ty.name))
    if isinstance(ty, ZoneT):
        return noun("space" if ty.board else "place")
    return {ROLE: noun("player"), INT: noun("number")}.get(ty)


def item_type(domain: ir.Expr):
    """The type of what a binder goes through: a list's items, a zone's cards, a board's spaces."""
    ty = domain.ty
    if isinstance(ty, ListT):
        return ty.item
    if isinstance(ty, ZoneT):
        return CardT(ty.kinds)
    return None


def placeholder(name: str) -> str:
    """A name the rules must print, as a rulebook prints one: a letter as a capital (X, as in
    "Move X"), a longer name in italics, as words (*budget*)."""
    return name.upper() if len(name) == 1 else em(words(name))


def noun_ref(refs, n: Noun, of: int, index: int, name: str, first: str = "that", scope: int = 0) -> Bound:
    """How a bound thing is referred to by its noun: "that card", else "the other card", "the third
    card" (the first of these not already in scope); two bound together "the first card" and "the
    second card". `first`: "the" for a define's parameter ("the player")."""
    used = {r.text for r in refs.values()}
    if of == 1:
        candidates = [f"{first} {n.one}", f"the other {n.one}"] + [f"the {ordinal(i)} {n.one}" for i in range(3, 10)]
    else:
        candidates = [f"the {ordinal(i)} {n.one}" for i in range(1, 10)]
        candidates = [c for c in candidates if c not in used][index:]
    said = next((c for c in candidates if c not in used), f"{first} {n.one}")
    return Bound(said, name=name, noun=n, scope=scope)


def group_noun(ctx: Context, ty, domain: ir.Expr) -> Noun | None:
    """The noun bound things of a group go by (not a number: those keep a letter, X and Y),
    None where they need a name: they have no noun."""
    if isinstance(domain, ir.BuiltinCall) and domain.name in ("lines", "lines_through"):  # a board's lines: "a line", "that line"
        return noun("line")
    if ty is None or ty == NONE:  # a list that started empty, an untyped parameter: what it is given
        ty = list_item(ctx.rs, domain) or ty
    n = item_noun(ctx, ty)
    if n is None or n.one == "number":
        return _items_named(ctx, domain)
    return n


def _items_named(ctx: Context, domain: ir.Expr) -> Noun | None:
    """A list variable's items by the plural its `text:` begins with: "the dice under …" holds dice."""
    v = ctx.rs.vars.get(domain.name) if isinstance(domain, ir.Var) else None
    head = re.sub(r"^(the|a|an|each|every) ", "", v.text.strip().lower()).split(" ", 1)[0] if v and v.text else ""
    one = grammar.singular(head) if head.isalpha() else head
    return noun(one, head) if one != head and grammar.plural(one) == head else None


def may_be_none(domain: ir.Expr, rs: ir.Ruleset) -> bool:
    """A list that may hold `none` (`[none] + …`, or a define's list that does)."""
    if isinstance(domain, ir.ListExpr):
        return any(isinstance(i, ir.Const) and i.value is None or may_be_none(i, rs) for i in domain.items)
    if isinstance(domain, ir.Binary) and domain.op == "+":
        return may_be_none(domain.left, rs) or may_be_none(domain.right, rs)
    if isinstance(domain, ir.DefineCall):
        return may_be_none(rs.defines[domain.name].body, rs)
    return False


def each_player(ctx: Context, table, owned: str) -> str | None:
    """"each player's score is their *chips*": a value every player has alike (`score: chips` ->
    each role's own chips), said once of each player after `owned` ("score is"); None where
    the players' values differ or one player has one. Seats made from a count are alike even when
    the mode is printed for one of them: more may sit."""
    seats = ctx.rs.players is not None and ctx.rs.players.high > 1
    if not table or len(table) < 2 and not seats:
        return None
    player = ir.Local(" player", ty=ROLE)  # no name of a ruleset has a space
    forms = {r: _swap_role(e, r, player) for r, e in table.items()}
    if len(set(forms.values())) != 1:
        return None
    scope = id(forms)
    each = Intro("each player's", name=player.name, noun=noun("player"), scope=scope)
    inner = ctx.with_refs({player.name: Bound("the player", name=player.name, noun=noun("player"), scope=scope)})
    return lay(seq(each, f" {owned} ", phrase(inner, next(iter(forms.values())))), people=ctx.people).text


def let_ref(ctx: Context, s: ir.Let) -> Bound:
    """How the rules refer to a value noted by `let`: by its name where that is a word (*budget*) or the rules
    change it later ("P becomes the player to the left of P"), else by its noun ("that card"), else a letter (X)."""
    listed = _listed(ctx, s)
    if listed is not None:
        return listed
    n = item_noun(ctx, s.value.ty)
    if len(s.name) >= 3 and s.name.replace("_", "").isalpha() or n is None or n.one == "number" or \
            s.name in changed_locals(ctx.rs):
        return Bound(placeholder(s.name), name=s.name)
    return noun_ref(ctx.refs, n, 1, 0, s.name, scope=id(s))


def _listed(ctx: Context, s: ir.Let) -> Bound | None:
    """A list noted under a word that is no plural noun, named by its things and that word: "the players
    *left*", "the players *through*" (were *left*, *through*: a name where words read as English)."""
    ty = s.value.ty.item if isinstance(s.value.ty, ListT) else None
    n = group_noun(ctx, ty, ir.Local(s.name)) if ty is not None else None
    if n is None or n.one == "number" or len(s.name) < 3 or not s.name.isalpha() or grammar.singular(s.name) != s.name:
        return None
    return Bound(f"the {n.many} {placeholder(s.name)}", name=s.name)


def inside(ctx: Context, b: ir.Binder) -> Context:
    """The context inside `b`'s scope: its names referred to by their noun ("that soldier",
    "the other soldier", "the first action card"), or by a name where they have no noun (X)."""
    refs = {k: v for k, v in ctx.refs.items() if k not in b.names}  # a name bound again is another thing
    types = dict(zip(b.names, b.types or ()))
    for g in b.groups:
        n = group_noun(ctx, types.get(g.names[0]) or item_type(g.domain), g.domain)
        before = dict(refs)  # "the first" and "the second" of a group count from what was in scope
        for i, name in enumerate(g.names):
            refs[name] = noun_ref(before, n, len(g.names), i, name, scope=id(b)) if n is not None else \
                Bound(placeholder(name), name=name)
    return replace(ctx, refs=refs)


def _swap_role(e: ir.Expr, name: str, local: ir.Local) -> ir.Expr:
    """`e` with every reference to role `name` made a reference to `local`."""
    if isinstance(e, ir.RoleRef) and e.role == name:
        return local
    return map_children(e, lambda c: _swap_role(c, name, local))


def node_classes():
    """Every expression and statement class of `rulelang.ir` a checked ruleset may
    contain (the parser's unresolved names and the interpreter's own nodes excluded)."""
    return [c for c in ir.EXPRESSIONS if c not in ir.PARSER_ONLY], list(ir.STATEMENTS)
