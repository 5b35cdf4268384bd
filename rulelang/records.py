"""`record`: a frozen dataclass, made for a fraction of what `dataclass(frozen=True)` costs.

Python 3.11's `dataclass` compiles six methods from source text for every frozen class, and
signs every class without a docstring with `inspect.signature`. For the IR's ninety-odd classes
that was most of importing it, and every process that reads a ruleset imports it, even one
that finds its compiled rules in the cache. A record is the same class: `dataclasses.fields`,
`replace` and `asdict` work, it pickles and matches (`__match_args__`) as before, equality and
hashing go over the compared fields, repr over the shown ones, and its fields cannot be
assigned or deleted (`FrozenInstanceError`). Only `__init__` is still compiled (a shared one
would make every node the passes build slower), and only when the class is first constructed:
a process that reads its ruleset and compiled rules from the cache unpickles records and
constructs none (compiling every `__init__` was a fifth of a warm `simulate`'s start-up); the
rest are shared functions over the field names. A record's subclass is a record too
(`@dataclass(frozen=True)` refuses one: to `dataclasses` a record is not frozen, since it did
not write the refusals).
"""
from __future__ import annotations

import dataclasses
import reprlib
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

C = TypeVar("C", bound=type)

_FACTORY = object()  # an argument left to its default factory


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: C) -> C:
    """`@record` on a class: what `@dataclass(frozen=True)` makes of it."""
    own_doc = cls.__dict__.get("__doc__")
    if not own_doc:
        cls.__doc__ = cls.__name__  # not signed by inspect.signature: named below, from the fields
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)  # the same class, its fields collected
    fields = dataclasses.fields(cls)
    if not own_doc:
        cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in fields if f.init)})"
    eq, hash_ = _equality(tuple(f.name for f in fields if f.compare))
    set_, delete = _frozen(cls, frozenset(f.name for f in fields))
    methods = {"__init__": _init(cls, fields), "__eq__": eq, "__hash__": hash_,
               "__repr__": _repr(tuple(f.name for f in fields if f.repr)), "__setattr__": set_, "__delattr__": delete}
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


def _init(cls: type, fields: tuple[dataclasses.Field, ...]):
    """The `__init__` the frozen dataclass would have: same parameters, defaults and factories. Its text
    is written now (a field out of order is refused with the class), compiled when the class is first
    constructed, and then left in its place."""
    names: dict[str, object] = {"__object_setattr": object.__setattr__, "__FACTORY": _FACTORY}
    positional, keywords, body = [], [], []
    seen_default = False
    for f in fields:
        value = f.name
        if f.default_factory is not MISSING:
            names[f"__factory_{f.name}"] = f.default_factory
            value = (f"__factory_{f.name}() if {f.name} is __FACTORY else {f.name}" if f.init
                     else f"__factory_{f.name}()")
        elif not f.init:
            continue  # its default is the class's attribute
        if f.init:
            default = ""
            if f.default_factory is not MISSING:
                default = "=__FACTORY"
            elif f.default is not MISSING:
                names[f"__default_{f.name}"] = f.default
                default = f"=__default_{f.name}"
            if f.kw_only:
                keywords.append(f.name + default)
            else:
                if default:
                    seen_default = True
                elif seen_default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
                positional.append(f.name + default)
        body.append(f"__object_setattr(self, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    params = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    text = f"def __init__({params}):\n    " + ("\n    ".join(body) or "pass")

    def __init__(self, *args, **kwargs):
        exec(text, names)
        init: Any = names["__init__"]
        init.__qualname__ = __init__.__qualname__
        type.__setattr__(cls, "__init__", init)
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _equality(compared: tuple[str, ...]):
    """`__eq__` and `__hash__` over the compared fields, as the dataclass's: another class is not equal."""
    key = attrgetter(*compared) if compared else (lambda node: ())

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self):
        return hash(key(self))

    return __eq__, __hash__


def _repr(shown: tuple[str, ...]):
    @reprlib.recursive_repr()
    def __repr__(self):
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    return __repr__


def _frozen(cls: type, names: frozenset[str]):
    """The refusals of a frozen dataclass: its fields, and anything on the class itself (not a subclass's own)."""
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
