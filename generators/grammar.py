"""English word forms: articles, plurals, counts, and verbs that agree and negate.

Rulesets name things with words a generator cannot know (`boss`, `hour`,
`army`), so the regular rules are here, with the irregular forms English
has for game nouns; a ruleset gives `plural:` or `article:` where its noun
is irregular beyond these.
"""
from __future__ import annotations

import re

# letters whose names start with a vowel sound: "an X", "an 8-sided die" is a digit, handled below
_VOWEL_LETTERS = set("AEFHILMNORSX")
# words written with a vowel that sound like a consonant, and the reverse
_CONSONANT_SOUND = re.compile(r"(uni[^mnd]|unan|use|usu|uti|ure|eu|ewe|one\b|once|ubiq|uk|ur[aeiou]|u\b)", re.I)
_VOWEL_SOUND = re.compile(r"(hour|honest|honou?r|heir|herb\b)", re.I)

_IRREGULAR = {"die": "dice", "person": "people", "man": "men", "woman": "women", "child": "children",
              "mouse": "mice", "foot": "feet", "tooth": "teeth", "goose": "geese", "ox": "oxen",
              "leaf": "leaves", "knife": "knives", "life": "lives", "half": "halves", "wolf": "wolves",
              "elf": "elves", "dwarf": "dwarves", "thief": "thieves", "shelf": "shelves", "self": "selves",
              "sheep": "sheep", "fish": "fish", "deer": "deer", "series": "series", "species": "species",
              "hero": "heroes", "potato": "potatoes", "tomato": "tomatoes", "echo": "echoes",
              "cactus": "cacti", "fungus": "fungi", "crisis": "crises", "axis": "axes", "matrix": "matrices",
              "vertex": "vertices", "index": "indices", "criterion": "criteria", "phenomenon": "phenomena"}
_SINGULAR = {p: s for s, p in _IRREGULAR.items()}
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve")
_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def article(phrase: str, given: str | None = None) -> str:
    """`phrase` with "a" or "an" in front, by its sound: "a unit", "an hour", "an 8", "an X"."""
    if given is not None:
        return f"{given} {phrase}" if given else phrase
    return ("an " if _vowel_sound(phrase) else "a ") + phrase


def _vowel_sound(phrase: str) -> bool:
    word = re.sub(r"^[^\w]+", "", phrase)
    if not word:
        return False
    if word[0].isdigit():
        number = re.match(r"\d+", word).group(0)
        # 8, 11, 18, 80-89, 800-899 ...: eight, eleven, eighteen, eighty
        return number.startswith("8") or number in ("11", "18") or \
            (len(number) % 3 == 2 and number[:2] in ("11", "18"))
    first = re.match(r"\w+", word).group(0)
    if len(first) == 1 or first.isupper() and len(first) <= 4:  # a letter or an abbreviation: "an X", "an SVG"
        return first[0].upper() in _VOWEL_LETTERS
    if _VOWEL_SOUND.match(first):
        return True
    return first[0].lower() in "aeiou" and not _CONSONANT_SOUND.match(first)


def plural(noun: str, given: str | None = None) -> str:
    """The plural of a noun or of a phrase ending in one: "boss" -> "bosses",
    "trial card" -> "trial cards", "army" -> "armies", "die" -> "dice"."""
    if given:
        return given
    head, _, last = noun.rpartition(" ")
    return (head + " " if head else "") + _plural_word(last)


def _plural_word(word: str) -> str:
    lower = word.lower()
    if len(word) == 1 or word.isdigit():  # "Xs", "8s"
        return word + "s"
    if lower in _IRREGULAR:
        return _match_case(word, _IRREGULAR[lower])
    if re.search(r"(s|x|z|ch|sh)$", lower):
        return word + "es"
    if re.search(r"[^aeiou]y$", lower):
        return word[:-1] + "ies"
    return word + "s"


def singular(word: str) -> str:
    """The singular of a plural word ("spaces" -> "space"); other words unchanged."""
    lower = word.lower()
    if lower in _SINGULAR:
        return _match_case(word, _SINGULAR[lower])
    if len(lower) <= 3 or re.search(r"(ss|us|is|ous)$", lower) or not lower.endswith("s"):
        return word
    if re.search(r"[^aeiou]ies$", lower):
        return word[:-3] + "y"
    if re.search(r"(sses|xes|zes|ches|shes)$", lower):
        return word[:-2]
    return word[:-1]


