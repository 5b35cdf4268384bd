"""The rules language in English: one method per IR node class.

    draw 4 from action_deck to hand   ->  "Draw 4 cards from the Action Deck to your hand."
    exists t in chamber where t is trial  ->  "there is a trial card in the Chamber"

`English(rs, mode)` answers `expr(e)` (a value or condition as text),
`cond(e, negate=False)`, `stmt(s)` and `block(stmts)` (list items). Inside,
an expression becomes a phrase tree (`generators/phrases.py`) before it is
text, and every sentence is *settled*: its grouping is kept by phrasing
("both … and …", "either … or …", a bulleted "all of the following
hold:", "… if …; otherwise …") so that it has one reading only.

How a new construct gets its English
------------------------------------
Add one method for its IR class, named after the class in lower case,
here or in the module of its kind:

* an expression: `expr_<class>(self, e) -> Phrase` in `expressions.py`.
  Build it from words and the phrases of its parts, never from their
  flat text: `words("roll ", self.phrase(e.count), " dice")`; a condition
  is a `Clause(subject, verb, rest)` so that it can be negated, agree
  with a plural subject and be merged ("the deck and the discard pile are
  empty"). Optionally `not_<class>(self, e) -> Phrase | None` says its
  negation where the clause's own ("is not …") would read badly.
* a statement: `stmt_<class>(self, s) -> list[Item]` in `statements.py`;
  `self.say("roll ", s.count, " dice into ", s.target)` makes the sentence
  (strings are the sentence's own words, IR nodes its slots) and settles
  it, a nested block goes in the item's children (`self.nested`).

The guarantee to keep: a phrase built from parts never flattens a
compound part into text (`self.expr(...)` inside an f-string does); the
tests render generated expressions in the slots of sentences and check
every settled tree with `phrases.problems` (`tests/test_grouping.py`).
Quantifiers (`exists`, `count`, ...) are in `quantifiers.py`, and the
helpers that build, negate and merge clauses in `clauses.py`. `tests/test_printing.py` fails for
any IR class without a method, and a missing method raises
`MissingRendering` instead of printing a placeholder.

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
from contextlib import contextmanager

from rulelang import ir
from rulelang.types import INT, ROLE, CardT
from rulelang.walk import map_children, method, walk

from .document import Item, em, sentence
from .expressions import Expressions
from .normalize import normal
from .nouns import CARD, Noun, kinds_noun, noun, possessive, role_name, words, zone_article, zone_title
from .phrases import Bound, Phrase, Words, bound, inline, lay, settle
from .phrases import words as seq
from .quantifiers import Quantifiers
from .statements import Statements

__all__ = ["English", "MissingRendering", "node_classes", "words", "sentence"]  # words, sentence: for other generators


class MissingRendering(Exception):
    """An IR node class without an English rendering: a bug in the generator."""


class English(Expressions, Quantifiers, Statements):
    def __init__(self, ruleset: ir.Ruleset, mode: ir.Mode | None = None):
        self.rs = ruleset
        self.mode = mode
        roles = mode.roles if mode is not None else tuple(r.name for r in ruleset.roles)
        deciding = deciders(ruleset, mode) if mode is not None else set(roles)
        speaking = [r for r in roles if r in deciding] or list(roles)
        seats = ruleset.players is not None and ruleset.players.high > 1  # a count of players: never "you"
        self.you = speaking[0] if len(speaking) == 1 and not seats else None  # a mode one role plays speaks to it
        self.refs: dict[str, Bound] = {}  # bound names in scope -> how they are referred to
        self.terms: dict[str, None] = {}  # the defines and procedures printed by name, in order of first use

    # ------------------------------------------------------------ dispatch
    def phrase(self, e: ir.Expr) -> Phrase:
        """An expression's phrase tree (in its printed form: `normalize.normal`)."""
        return self.build(normal(e, self.rs))

    def build(self, e: ir.Expr) -> Phrase:
        """The phrase of an expression already in printed form."""
        made = self._method("expr", e)(e)
        return Words(made) if isinstance(made, str) else made

    def expr(self, e: ir.Expr) -> str:
        """A value or condition as text that stands on its own (a sentence's slot)."""
        return inline(settle(self.phrase(e)))

    def inline(self, p: Phrase) -> str:
        """A phrase settled and flattened to text (a sentence's slot)."""
        return inline(settle(p))

    def cond(self, e: ir.Expr, negate: bool = False) -> str:
        """A condition as a clause; negated in words (`not empty(deck)` -> "the deck is not empty")."""
        return self.expr(ir.Unary("not", e, ty=e.ty) if negate else e)

    def stmt(self, s: ir.Stmt) -> list[Item]:
        return self._method("stmt", s)(s)

    def block(self, stmts: ir.Block) -> list[Item]:
        return [item for s in stmts for item in self.stmt(s)]

    def _method(self, prefix: str, node):
        found = method(self, prefix, node)
        if found is None:
            raise MissingRendering(f"no English for {type(node).__name__} (add {prefix}_"
                                   f"{type(node).__name__.lower()} to generators/english.py)")
        return found

    # ------------------------------------------------------------ sentences
    def slots(self, *parts) -> Phrase:
        """A sentence's phrase: strings are its own words (boundaries), IR expressions its slots."""
        return seq(*(bound(p) if isinstance(p, str) else self.phrase(p) if isinstance(p, ir.Expr) else p
                     for p in parts if p != ""))

    def say(self, *parts, body: list[Item] | None = None) -> Item:
        """One sentence, settled; a bulleted list it needs goes under it, before `body`."""
        laid = lay(self.slots(*parts), lists=not body)
        return Item(sentence(laid.text), laid.items + (body or []))

    def nested(self, head: Phrase, body: list[Item], then: str = "") -> Item:
        """`head: body` — inline when the body is one short sentence, else a sub-list."""
        laid = lay(head, lists=False)
        if len(body) == 1 and not body[0].children and ": " not in body[0].text:  # one colon a sentence
            return Item(sentence(f"{laid.text}{then or ':'} {self.lower_first(body[0].text)}"))
        return Item(sentence(laid.text + (f"{then}:" if then else ":")), body)

    def lower_first(self, text: str) -> str:
        """A sentence going on after a colon: its capital dropped, unless it starts with a name (Red, North)."""
        names = [role_name(r) for r in self.rs.roles] + [zone_title(z) for z in self.rs.zones.values()
                                                          if zone_article(z) == ""]
        if any(text.startswith(n + " ") for n in names if n[:1].isupper()) or text[1:2].isupper():
            return text
        return text[:1].lower() + text[1:]

    # ------------------------------------------------------------ names
    def role(self, name: str) -> str:
        return "you" if name == self.you else role_name(self.role_def(name))

    def role_def(self, name: str) -> ir.Role:
        return next(r for r in self.rs.roles if r.name == name)

    def subject(self, role: ir.Expr) -> tuple[Phrase, bool]:
        """(who, spoken to): "you" takes the verb's plain form."""
        if isinstance(role, ir.RoleRef) and role.role == self.you:
            return Words("you"), True
        return self.phrase(role), False

    def verb(self, role: ir.Expr, verb: str) -> Phrase:
        """"you choose", "the Trialmaster chooses"."""
        who, you = self.subject(role)
        return seq(who, bound(f" {verb if you else third_person(verb)}"))

    def zone(self, name: str, owner: ir.Expr | None = None) -> Phrase:
        if name == "box":
            return Words("the box")
        z = self.rs.zones[name]
        title = zone_title(z)
        role = owner.role if isinstance(owner, ir.RoleRef) else z.owner if z.owner not in (None, "each") else None
        owners = (words(role).lower() + "'s ", "player's ") if role is not None else ("player's ",)
        if role is not None or owner is not None:
            for own in owners:  # "Trialmaster's hand", "player's card": it names its owner already
                if title.lower().startswith(own):
                    title = title[len(own):]
        if role is not None:
            who = "your" if role == self.you else possessive(self.role(role))
            return Words(f"{who} {title}")
        if owner is not None:
            who = self.phrase(owner)
            if isinstance(who, Words):
                return Words(f"{possessive(who.text)} {title}")
            return seq(f"the {title} of ", who)
        art = zone_article(z)
        return Words(f"{art} {title}" if art else title)

    def zone_noun(self, zone: ir.Expr) -> Noun:
        """What a zone holds: "action card", "card"."""
        if isinstance(zone, ir.ZoneRef) and zone.zone in self.rs.zones and self.rs.zones[zone.zone].holds:
            return kinds_noun(self.rs, self.rs.zones[zone.zone].holds)
        return CARD

    def item_noun(self, ty) -> Noun | None:
        """The noun for a value of this type, if it has one: a card's, "player", "number"."""
        if isinstance(ty, CardT) and ty.kinds:
            return kinds_noun(self.rs, sorted(ty.kinds))
        if isinstance(ty, CardT):
            return CARD
        return {ROLE: noun("player"), INT: noun("number")}.get(ty)

    def each_player(self, table) -> str | None:
        """A value every player has alike (`score: position` -> each role's own position), said
        once of "the player"; None where the players' values differ or one player has one."""
        if len(table) < 2:
            return None
        player = ir.Local(" player", ty=ROLE)  # no name of a ruleset has a space
        forms = {r: _swap_role(e, r, player) for r, e in table.items()}
        if len(set(forms.values())) != 1:
            return None
        saved = dict(self.refs)
        self.refs[player.name] = Bound("the player", name=player.name, noun=noun("player"))
        try:
            return self.expr(next(iter(forms.values())))
        finally:
            self.refs = saved

    # ------------------------------------------------------------ bound names
    @contextmanager
    def naming(self, b: ir.Binder, allow_noun: bool = True):
        """Bound names referred to in `b`'s scope: "that soldier" when one name is bound and no
        other name in scope shares its noun, else the name itself (*a*, *b*)."""
        saved = dict(self.refs)
        single = len(b.names) == 1
        for name, ty in zip(b.names, b.types or (None,) * len(b.names)):
            n = self.item_noun(ty) if single and allow_noun else None
            taken = {r.noun.one for r in self.refs.values() if r.noun is not None}
            if n is not None and n.one not in taken:
                self.refs[name] = Bound(f"that {n.one}", name=name, noun=n)
            else:
                self.refs[name] = Bound(em(words(name)), name=name)
        try:
            yield
        finally:
            self.refs = saved



