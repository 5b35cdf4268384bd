"""The language's words: reserved ones, and the ones taken after its first version,
which a ruleset of version 1 may still use as names (words.py, `language:`)."""
import pytest
from helpers import rulelang

from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.engine.game import Game
from rulelang import RulesetError, load_text

OLD = """
game: old-names
roles: [north, south]
vars:
  random: {initial: 0}
  players: {initial: 2}
  trigger: {initial: 0}
zones:
  into: {}
procedures:
  roll(): |
    random += 1
  eliminate(n): |
    trigger += n
define:
  seat(): "1"
  window(x): "x + 1"
modes:
  m:
    round:
      - step: S
        do: |
          roll()
          eliminate(2)
          roll d6 into x
          trigger = window(x) + seat() + players
          if random == 3:
            eliminate south as beaten
            end game
    score: {north: trigger, south: random}
"""


def test_a_version_1_ruleset_names_things_with_words_the_language_took_later():
    rs = load_text(OLD, "old.yaml")
    assert rs.language == 1
    game = Game(rs)
    st = play(game, 1, {r: make_agent("random", 1, r) for r in game.roles})
    assert st.outcome["rounds"] == 3 and st.outcome["eliminated"] == {"south": "beaten"}
    # `eliminate(2)` calls the ruleset's own procedure; `eliminate south` is the statement
    assert st.outcome["scores"]["south"] == 3
    # a built-in its names hide is a note, never an error
    notes = [d for d in rs.notes if d.severity == "note"]
    assert {d.message.split("'")[1] for d in notes} == {"players", "seat"}


def test_a_word_read_again_the_other_way_leaves_the_statements_before_it_as_they_were():
    """`roll d6 into x` is first read as a call of the file's own `roll`, then as the statement:
    the statement before it was once kept twice (Lark's list of statements, grown by the failed
    reading, was shared with the parser it went back to)."""
    step = load_text(OLD, "old.yaml").modes["m"].round[0].body
    assert [type(s).__name__ for s in step] == ["CallProc", "CallProc", "Roll", "Assign", "If"]


def test_check_prints_the_notes_and_succeeds(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(OLD)
    r = rulelang("check", str(path))
    assert r.returncode == 0, r.stderr
    assert "note: 'seat' names this ruleset's own define, so the built-in seat(...) is not available" in r.stderr


def test_language_2_reserves_them():
    with pytest.raises(RulesetError) as info:
        load_text("language: 2\n" + OLD, "new.yaml")
    text = str(info.value)
    for word in ("random", "players", "trigger", "into", "roll", "eliminate", "seat", "window"):
        assert f"'{word}' is a reserved word" in text, word
    assert "a file without `language:` (version 1) may still use it" in text


@pytest.mark.parametrize("bad, message", [("language: 3", "1 to 2"), ("language: two", "1 to 2")])
def test_a_language_this_rulelang_does_not_read(bad, message):
    with pytest.raises(RulesetError, match=message):
        load_text(bad + "\n" + OLD, "x.yaml")


def test_the_first_versions_keywords_stay_reserved():
    with pytest.raises(RulesetError, match="'face' is a reserved word and cannot name a variable"):
        load_text(OLD.replace("  random: {initial: 0}", "  face: {initial: 0}"), "x.yaml")


def test_where_both_readings_parse_the_keyword_is_read_unless_the_ruleset_names_the_word():
    # no procedure `eliminate` of its own: `eliminate (p)` is the statement
    text = OLD.replace("  eliminate(n): |\n    trigger += n\n", "").replace("eliminate(2)", "eliminate (north)")
    game = Game(load_text(text, "x.yaml"))
    st = play(game, 1, {r: make_agent("random", 1, r) for r in game.roles})
    assert "north" in st.outcome["eliminated"]


# ---------------------------------------------------------------- rulelang upgrade

def test_upgrade_renames_the_names_the_language_took_and_the_games_stay_the_same(tmp_path):
    from pathlib import Path

    from test_compat import EXPECTED
    corpus = Path(__file__).parent / "compat"
    for name in ("feast-of-rolls.yaml", "stepping-stones.yaml"):
        path = tmp_path / name
        path.write_text((corpus / name).read_text())
        r = rulelang("upgrade", str(path))
        assert r.returncode == 0, r.stderr
        assert f"upgraded {path} to language 2:" in r.stdout and "added `language: 2`" in r.stdout
        rs = load_text(path.read_text(), str(path))
        assert rs.language == 2 and not rs.notes
        for key, outcome in EXPECTED[name]["games"].items():
            seed, _, count = key.partition("/players=")
            if seed != "0":
                continue
            game = Game(load_text(path.read_text(), str(path), {"players": count} if count else None))
            st = play(game, int(seed), {r: make_agent("random", int(seed), r) for r in game.roles})
            assert {k: st.outcome[k] for k in outcome} == outcome, (name, key)
        again = rulelang("upgrade", str(path))
        assert again.returncode == 0 and "already: nothing to change" in again.stdout


def test_upgrade_changes_nothing_when_asked_for_a_dry_run_or_when_it_cannot(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(OLD)
    r = rulelang("upgrade", str(path), "--dry-run")
    assert r.returncode == 0 and "renamed the procedure 'roll' to 'roll_'" in r.stdout
    assert path.read_text() == OLD
    broken = tmp_path / "broken.yaml"
    broken.write_text(OLD.replace("random += 1", "random += nothing"))
    r = rulelang("upgrade", str(broken))
    assert r.returncode == 2 and "unknown name 'nothing'" in r.stderr
    assert broken.read_text() == OLD.replace("random += 1", "random += nothing")
    assert not list(tmp_path.glob(".*upgrade"))  # no file left behind


def test_the_words_the_docs_list_are_the_languages():
    import re
    from pathlib import Path

    from rulelang.builtins import BUILTINS
    from rulelang.words import CONTEXTUAL, KEYWORDS, PLACED
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text()
    section = doc.split("\n## Words\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"\n    ([a-z_ ]+)\n(?:    ([a-z_ ]+)\n)?(?:    ([a-z_ ]+)\n)?", section)
    reserved = set(" ".join(listed[0]).split())
    contextual = set(" ".join(listed[1]).split())
    assert reserved == KEYWORDS and contextual == CONTEXTUAL
    assert set(" ".join(listed[2]).split()) == PLACED
    builtins = set(re.findall(r"`([a-z_]+)`", section.split("and so are\nthe built-ins", 1)[1].split(". (", 1)[0]))
    assert builtins == set(BUILTINS)
