"""Referring again, as a rulebook editor does: the first mention names the thing, later ones say "it".

Within one sentence (a settled phrase tree; each bullet of a list is a
sentence of its own) the first mention of a bound thing keeps its name
("that player", "that action card"); a later mention of the same thing
becomes a pronoun when it cannot be misread, that is when the sentence
mentions no other bound thing of its kind (people: "they"; things: "it"):

* "that player's hand" again is "their hand", "that card's" "its";
* "the cost of that card" again is "its cost";
* a thing again is "it" ("move it to the discard pile");
* a player again is "they" as a clause's subject ("they are"), "them"
  after a preposition or a verb when no verb follows ("pays them as many
  chips as their *bet*").

Otherwise the name is kept: "that man is yours and that space is empty"
says two things, and "it" would not say which; "… then that player moves"
would need its verb changed; after "is", "is it" reads as a question.

The sentence is read once into a list of its words in order (`_Token`), the
pronouns are decided on that list, where what comes before and after each
mention is known, and the tree is rebuilt in the same order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Mapping

from . import grammar
from .phrases import Bound, Cases, Clause, Group, Intro, Join, Listing, Op, Phrase, Scope, Seq, Words, settle

# after these a player is the object: "among them", "than them"
_PREPOSITIONS = {"to", "from", "among", "on", "for", "with", "by", "at", "in", "than", "into", "onto",
                 "behind", "beside", "before", "after", "like", "against", "between", "under", "over", "as"}
# what may follow "them": no verb ("them has planned" is not English)
_AFTER_OBJECT = _PREPOSITIONS | {"and", "or", "if", "until", "when", "while", "but", "then", "so"}
_COPULAS = {"is", "are", "was", "were", "be"}
# a verb in the third person after a name, in a term's own words ("{p} is in"); not "as", "its", "this"
_SAID_VERB = re.compile(r" (is|has|was|does|can|may|must|(?!(?:as|its|this|thus|plus|minus|us)\b)[a-z]+(?<!ss)s)"
                        r"(?=[ ,.;:)]|$)")  # "… is it" reads as a question: the name stays
# "the cost of X" is X's cost; "the space left of X", "the number of X" are not things X has
_OF = re.compile(r"\bthe ((?:[\w*’'-]+ ){0,3}[\w*’'-]+) of $")
_NOT_FIRST = {"number", "many", "rest", "most", "each", "all", "none", "one", "sum", "total"}
_NOT_OWNED = {"the", "a", "an", "of", "left", "right", "above", "below", "front", "next", "ahead", "behind", "out"}


@dataclass
class _Token:
    """One piece of a sentence's text, in reading order: a leaf (Words or Bound), the words a
    structure adds between its parts ("sep"), or a clause's verb ("verb")."""
    text: str
    kind: str = "leaf"
    bound: Bound | Intro | None = None
    direct: bool = False  # a verb whose clause's subject is a bound name itself


def _person(b: Bound | Intro) -> bool:
    return b.noun.one.split()[-1] == "player"  # type: ignore[attr-defined]


def refer(p: Phrase, people: frozenset[str] = frozenset()) -> Phrase:
    """A settled sentence with its later mentions of a bound thing said as pronouns where
    unambiguous; a word of `people` (and "player") outside a bound name is another person."""
    tokens: list[_Token] = []
    _read(p, tokens)
    _decide(tokens, _person_words(people))
    return _apply(p, iter(tokens), people)


