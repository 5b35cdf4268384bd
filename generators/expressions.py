"""Expressions in English: `expr_<class>` builds a phrase for each IR expression class.

Conditions are `Clause`s (subject, verb, rest), so that they negate ("the
deck is not empty", "no refresh card is face up"), take a quantifier as
subject ("every soldier in the Gauntlet is at the end of its lane") and
merge ("the Action Deck and the Action Discard Pile are empty").
"""
from __future__ import annotations

import re

from rulelang import ir
from rulelang.builtins import BUILTINS
from rulelang.types import BOOL, INT, ROLE, BoardT, CardT, ListT, ZoneT
from rulelang.walk import method

from . import grammar
from .document import clean, em
from .nouns import field_noun, type_noun, words
from .phrases import (Bound, Cases, Clause, Join, Op, Phrase, Scope, Seq, Words, bound, edges, inline, nodes,
                      settle, words as seq)

COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least"}
HOLDS_AS = {"==": "exactly as many {} as ", "!=": "not as many {} as ", "<": "fewer {} than ",
            "<=": "at most as many {} as ", ">": "more {} than ", ">=": "at least as many {} as "}
HOLDS = {"==": "exactly {n}", "!=": "other than {n}", "<": "fewer than {n}", "<=": "at most {n}",
         ">": "more than {n}", ">=": "at least {n}"}
ARITH = {"+": ("+", 1), "-": ("−", 1), "*": ("×", 2), "/": ("÷", 2), "%": ("mod", 2)}
ORDER = {"row": ("from the bottom row up", "from the top row down"),  # row 1 is the bottom, column 1 the left
         "column": ("from left to right", "from right to left")}
SAME = {"column": "in the same column as", "row": "in the same row as"}


