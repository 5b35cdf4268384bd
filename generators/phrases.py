"""Phrase trees: a sentence's structure before it becomes text, so its grouping can be kept and checked.

The English generator builds a tree of phrases; `settle` then fits every
phrase into its place so that the flat text has exactly one reading, and
`problems` checks a settled tree against the same rules, independently
(the tests run it over generated expressions).

What can be misread is where a phrase ends. A phrase is *open* on a side
when a word on that side could be read as part of it:

* a coordination `A and B` / `A or B` on both sides (`not A and B`:
  is it `not (A and B)`?); with an opener ("both A and B", "either A or
  B", "neither A nor B") on its right side only;
* arithmetic `a + b` on both sides, to arithmetic only when the
  neighbour is an operator of the usual precedence;
* a scope (`there is a card such that …`, `for every card …, …`, a
  relative clause `a card that …`) on its right side;
* a conditional value `x if C; otherwise y` on both sides.

Every side of a phrase sits against a boundary of some strength: the
start or end of a sentence, a list bullet, a parenthesis or a `:` or
`;` (HARD); a sentence's own words between its slots ("Move … to …",
a clause's verb: BOUND); an arithmetic operator of lower precedence,
the `if` after a conditional's value, or the `and`/`or` between the items
of a coordination (ARITH: a sum never takes one in); anything else (SOFT:
"the largest of …"). An open side needs:
coordinations and scopes BOUND, arithmetic ARITH, a conditional BOUND
on its left and HARD on its right. `settle` meets these needs by
phrasing first (an opener, the one open part of a coordination moved to
its end, a bulleted list "all of the following hold:"), and by
parentheses only where nothing else fits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from . import grammar
from .document import Item, sentence

SOFT, ARITH, BOUND, HARD = range(4)


class Phrase:
    """A node of a phrase tree."""


@dataclass(frozen=True)
class Words(Phrase):
    """Text with no structure of its own. `bound`: the sentence's own words between
    its slots ("Move ", " to ", a clause's verb), a boundary for the phrases beside it;
    `hard`: a stronger one (": ", "; ")."""
    text: str
    bound: bool = False
    hard: bool = False


@dataclass(frozen=True)
class Bound(Words):
    """A bound name as the rules refer to it ("that soldier", *c*): `name` is the name, `noun` its noun,
    `scope` which binding of the name it is (two nested binders may both be named `p`)."""
    name: str = ""
    noun: object = None
    scope: int = 0


@dataclass(frozen=True)
class Intro(Words):
    """A bound thing introduced ("every player", "a card in your hand"): its first mention,
    which later ones may refer back to (`pronouns`); `many`: introduced as many ("the action cards
    that …"), where a later "that card" is each of them, never "it"."""
    name: str = ""
    noun: object = None
    scope: int = 0
    many: bool = False


@dataclass(frozen=True)
class Seq(Phrase):
    """Words and phrases one after another."""
    parts: tuple[Phrase, ...]


@dataclass(frozen=True)
class Clause(Phrase):
    """`subject verb rest`: kept apart so that clauses can be negated, agree with a plural
    subject, take a quantifier as subject ("every soldier is …") or be merged
    ("the deck and the discard pile are empty")."""
    subject: Phrase
    verb: str  # the verb phrase's first words: "is", "is not", "can", "holds"
    rest: Phrase | None = None
    many: bool = False  # the subject is plural


@dataclass(frozen=True)
class Join(Phrase):
    """`A, B and C`; `word` is "and", "or" or "nor"; `opener` "both", "either" or "neither".
    `clauses`: conditions (their order means nothing, and they may become a bulleted list);
    otherwise things ("move a and b": kept in order)."""
    word: str
    items: tuple[Phrase, ...]
    opener: str = ""
    clauses: bool = False


@dataclass(frozen=True)
class Op(Phrase):
    """Arithmetic: `left symbol right`; `level` 1 for + and −, 2 for ×, ÷ and mod."""
    symbol: str
    level: int
    left: Phrase
    right: Phrase


@dataclass(frozen=True)
class Cases(Phrase):
    """A value chosen by conditions: "v1 if c1; otherwise v2 if c2; otherwise v3"."""
    branches: tuple[tuple[Phrase, Phrase], ...]  # (value, condition)
    otherwise: Phrase | None = None  # None: the conditions cover every case


@dataclass(frozen=True)
class Scope(Phrase):
    """A head whose last clause runs to the right: "there is a card c such that " + body."""
    head: Phrase
    body: Phrase


@dataclass(frozen=True)
class Group(Phrase):
    """Parentheses: the last resort."""
    inner: Phrase


@dataclass(frozen=True)
class Listing(Phrase):
    """"all of the following hold" in the text, and one bullet per item under it."""
    word: str  # the coordination it lists: "and", "or", "nor"
    items: tuple[Phrase, ...]


INTRO = {"and": "all of the following hold", "or": "at least one of the following holds",
         "nor": "none of the following holds"}
OPENER = {"and": "both", "or": "either", "nor": "neither"}


def words(*parts) -> Phrase:
    """A Seq of strings (soft words) and phrases; one part stands alone."""
    items = tuple(Words(p) if isinstance(p, str) else p for p in parts if p != "")
    return items[0] if len(items) == 1 else Seq(items)


def bound(text: str) -> Words:
    return Words(text, bound=True)


def clause_parts(c: Clause) -> tuple[Phrase, ...]:
    said = c.verb
    if c.subject == Words("you") and not c.many:  # "you are", "you hold": you takes the plural's verb
        first, _, rest = said.partition(" ")
        said = f"{grammar.agree(first, True)} {rest}".strip()
    verb = Words(f" {said} " if c.rest is not None else f" {said}", bound=True) if said else Words(" ", bound=True)
    return (c.subject, verb) + ((c.rest,) if c.rest is not None else ())


def nodes(p: Phrase):
    """Every phrase in a tree."""
    yield p
    for child, _, _ in children(p, HARD, HARD):
        yield from nodes(child)


# ------------------------------------------------------------ what is open, what each side needs


def edges(p: Phrase) -> tuple[str | None, str | None]:
    """What makes each side of a phrase open: None (closed), "join", "op", "scope" or "cases"."""
    if isinstance(p, (Seq, Clause)):
        parts = p.parts if isinstance(p, Seq) else clause_parts(p)
        return edges(parts[0])[0], edges(parts[-1])[1]
    if isinstance(p, Join):
        return (None if p.opener else "join"), "join"
    if isinstance(p, Op):
        return "op", "op"
    if isinstance(p, Cases):
        return "cases", "cases"
    if isinstance(p, Scope):
        return edges(p.head)[0], "scope"
    return None, None  # Words, Group, Listing


NEEDS = {None: SOFT, "op": ARITH, "join": BOUND, "scope": BOUND}


def needs(edge: str | None, side: str) -> int:
    if edge == "cases":
        return BOUND if side == "left" else HARD
    return NEEDS[edge]


def _strength(p: Phrase | None, outer: int) -> int:
    """The boundary a neighbouring part makes: `outer` at the end of the sequence."""
    if p is None:
        return outer
    if isinstance(p, Words):
        return HARD if p.hard else BOUND if p.bound else SOFT
    return SOFT


def _part_sides(parts, left: int, right: int):
    for i, part in enumerate(parts):
        yield part, _strength(parts[i - 1] if i else None, left), \
            _strength(parts[i + 1] if i + 1 < len(parts) else None, right)


def _op_sides(p: Op, left: int, right: int):
    """Operands by the usual precedence: `a + b − c`, `a + b × c`, but `(a + b) × c`."""
    inner_left = ARITH if isinstance(p.left, Op) and p.left.level >= p.level else SOFT
    inner_right = ARITH if isinstance(p.right, Op) and p.right.level > p.level else SOFT
    return (p.left, left, inner_left), (p.right, inner_right, right)


def _cases_sides(p: Cases, left: int, right: int):
    last = len(p.branches) - 1
    for i, (value, cond) in enumerate(p.branches):
        yield value, left if i == 0 else HARD, ARITH
        yield cond, BOUND, right if i == last and p.otherwise is None else HARD
    if p.otherwise is not None:
        yield p.otherwise, HARD, right


def _join_sides(p: Join, left: int, right: int):
    """The and/or of a list separates arithmetic ("the column of g − 1 and the column of g + 1"), and so
    does the and/or between conditions ("… or the total + B is not 3"): a sum never takes in a condition.
    A coordination inside a condition still does not stand beside another without an opener."""
    inner = ARITH
    last = len(p.items) - 1
    for i, item in enumerate(p.items):
        yield item, left if i == 0 and not p.opener else inner, right if i == last else inner


def children(p: Phrase, left: int, right: int):
    """Each child phrase with the boundaries on its two sides."""
    if isinstance(p, Seq):
        yield from _part_sides(p.parts, left, right)
    elif isinstance(p, Clause):
        yield from _part_sides(clause_parts(p), left, right)
    elif isinstance(p, Join):
        yield from _join_sides(p, left, right)
    elif isinstance(p, Op):
        yield from _op_sides(p, left, right)
    elif isinstance(p, Cases):
        yield from _cases_sides(p, left, right)
    elif isinstance(p, Scope):
        yield p.head, left, BOUND
        yield p.body, BOUND, right
    elif isinstance(p, Group):
        yield p.inner, HARD, HARD
    elif isinstance(p, Listing):
        for item in p.items:
            yield item, HARD, HARD


def problems(p: Phrase, left: int = HARD, right: int = HARD, path: str = "") -> list[str]:
    """Where a settled tree could be read two ways (empty: it cannot)."""
    found = []
    lo, ro = edges(p)
    where = path + type(p).__name__
    if needs(lo, "left") > left:
        found.append(f"{where}: open on the left ({lo}) after a weaker boundary: {inline(p)!r}")
    if needs(ro, "right") > right:
        found.append(f"{where}: open on the right ({ro}) before a weaker boundary: {inline(p)!r}")
    if isinstance(p, Join) and p.opener and (p.opener != OPENER[p.word] or p.opener == "both" and len(p.items) != 2):
        found.append(f"{where}: opener {p.opener!r} does not fit {len(p.items)} items joined by {p.word!r}")
    for child, cl, cr in children(p, left, right):
        if isinstance(p, Op) and _joins_inside(child):
            found.append(f"{where}: an operand joins two things in its own words: {inline(child)!r}")
        if not isinstance(child, Words):
            found += problems(child, cl, cr, where + "/")
    return found


def _joins_inside(p: Phrase) -> bool:
    """An operand whose own words join two things ("the spaces between them and the end of the track"):
    beside an operator, "… and the end of the track − *die*" could be read as taking only the last."""
    return not isinstance(p, (Op, Group, Join)) and bool(re.search(r"\b(and|or)\b", inline(p)))


# ------------------------------------------------------------ settling


@dataclass
class _Room:
    """How many bulleted lists the sentence being settled may still take (one)."""
    lists: int = 0


def settle(p: Phrase, left: int = HARD, right: int = HARD, lists: bool = False) -> Phrase:
    """The phrase fitted between boundaries `left` and `right`; with `lists`, one
    coordination may become a bulleted list under the sentence."""
    return _settle(p, left, right, _Room(1 if lists else 0))


def _fits(p: Phrase, left: int, right: int) -> bool:
    lo, ro = edges(p)
    return needs(lo, "left") <= left and needs(ro, "right") <= right


def _close(p: Phrase, room: _Room) -> Phrase:
    """A phrase that cannot stay open where it is: a bulleted list if it is a
    coordination of conditions and the sentence has room for one, else in parentheses."""
    if isinstance(p, Join) and p.clauses and room.lists:
        room.lists -= 1
        return Listing(p.word, tuple(settle(i, lists=True) for i in p.items))
    return Group(_settle(_unbracket_end(p), HARD, HARD, room))


def _unbracket_end(p: Phrase) -> Phrase:
    """An aside at the end of what goes in parentheses, set off by a comma: "(their *bet* × 3 ÷ 2,
    rounded down)", not "(… (rounded down))"."""
    if isinstance(p, Seq):
        return Seq(p.parts[:-1] + (_unbracket_end(p.parts[-1]),))
    if isinstance(p, Scope):
        return Scope(p.head, _unbracket_end(p.body))
    if type(p) is Words and re.fullmatch(r" \([^()]*\)", p.text):
        return Words(f", {p.text[2:-1]}", bound=True)
    return p


def _settle(p: Phrase, left: int, right: int, room: _Room) -> Phrase:
    if isinstance(p, Join):
        return _settle_join(p, left, right, room)
    if isinstance(p, (Seq, Clause, Scope)):  # open only through their parts
        lo, ro = edges(p)
        if needs(ro, "right") > right or needs(lo, "left") > left and lo != "join":
            return _close(p, room)  # "(the number of cards that …) ÷ 2": the whole, not its end
        settled = _settle_parts(p, left, right, room)  # a coordination at its start takes an opener
        return settled if _fits(settled, left, right) else _close(p, room)
    if not _fits(p, left, right):
        return _close(p, room)
    if isinstance(p, Op):
        (a, al, ar), (b, bl, br) = _op_sides(p, left, right)
        a, b = (Group(_settle(x, HARD, HARD, room)) if _joins_inside(x) else _settle(x, xl, xr, room)
                for x, xl, xr in ((a, al, ar), (b, bl, br)))
        return replace(p, left=a, right=b)
    if isinstance(p, Cases):
        settled = [_settle(c, cl, cr, room) for c, cl, cr in _cases_sides(p, left, right)]
        pairs = tuple(zip(settled[0:2 * len(p.branches):2], settled[1:2 * len(p.branches):2]))
        return Cases(pairs, settled[-1] if p.otherwise is not None else None)
    if isinstance(p, Group):
        return Group(_settle(p.inner, HARD, HARD, room))
    return p


def _settle_parts(p: Phrase, left: int, right: int, room: _Room) -> Phrase:
    settled = [_settle(c, cl, cr, room) for c, cl, cr in children(p, left, right)]
    if isinstance(p, Seq):
        return Seq(tuple(settled))
    if isinstance(p, Scope):
        return Scope(*settled)
    return replace(p, subject=settled[0], rest=settled[2] if p.rest is not None else None)


def _settle_join(p: Join, left: int, right: int, room: _Room) -> Phrase:
    """One item may stay open, at the end (or, opening on the left only, at the start)."""
    if right < BOUND:
        return _close(p, room)
    items = list(p.items)
    trailing = [i for i in items if edges(i)[1] in ("join", "scope")]  # open on the right, fine only at the end
    if len(trailing) > 1 and p.clauses and room.lists:  # several open conditions: one a line
        return _close(p, room)
    if trailing and p.clauses:  # conditions joined by and/or read the same in any order
        items.remove(trailing[-1])
        items.append(trailing[-1])
    opener = p.opener
    if left < BOUND and not opener:
        if p.word == "and" and len(items) > 2:
            return _close(p, room)
        opener = OPENER[p.word]
    join = Join(p.word, tuple(items), opener, p.clauses)
    return replace(join, items=tuple(_settle(c, cl, cr, room) for c, cl, cr in _join_sides(join, left, right)))


# ------------------------------------------------------------ text


def inline(p: Phrase) -> str:
    """The phrase as one line of text (a list, if any, as its introduction only)."""
    if isinstance(p, Words):
        return p.text
    if isinstance(p, Seq):
        return "".join(inline(x) for x in p.parts)
    if isinstance(p, Clause):
        return "".join(inline(x) for x in clause_parts(p))
    if isinstance(p, Join):
        texts = [inline(i) for i in p.items]
        if p.clauses and p.word == "or" and len(texts) > 2:  # alternatives, each its own: "A, or B, or C"
            body = ", or ".join(texts)
        else:
            body = ", ".join(texts[:-1]) + f" {p.word} " + texts[-1] if len(texts) > 1 else texts[0]
        return f"{p.opener} {body}" if p.opener else body
    if isinstance(p, Op):
        return f"{inline(p.left)} {p.symbol} {inline(p.right)}"
    if isinstance(p, Cases):
        branches = [f"{inline(v)} if {inline(c)}" for v, c in p.branches]
        return "; otherwise ".join(branches + ([inline(p.otherwise)] if p.otherwise is not None else []))
    if isinstance(p, Scope):
        return inline(p.head) + inline(p.body)
    if isinstance(p, Group):
        return f"({inline(p.inner)})"
    if isinstance(p, Listing):
        return INTRO[p.word]
    raise TypeError(f"not a phrase: {p!r}")


def bullets(p: Phrase) -> list[Item]:
    """The items of the bulleted list in a settled phrase (settle allows one a sentence)."""
    if isinstance(p, Listing):
        return [_listed(i) for i in p.items]
    for child, _, _ in children(p, HARD, HARD):
        found = bullets(child)
        if found:
            return found
    return []


def _listed(p: Phrase) -> Item:
    """One bullet of a list; one that lists in its turn ends as its list's head does ("… holds:")."""
    text, items = inline(p), bullets(p)
    return Item(sentence(_headed(text, items)), items)


def _headed(text: str, items: list[Item]) -> str:
    """"… all of the following hold:" before the bullets it introduces."""
    return text + ":" if items and text.endswith(tuple(INTRO.values())) else text


@dataclass(frozen=True)
class Laid:
    """A settled sentence: its text and the bullets under it."""
    text: str
    items: list[Item] = field(default_factory=list)


def lay(p: Phrase, lists: bool = True, people: frozenset[str] = frozenset()) -> Laid:
    """A sentence settled, a thing mentioned again in it said as a pronoun where it can be
    (`pronouns`; `people`: the words that name a person, such as the roles' names)."""
    from .pronouns import refer  # it reads phrase trees: imported here, where both are defined
    settled = refer(settle(p, lists=lists), people)
    items = bullets(settled)
    return Laid(_headed(inline(settled), items), items)
