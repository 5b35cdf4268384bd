"""What the printed rules call things: card types, components, zones, roles, fields.

    trial (a card)            -> "a trial card", "trial cards"
    gobbot (component: token) -> "a gobbot", "gobbots"; counted as "18 gobbot tokens"
    trialmaster (a role)      -> "the Trialmaster";  north -> "North"
    trials_hand "Trialmaster's hand", owned by the trialmaster -> "the Trialmaster's hand", never
                                 "the trialmaster's Trialmaster's hand"
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang import ir

from .document import clean
from .grammar import article, capital, number_word, ordinal, plural

# role names that are agent nouns take "the" (the Dealer); other names are names (North, Red, Alice)
_AGENT_NOUN = re.compile(r"(er|or|ist|ian|ant|ent|eer|ess|master|keeper|lord|king|queen|player|guard)$")
# field names that are not nouns: "the to of t" must not be printed
_FUNCTION_WORDS = {"to", "from", "in", "on", "at", "by", "of", "up", "down", "off", "out", "over", "under", "next",
                   "back", "for", "with", "into", "onto", "before", "after", "then", "if", "and", "or", "not", "is"}


def words(name: str) -> str:
    """A name as words: `trial_deck` -> "trial deck"."""
    return clean(name).replace("_", " ")


def value_words(rs: ir.Ruleset, name: str) -> str:
    """The printed name of the variable `name` (`var_words`)."""
    v = rs.vars.get(name)
    return var_words(v) if v is not None else words(name)


def var_words(v: ir.VarDef) -> str:
    """A variable's printed name: its own words ("bid"), or its `text:` where that is one word and them
    ("Token Shards" for `shards`), or one word and them where they are no noun but what befell it:
    "chips won" (`won: {text: chips won}`), "cards drawn" (`drawn: {text: cards drawn this game}`),
    never *won*; "bet" and "bid" are nouns ("chips bet on this hand" is the *bet*)."""
    said = words(v.name)
    text = clean(v.text) if v.text else ""
    m = re.match(rf"([A-Za-z][\w'’-]*) {re.escape(said)}\b", text, re.IGNORECASE)
    whole = re.fullmatch(rf"([A-Za-z][\w'’-]*)( [a-z]+)? {re.escape(said)}", text, re.IGNORECASE)
    if whole is not None and whole.group(1).lower() not in _DETERMINERS:
        return text  # a name the whole of a short text ends with: "turns still knocked out", never *knocked out*
    if m is None or m.group(1).lower() in _DETERMINERS:
        return said
    return m.group(0) if m.end() == len(text) or _PARTICIPLE.search(said) else said


_DETERMINERS = {"the", "a", "an", "its", "their", "his", "her", "this", "that", "each", "every"}
# a word that says what befell a thing, not what it is: "drawn", "played", "won"
_PARTICIPLE = re.compile(r"(?:ed|[^e]en|wn|^won|^lost|^held|^kept|^paid|^bought|^spent|^dealt)$")


@dataclass(frozen=True)
class Noun:
    one: str
    many: str
    given_article: str | None = None

    def a(self) -> str:
        """"a trial card", "an hour"."""
        return article(self.one, self.given_article)

    def n(self, count: int, as_word: bool = False) -> str:
        """"1 card", "4 cards" ("two cards" with `as_word`)."""
        figure = number_word(count) if as_word else str(count)
        return f"{figure} {self.one if count == 1 else self.many}"


def noun(one: str, many: str | None = None, given_article: str | None = None) -> Noun:
    return Noun(one, plural(one, many), given_article)


CARD = noun("card")


def type_noun(ct: ir.CardType) -> Noun:
    """A card type's noun: "trial card" for a card, the name itself for other components
    ("gobbot", "command space"), unless the name already ends with its component."""
    name = words(ct.name)
    one = name if ct.component != "card" or name.endswith(ct.component) else f"{name} {ct.component}"
    return noun(one, ct.plural, ct.article)


def kinds_noun(rs: ir.Ruleset, kinds) -> Noun:
    """The noun for something of one of these card types: the type's own, or the kind they share."""
    kinds = [k for k in kinds if k in rs.card_types]
    if len(kinds) == 1:
        return type_noun(rs.card_types[kinds[0]])
    components = {rs.card_types[k].component for k in kinds}
    return noun(components.pop()) if len(components) == 1 else noun("piece")