class Expressions:
    """The `expr_*` and `not_*` methods of `English` (see english.py for the conventions)."""

    # ------------------------------------------------------------ atoms
    def expr_const(self, e: ir.Const) -> Phrase:
        if e.value is None:
            return Words("none")
        if isinstance(e.value, bool):
            return Words("true" if e.value else "false")
        if isinstance(e.value, str):
            return Words(f"“{clean(e.value)}”")
        return Words(str(e.value))

    def expr_local(self, e: ir.Local) -> Phrase:
        ref = self.refs.get(e.name) or Bound(em(words(e.name)), name=e.name)
        return Clause(ref, "is true") if e.ty == BOOL else ref

    def expr_var(self, e: ir.Var) -> Phrase:
        name = Words(em(words(e.name)))
        return Clause(name, "is true") if e.ty == BOOL else name

    def expr_param(self, e: ir.Param) -> Phrase:
        name = Words(f"the {em(words(e.name))} option")
        return Clause(name, "is on") if e.ty == BOOL else name

    def not_param(self, e: ir.Param) -> Phrase | None:
        return Clause(Words(f"the {em(words(e.name))} option"), "is off") if e.ty == BOOL else None

    def expr_enumvalue(self, e: ir.EnumValue) -> Phrase:
        return Words(words(e.value))

    def expr_zoneref(self, e: ir.ZoneRef) -> Phrase:
        return self.zone(e.zone, e.owner)

    def expr_roleref(self, e: ir.RoleRef) -> Phrase:
        return Words(self.role(e.role))

    def expr_field(self, e: ir.Field) -> Phrase:
        subject = seq(f"the {field_noun(e.name)} of ", self.build(e.obj))
        return Clause(subject, "is true") if e.ty == BOOL else subject

    # ------------------------------------------------------------ calls
    def expr_definecall(self, e: ir.DefineCall) -> Phrase:
        d = self.rs.defines[e.name]
        self.terms.setdefault(e.name)
        args = {p: a for (p, _), a in zip(d.params, e.args)}
        if d.text:
            return self.template(d.text, args, d.body.ty == BOOL)
        name = em(words(e.name))
        args = merge_things([self.build(a) for a in e.args]) if e.args else None
        if d.body.ty == BOOL:
            return Clause(Words(name), "holds for" if args else "holds", args)
        if args is None:
            return Words(name)
        return seq(name + (" " if re.search(r"_(of|to|for|in|on|at|from|by|with)$", e.name) else " for "), args)

    def template(self, text: str, args: dict[str, ir.Expr], condition: bool) -> Phrase:
        """A ruleset's `text:` with `{param}` filled: a clause if it is a condition."""
        parts: list = []
        pieces = re.split(r"{(\w+)}", clean(text))
        for i, piece in enumerate(pieces):
            if i % 2 == 0:
                parts.append(piece)
            elif piece in args:
                arg = args[piece]
                if isinstance(arg, ir.Const) and arg.value == 1 and i + 1 < len(pieces):  # "1 spaces" -> "1 space"
                    pieces[i + 1] = re.sub(r"^(\s+)(\w+)", lambda m: m.group(1) + grammar.singular(m.group(2)),
                                           pieces[i + 1])
                parts.append(self.build(arg))
            else:
                parts.append("{" + piece + "}")
        return clause_of(parts) if condition else seq(*[p for p in parts if p != ""])

    def expr_builtincall(self, e: ir.BuiltinCall) -> Phrase:
        a, b = e.args, BUILTINS[e.name]
        if e.name == "size" and isinstance(a[0].ty, (ZoneT, BoardT)):
            return seq(f"the number of {self.zone_noun(a[0]).many} in ", self.build(a[0]))
        if e.name == "size" and isinstance(a[0].ty, ListT):
            listed = self.build(a[0])
            lead = _first_words(listed)
            if isinstance(a[0], ir.Quantified) and a[0].kind == "list" and a[0].value == ir.Local(a[0].binder.names[0]):
                return self.build(ir.Quantified("count", a[0].binder, ty=e.ty))
            if lead is not None and lead.startswith("the ") and not isinstance(listed, Join):
                return _replace_first_words(listed, "the number of " + lead[4:])  # the number of Gobbots in …
            return seq("the number of items in ", listed)
        if e.name == "size" and isinstance(a[0], ir.Quantified) and a[0].kind == "list" \
                and a[0].value == ir.Local(a[0].binder.names[0]):  # the number of the things listed
            return self.build(ir.Quantified("count", a[0].binder, ty=e.ty))
        if e.name in ("top", "bottom") and self.is_row(a[0]):  # a row has ends, not a top
            end = "right-most" if e.name == "top" else "left-most"
            return seq(f"the {end} {self.zone_noun(a[0]).one} of ", self.build(a[0]))
        if e.name in ("top", "bottom"):
            return seq(f"the {e.name} {self.zone_noun(a[0]).one} of ", self.build(a[0]))
        if e.name == "abs" and isinstance(a[0], ir.Binary) and a[0].op == "-":
            return frame("the difference between ", [self.build(a[0].left), self.build(a[0].right)])
        if e.name in ("min", "max") and len(a) > 1:  # the larger of 0 and the attack − the block
            size = ("smaller" if e.name == "min" else "larger") if len(a) == 2 else \
                ("smallest" if e.name == "min" else "largest")
            return frame(f"the {size} of ", [self.build(x) for x in a])
        if e.name == "space":
            return self.space(e)
        if e.name in ("column", "row"):
            return seq(f"the {e.name} of ", self.build(a[0]))
        if e.ty == BOOL:
            return self.builtin_clause(e, b.phrase)
        return seq(*_fill(b.phrase, [self.build(x) for x in a]))

    def not_builtincall(self, e: ir.BuiltinCall) -> Phrase | None:
        negated = BUILTINS[e.name].negated
        return self.builtin_clause(e, negated) if negated else None

    def builtin_clause(self, e: ir.BuiltinCall, phrase: str) -> Phrase:
        """A true/false built-in's phrase as a clause: "the deck is empty", "the free spaces … are empty"."""
        said = clause_of(_fill(phrase, [self.build(x) for x in e.args]))
        if isinstance(said, Clause) and e.args and isinstance(e.args[0].ty, ListT):
            return Clause(said.subject, grammar.agree(said.verb, True), said.rest, many=True)
        return said

    def space(self, e: ir.BuiltinCall) -> Phrase:
        """A board's space: "the space *s* is on", "the space above *s*", "the top space of the
        Gauntlet in column *x*", or by column and row (row 1 is the bottom)."""
        board, col, row = e.args
        near = {(0, 0): "the space {} is on", (0, 1): "the space above {}", (0, -1): "the space below {}",
                (-1, 0): "the space left of {}", (1, 0): "the space right of {}"}
        (cx, dx), (ry, dy) = _offset(col, "column"), _offset(row, "row")
        if cx is not None and cx == ry and (dx, dy) in near:
            before, _, after = near[(dx, dy)].partition("{}")
            return seq(before, self.build(cx), after)
        edge = "bottom " if row == ir.Const(1) else "top " if row == ir.BuiltinCall("rows", (board,)) else ""
        short = _atomic(col) and (edge or _atomic(row))
        head = seq(f"the {edge}space of ", self.build(board))
        if short:
            return seq(head, " in column ", self.build(col), *([] if edge else [", row ", self.build(row)]))
        if edge:
            return seq(head, bound(" whose column is "), self.build(col))
        return seq(head, bound(" whose column is "), self.build(col), bound(" and whose row is "), self.build(row))

    def is_row(self, e: ir.Expr) -> bool:
        """A zone laid out in a row (or a list drawn from one, in its order)."""
        if isinstance(e, ir.ZoneRef):
            return e.zone in self.rs.zones and self.rs.zones[e.zone].kind == "row"
        if isinstance(e, ir.Quantified) and e.kind == "list":
            return len(e.binder.groups) == 1 and self.is_row(e.binder.groups[0].domain)
        if isinstance(e, ir.DefineCall) and not e.args:
            return self.is_row(self.rs.defines[e.name].body)
        return False

    # ------------------------------------------------------------ operators
    def expr_unary(self, e: ir.Unary) -> Phrase:
        if e.op == "not":
            return self.negation(e.operand)
        return seq("−", self.build(e.operand))

    def negation(self, e: ir.Expr) -> Phrase:
        """`not e` in words: the node's own `not_<class>`, or its clause negated."""
        special = method(self, "not", e)
        phrase = special(e) if special is not None else None
        return phrase if phrase is not None else negate(self.build(e))

    def expr_binary(self, e: ir.Binary) -> Phrase:
        op = e.op
        if op in ("and", "or"):
            return merge(op, [self.build(x) for x in operands(e, op)])
        if op in COMPARE:
            return self.compare(e.left, op, e.right)
        if op in ("in", "not in"):
            verb = "is" if op == "in" else "is not"
            if isinstance(e.right, ir.ListExpr):
                return Clause(self.build(e.left), verb, Join("or", tuple(self.build(i) for i in e.right.items)))
            where = "in" if isinstance(e.right.ty, (ZoneT, BoardT)) else "among"
            return Clause(self.build(e.left), f"{verb} {where}", self.build(e.right))
        if op == "+" and isinstance(e.ty, ListT):  # lists put together: their items, in order
            return merge_things([self.build(x) for x in operands(e, "+")])
        symbol, level = ARITH[op]
        arith = Op(symbol, level, self.build(e.left), self.build(e.right))
        return seq(arith, bound(" (rounded down)")) if op == "/" else arith

    def compare(self, left: ir.Expr, op: str, right: ir.Expr) -> Phrase:
        if isinstance(left, ir.BuiltinCall) and left.name == "size" and isinstance(left.args[0].ty, (ZoneT, BoardT)):
            n = self.zone_noun(left.args[0])
            if not isinstance(right, ir.Const):  # holds fewer sergeants than the number of …
                return Clause(self.build(left.args[0]), "holds", seq(HOLDS_AS[op].format(n.many), self.build(right)))
            one = right.value == 1 and op in ("==", "!=", "<=", ">=")
            return Clause(self.build(left.args[0]), "holds",
                          seq(HOLDS[op].format(n=""), self.build(right), f" {n.one if one else n.many}"))
        if left.ty == BOOL and right.ty == BOOL and not isinstance(right, ir.Const):  # two switches agree
            other = self.build(right) if op == "==" else self.negation(right)
            return Scope(seq(self.build(left), bound(" exactly when ")), other)
        if left.ty == BOOL and isinstance(right, ir.Const) and isinstance(right.value, bool):
            return self.build(left) if right.value == (op == "==") else self.negation(left)
        if op in ("==", "!=") and _same_function(left, right):
            verb = "is" if op == "==" else "is not"
            if isinstance(left, ir.BuiltinCall):
                return Clause(self.build(left.args[0]), f"{verb} {SAME[left.name]}", self.build(right.args[0]))
            have = "has" if op == "==" else "does not have"
            return Clause(self.build(left.obj), f"{have} the same {field_noun(left.name)} as", self.build(right.obj))
        return Clause(self.build(left), COMPARE[op], self.build(right))

    def expr_istype(self, e: ir.IsType) -> Phrase:
        n = type_noun(self.rs.card_types[e.kind])
        return Clause(self.build(e.subject), "is not" if e.negated else "is", Words(n.a()))

    def case_items(self, e: ir.Case) -> list:
        """A case as a list, one item per arm (for a define's whole body)."""
        from .document import Item, sentence
        from .phrases import lay
        items = []
        for arm in e.arms:
            laid = lay(self.phrase(arm.value))
            head = "otherwise" if not arm.patterns else \
                grammar.capital(inline(settle(Join("or", tuple(self.build(p) for p in arm.patterns)))))
            items.append(Item(sentence(f"{head}: {laid.text}"), laid.items))
        return items

    def expr_ifexpr(self, e: ir.IfExpr) -> Phrase:
        branches = []
        while isinstance(e, ir.IfExpr):
            branches.append((self.build(e.then), self.build(e.cond)))
            e = e.otherwise
        return Cases(tuple(branches), self.build(e))

    def expr_case(self, e: ir.Case) -> Phrase:
        subject = self.build(e.subject)
        branches, otherwise = [], None
        for arm in e.arms:
            if not arm.patterns:
                otherwise = self.build(arm.value)
            else:
                pattern = Join("or", tuple(self.build(p) for p in arm.patterns))
                branches.append((self.build(arm.value), Clause(subject, "is", pattern)))
        return Cases(tuple(branches), otherwise)

    def expr_listexpr(self, e: ir.ListExpr) -> Phrase:
        if not e.items:
            return Words("nothing")
        return merge_things([self.build(i) for i in e.items])

    def expr_rangeexpr(self, e: ir.RangeExpr) -> Phrase:
        return seq("any number from ", self.build(e.low), " to ", self.build(e.high))

    # ------------------------------------------------------------ quantifiers
    def expr_quantified(self, e: ir.Quantified) -> Phrase:
        return getattr(self, f"quantified_{e.kind}")(e)

    def conditions(self, b: ir.Binder) -> list[Phrase]:
        """What a binder's `where` says beyond the types its noun already names, names printed."""
        from .normalize import split_type_tests
        with self.naming(b, allow_noun=False):
            return [self.build(r) for r in split_type_tests(b)[1]]

    def things(self, b: ir.Binder, det: str, skip: int = 0) -> Phrase | None:
        """One bound name as a noun phrase, its conditions as relative clauses: "a soldier in the
        Gauntlet that can still act" (`det`: "a", "every", "at least one", "many", "the many", or
        "the " + an adjective); None where the name must be printed (several names, no noun, a
        condition not about it alone). `skip`: conditions already said elsewhere (the first ones)."""
        if len(b.names) != 1 or not self.nameable(b.types[0] if b.types else None, b.groups[0].domain):
            return None
        n = self.item_noun(b.types[0])
        many = det in ("many", "the many")
        relatives = [relative(c, b.names[0], many) for c in self.conditions(b)[skip:]]
        if any(r is None for r in relatives):
            return None
        head = {"a": n.a(), "many": n.many, "the many": f"the {n.many}"}.get(det, f"{det} {n.one}")
        phrase = seq(f"{head} ", bound(f"{self.domain_word(b.groups[0].domain)} "), self.domain(b.groups[0].domain))
        return Scope(seq(phrase, bound(" ")), merge("and", relatives)) if relatives else phrase

    def named(self, b: ir.Binder, det: str) -> Phrase:
        """The bound names printed: "a card *c* in the Chamber", "two cards *a* and *b* in your hand,
        *m* among …" (`det`: "a", "every", "each", "many" or "the " + an adjective)."""
        types = dict(zip(b.names, b.types or ()))
        groups = []
        for i, g in enumerate(b.groups):
            names = grammar_join([em(words(x)) for x in g.names])
            ty = types.get(g.names[0])
            n = self.item_noun(ty) if self.nameable(ty, g.domain, cards_only=False) else None
            if n is None:
                head = f"{'each ' if det in ('every', 'each') and i == 0 else ''}{names}"
            elif i > 0:  # the determiner is the first group's: "a trial card t and two action cards a and b"
                head = f"{n.a() if len(g.names) == 1 else grammar.number_word(len(g.names)) + ' ' + n.many} {names}"
            elif len(g.names) > 1:
                head = f"{'the ' + det[4:] + ' ' if det.startswith('the ') else ''}" \
                       f"{grammar.number_word(len(g.names))} {n.many} {names}"
            else:
                head = {"a": n.a(), "many": n.many, "the many": f"the {n.many}"}.get(
                    det, f"{'every' if det == 'each' else det} {n.one}") + f" {names}"
            groups.append(seq(f"{head} ", bound(f"{self.domain_word(g.domain)} "), self.domain(g.domain)))
        return groups[0] if len(groups) == 1 else Join("and", tuple(groups))

    def nameable(self, ty, domain: ir.Expr, cards_only: bool = True) -> bool:
        """Whether a bound thing can go by its noun: a card or a player (a number goes by its
        name, `cards_only` false lets it be "a number *n*"), never one that may be none."""
        if _may_be_none(domain, self.rs) or self.item_noun(ty) is None:
            return False
        return not cards_only or isinstance(ty, CardT) or ty == ROLE

    def domain_word(self, d: ir.Expr) -> str:
        return "in" if isinstance(d.ty, (ZoneT, BoardT)) else "from" if isinstance(d, ir.RangeExpr) else "among"

    def domain(self, d: ir.Expr) -> Phrase:
        if isinstance(d, ir.RangeExpr):
            return seq(self.build(d.low), " to ", self.build(d.high))
        return self.build(d)

    def ordering(self, b: ir.Binder) -> str:
        """The order bound things are taken in, said of them: ", from the bottom row up, then from left to right"."""
        if not b.order:
            return ""
        said = []
        for k in b.order:
            v = k.value
            of_it = len(b.names) == 1 and (isinstance(v, ir.BuiltinCall) and v.args == (ir.Local(b.names[0]),)
                                           or isinstance(v, ir.Field) and v.obj == ir.Local(b.names[0]))
            if of_it and isinstance(v, ir.BuiltinCall) and v.name in ORDER:
                said.append(ORDER[v.name][k.descending])
            elif of_it and isinstance(v, ir.Field):
                said.append(f"by {field_noun(v.name)}, {'largest' if k.descending else 'smallest'} first")
            else:
                with self.naming(b, allow_noun=False):
                    key = inline(settle(self.build(v)))
                said.append(f"by {key}, {'largest' if k.descending else 'smallest'} first")
        return ", " + ", then ".join(said)

    def such_that(self, head: Phrase, b: ir.Binder) -> Phrase:
        conditions = self.conditions(b)
        return Scope(seq(head, bound(" such that ")), merge("and", conditions)) if conditions else head

    def quantified_exists(self, e: ir.Quantified) -> Phrase:
        b = e.binder
        said = self.conditions(b)
        if len(b.names) == 1 and said and isinstance(said[0], Clause) and _only_subject(said[0], b.names[0]):
            subject = self.things(b, "a", skip=1)  # a refresh card in the Reserve is face up
            if subject is not None:
                return replace_subject(said[0], subject)
        subject = self.things(b, "a")
        if subject is not None:
            return Clause(Words("there"), "is", subject)
        verb = "is" if len(b.groups[0].names) == 1 else "are"  # there is a number x … and a number y …
        named = self.named(b, "a")
        return Clause(Words("there"), verb, named if not said else
                      Scope(seq(named, bound(" such that ")), merge("and", said)))

    def quantified_all(self, e: ir.Quantified) -> Phrase:
        return self.for_each(e, "every")

    def quantified_any(self, e: ir.Quantified) -> Phrase:
        return self.for_each(e, "at least one")

    def for_each(self, e: ir.Quantified, det: str) -> Phrase:
        """"every soldier in the Gauntlet is at the end of its lane", or "for every card *c* in Z, …"."""
        b = e.binder
        with self.naming(b, allow_noun=False):
            value = self.build(e.value)
        if len(b.names) == 1 and isinstance(value, Clause) and _only_subject(value, b.names[0]):
            subject = self.things(b, det)
            if subject is not None:
                return replace_subject(value, subject)
        head = self.such_that(self.named(b, "every" if det == "every" else det), b)
        return Scope(seq(bound("for "), head, bound(", ")), value)

    def quantified_count(self, e: ir.Quantified) -> Phrase:
        subject = self.things(e.binder, "many")
        if subject is not None:
            return seq("the number of ", subject)
        return self.such_that(seq("the number of ", self.named(e.binder, "many")), e.binder)

    def quantified_first(self, e: ir.Quantified) -> Phrase:
        return self.pick(e, "first")

    def quantified_last(self, e: ir.Quantified) -> Phrase:
        return self.pick(e, "last")

    def pick(self, e: ir.Quantified, which: str) -> Phrase:
        """"the first …"; in a row "the left-most …"; in numbers written smallest first, "the smallest …"."""
        domain = e.binder.groups[0].domain
        if self.is_row(domain):
            which = "left-most" if which == "first" else "right-most"
        elif _ascending(domain):
            which = "smallest" if which == "first" else "largest"
        subject = self.things(e.binder, f"the {which}")
        if subject is not None:
            return subject
        return self.such_that(self.named(e.binder, f"the {which}"), e.binder)

    def quantified_list(self, e: ir.Quantified) -> Phrase:
        b = e.binder
        if isinstance(e.value, ir.Local) and len(b.names) == 1 and e.value.name == b.names[0]:
            return self.things(b, "the many") or self.such_that(self.named(b, "the many"), b)
        return self.over(e, "the list of ", " for ")

    def quantified_sum(self, e: ir.Quantified) -> Phrase:
        return self.aggregate(e, "total")

    def quantified_min(self, e: ir.Quantified) -> Phrase:
        return self.aggregate(e, "smallest")

    def quantified_max(self, e: ir.Quantified) -> Phrase:
        return self.aggregate(e, "largest")

    def aggregate(self, e: ir.Quantified, what: str) -> Phrase:
        """"the total rank of the cards in the table", else "the total of X over every card *c* in Z"."""
        b = e.binder
        if isinstance(e.value, ir.Field) and isinstance(e.value.obj, ir.Local) and len(b.names) == 1 \
                and e.value.obj.name == b.names[0]:
            things = self.things(b, "the many")
            if things is not None:
                return seq(f"the {what} {field_noun(e.value.name)} of ", things)
        return self.over(e, f"the {what} of ", " over " if what == "total" else " for ")

    def over(self, e: ir.Quantified, head: str, joiner: str) -> Phrase:
        with self.naming(e.binder, allow_noun=False):
            value = self.build(e.value)
        return self.such_that(seq(head, value, joiner, self.named(e.binder, "each")), e.binder)