def _swap_role(e: ir.Expr, role: str, local: ir.Local) -> ir.Expr:
    """`e` with every reference to `role` made a reference to `local`."""
    if isinstance(e, ir.RoleRef) and e.role == role:
        return local
    return map_children(e, lambda c: _swap_role(c, role, local))


def third_person(verb: str) -> str:
    """"choose" -> "chooses", "carry" -> "carries"."""
    first, _, rest = verb.partition(" ")
    if re.search(r"(s|x|z|ch|sh|o)$", first):
        first += "es"
    elif re.search(r"[^aeiou]y$", first):
        first = first[:-1] + "ies"
    elif first == "have":
        first = "has"
    else:
        first += "s"
    return f"{first} {rest}".strip()


def deciders(rs: ir.Ruleset, mode: ir.Mode) -> set[str]:
    """The roles that make a decision somewhere in a mode's rules (an automated role makes none)."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = [rs.setup, mode.setup, *(s.body for s in mode.round), *(w.body for w in mode.watches)]
    while todo:
        for node in walk(todo.pop()):
            if isinstance(node, (ir.Choose, ir.Menu)):
                found |= {node.role.role} if isinstance(node.role, ir.RoleRef) else set(mode.roles)
            elif isinstance(node, ir.CallProc) and node.name not in seen:
                seen.add(node.name)
                todo.append(rs.procedures[node.name].body)
    return found


def node_classes():
    """Every expression and statement class of `rulelang.ir` a checked ruleset may
    contain (the parser's unresolved names and the interpreter's own nodes excluded)."""
    parser_only = {ir.Name, ir.Call, ir.Owned}

    def subclasses(cls):
        for sub in cls.__subclasses__():
            if sub.__module__ == ir.__name__:
                yield sub
            yield from subclasses(sub)

    exprs = [c for c in subclasses(ir.Expr) if c not in parser_only]
    return exprs, list(subclasses(ir.Stmt))

