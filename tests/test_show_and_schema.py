"""`rulelang show` prints what will run; `rulelang schema` lets editors check ruleset files."""
import dataclasses
import json

import pytest
from helpers import ROOT, rulelang

from rulelang import bundled_names, load_ruleset, load_text, loader
from rulelang.cardtable import CARD_KEYS
from rulelang.schema import schema
from rulelang.yamltree import load_yaml, plain


def same_rules(a, b) -> bool:
    return dataclasses.replace(a, source_hash="", params={}) == dataclasses.replace(b, source_hash="", params={})


@pytest.mark.parametrize("name", bundled_names())
def test_show_prints_a_ruleset_that_loads_to_the_same_rules(tmp_path, name):
    r = rulelang("show", name)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"# {load_ruleset(name).name}, as it will run: merged from ")
    assert "extends" not in plain(load_yaml(r.stdout, "shown.yaml"))
    assert same_rules(load_text(r.stdout, str(tmp_path / "shown.yaml")), load_ruleset(name))


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


def test_every_bundled_ruleset_is_valid_under_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft7Validator.check_schema(schema())
    validator = jsonschema.Draft7Validator(schema())
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        data = plain(load_yaml(path.read_text(), str(path)))
        assert list(validator.iter_errors(data)) == [], path


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


def test_the_schema_knows_every_key_the_loader_accepts():
    top = schema()["properties"]
    mode = top["modes"]["additionalProperties"]["properties"]
    step = mode["round"]["items"]["oneOf"][0]["properties"]
    zone = top["zones"]["additionalProperties"]["oneOf"][1]["properties"]
    param = top["params"]["additionalProperties"]["oneOf"][1]["properties"]
    var = top["vars"]["additionalProperties"]["oneOf"][1]["properties"]
    ruling = top["rulings"]["items"]["oneOf"][0]["properties"]
    measure = mode["measures"]["additionalProperties"]["oneOf"][1]["properties"]
    card = top["cards"]["additionalProperties"]["properties"]
    assert set(top) == {*loader.TOP_KEYS, "extends"}
    assert set(mode) == {*loader.MODE_KEYS, "extends"}
    assert set(step) == set(loader.STEP_KEYS) and set(zone) == set(loader.ZONE_KEYS)
    assert set(param) == set(loader.PARAM_KEYS) and set(var) == set(loader.VAR_KEYS)
    assert set(ruling) == set(loader.RULING_KEYS) and set(measure) == set(loader.MEASURE_KEYS)
    assert set(card) == {*CARD_KEYS, "add", "remove"}