# ------------------------------------------------------------ clauses


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
        rests = []
        for i in items:
            more = i.verb[len(aux):].strip()
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
        lead = _first_words(p.subject)
        if lead is not None and re.match(r"(a|an) ", lead) and not p.many:
            return replace_subject(p, _replace_first_words(p.subject, re.sub(r"^(a|an) ", "no ", lead)))
        if isinstance(p.subject, Words) and p.subject.text == "there" and p.rest is not None:
            rest_lead = _first_words(p.rest)
            if rest_lead is not None and re.match(r"(a|an|one|two|three|four) ", rest_lead):
                return Clause(p.subject, p.verb, _replace_first_words(p.rest, re.sub(
                    r"^(a|an|one) ", "no ", re.sub(r"^(two|three|four) ", r"no \1 ", rest_lead))))
        if p.verb:
            return Clause(p.subject, grammar.negate(p.verb, p.many), p.rest, p.many)
        if isinstance(p.rest, Join):  # a subject with several predicates: each negated
            return Clause(p.subject, "", Join("and" if p.rest.word == "or" else "or",
                                              tuple(_negate_predicate(r) for r in p.rest.items)))
    lead = _first_words(p)
    if lead is not None and re.match(r"(a|an) ", lead):  # "a Sergeant stands on …" -> "no Sergeant …"
        return _replace_first_words(p, re.sub(r"^(a|an) ", "no ", lead))
    return Scope(bound("it is not the case that "), p)