def _match_case(model: str, word: str) -> str:
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def number_word(n: int) -> str:
    """Small numbers as words, where a rulebook writes them ("two cards")."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def ordinal(n: int) -> str:
    return _ORDINALS[n] if 0 < n < len(_ORDINALS) else f"{n}th"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# ------------------------------------------------------------ verbs

# a verb phrase's first word -> (plural form, negated singular, negated plural)
AUXILIARIES = {
    "is": ("are", "is not", "are not"), "are": ("are", "are not", "are not"),
    "was": ("were", "was not", "were not"), "were": ("were", "were not", "were not"),
    "can": ("can", "cannot", "cannot"), "cannot": ("cannot", "can", "can"),
    "will": ("will", "will not", "will not"), "must": ("must", "need not", "need not"),
    "could": ("could", "could not", "could not"), "would": ("would", "would not", "would not"),
    "should": ("should", "should not", "should not"),
    "may": ("may", "may not", "may not"),
    "has": ("have", "does not have", "do not have"), "have": ("have", "do not have", "do not have"),
    "does": ("do", "does not", "do not"), "do": ("do", "do not", "do not"),
}
_NEGATED = {"is not": "is", "are not": "are", "was not": "was", "were not": "were", "cannot": "can",
            "will not": "will", "may not": "may", "does not": "does", "do not": "do", "could not": "could",
            "would not": "would", "should not": "should"}
# words that cannot start a verb phrase after a subject: they continue the subject
_NOT_VERBS = {"and", "or", "with", "of", "in", "on", "at", "from", "to", "for", "by", "used", "the", "a", "an",
              "its", "their", "his", "her", "this", "that", "each", "every", "other", "no", "both"}


_PARTICIPLES = {"been", "done", "gone", "won", "lost", "made", "taken", "seen", "drawn", "given", "shown", "begun",
                "spent", "found", "held", "left", "met", "paid", "played", "put", "run", "set", "struck", "thrown"}


def _participle(rest: str) -> bool:
    """Whether a verb phrase's rest starts with a past participle ("reached the end", "been triggered")."""
    word = rest.split(" ")[0].lower()
    return word in _PARTICIPLES or len(word) > 3 and word.endswith("ed")


def is_verb(word: str) -> bool:
    """Could this word start the verb phrase that follows a subject?"""
    lower = word.lower()
    return lower in AUXILIARIES or (lower not in _NOT_VERBS and re.fullmatch(r"[a-z]+", lower) is not None)


def agree(verb_phrase: str, many: bool) -> str:
    """A verb phrase written for one subject, agreeing with `many`: "is face up" -> "are face up",
    "holds no Gobbot" -> "hold no Gobbot", "is at the end of its lane" -> "are at the end of their lane"."""
    if not many:
        return verb_phrase
    first, _, rest = verb_phrase.partition(" ")
    if first in AUXILIARIES:
        first = AUXILIARIES[first][0]
    elif first.endswith("ies"):
        first = first[:-3] + "y"
    elif re.search(r"(sses|xes|zes|ches|shes|oes)$", first):
        first = first[:-2]
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    rest = re.sub(r"\bits\b", "their", rest)
    return f"{first} {second_verbs(rest)}".strip()


def second_verbs(rest: str) -> str:
    """What follows a verb that now agrees with many, its next verbs of the same subject agreeing too: "hold or
    have planned", not "hold or has planned"."""
    return re.sub(r"\b(and|or) (is|was|has)\b", lambda m: f"{m.group(1)} {AUXILIARIES[m.group(2)][0]}", rest)


def negate(verb_phrase: str, many: bool = False, whole: bool = True) -> str:
    """The negation of a verb phrase: "is face up" -> "is not face up", "can act" -> "cannot act",
    "shows a" -> "does not show a", "holds no Gobbot" -> "holds a Gobbot", "is not x" -> "is x".
    `whole`: the phrase is the whole predicate (a switch "is on" is then "is off"; "is on" before
    more words, "is on South's side", is "is not on")."""
    for positive, negated in (("is true", "is false"), ("is on", "is off")):  # a switch: its other state
        if whole and verb_phrase in (positive, negated):
            return negated if verb_phrase == positive else positive
    for negated, positive in _NEGATED.items():
        if verb_phrase.startswith(negated + " ") or verb_phrase == negated:
            return positive + verb_phrase[len(negated):]
    first, _, rest = verb_phrase.partition(" ")
    if rest.startswith("no ") and first not in AUXILIARIES:  # "holds no Gobbot" -> "holds a Gobbot"
        return f"{first} {article(rest[3:])}"
    if rest.startswith("no ") and first in ("is", "are", "has", "have"):
        return f"{first} {article(rest[3:])}"
    if first in ("has", "have") and _participle(rest):  # "has reached" -> "has not reached"
        return f"{first} not {rest}"
    if first in AUXILIARIES:
        return f"{AUXILIARIES[first][2 if many else 1]} {rest}".strip()
    base = agree(first, True)
    return f"{'do' if many else 'does'} not {base} {rest}".strip()


def third_person(plain_verb: str) -> str:
    """"choose" -> "chooses", "carry" -> "carries"."""
    first, _, rest = plain_verb.partition(" ")
    if re.search(r"(s|x|z|ch|sh|o)$", first):
        first += "es"
    elif re.search(r"[^aeiou]y$", first):
        first = first[:-1] + "ies"
    elif first == "have":
        first = "has"
    else:
        first += "s"
    return f"{first} {rest}".strip()
