"""The rules language in English: one method per IR node class.

    draw 4 from action_deck to hand   ->  "Draw 4 cards from the Action Deck to your hand."
    exists t in chamber where t is trial  ->  "there is a trial card in the Chamber"

Expressions become phrases (`expr_<class>`), statements become list items
(`stmt_<class>`, each a list of `Item`s, nested for blocks). Adding a node
class to the IR means adding one method here; `tests/test_printing.py`
fails for any expression or statement class without one, and a missing
method raises `MissingRendering` instead of printing a placeholder.

With one role in the mode the rules speak to the reader ("you", "your
hand"); with several they name the roles ("the trialmaster chooses").
A `text:` on a define or procedure replaces the generated phrase; `{param}`
in it stands for the argument's phrase.
"""
from __future__ import annotations

import re

from rulelang import ir
from rulelang.builtins import BUILTINS
from rulelang.types import BOOL, ROLE, ListT, ZoneT
from rulelang.walk import method

from .document import Item, clean, em

NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
           ">": "is more than", ">=": "is at least"}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
HOLDS = {"==": "exactly {n}", "!=": "other than {n}", "<": "fewer than {n}", "<=": "at most {n}",
         ">": "more than {n}", ">=": "at least {n}"}
ARITH = {"+": ("+", 1), "-": ("−", 1), "*": ("×", 2), "/": ("÷", 2), "%": ("mod", 2)}
POSITION = {"top": "", "bottom": " at the bottom", "left": " at the left end", "right": " at the right end"}


class MissingRendering(Exception):
    """An IR node class without an English rendering: a bug in the generator."""


def words(name: str) -> str:
    return clean(name).replace("_", " ")


def possessive(phrase: str) -> str:
    """"the trialmaster" -> "the trialmaster's"; "players" -> "players'"."""
    return phrase + ("'" if phrase.endswith("s") and not phrase.endswith("ss") else "'s")


def article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def capital(text: str) -> str:
    """Upper-case the first letter, unless the text starts with a name in italics (`ma is none`)."""
    if text.startswith(em("")[0]):
        return text
    i = 0
    while i < len(text) and not text[i].isalnum():  # skip leading markers
        i += 1
    return text[:i] + text[i:i + 1].upper() + text[i + 1:]


