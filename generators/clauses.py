"""Clauses: conditions joined, negated, merged and turned into relative clauses, as phrases.

    x == light_sun or x == dark_sun         -> "x is light sun or dark sun"
    empty(a) or empty(b)  (negated, pushed) -> "either A or B is not empty"
    a Sergeant stands on …  (negated)       -> "no Sergeant stands on …"
"""
from __future__ import annotations

import dataclasses
import re

from rulelang import ir

from . import grammar
from .document import clean
from .nouns import words
from .phrases import Bound, Clause, Intro, Join, Phrase, Scope, Seq, Words, bound, edges, nodes
from .phrases import words as seq


def operands(e: ir.Expr, op: str) -> list[ir.Expr]:
    """`a and b and c` as [a, b, c]: one coordination, not nested pairs."""
    if isinstance(e, ir.Binary) and e.op == op:
        return operands(e.left, op) + operands(e.right, op)
    return [e]


def merge(word: str, items: list[Phrase]) -> Phrase:
    """Clauses joined, shared parts said once: "x is 1 or 2", "the deck and the pile are empty"."""
    items = list(dict.fromkeys(items))  # a and a is a
    if len(items) == 1:
        return items[0]
    if all(isinstance(i, Clause) for i in items):
        subjects = [i.subject for i in items]
        if all(s == subjects[0] for s in subjects) and not items[0].many:
            return _same_subject(word, items)
        predicates = [(i.verb, i.rest) for i in items]
        if all(p == predicates[0] for p in predicates) and not any(i.many for i in items) \
                and not any(isinstance(s, Words) and s.text == "you" for s in subjects):
            verb = grammar.agree(items[0].verb, many=word == "and")
            return Clause(Join(word, tuple(subjects)), verb, items[0].rest, many=word == "and")
    return Join(word, tuple(items), clauses=True)


def _same_subject(word: str, items: list[Clause]) -> Phrase:
    """"x is 1 or 2", "ma is none or not mb": one subject, said once (unless a predicate but
    the last runs on: "there is a card such that … and …" stays two clauses)."""
    if any(edges(i.rest)[1] for i in items[:-1] if i.rest is not None):
        return Join(word, tuple(items), clauses=True)
    first_words = {i.verb.split(" ")[0] for i in items}
    if len(first_words) == 1 and all(i.rest is not None or " " in i.verb for i in items):
        aux = first_words.pop()
        mores = [i.verb[len(aux):].strip() for i in items]
        if aux in ("does", "do") and word == "and" and all(m.startswith("not ") for m in mores):
            # "does not hold a king or hold a prince", not "does not hold a king and not hold a prince"
            aux, word, mores = f"{aux} not", "or", [m[4:] for m in mores]
        rests = []
        for i, more in zip(items, mores):
            rests.append(seq(bound(more + " "), i.rest) if more and i.rest is not None else
                         Words(more) if more else i.rest)
        return Clause(items[0].subject, aux, Join(word, tuple(rests)))
    predicates = tuple(seq(bound(i.verb + (" " if i.rest is not None else "")), i.rest) if i.rest is not None
                       else Words(i.verb) for i in items)
    return Clause(items[0].subject, "", Join(word, predicates))


def clause_of(parts: list) -> Phrase:
    """A condition's words as a clause: its subject is what comes before its verb
    ("{s} is at the end of its lane", "a refresh card in the Reserve is face up")."""
    parts = [p for p in parts if p != ""]
    flat = [(i, w) for i, p in enumerate(parts) if isinstance(p, str) for w in re.finditer(r"[A-Za-z']+", p)]
    after_subject = None
    for i, m in flat:  # an auxiliary verb anywhere, or a verb straight after a phrase ({i} shows {a})
        if m.group(0).lower() in grammar.AUXILIARIES:
            after_subject = (i, m)
            break
    if after_subject is None:
        for i, m in flat:
            prefix = parts[i][:m.start()]
            if i > 0 and not prefix.strip() and not isinstance(parts[i - 1], str) and grammar.is_verb(m.group(0)):
                after_subject = (i, m)
                break
    if after_subject is None:
        return seq(*parts)
    i, m = after_subject
    text = parts[i]
    subject = seq(*parts[:i], text[:m.start()].rstrip())
    verb_text = text[m.start():]
    rest = [p for p in parts[i + 1:]]
    if not rest:
        return Clause(subject, verb_text.strip())
    return Clause(subject, verb_text.strip(), seq(*rest))