def component_counts(rs: ir.Ruleset, kinds) -> str:
    """"46 cards: 20 trial cards, …", by component: "18 gobbot tokens", "6 miniatures: 3 soldiers and 3 sergeants"."""
    counted = {k: sum(c.kind == k for c in rs.cards) for k in kinds}
    by_component: dict[str, list[str]] = {}
    for k in kinds:
        if counted[k]:
            by_component.setdefault(rs.card_types[k].component, []).append(k)
    counters = [v for v in rs.vars.values() if v.component and v.high]  # "3 cubes a player for *life*"
    for v in counters:
        by_component.setdefault(v.component, [])
    parts = []
    for component, members in by_component.items():
        extra = [v for v in counters if v.component == component]
        if extra:
            parts.append(_counted_with(rs, component, members, counted, extra))
        elif len(members) == 1:
            ct = rs.card_types[members[0]]
            one = type_noun(ct).one
            one = one if one.endswith(component) else f"{one} {component}"
            parts.append(noun(one, ct.plural if one == type_noun(ct).one else None).n(counted[members[0]]))
        else:
            total = sum(counted[k] for k in members)
            inner = [type_noun(rs.card_types[k]).n(counted[k]) for k in members]
            parts.append(f"{noun(component).n(total)} ({join(inner)})")
    return join(parts)


def _counted_with(rs: ir.Ruleset, component: str, members, counted, variables) -> str:
    """Components of one kind that cards and counted variables share: "16 cubes (4 a player: 1 cube and 3
    cubes for *life*)" where each player has the same number; else listed one by one."""
    seats = rs.players.high if rs.players is not None else len(rs.roles)
    cards = sum(counted[k] for k in members)
    each_cards = cards // seats if seats and cards % seats == 0 else None
    c = noun(component)
    said = [f"{c.n(v.high)} {'per player ' if v.owner == 'each' else ''}for {_what(v)}" for v in variables]
    if each_cards is not None and all(v.owner == "each" for v in variables):
        per = each_cards + sum(v.high for v in variables)
        inner = ([c.n(each_cards)] if each_cards else []) + [f"{c.n(v.high)} for {_what(v)}" for v in variables]
        return f"{c.n(per * seats)} ({per} per player: {join(inner)})"
    return join(([c.n(cards)] if cards else []) + said)


def _what(v: ir.VarDef) -> str:
    """What a counted variable is, for the components: its `text:` ("life points"), else its name."""
    return re.sub(r"\s*\([^()]*\)$", "", clean(v.text)) if v.text else words(v.name)


def join(parts: list[str], word: str = "and") -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def printed_field(rs: ir.Ruleset, name: str) -> str:
    """A field (or a card state) as the printed rules call it: its printed name (`names:` of a
    card type; a field name means one thing on every card type), else `field_noun`."""
    for ct in rs.card_types.values():
        if name in ct.names:
            return clean(ct.names[name])
    return field_noun(name)


def printed_value(rs: ir.Ruleset, ty, value) -> str:
    """A value as printed: its printed name (`names:` of its type), else its name as words."""
    from rulelang.labels import value_text  # (labels knows how a number, a flag, none read)
    enum = rs.enums.get(getattr(ty, "name", None)) if ty is not None else None
    if enum is not None and value in enum.names:
        return clean(enum.names[value])
    return value_text(value) if not isinstance(value, str) else words(value)


def field_noun(name: str) -> str:
    """A field as a noun: "value"; `command1` -> "first command"; `to` -> "to value"."""
    m = re.fullmatch(r"([a-z_]*[a-z])_?([1-9])", name)
    if m and words(m.group(1)).split()[-1] not in _FUNCTION_WORDS:  # `to_4` is "to 4", not "fourth to"
        return f"{ordinal(int(m.group(2)))} {words(m.group(1))}"
    text = words(name)
    return f"{text} value" if text in _FUNCTION_WORDS else text


def role_name(role: ir.Role) -> str:
    """"the Trialmaster", "North": an agent noun takes "the", a name does not (or as `article:` says)."""
    name = capital(words(role.name))
    given = role.article
    if given is None:
        given = "the" if _AGENT_NOUN.search(role.name.lower()) else ""
    return f"{given} {name}" if given else name


def takes_s(phrase: str) -> bool:
    """Whether a phrase reads well with 's: a name or a short noun phrase ("the active player's"),
    not one a clause or a phrase ends ("the player who leads the trick's": "… of the player who …"),
    nor a noun with a participle after it ("the player asking")."""
    rest = phrase.split()[1:]  # "that player" is a short noun phrase: its determiner is no clause
    if len(rest) == 2 and re.fullmatch(r"[a-z]+ing", rest[1]):  # "the player asking's": "… of the player asking"
        return False
    return len(rest) <= 2 and not any(w in ("who", "whom", "whose", "that", "which", "of", "in", "on", "to", "from")
                                      for w in rest)


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") and not name.endswith("ss") else "'s")


def zone_title(zone: ir.Zone) -> str:
    """The zone's name as printed, without an article: "Trial Deck", "hand"."""
    title = clean(zone.text) if zone.text else words(zone.name)
    return title[4:] if title.lower().startswith("the ") else title


def zone_article(zone: ir.Zone) -> str:
    """"the", or "" for a zone whose `article:` says it is a name."""
    return "the" if zone.article is None else zone.article
