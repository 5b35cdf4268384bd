"""The rulebook's example player phase and example Gobbot phase, step by step.

The pictures are not in the text; the position is the one the text
describes. After set-up the Soldiers stand on row 1 and Gobbots on rows 3
and 6 (the top). The Gobbot in front of the left Soldier has health 3 (1
damage from Thrust 1 and 2 from Slash 2 destroy it), the one in front of
the right Soldier health 1. In the Gobbot phase the middle row-3 Gobbot (1)
ends next to all three Soldiers, stopped by the middle one; the top-row
Gobbots 2, 3 and 4 move in lane order, 4 stopped by the right Soldier, 2
ending next to the left Soldier, 3 next to none.
"""
from helpers.gobbots import Gauntlet


def example_position() -> tuple[Gauntlet, dict]:
    p = Gauntlet()
    tokens = {
        "left": (p.gobbot(1, 1, 3), 1, 3), "g1": (p.gobbot(2, 1, 2), 2, 3), "right": (p.gobbot(3, 1, 1), 3, 3),
        "g2": (p.gobbot(3, 2, 1), 1, 6), "g3": (p.gobbot(2, 1, 2, copy=1), 2, 6), "g4": (p.gobbot(4, 1, 1), 3, 6),
    }
    for lane in (1, 2, 3):
        p.place(p.soldier(lane), lane, 1)
    for card, x, y in tokens.values():
        p.place(card, x, y)
    p.start("Player phase")
    return p, {name: card for name, (card, _, _) in tokens.items()}


def open_spaces(p: Gauntlet) -> list[str]:
    assert p.decision.label == "command"
    return [option.split(" at ")[0] for option in p.options()]


def test_example_player_phase():
    p, g = example_position()
    s1, s2, s3 = (p.soldier(lane) for lane in (1, 2, 3))
    # a Sergeant goes on the left-most space of any line
    assert open_spaces(p) == ["Thrust 1, Move 1", "Move 1, Slash 1", "Phalanx"]

    # 1. "Thrust 1, Move 1", left Soldier: 1 damage to the Gobbot in front, then one space forward
    p.choose("Thrust 1, Move 1 at 1,3")
    assert p.decision.label == "soldier"
    assert p.options() == ["soldier 1 at 1,1", "soldier 2 at 2,1", "soldier 3 at 3,1"]
    p.choose("soldier 1 at 1,1")
    assert p.state(g["left"], "damage") == 1
    assert p.at(s1) == (1, 2)

    # 2. "Slash 2" is open now, to the right of the first Sergeant; the same Soldier
    assert "Slash 2" in open_spaces(p)
    p.choose("Slash 2 at 2,3")
    p.choose("soldier 1 at 1,2")
    assert p.at(g["left"]) is None and "gobbot m1 a1 h3" in p.zone("gobbot_discard")  # 3 damage destroys it
    assert p.state(g["left"], "damage") == 0  # its damage tokens leave with it

    # 3. "Move 1, Slash 1", right Soldier: forward, then 1 damage destroys the Gobbot in front
    p.choose("Move 1, Slash 1 at 1,2")
    p.choose("soldier 3 at 3,1")
    assert p.at(s3) == (3, 2)
    assert p.at(g["right"]) is None and "gobbot m3 a1 h1" in p.zone("gobbot_discard")

    # all three Sergeants placed: the Gobbot phase begins
    assert p.game.step_name(p.st) == "Gobbot phase"
    assert p.at(s2) == (2, 1)


def test_example_gobbot_phase():
    p, g = example_position()
    s1, s2, s3 = (p.soldier(lane) for lane in (1, 2, 3))
    for space, soldier in (("Thrust 1, Move 1 at 1,3", "soldier 1 at 1,1"), ("Slash 2 at 2,3", "soldier 1 at 1,2"),
                           ("Move 1, Slash 1 at 1,2", "soldier 3 at 3,1")):
        p.choose(space).choose(soldier)

    # Gobbot 1 (bottom first): stopped by the middle Soldier, next to all three; Maisie chooses the middle one
    assert p.game.step_name(p.st) == "Gobbot phase"
    assert p.at(g["g1"]) == (2, 2)
    assert p.decision.label == "defender"
    assert p.options() == ["soldier 2 at 2,1", "soldier 1 at 1,2", "soldier 3 at 3,2"]  # bottom row first
    assert [p.at(g[n]) for n in ("g2", "g3", "g4")] == [(1, 6), (2, 6), (3, 6)]  # not moved yet
    p.choose("soldier 2 at 2,1")

    # the phase plays out with no further choice: Gobbot 2 moves its full 3 spaces and attacks the
    # left Soldier, Gobbot 3 its full 2 and attacks no one, Gobbot 4 is stopped by the right Soldier
    assert p.at(g["g2"]) == (1, 3)
    assert p.at(g["g3"]) == (2, 4)
    assert p.at(g["g4"]) == (3, 3)
    # damage tokens below each attacked Soldier's lane: Gobbot 1 (attack 1), 2 (attack 2), 4 (attack 1)
    assert [p.state(s, "damage") for s in (s1, s2, s3)] == [2, 1, 1]
    assert [p.at(s) for s in (s1, s2, s3)] == [(1, 2), (2, 1), (3, 2)]
    # every lane still has a Gobbot: the upkeep spawns none, and round 2 begins
    assert p.st.round == 2 and p.decision.label == "command"
    assert len(p.zone("gobbot_stack")) == 18 - 6