def lower_first(text: str) -> str:
    if not text[:1].isupper() or text[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def join_and(parts: list[str], word: str = "and") -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def sentence(text: str) -> str:
    text = capital(text.strip())
    return text if text.endswith((".", ":", "!", "?")) else text + "."


def fill(template: str, values: dict[str, str]) -> str:
    """`{name}` placeholders of a ruleset text filled with phrases."""
    return re.sub(r"{(\w+)}", lambda m: values.get(m.group(1), m.group(0)), clean(template))


class English:
    def __init__(self, ruleset: ir.Ruleset, mode: ir.Mode | None = None):
        self.rs = ruleset
        roles = mode.roles if mode is not None else tuple(r.name for r in ruleset.roles)
        self.you = roles[0] if len(roles) == 1 else None  # a solitaire mode speaks to the player
        self.mode = mode

    # ------------------------------------------------------------ dispatch
    def expr(self, e: ir.Expr) -> str:
        return self._method("expr", e)(e)

    def stmt(self, s: ir.Stmt) -> list[Item]:
        return self._method("stmt", s)(s)

    def _method(self, prefix: str, node):
        found = method(self, prefix, node)
        if found is None:
            raise MissingRendering(f"no English for {type(node).__name__} (add {prefix}_"
                                   f"{type(node).__name__.lower()} to generators/english.py)")
        return found

    def block(self, stmts: ir.Block) -> list[Item]:
        return [item for s in stmts for item in self.stmt(s)]

    def cond(self, e: ir.Expr, negate: bool = False) -> str:
        """A condition as a clause, negated in words where English allows."""
        if not negate:
            return self.expr(e)
        negated = method(self, "not", e)
        phrase = negated(e) if negated is not None else None
        return phrase if phrase is not None else f"it is not true that {self.expr(e)}"

    def sub(self, e: ir.Expr) -> str:
        """An operand: compound conditions are bracketed so the grouping stays clear."""
        text = self.expr(e)
        if isinstance(e, ir.Binary) and e.op in ("and", "or") or isinstance(e, ir.IfExpr):
            return f"({text})"
        return text

    # ------------------------------------------------------------ names
    def card_kind(self, kind: str) -> str:
        return f"{words(kind)} card"

    def zone(self, name: str, owner: ir.Expr | None = None) -> str:
        if name == "box":
            return "the box"
        z = self.rs.zones[name]
        title = clean(z.text) if z.text else words(name)
        role = owner.role if isinstance(owner, ir.RoleRef) else z.owner if z.owner != "each" else None
        if role is not None:
            return f"your {title}" if role == self.you else f"the {words(role)}'s {title}"
        if owner is not None:
            return f"{self.expr(owner)}'s {title}"
        return title if title.lower().startswith("the ") else f"the {title}"

    def subject(self, role: ir.Expr) -> tuple[str, str]:
        """(who, verb ending): ("You", "") or ("The trialmaster", "s")."""
        if isinstance(role, ir.RoleRef) and role.role == self.you:
            return "you", ""
        return self.expr(role), "s"

    def role_name(self, role: str) -> str:
        return "you" if role == self.you else f"the {words(role)}"

    # ------------------------------------------------------------ binders
    def binder(self, b: ir.Binder, named: bool = True, every: bool = False) -> str:
        """`a, b in hand where P` -> "two cards a and b in your hand such that P".

        A lone `c in Z where c is K` needs no name when `named` is false:
        "a K card in Z" (or "every K card in Z")."""
        where, kind, relative = b.where, None, None
        single = self._single(b)
        if single and where is not None:
            kind, where = self._type_test(b.names[0], where)
            relative = self._relative(b.names[0], where) if where is not None else None
        parts = [self.group(g, kind if single else None,
                            named or (where is not None and relative is None), every) for g in b.groups]
        text = join_and(parts)
        if relative is not None:
            text += f" {relative}"
        elif where is not None:
            text += f" such that {self.expr(where)}"
        turns = [g.domain for g in b.groups if isinstance(g.domain, ir.BuiltinCall) and g.domain.name == "clockwise"]
        if turns:
            text += f"{',' if where is not None else ''} in turn from {self.expr(turns[0].args[0])}, clockwise"
        if b.order:
            keys = [f"{self.expr(k.value)}{' (largest first)' if k.descending else ''}" for k in b.order]
            text += f", taken in order of {join_and(keys, 'then')}"
        return text

    def _relative(self, name: str, where: ir.Expr) -> str | None:
        """`c is face up` -> "that is face up"; `the icon of c is ...` -> "whose icon is ..."."""
        text, me = self.expr(where), em(name)
        for head, replacement in ((me + " ", "that "), (f"the {{}} of {me} ", "whose {} ")):
            if "{}" in head:
                m = re.match(r"the ([\w ]+?) of " + re.escape(me) + " ", text)
                if m and me not in text[m.end():]:
                    return replacement.format(m.group(1)) + text[m.end():]
            elif text.startswith(head) and me not in text[len(head):]:
                return replacement + text[len(head):]
        return None

    def _type_test(self, name: str, where: ir.Expr):
        """Split `name is K [and rest]` into (K, rest)."""
        test, rest = where, None
        if isinstance(where, ir.Binary) and where.op == "and":
            test, rest = where.left, where.right
        if isinstance(test, ir.IsType) and not test.negated and isinstance(test.subject, ir.Local) \
                and test.subject.name == name:
            return test.kind, rest
        return None, where

    def group(self, g: ir.BinderGroup, kind: str | None, named: bool, every: bool) -> str:
        names = join_and([em(words(n)) for n in g.names])
        if isinstance(g.domain.ty, ZoneT) or isinstance(g.domain, ir.ZoneRef):
            noun = self.card_kind(kind) if kind else "card"
            count = len(g.names)
            if every:
                head = f"every {noun}"
            elif count == 1:
                head = article(noun)
            else:
                head = f"{NUMBER_WORDS.get(count, count)} {noun}s"
            return f"{head}{' ' + names if named else ''} in {self.expr(g.domain)}"
        if isinstance(g.domain, ir.BuiltinCall) and g.domain.name in ("players", "clockwise"):
            # "each player p" (`clockwise`: the binder adds "in turn from the dealer, clockwise")
            return f"{'each ' if every else 'a '}player{'s' if len(g.names) > 1 else ''} {names}"
        return f"{'each ' if every else ''}{names} among {self.expr(g.domain)}"

    # ------------------------------------------------------------ expressions
    def expr_const(self, e: ir.Const) -> str:
        if e.value is None:
            return "none"
        if isinstance(e.value, bool):
            return "true" if e.value else "false"
        if isinstance(e.value, str):
            return f"“{clean(e.value)}”"
        return str(e.value)

    def expr_local(self, e: ir.Local) -> str:
        return em(words(e.name))

    def expr_var(self, e: ir.Var) -> str:
        if e.owner is None:
            return em(words(e.name))
        owner = self.expr(e.owner)
        return f"your {em(words(e.name))}" if owner == "you" else f"{possessive(owner)} {em(words(e.name))}"

    def expr_param(self, e: ir.Param) -> str:
        if e.ty == BOOL:  # a switch reads as a condition
            return f"the {em(words(e.name))} option is on"
        return f"the {em(words(e.name))} option"

    def expr_enumvalue(self, e: ir.EnumValue) -> str:
        return words(e.value)

    def expr_zoneref(self, e: ir.ZoneRef) -> str:
        return self.zone(e.zone, e.owner)

    def expr_roleref(self, e: ir.RoleRef) -> str:
        return self.role_name(e.role)

    def expr_field(self, e: ir.Field) -> str:
        return f"the {words(e.name)} of {self.expr(e.obj)}"

    def expr_definecall(self, e: ir.DefineCall) -> str:
        define = self.rs.defines[e.name]
        return self.call_phrase(define.text, e.name, define.params, e.args)

    def call_phrase(self, text, name, params, args) -> str:
        phrases = {p: self.expr(a) for (p, _), a in zip(params, args)}
        if text:
            return fill(text, phrases)
        inner = ", ".join(phrases.values())
        return em(words(name)) + (f" of {inner}" if inner else "")

    def expr_builtincall(self, e: ir.BuiltinCall) -> str:
        a = e.args
        if e.name == "size" and not isinstance(a[0].ty, ZoneT) and self.expr(a[0]).startswith("the "):
            return f"the number of {self.expr(a[0])[4:]}"  # "the players" -> "the number of players"
        if e.name == "size":
            return f"the number of {'cards in' if isinstance(a[0].ty, ZoneT) else 'items in'} {self.expr(a[0])}"
        if e.name in ("top", "bottom"):
            zone = self.rs.zones.get(a[0].zone) if isinstance(a[0], ir.ZoneRef) else None
            if zone is not None and zone.kind == "row":  # a row has ends, not a top
                return f"the {'right-most' if e.name == 'top' else 'left-most'} card of {self.expr(a[0])}"
        if e.name == "abs" and isinstance(a[0], ir.Binary) and a[0].op == "-":
            return f"the difference between {self.expr(a[0].left)} and {self.expr(a[0].right)}"
        phrases = [self.expr(x) for x in a]
        if BUILTINS[e.name].several and len(a) > 1:  # min(a, b, c)
            phrases = [join_and(phrases)]
        return BUILTINS[e.name].phrase.format(*phrases)

    def expr_unary(self, e: ir.Unary) -> str:
        if e.op == "not":
            return self.cond(e.operand, negate=True)
        return f"−{self.sub(e.operand)}"

    def expr_binary(self, e: ir.Binary) -> str:
        op = e.op
        if op in ("and", "or"):  # a chain of one operator reads without brackets: a and b and c
            parts, chain = [], [e.right, e.left]
            while chain:
                x = chain.pop()
                if isinstance(x, ir.Binary) and x.op == op:
                    chain += [x.right, x.left]
                else:
                    parts.append(self.sub(x))
            return f" {op} ".join(parts)
        if op in COMPARE:
            return self.compare(e.left, op, e.right)
        if op in ("in", "not in"):
            verb = "is" if op == "in" else "is not"
            if isinstance(e.right, ir.ListExpr):
                return f"{self.expr(e.left)} {verb} {join_and([self.expr(i) for i in e.right.items], 'or')}"
            return f"{self.expr(e.left)} {verb} {'in' if isinstance(e.right.ty, ZoneT) else 'among'} {self.expr(e.right)}"
        if op == "+" and isinstance(e.ty, ListT):
            return f"{self.expr(e.left)} and {self.expr(e.right)}"
        symbol, level = ARITH[op]
        left, right = self.arith(e.left, level, False), self.arith(e.right, level, True)
        return f"{left} {symbol} {right}" + (" (rounded down)" if op == "/" else "")

    def arith(self, e: ir.Expr, level: int, right: bool) -> str:
        text = self.expr(e)
        if isinstance(e, ir.Binary) and e.op in ARITH:
            inner = ARITH[e.op][1]
            if inner < level or inner == level and right:
                return f"({text})"
        return text

    def compare(self, left: ir.Expr, op: str, right: ir.Expr) -> str:
        if isinstance(left, ir.BuiltinCall) and left.name == "size" and isinstance(left.args[0].ty, ZoneT):
            count = self.expr(right)
            cards = "card" if isinstance(right, ir.Const) and right.value == 1 and op in ("==", "!=") else "cards"
            return f"{self.expr(left.args[0])} holds {HOLDS[op].format(n=count)} {cards}"
        return f"{self.expr(left)} {COMPARE[op]} {self.expr(right)}"

    def expr_istype(self, e: ir.IsType) -> str:
        return f"{self.expr(e.subject)} is {'not ' if e.negated else ''}{article(self.card_kind(e.kind))}"

    def expr_ifexpr(self, e: ir.IfExpr) -> str:
        return f"{self.expr(e.then)} if {self.expr(e.cond)}, otherwise {self.expr(e.otherwise)}"

    def expr_case(self, e: ir.Case) -> str:
        arms = [f"{'otherwise' if not a.patterns else 'when ' + join_and([self.expr(p) for p in a.patterns], 'or')}, "
                f"{self.expr(a.value)}" for a in e.arms]
        return f"depending on {self.expr(e.subject)}: " + "; ".join(arms)

    def case_items(self, e: ir.Case) -> list[Item]:
        """A case as a list, one item per arm (for a define's whole body)."""
        return [Item(sentence(f"{'otherwise' if not a.patterns else join_and([self.expr(p) for p in a.patterns], 'or')}: "
                              f"{self.expr(a.value)}")) for a in e.arms]

    def expr_listexpr(self, e: ir.ListExpr) -> str:
        if not e.items:
            return "nothing"
        return join_and([self.expr(i) for i in e.items])

    def expr_rangeexpr(self, e: ir.RangeExpr) -> str:
        return f"any number from {self.expr(e.low)} to {self.expr(e.high)}"

    def expr_quantified(self, e: ir.Quantified) -> str:
        b, kind = e.binder, e.kind
        if kind == "exists":
            return f"there is {self.binder(b, named=False)}" if self._single(b) else f"there are {self.binder(b)}"
        if kind == "count":
            return f"the number of {self._plural(b)}"
        if kind in ("first", "last"):
            text = self.binder(b, named=False)
            text = text.split(" ", 1)[1] if text.startswith(("a ", "an ")) else text
            return f"the {kind} {text}"
        value = self.expr(e.value)
        if kind == "list":
            if isinstance(e.value, ir.Local) and self._single(b) and e.value.name == b.names[0]:
                return self.binder(b, named=False, every=True)
            return f"{value} for {self.binder(b, every=True)}"
        one = self.binder(b).split(" ", 1)[1] if self._single(b) else self.binder(b)
        if kind == "all":
            return f"for every {one}, {value}"
        if kind == "any":
            return f"for at least one {one}, {value}"
        if kind == "sum":
            return f"the total of {value} over {self.binder(b, every=True)}"
        noun = value[4:] if value.startswith("the ") else value
        return f"the {'smallest' if kind == 'min' else 'largest'} {noun} for any {one}"

    def _single(self, b: ir.Binder) -> bool:
        return len(b.groups) == 1 and len(b.groups[0].names) == 1

    def _plural(self, b: ir.Binder) -> str:
        text = self.binder(b, named=False)
        if self._single(b) and text.startswith(("a ", "an ")):
            noun, _, rest = text.split(" ", 1)[1].partition(" in ")
            head, _, name = noun.partition(" card")
            return f"{head} cards{name} in {rest}" if " card" in noun else f"{noun}s in {rest}"
        return text

    # ------------------------------------------------------------ negations
    def not_binary(self, e: ir.Binary) -> str | None:
        if e.op in NEGATED:
            return self.compare(e.left, NEGATED[e.op], e.right)
        if e.op in ("in", "not in"):
            return self.expr(ir.Binary("not in" if e.op == "in" else "in", e.left, e.right, ty=e.ty))
        if e.op == "and":
            return f"{self.sub_not(e.left)} or {self.sub_not(e.right)}"
        if e.op == "or":
            return f"{self.sub_not(e.left)} and {self.sub_not(e.right)}"
        return None

    def sub_not(self, e: ir.Expr) -> str:
        text = self.cond(e, negate=True)
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            return f"({text})"
        return text

    def not_unary(self, e: ir.Unary) -> str | None:
        return self.expr(e.operand) if e.op == "not" else None

    def not_builtincall(self, e: ir.BuiltinCall) -> str | None:
        negated = BUILTINS[e.name].negated
        return negated.format(*(self.expr(x) for x in e.args)) if negated is not None else None

    def not_quantified(self, e: ir.Quantified) -> str | None:
        if e.kind != "exists":
            return None
        text = self.binder(e.binder, named=False)
        for a in ("a ", "an "):
            if text.startswith(a):
                return "there is no " + text[len(a):]
        return "there are no " + text.split(" ", 1)[1] if text.split(" ", 1)[0] in NUMBER_WORDS.values() \
            else "there are no " + text

    def not_definecall(self, e: ir.DefineCall) -> str | None:
        """A define without parameters is negated through its body, if that reads short."""
        define = self.rs.defines[e.name]
        if define.params and define.text:
            return self._negated_text(self.expr(e))
        if not define.params:
            negated = method(self, "not", define.body)
            phrase = negated(define.body) if negated is not None else None
            if phrase is not None and len(phrase) <= 80:
                return phrase
        return None

    @staticmethod
    def _negated_text(text: str) -> str | None:
        """"red is knocked out" -> "red is not knocked out": one clause whose
        verb is `is`, `has` or `can` (a clause with and/or would need more)."""
        m = re.match(r"(.+?) (is|has|can) (?!not )(.+)$", text)
        if m is None or re.search(r" (and|or) |[,;:(]", m.group(3)):
            return None
        verb = "cannot" if m.group(2) == "can" else f"{m.group(2)} not"
        return f"{m.group(1)} {verb} {m.group(3)}"

    def not_istype(self, e: ir.IsType) -> str:
        return self.expr(ir.IsType(e.subject, e.kind, not e.negated))

    def not_const(self, e: ir.Const) -> str | None:
        return ("false" if e.value else "true") if isinstance(e.value, bool) else None

    def not_param(self, e: ir.Param) -> str | None:
        return f"the {em(words(e.name))} option is off" if e.ty == BOOL else None

    # ------------------------------------------------------------ statements
    def stmt_move(self, s: ir.Move) -> list[Item]:
        dest = self.expr(s.dest) + POSITION[s.position]
        if s.every is not None:
            what = self.binder(s.every, named=False, every=True)
        else:
            what = join_and([self.moved(c) for c in s.cards])
        return [Item(sentence(f"move {what} to {dest}"))]

    def moved(self, e: ir.Expr) -> str:
        if isinstance(e.ty, ZoneT):
            return f"all cards of {self.expr(e)}"
        return self.expr(e)

    def stmt_draw(self, s: ir.Draw) -> list[Item]:
        one = isinstance(s.count, ir.Const) and s.count.value == 1
        count = "a card" if one else f"{self.expr(s.count)} cards"
        tail = "" if one else f" (fewer if {self.expr(s.source)} runs out)"
        return [Item(sentence(f"draw {count} from {self.expr(s.source)} to {self.expr(s.dest)}"
                              f"{POSITION[s.position]}{tail}"))]

    def stmt_shuffle(self, s: ir.Shuffle) -> list[Item]:
        return [Item(sentence(f"shuffle {self.expr(s.zone)}"))]

    def stmt_flip(self, s: ir.Flip) -> list[Item]:
        if s.face is None:
            return [Item(sentence(f"turn {self.expr(s.card)} over"))]
        return [Item(sentence(f"turn face {s.face} {self.expr(s.card)}"))]

    def stmt_let(self, s: ir.Let) -> list[Item]:
        return [Item(sentence(f"let {em(words(s.name))} be {self.expr(s.value)}"))]

    def stmt_assign(self, s: ir.Assign) -> list[Item]:
        target, value = self.expr(s.target), self.expr(s.value)
        text = {"=": f"set {target} to {value}", "+=": f"add {value} to {target}",
                "-=": f"subtract {value} from {target}"}[s.op]
        return [Item(sentence(text))]

    def nested(self, head: str, body: list[Item]) -> Item:
        """`head: body` — inline when the body is one short sentence, else a sub-list."""
        if len(body) == 1 and not body[0].children:
            return Item(sentence(f"{head}: {lower_first(body[0].text)}"))
        return Item(sentence(head + ":"), body)

    def stmt_if(self, s: ir.If) -> list[Item]:
        items = []
        for i, (cond, body) in enumerate(s.branches):
            head = ("if " if i == 0 else "otherwise, if ") + self.cond(cond)
            items.append(self.nested(head, self.block(body)))
        if s.otherwise is not None:
            items.append(self.nested("otherwise", self.block(s.otherwise)))
        return items

    def stmt_while(self, s: ir.While) -> list[Item]:
        head = f"{'until' if s.until else 'while'} {self.cond(s.cond)}, repeat"
        return [Item(sentence(head + ":"), self.block(s.body))]

    def stmt_repeat(self, s: ir.Repeat) -> list[Item]:
        return [self.nested(f"repeat {self.expr(s.count)} times", self.block(s.body))]

    def stmt_for(self, s: ir.For) -> list[Item]:
        return [self.nested(f"for {self.binder(s.binder, every=True)}", self.block(s.body))]

    def stmt_choose(self, s: ir.Choose) -> list[Item]:
        who, ending = self.subject(s.role)
        head = f"{who} choose{ending} {self.binder(s.binder)} (decision {em(words(s.label))})"
        body = self.block(s.body)
        if len(body) == 1 and not body[0].children:
            return [Item(sentence(f"{head}, then {lower_first(body[0].text)}"))]
        return [Item(sentence(head + ", then:"), body)]

    def stmt_take(self, s: ir.Take) -> list[Item]:
        """An automatic choice: made by the rule (or at random), not by a player."""
        text = self.binder(s.binder)
        if s.which == "random":
            head = f"pick {text} at random"
        else:
            text = text.split(" ", 1)[1] if text.startswith(("a ", "an ")) else text
            head = f"take the {s.which} {text} (no player chooses)"
        body = self.block(s.body)
        if len(body) == 1 and not body[0].children:
            return [Item(sentence(f"{head}, then {lower_first(body[0].text)}"))]
        return [Item(sentence(head + ", then:"), body)]

    def stmt_roll(self, s: ir.Roll) -> list[Item]:
        """`roll 2 d6 into xs` -> "Roll two dice (d6); call the result *xs*."."""
        if s.count is None:
            dice = "a die (d6)" if s.die == "d6" else f"the {words(s.die)}"
        else:
            count = s.count.value if isinstance(s.count, ir.Const) else None
            number = NUMBER_WORDS.get(count, self.expr(s.count))
            dice = f"{'one die' if count == 1 else number + ' dice'} ({words(s.die)})"
        target = self.expr(s.target)
        then = f"call the result {target}" if s.declares else f"set {target} to the result"
        return [Item(sentence(f"roll {dice}; {then}"))]

    def watch(self, w: ir.Watch) -> Item:
        """`watch:` as the rulebook's "as soon as …"."""
        if w.text:
            return Item(sentence(clean(w.text)))
        then = f"; then go on with step “{clean(w.then)}”" if w.then else "; then go on with the next step"
        return self.nested(f"as soon as {self.cond(w.when)}, stop the current step{then}", self.block(w.body))

    def stmt_menu(self, s: ir.Menu) -> list[Item]:
        who, ending = self.subject(s.role)
        options = []
        for opt in s.options:
            head = em(words(opt.name)) + (f" (only if {self.expr(opt.guard)})" if opt.guard is not None else "")
            options.append(self.nested(head, self.block(opt.body)))
        return [Item(sentence(f"{who} choose{ending} one of (decision {em(words(s.label))}):"), options)]

    def stmt_endgame(self, s: ir.EndGame) -> list[Item]:
        head, then = self.ending(s)
        return [Item(sentence(f"{head}: {then}" if then else head))]

    def ending(self, s: ir.EndGame) -> tuple[str, str | None]:
        """("you win (finished)", what follows for the other players, if anything)."""
        reason = f" ({em(words(s.reason))})" if s.reason else ""
        if s.kind == "end":
            return f"the game ends{reason}", self.ranking_phrase()
        if s.kind == "draw":
            return f"the game ends in a draw{reason}", None
        who, ending = self.subject(s.role)
        if isinstance(s.role.ty, ListT):  # a team: the players named, or every player of a list
            who = who if isinstance(s.role, ir.ListExpr) else f"every player in {who}"
            ending = ""
        verb = {"win": "win", "lose": "lose"}[s.kind] + ending
        others = "every other player loses" if s.kind == "win" else "every other player wins"
        return f"{who} {verb}{reason}", others if self.you is None else None

    def ranking_phrase(self) -> str:
        """How `end game` places the players: the mode's ranking, or its scores."""
        keys = self.mode.ranking if self.mode is not None else ()
        if not keys:
            return "the highest score wins, a tie is a draw"
        parts = []
        for k in keys:
            define = self.rs.defines.get(k.name)
            what = fill(define.text, {p: "the player" for p, _ in define.params}) if define and define.text \
                else em(words(k.name))
            for article in ("the player's ", "the "):  # "the highest" says which already
                if what.startswith(article):
                    what = what[len(article):]
                    break
            parts.append(f"the {'lowest' if k.lowest else 'highest'} {what}")
        return "the player with " + parts[0] + " wins" + \
            "".join(f"; a tie goes to {p}" for p in parts[1:]) + "; a tie on all of these is a draw"

    def stmt_trigger(self, s: ir.Trigger) -> list[Item]:
        event = self.rs.events[s.event]
        moment = fill(event.text, {p: self.expr(a) for (p, _), a in zip(event.params, s.args)}) if event.text \
            else em(words(s.event))
        if s.window:
            who, ending = self.subject(next(a for (_, t), a in zip(event.params, s.args) if t == ROLE))
            return [Item(sentence(f"{who} may play, one at a time, abilities that answer {moment}, then pass"))]
        return [Item(sentence(f"at {moment}, every card's ability that answers it takes effect, card by card"))]

    def stmt_eliminate(self, s: ir.Eliminate) -> list[Item]:
        reason = f" ({em(words(s.reason))})" if s.reason else ""
        who, ending = self.subject(s.role)
        verb = "are" if ending == "" else "is"
        return [Item(sentence(f"{who} {verb} out of the game{reason}"))]

    def stmt_callproc(self, s: ir.CallProc) -> list[Item]:
        proc = self.rs.procedures[s.name]
        return [Item(sentence(self.call_phrase(proc.text, s.name, proc.params, s.args)))]

    def stmt_pass(self, s: ir.Pass) -> list[Item]:
        return [Item("Do nothing.")]


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