def negate(p: Phrase) -> Phrase:
    """A clause negated in words: "is not", "cannot", "no refresh card …", "there is no …"."""
    if isinstance(p, Clause):
        lead = first_words(p.subject)
        if lead is not None and re.match(r"(a|an) ", lead) and not p.many:
            return replace_subject(p, replace_first_words(p.subject, re.sub(r"^(a|an) ", "no ", lead)))
        if lead is not None and re.match(r"no \w", lead):  # "no trick has been taken" -> "a trick has been taken"
            said = lead[3:]
            some = "someone" + said[3:] if re.match(r"one\b", said) else f"some {said}" if p.many else grammar.article(said)
            return replace_subject(p, replace_first_words(p.subject, some))
        if isinstance(p.subject, Words) and p.subject.text == "there" and p.rest is not None:
            rest_lead = first_words(p.rest)
            if rest_lead is not None and re.match(r"(a|an|one|two|three|four) ", rest_lead):
                return Clause(p.subject, p.verb, replace_first_words(p.rest, re.sub(
                    r"^(a|an|one) ", "no ", re.sub(r"^(two|three|four) ", r"no \1 ", rest_lead))))
        rest_lead = first_words(p.rest) if p.rest is not None else None
        if p.verb in ("has", "holds") and p.rest is not None and rest_lead is not None \
                and re.match(r"(a|an) ", rest_lead):  # "has no card", "holds no seed", not "does not have a card"
            return Clause(p.subject, p.verb, replace_first_words(p.rest, re.sub(r"^(a|an) ", "no ", rest_lead)))
        if p.verb:  # "does not have a card"
            return Clause(p.subject, grammar.negate(p.verb, p.many, whole=p.rest is None), p.rest, p.many)
        if isinstance(p.rest, Join):  # a subject with several predicates: each negated
            return Clause(p.subject, "", Join("and" if p.rest.word == "or" else "or",
                                              tuple(_negate_predicate(r) for r in p.rest.items)))
    lead = first_words(p)
    if lead is not None and re.match(r"(a|an) ", lead):  # "a Sergeant stands on …" -> "no Sergeant …"
        return replace_first_words(p, re.sub(r"^(a|an) ", "no ", lead))
    return Scope(bound("it is not the case that "), p)


def _negate_predicate(p: Phrase) -> Phrase:
    text = first_words(p)
    if text is None:
        return p
    return replace_first_words(p, grammar.negate(text.strip()) + (" " if text.endswith(" ") else ""))