def _negate_predicate(p: Phrase) -> Phrase:
    text = _first_words(p)
    if text is None:
        return p
    return _replace_first_words(p, grammar.negate(text.strip()) + (" " if text.endswith(" ") else ""))


def relative(c: Phrase, name: str, many: bool) -> Phrase | None:
    """What a condition says of a bound name, as a relative clause: "that is face up",
    "whose icon is …"; None if the condition is not about it alone."""
    if isinstance(c, Clause) and _only_subject(c, name):
        verb = grammar.agree(c.verb, many) if c.verb else c.verb
        rest = c.rest
        if many and rest is not None and isinstance(rest, Join) and not c.verb:
            rest = Join(rest.word, tuple(_agree_phrase(r, many) for r in rest.items), rest.opener)
        return seq(bound(f"that {verb} " if rest is not None else f"that {verb}"), rest) if rest is not None \
            else Words(f"that {verb}")
    if isinstance(c, Clause) and isinstance(c.subject, Seq) and len(c.subject.parts) == 2 \
            and isinstance(c.subject.parts[1], Bound) and c.subject.parts[1].name == name \
            and isinstance(c.subject.parts[0], Words) and c.subject.parts[0].text.startswith("the ") \
            and _count_bound(c, name) == 1:
        field = c.subject.parts[0].text[4:].removesuffix(" of ")
        verb = grammar.agree(c.verb, False)
        return seq(bound(f"whose {field} {verb} "), c.rest) if c.rest is not None else Words(f"whose {field} {verb}")
    if isinstance(c, Join) and all(isinstance(i, Clause) for i in c.items):
        parts = [relative(i, name, many) for i in c.items]
        if all(parts):
            return Join(c.word, tuple(parts))
    return None


