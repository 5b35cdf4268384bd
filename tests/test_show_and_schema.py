"""`rulelang show` prints what will run; `rulelang schema` lets editors check ruleset files."""
import dataclasses
import importlib
import json
import pkgutil

import pytest
from helpers import ROOT, bundled, rulelang
from helpers.commands import cli

from rulelang import RulesetError, bundled_names, cardtable, load_text, loader, maps, sections
from rulelang.schema import schema
from rulelang.sections.shapes import AnyOf, Keys, ListOf, Named
from rulelang.yamltree import dump, load_yaml, plain


def same_rules(a, b) -> bool:
    return dataclasses.replace(a, source_hash="", params={}) == dataclasses.replace(b, source_hash="", params={})


@pytest.mark.parametrize("name", bundled_names())
def test_show_prints_a_ruleset_that_loads_to_the_same_rules(tmp_path, capsys, name):
    code, out, err = cli(capsys, "show", name)  # in this process: the command's own process is tested below
    assert code == 0, err
    assert out.startswith(f"# {bundled(name).name}, as it will run: merged from ")
    assert "extends" not in plain(load_yaml(out, "shown.yaml"))
    assert same_rules(load_text(out, str(tmp_path / "shown.yaml")), bundled(name))


def test_show_applies_parameters_and_patches():
    r = rulelang("show", "twenty-trials-small-hand", "--set", "hand_size=4", "--set", "trial_modifiers=true")
    assert r.returncode == 0, r.stderr
    shown = plain(load_yaml(r.stdout, "shown.yaml"))
    assert shown["params"]["hand_size"]["default"] == 4 and shown["params"]["trial_modifiers"]["default"] is True
    assert "# with hand_size=4, trial_modifiers=true" in r.stdout
    draw = shown["modes"]["challenger"]["round"][0]
    assert draw == {"step": "Draw cards", "do": "while size(hand) < hand_size and not empty(action_deck):\n"
                                                "  draw_action()\n"}
    assert rulelang("show", "twenty-trials-small-hand", "--set", "hand_size=9").returncode == 2
    r = rulelang("show", "oh-hell", "--set", "players=3", "--set", "hands=2")  # the count is no `params:` entry
    assert r.returncode == 0, r.stderr
    shown = plain(load_yaml(r.stdout, "shown.yaml"))
    assert shown["players"] == {"count": "3..5", "default": 3} and shown["params"]["hands"]["default"] == 2


def test_show_sets_the_count_of_players(tmp_path):
    r = rulelang("show", "gauntlet-16-7", "--set", "players=5")
    assert r.returncode == 0, r.stderr
    assert plain(load_yaml(r.stdout, "shown.yaml"))["players"]["default"] == 5
    shown = load_text(r.stdout, str(tmp_path / "shown.yaml"))
    assert shown.param_values["players"] == 5 and len(shown.roles) == 5


def test_show_refuses_a_broken_variant(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: twenty-trials\ngame: bad\nmodes:\n  challenger:\n    round:\n      - remove: Nope\n")
    r = rulelang("show", str(bad))
    assert r.returncode == 2 and f"{bad}:6:17: error: mode 'challenger' has no step 'Nope' to remove" in r.stderr


# ------------------------------------------------------------------ schema


def test_schema_command_prints_the_schema():
    r = rulelang("schema")
    assert r.returncode == 0 and json.loads(r.stdout) == schema()


RULESETS = sorted([*(ROOT / "rulesets").glob("*.yaml"), *(ROOT / "rulesets" / "examples").glob("*.yaml")])


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_bundled_ruleset_and_example_is_valid_under_the_schema(path):
    """(Oh Hell's card state `{type: role, initial: none}` once failed: the test read rulesets/*.yaml only.)"""
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft7Validator.check_schema(schema())
    data = plain(load_yaml(path.read_text(), str(path)))
    assert list(jsonschema.Draft7Validator(schema()).iter_errors(data)) == []


@pytest.mark.parametrize("change", [
    lambda d: d.update(rullings=[]),
    lambda d: d["zones"]["hand"].update(facing="sideways"),
    lambda d: d["modes"]["challenger"].update(scores={}),
    lambda d: d["modes"]["challenger"]["round"].append({"step": "x", "doo": "pass"}),
    lambda d: d["cards"]["trial"].update(table=3),
])
def test_the_schema_catches_what_the_loader_rejects(change):
    jsonschema = pytest.importorskip("jsonschema")
    data = plain(load_yaml((ROOT / "rulesets" / "twenty-trials.yaml").read_text(), "t.yaml"))
    change(data)
    assert list(jsonschema.Draft7Validator(schema()).iter_errors(data))


# a key the loader does not know, put in each kind of mapping: the loader's error lists the keys
# it allows, and the schema allows exactly those (and, in a variant, the variant's own)
UNKNOWN_KEY = {
    "the ruleset": lambda d: d,
    "zone 'hand'": lambda d: d["zones"]["hand"],
    "mode 'challenger'": lambda d: d["modes"]["challenger"],
    "a step": lambda d: d["modes"]["challenger"]["round"][0],
    "card type 'trial'": lambda d: d["cards"]["trial"],
    "parameter 'trial_modifiers'": lambda d: d["params"]["trial_modifiers"],
    "a ruling": lambda d: d["rulings"][0],
}


@pytest.mark.parametrize("where", UNKNOWN_KEY)
def test_the_schema_allows_the_keys_the_loader_allows(where):
    jsonschema = pytest.importorskip("jsonschema")
    data = plain(load_yaml((ROOT / "rulesets" / "twenty-trials.yaml").read_text(), "t.yaml"))
    UNKNOWN_KEY[where](data)["zzz_unknown"] = 1
    with pytest.raises(RulesetError) as info:
        load_text(dump(data), "twenty-trials.yaml")
    [d] = [d for d in info.value.diagnostics if "zzz_unknown" in d.message]
    assert d.message == f"unknown key 'zzz_unknown' in {where}"
    allowed = set(d.hint.removeprefix("allowed keys: ").split(", "))
    [table] = [e.schema for e in _all(jsonschema.Draft7Validator(schema()).iter_errors(data))
               if "'zzz_unknown' was unexpected" in e.message]
    assert set(table["properties"]) - {"extends", "add", "remove"} == allowed  # (and a variant's own keys)


def _all(errors):
    """Errors and, for a value that fits none of several forms, why it fits none."""
    for e in errors:
        yield e
        yield from _all(e.context or ())


def test_every_table_of_keys_the_readers_check_is_in_the_schema():
    def tables(shape, found):
        if isinstance(shape, Keys):
            found.append(shape)
            for k in shape.keys:
                tables(k.shape, found)
        elif isinstance(shape, (ListOf, Named)):
            tables(shape.item if isinstance(shape, ListOf) else shape.value, found)
        elif isinstance(shape, AnyOf):
            for s in shape.shapes:
                tables(s, found)
        return found

    written = tables(loader.FILE, [])
    modules = [importlib.import_module(f"rulelang.sections.{m.name}")
               for m in pkgutil.iter_modules(sections.__path__)]
    modules += [cardtable, maps, loader]
    declared = {f"{m.__name__}.{name}": value for m in modules for name, value in vars(m).items()
                if isinstance(value, Keys)}
    assert len(declared) > 15
    assert [name for name, table in declared.items() if table not in written] == []
