"""A record behaves as the frozen dataclass it replaces: built side by side from the same class body."""
import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, field

import pytest

from rulelang import ir
from rulelang.records import record


def _body(name: str, base: type = object) -> type:
    """A class of every kind of field the IR uses: positional, defaulted, factory, keyword-only, not in init."""
    return type(name, (base,), {
        "__annotations__": {"a": "int", "b": "str", "c": "dict", "d": "object", "e": "str"},
        "b": "x",
        "c": field(default_factory=dict, compare=False),
        "d": field(default=None, kw_only=True, repr=False),
        "e": field(default="kept", init=False, compare=False),
        "__module__": __name__,
    })


Made = record(_body("Made"))
Plain = dataclasses.dataclass(frozen=True)(_body("Plain"))
globals().update(Made=Made, Plain=Plain)  # picklable by name


def test_construction_equality_hashing_and_repr_match_the_dataclass():
    for args, kwargs in [((1,), {}), ((1, "y"), {"d": 3}), ((2,), {"b": "z", "c": {"k": 1}})]:
        made, plain = Made(*args, **kwargs), Plain(*args, **kwargs)
        assert repr(made) == repr(plain).replace("Plain(", "Made(", 1)
        assert made == Made(*args, **kwargs) and hash(made) == hash(Made(*args, **kwargs))
        assert [(f.name, getattr(made, f.name)) for f in dataclasses.fields(made)] == \
               [(f.name, getattr(plain, f.name)) for f in dataclasses.fields(plain)]
    assert Made(1, c={"k": 1}) == Made(1)  # a field left out of equality
    assert Made(1) != Made(2) and Made(1) != Made(1, d=2) and Made(1) != Plain(1)
    assert Made(1).c is not Made(1).c  # a fresh default each time
    with pytest.raises(TypeError):
        Made(1, "y", {}, None)  # `d` is keyword-only
    with pytest.raises(TypeError):
        Made(1, e="no")  # not a parameter


def test_frozen_replaceable_and_picklable():
    made = Made(1, d=[2])
    with pytest.raises(FrozenInstanceError):
        made.a = 2
    with pytest.raises(FrozenInstanceError):
        del made.b
    assert dataclasses.replace(made, a=5) == Made(5, d=[2])
    assert pickle.loads(pickle.dumps(made)) == made == copy.deepcopy(made)
    assert dataclasses.asdict(made) == {"a": 1, "b": "x", "c": {}, "d": [2], "e": "kept"}
    assert Made.__match_args__ == ("a", "b", "c")


def test_init_compiled_when_first_constructed():
    """Unpickling constructs no record, so a process that only reads them never compiles an `__init__`."""
    fresh = record(_body("Fresh"))
    waiting = fresh.__dict__["__init__"]
    assert waiting.__qualname__ == "Fresh.__init__"
    copied = copy.copy(fresh.__new__(fresh))  # (no __init__ called)
    assert fresh.__dict__["__init__"] is waiting and not hasattr(copied, "a")
    assert repr(fresh(1, d=2)) == "Fresh(a=1, b='x', c={}, e='kept')"
    compiled = fresh.__dict__["__init__"]
    assert compiled is not waiting and compiled.__qualname__ == "Fresh.__init__"
    assert fresh(2) == fresh(2) and fresh.__dict__["__init__"] is compiled


def test_subclasses_and_post_init():
    calls = []

    @record
    class Sub(Made):
        f: int = 0

        def __post_init__(self):
            calls.append(self.f)

    assert repr(Sub(1, f=2)) == "test_subclasses_and_post_init.<locals>.Sub(a=1, b='x', c={}, e='kept', f=2)"
    assert calls == [2] and Sub(1) != Made(1)
    with pytest.raises(TypeError, match="non-default argument 'g' follows default argument"):
        record(type("Bad", (Made,), {"__annotations__": {"g": "int"}}))


def test_every_ir_node_is_a_record():
    for cls in (*ir.EXPRESSIONS, *ir.STATEMENTS, ir.Ruleset, ir.Mode):
        assert dataclasses.is_dataclass(cls) and "__init__" in cls.__dict__ and "__hash__" in cls.__dict__
    node = ir.Var("life", owner=ir.Local("p"))
    assert node == ir.Var("life", owner=ir.Local("p"), span=None) and {node: 1}[ir.Var("life", ir.Local("p"))] == 1
    with pytest.raises(FrozenInstanceError):
        node.name = "gold"