def _agree_phrase(p: Phrase, many: bool) -> Phrase:
    text = _first_words(p)
    return _replace_first_words(p, grammar.agree(text.strip(), many) + " ") if text else p


def replace_subject(c: Clause, subject: Phrase) -> Clause:
    return Clause(subject, c.verb, c.rest, c.many)


def _only_subject(c: Clause, name: str) -> bool:
    return isinstance(c.subject, Bound) and c.subject.name == name and _count_bound(c, name) == 1


def _count_bound(p: Phrase, name: str) -> int:
    return sum(1 for n in nodes(p) if isinstance(n, Bound) and n.name == name)


def _first_words(p: Phrase) -> str | None:
    """The words a phrase starts with, if it starts with words."""
    if isinstance(p, Words):
        return p.text
    if isinstance(p, Seq):
        return _first_words(p.parts[0])
    if isinstance(p, Scope):
        return _first_words(p.head)
    return None


def _replace_first_words(p: Phrase, text: str) -> Phrase:
    if isinstance(p, Words):
        return Words(text, p.bound, p.hard)
    if isinstance(p, Scope):
        return Scope(_replace_first_words(p.head, text), p.body)
    return Seq((_replace_first_words(p.parts[0], text),) + p.parts[1:])




def merge_things(items: list[Phrase]) -> Phrase:
    """Values listed in order ("none and the trial modifier cards in the Reserve"); nested lists flattened."""
    flat = [x for i in items for x in (i.items if isinstance(i, Join) and not i.clauses and i.word == "and"
                                        else (i,))]
    return flat[0] if len(flat) == 1 else Join("and", tuple(flat))