def _person_words(people: frozenset[str]) -> re.Pattern:
    """"player" (not the "Player Board", a name) and the roles' names, as the rules print them."""
    names = sorted({"player", "players", "Player", "Players"} | {w for w in people if w} |
                   {w[:1].lower() + w[1:] for w in people if w}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b(?! [A-Z])")


def _named(t: _Token) -> Bound | Intro | None:
    """The bound thing a token mentions, if any: things introduced as many are each "that card", never "it"
    (people introduced as many are "they" alike)."""
    b = t.bound
    if isinstance(b, Intro) and b.many and b.noun is not None and not _person(b):
        return None
    return b if b is not None and b.noun is not None and b.name else None


def _read(p: Phrase, out: list[_Token]) -> None:
    if isinstance(p, (Bound, Intro)):
        out.append(_Token(p.text, bound=p))
    elif isinstance(p, Words):
        out.append(_Token(p.text))
    elif isinstance(p, Listing):
        out.append(_Token("…", "sep"))
    elif isinstance(p, Clause):
        _read(p.subject, out)
        out.append(_Token(f" {p.verb} ", "verb", direct=isinstance(p.subject, Bound)))
        if p.rest is not None:
            _read(p.rest, out)
    else:
        for part in _parts(p):
            if isinstance(part, str):
                out.append(_Token(part, "sep"))
            else:
                _read(part, out)


def _parts(p: Phrase) -> list:
    """A structure's parts in reading order, with the words it adds between them as strings."""
    if isinstance(p, Seq):
        return list(p.parts)
    if isinstance(p, Scope):
        return [p.head, p.body]
    if isinstance(p, Group):
        return ["(", p.inner, ")"]
    if isinstance(p, Op):
        return [p.left, f" {p.symbol} ", p.right]
    if isinstance(p, Join):
        parts: list = [p.opener + " "] if p.opener else []
        for i, item in enumerate(p.items):
            if i:
                parts.append(f" {p.word} " if i == len(p.items) - 1 else ", ")
            parts.append(item)
        return parts
    if isinstance(p, Cases):
        parts = []
        for value, cond in p.branches:
            parts += [value, " if ", cond, "; otherwise "]
        return parts + ([p.otherwise] if p.otherwise is not None else [])
    return []


def _decide(tokens: list[_Token], persons: re.Pattern) -> None:
    """Each later mention's text, where a pronoun can stand for it."""
    kinds: dict[bool, set[tuple[str, int]]] = {}
    for t in tokens:
        b = _named(t)
        if b is not None:
            kinds.setdefault(_person(b), set()).add((b.name, b.scope))
        elif t.bound is None and persons.search(t.text):  # "the players whose …", "the Dealer": another person
            kinds.setdefault(True, set()).add((" other", 0))
    named: set[tuple[str, int]] = set()
    for i, t in enumerate(tokens):
        b = _named(t)
        if b is None:
            continue
        if (b.name, b.scope) not in named or isinstance(b, Intro) or len(kinds[_person(b)]) > 1:
            named.add((b.name, b.scope))
            continue
        _pronoun(tokens, i, b)


def _pronoun(tokens: list[_Token], i: int, b: Bound | Intro) -> None:
    person = _person(b)
    before = tokens[i - 1] if i else None
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    prev = "".join(t.text for t in tokens[max(0, i - 3):i]).rstrip().rsplit(" ", 1)[-1].lower()
    apostrophe = after is not None and after.kind == "leaf" and after.bound is None and after.text.startswith("'")
    following = "".join(t.text for t in tokens[i + 1:i + 3])
    if b.text.endswith(("'s", "s'")) or apostrophe:  # "that player's hand": "their hand"
        t = tokens[i]
        if not (following[2:] if apostrophe else following).strip(" ,;:.)"):  # "the room after theirs"
            t.text = "theirs" if person else t.text
            if apostrophe and person:
                after.text = after.text[2:] if after.text.startswith("'s") else after.text[1:]  # type: ignore
            return
        t.text = "their" if person else "its"
        if apostrophe:
            assert after is not None
            after.text = after.text[2:] if after.text.startswith("'s") else after.text[1:]
        return
    owned = _OF.search(before.text) if before is not None and before.kind == "leaf" and before.bound is None \
        else None
    if owned and owned.group(1).split()[0].lower() not in _NOT_FIRST \
            and not set(owned.group(1).lower().split()) & _NOT_OWNED:  # "the cost of that card": "its cost"
        assert before is not None
        before.text = before.text[:owned.start()] + ("their " if person else "its ") + owned.group(1)
        tokens[i].text = ""
        return
    if prev in _COPULAS or prev == "not":
        return
    if after is not None and after.kind == "verb" and after.direct:  # the clause's subject
        if person:
            tokens[i].text = "they"
            after.text = f" {grammar.agree(after.text.strip(), True)} "
        else:
            tokens[i].text = "it"
        return
    verb = _SAID_VERB.match(after.text) if person and after is not None and after.kind == "leaf" \
        and after.bound is None else None
    if verb is not None:  # the subject of a verb in a term's own words: "the room they are in"
        assert after is not None
        tokens[i].text = "they"
        after.text = f" {grammar.agree(verb.group(1), True)}{grammar.second_verbs(after.text[verb.end():])}"
        return
    following = following.lstrip()
    next_word = re.match(r"[\w’'-]*", following).group(0).lower()  # type: ignore[union-attr]
    if not person:  # "it" takes a verb as "that card" does
        tokens[i].text = "it"
    elif prev in _PREPOSITIONS and (not following or following[0] in ",;:)." or next_word in _AFTER_OBJECT):
        tokens[i].text = "them"


def _apply(p: Phrase, tokens, people: frozenset[str]) -> Phrase:
    """The tree rebuilt from the decided tokens, read in the order `_read` read them."""
    if isinstance(p, Words):
        t = next(tokens)
        if t.text == p.text:
            return p
        return Words(t.text, p.bound, p.hard)  # a pronoun, or words a pronoun took the place of
    if isinstance(p, Listing):
        next(tokens)
        return Listing(p.word, tuple(refer(i, people) for i in p.items))
    if isinstance(p, Clause):
        subject = _apply(p.subject, tokens, people)
        verb = next(tokens).text.strip()
        rest = _apply(p.rest, tokens, people) if p.rest is not None else None
        many = p.many or isinstance(subject, Words) and subject.text == "they"
        return replace(p, subject=subject, verb=verb, rest=rest, many=many)
    said = [next(tokens) if isinstance(part, str) else _apply(part, tokens, people) for part in _parts(p)]
    parts = [x for x in said if isinstance(x, Phrase)]
    if isinstance(p, Seq):
        return Seq(tuple(parts))
    if isinstance(p, Scope):
        return Scope(parts[0], parts[1])
    if isinstance(p, Group):
        return Group(parts[0])
    if isinstance(p, Op):
        return replace(p, left=parts[0], right=parts[1])
    if isinstance(p, Join):
        return replace(p, items=tuple(parts))
    if isinstance(p, Cases):
        n = len(p.branches)
        return Cases(tuple(zip(parts[0:2 * n:2], parts[1:2 * n:2])), parts[-1] if p.otherwise is not None else None)
    return p


_VERB = re.compile(r" [a-z]+(?<!ss)s ")  # "… that player asks …": a verb in the third person
_CLAUSE_START = re.compile(r"(?:^|[;,] |\b(?:and|or|but|then) )$")


def refer_after(head: Phrase, body: str, refs: Mapping[str, Bound], people: frozenset[str] = frozenset()) -> str:
    """The words after "then" in "that player chooses an action card in their hand, then moves it to
    their plan": `body`, a sentence already said, goes on the settled sentence `head`, so what the
    head names (`refs`: the bound names in scope) is referred to in it as in one sentence."""
    named = sorted((b for b in refs.values() if b.noun is not None and b.name and b.text), key=lambda b: -len(b.text))
    if not named:
        return body
    tokens: list[_Token] = []
    _read(settle(head), tokens)
    tokens.append(_Token(", then ", "sep"))
    start = len(tokens)
    pattern = re.compile("|".join(rf"(?<![\w'’*]){re.escape(b.text)}(?:'s|')?(?![\w'’])" for b in named))
    at = 0
    for m in pattern.finditer(body):
        tokens.append(_Token(body[at:m.start()]))
        said = m.group(0)
        b = next(b for b in named if said == b.text or said.startswith(b.text + "'"))
        tokens.append(_Token(said, bound=replace(b, text=said)))
        at = m.end()
        verb = _VERB.match(body, at)
        if verb is not None and said == b.text and _CLAUSE_START.search(body[:m.start()]):
            # the clause's subject: "…, then they ask to join …" (its verb agrees), "… it holds …"
            tokens.append(_Token(verb.group(0), "verb", direct=True))
            at = verb.end()
    tokens.append(_Token(body[at:]))
    _decide(tokens, _person_words(people))
    return "".join(t.text for t in tokens[start:])
