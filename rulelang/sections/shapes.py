"""What each key of a ruleset file holds, as data: the sections' readers check
a mapping's keys against these tables, and `rulelang schema` writes them out
as JSON Schema (rulelang/schema.py), so an editor and the loader cannot
disagree on what a file may say.

    ZONE = Keys("a place for cards", (
        Key("facing", Choice(("up", "down"), "how cards are turned when they enter")),
        ...))
    reader.keys(spec, ZONE, "zone 'hand'")           # unknown keys reported
    reader.choice(spec, "facing", ZONE.choices("facing"), "up")

A shape says which YAML forms a value may take (the readers say what they
mean); text is each form's description, shown by an editor on hover.
"""
from __future__ import annotations

from dataclasses import dataclass


class Shape:
    """A form a value of the file may take."""


@dataclass(frozen=True)
class Anything(Shape):
    """Any value (checked by the reader, not described here)."""


ANYTHING = Anything()


@dataclass(frozen=True)
class Scalar(Shape):
    """Text, numbers, true/false or null (YAML's scalars), as JSON Schema names them."""
    types: tuple[str, ...]  # "string", "integer", "boolean", "null"
    text: str = ""
    pattern: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    rules: str | None = None  # rules text: "statements" or "expression" (the schema's `x-rules`, for editors)


@dataclass(frozen=True)
class Choice(Shape):
    """One of a few words."""
    words: tuple[str, ...]
    text: str = ""


@dataclass(frozen=True)
class ListOf(Shape):
    item: Shape
    text: str = ""


@dataclass(frozen=True)
class Named(Shape):
    """A mapping from names the author chooses to values of one shape."""
    value: Shape
    text: str = ""


@dataclass(frozen=True)
class Key:
    name: str
    shape: Shape
    required: bool = False
    variant: bool = False  # written only in a variant (`extends:`), which is resolved before the file is read


@dataclass(frozen=True)
class Keys(Shape):
    """A mapping of known keys; any other key is an error."""
    text: str
    keys: tuple[Key, ...]
    one_key: bool = False  # exactly one of the keys

    @property
    def names(self) -> tuple[str, ...]:
        """The keys a resolved file may hold (a variant's own keys left out)."""
        return tuple(k.name for k in self.keys if not k.variant)

    def shape(self, name: str) -> Shape:
        return next(k.shape for k in self.keys if k.name == name)

    def choices(self, name: str) -> tuple[str, ...]:
        """The words a key of this mapping takes."""
        shape = self.shape(name)
        assert isinstance(shape, Choice), name
        return shape.words

    def also(self, *keys: Key) -> Keys:
        """These keys and more."""
        return Keys(self.text, (*self.keys, *keys))


@dataclass(frozen=True)
class AnyOf(Shape):
    """Any of several forms (a value alone, or a mapping that says more)."""
    shapes: tuple[Shape, ...]
    text: str = ""


def string(description: str) -> Scalar:
    return Scalar(("string",), description)


NAME = Scalar(("string",), pattern="^[A-Za-z_][A-Za-z0-9_]*$")
def expression(description: str) -> Scalar:
    """A value or condition in the rules language (a number or true/false alone too)."""
    return Scalar(("string", "integer", "boolean"), description, rules="expression")


RULES = Scalar(("string",), "rules text: statements, one a line (write it after `|`)", rules="statements")
EXPRESSION = expression("a value or condition in the rules language")
PROSE = string("prose shown to players instead of the generated sentence")
ASSUMED = string("a value the rulebook does not give, chosen here; say why")
CHECKED = string("the fingerprint of the rules the text beside it says (`rulelang check --texts`): check warns "
                 "when those rules change")
NAMES = Named(Scalar(("string",)), "what players read for a field, state or value, where its name in the rules is "
                                   "not a word for them (`hp: Health`)")