def _may_be_none(domain: ir.Expr, rs: ir.Ruleset) -> bool:
    """A list that may hold `none` (`[none] + …`, or a define's list that does)."""
    if isinstance(domain, ir.ListExpr):
        return any(isinstance(i, ir.Const) and i.value is None or _may_be_none(i, rs) for i in domain.items)
    if isinstance(domain, ir.Binary) and domain.op == "+":
        return _may_be_none(domain.left, rs) or _may_be_none(domain.right, rs)
    if isinstance(domain, ir.DefineCall):
        return _may_be_none(rs.defines[domain.name].body, rs)
    return False


def grammar_join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _fill(template: str, parts: list[Phrase]) -> list:
    """A built-in's phrase ("the top card of {0}") as words and the arguments' phrases."""
    out: list = []
    for i, piece in enumerate(re.split(r"{(\d)}", template)):
        out.append(piece if i % 2 == 0 else parts[int(piece)])
    return [p for p in out if p != ""]


def fill_names(text: str, params: list[str]) -> str:
    """A `text:` with each `{param}` as the parameter's name: the term as the glossary heads it."""
    return re.sub(r"{(\w+)}", lambda m: words(m.group(1)) if m.group(1) in params else m.group(0), clean(text))


def frame(head: str, parts: list[Phrase]) -> Phrase:
    """"the larger of A and B", "the difference between A and B": the last part runs to the right."""
    words_ = [head] + [p for x in parts[:-1] for p in (x, bound(", "))]
    if len(parts) > 1:
        words_[-1] = bound(" and ")
    return Scope(seq(*words_), parts[-1])