def relative(c: Phrase, name: str, many: bool) -> Phrase | None:
    """What a condition says of a bound name, as a relative clause: "that is face up",
    "whose icon is …"; None if the condition is not about it alone."""
    if isinstance(c, Clause) and only_subject(c, name):
        verb = grammar.agree(c.verb, many) if c.verb else c.verb
        rest = c.rest
        lead = first_words(rest) if rest is not None else None
        if c.verb == "is not" and (isinstance(rest, Bound) or lead is not None and re.match(r"the \w", lead)):
            return seq(bound("other than "), rest)  # "a player other than the player asking"
        if many and rest is not None and isinstance(rest, Join) and not c.verb:
            rest = Join(rest.word, tuple(_agree_phrase(r, many) for r in rest.items), rest.opener)
        return seq(bound(f"that {verb} " if rest is not None else f"that {verb}"), rest) if rest is not None \
            else Words(f"that {verb}")
    if isinstance(c, Clause) and isinstance(c.subject, Seq) and len(c.subject.parts) == 2 \
            and isinstance(c.subject.parts[1], Bound) and c.subject.parts[1].name == name \
            and isinstance(c.subject.parts[0], Words) and c.subject.parts[0].text.startswith("the ") \
            and c.subject.parts[0].text.endswith(" of ") \
            and _count_bound(c, name) == 1:
        field = c.subject.parts[0].text[4:].removesuffix(" of ")
        verb = grammar.agree(c.verb, False)
        return seq(bound(f"whose {field} {verb} "), c.rest) if c.rest is not None else Words(f"whose {field} {verb}")
    if isinstance(c, Clause) and isinstance(c.subject, Seq) and len(c.subject.parts) == 2 \
            and isinstance(c.subject.parts[0], Bound) and c.subject.parts[0].name == name \
            and isinstance(c.subject.parts[1], Words) and _count_bound(c, name) == 1:  # "p's bid is 3"
        owned = c.subject.parts[1].text.strip()
        owned = owned[3:] if owned.startswith("'s ") else owned  # "that player's cube": "whose cube"
        verb = grammar.agree(c.verb, False)
        return seq(bound(f"whose {owned} {verb} "), c.rest) if c.rest is not None else Words(f"whose {owned} {verb}")
    if isinstance(c, Clause) and c.verb and c.rest is not None and _count_bound(c, name) == 1:
        lead = first_words(c.subject) or ""
        if isinstance(c.rest, Bound) and c.rest.name == name and not re.match(r"(a|an|no|every|there)\b", lead):
            return seq(bound("that "), Clause(c.subject, c.verb))  # "such that they may play it": "that they may play"
    if isinstance(c, Join) and all(isinstance(i, Clause) for i in c.items):
        parts = [relative(i, name, many) for i in c.items]
        if all(parts):
            return Join(c.word, tuple(parts))
    return None


def _agree_phrase(p: Phrase, many: bool) -> Phrase:
    text = first_words(p)
    return replace_first_words(p, grammar.agree(text.strip(), many) + " ") if text else p


def replace_subject(c: Clause, subject: Phrase) -> Clause:
    return Clause(subject, c.verb, c.rest, c.many)


def only_subject(c: Clause, name: str) -> bool:
    return isinstance(c.subject, Bound) and c.subject.name == name and _count_bound(c, name) == 1


def _count_bound(p: Phrase, name: str) -> int:
    return sum(1 for n in nodes(p) if isinstance(n, Bound) and n.name == name)


def first_words(p: Phrase) -> str | None:
    """The words a phrase starts with, if it starts with words."""
    if isinstance(p, Words):
        return p.text
    if isinstance(p, Seq):
        return first_words(p.parts[0])
    if isinstance(p, Scope):
        return first_words(p.head)
    return None


def replace_first_words(p: Phrase, text: str) -> Phrase:
    if isinstance(p, Intro):  # "no playing card …" still introduces the card: later "it" (`pronouns`)
        return dataclasses.replace(p, text=text)
    if isinstance(p, Words):
        return Words(text, p.bound, p.hard)
    if isinstance(p, Scope):
        return Scope(replace_first_words(p.head, text), p.body)
    return Seq((replace_first_words(p.parts[0], text),) + p.parts[1:])


def merge_things(items: list[Phrase]) -> Phrase:
    """Values listed in order ("none and the trial modifier cards in the Reserve"); nested lists flattened."""
    flat = [x for i in items for x in (i.items if isinstance(i, Join) and not i.clauses and i.word == "and"
                                        else (i,))]
    return flat[0] if len(flat) == 1 else Join("and", tuple(flat))


def fill_names(text: str, params: list[str]) -> str:
    """A `text:` with each `{param}` as the parameter's name: the term as the glossary heads it."""
    return re.sub(r"{(\w+)}", lambda m: words(m.group(1)) if m.group(1) in params else m.group(0), clean(text))


def frame(head: str, parts: list[Phrase]) -> Phrase:
    """"the larger of A and B", "the difference between A and B": the last part runs to the right."""
    words_ = [head] + [p for x in parts[:-1] for p in (x, bound(", "))]
    if len(parts) > 1:
        words_[-1] = bound(" and ")
    return Scope(seq(*words_), parts[-1])