def _atomic(e: ir.Expr) -> bool:
    return isinstance(e, (ir.Const, ir.Local, ir.Var, ir.Param))


def _offset(e: ir.Expr, axis: str):
    """`column(s) + 1` -> (s, 1); `column(s)` -> (s, 0); anything else (None, 0)."""
    sign = 0
    if isinstance(e, ir.Binary) and e.op in ("+", "-") and isinstance(e.right, ir.Const) and e.right.value == 1:
        sign, e = (1 if e.op == "+" else -1), e.left
    if isinstance(e, ir.BuiltinCall) and e.name == axis:
        return e.args[0], sign
    return None, 0


def _same_function(a: ir.Expr, b: ir.Expr) -> bool:
    """`column(x) == column(y)`, `x.icon == y.icon`: one function of two things."""
    if isinstance(a, ir.BuiltinCall) and isinstance(b, ir.BuiltinCall):
        return a.name == b.name and a.name in SAME
    return isinstance(a, ir.Field) and isinstance(b, ir.Field) and a.name == b.name


def _ascending(e: ir.Expr) -> bool:
    """A list of numbers written smallest first (`[0, 1, 2]`, `1..6`): its first is its smallest."""
    if isinstance(e, ir.RangeExpr):
        return True
    if isinstance(e, ir.ListExpr) and all(isinstance(i, ir.Const) and type(i.value) is int for i in e.items):
        values = [i.value for i in e.items]
        return values == sorted(values)
    return False




def _conjoin(parts: list[ir.Expr]) -> ir.Expr:
    result = parts[0]
    for p in parts[1:]:
        result = ir.Binary("and", result, p, ty=BOOL)
    return result
