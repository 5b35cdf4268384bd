"""The Gauntlet's rules and rulings, each on a position built by hand."""
import pytest
from helpers import Position, game_for
from helpers.gobbots import Gauntlet


def soldiers_at(p: Gauntlet, *spaces) -> None:
    for lane, (x, y) in enumerate(spaces, 1):
        if (x, y) != (0, 0):
            p.place(p.soldier(lane), x, y)


def test_set_up():
    p = Position(game_for("gauntlet-gobbots"), 7)
    space = p.game.layout.space
    # Soldiers on the bottom row, Gobbots on the top row and the third row up, face up
    assert [space[p.st.where[c]] for c in p.game.cards("soldier")] == [(1, 1), (2, 1), (3, 1)]
    gobbots = sorted(space[p.st.where[g]] for g in p.game.cards("gobbot") if space[p.st.where[g]] is not None)
    assert gobbots == [(1, 3), (1, 6), (2, 3), (2, 6), (3, 3), (3, 6)]
    assert len(p.zone("gobbot_stack")) == 12 and len(p.zone("sergeants")) == 3
    assert p.decision.label == "command"


def test_command_board_side_b():
    p = Gauntlet(command_board_b=True)
    p.start("Player phase")
    assert [o.split(" at ")[0] for o in p.options()] == ["Slash 1, Move 1", "Move 1", "Phalanx, Thrust 1"]


def test_soldiers_never_move_onto_a_gobbot_and_stop_at_the_top():
    p = Gauntlet()
    soldiers_at(p, (1, 2), (2, 5), (3, 1))
    p.place(p.gobbot(1, 1, 4), 1, 3)
    p.place(p.gobbot(1, 1, 3), 3, 6)
    p.start("Player phase")
    p.choose("Thrust 1, Move 1 at 1,3").choose("soldier 2 at 2,5")
    assert p.at(p.soldier(2)) == (2, 6)  # at the end: it stays in play but moves no more
    p.choose("Slash 2 at 2,3").choose("soldier 2 at 2,6")  # and can still be used as normal
    assert p.state(p.gobbot(1, 1, 3), "damage") == 2
    p.choose("Move 1, Slash 1 at 1,2").choose("soldier 1 at 1,2")
    assert p.at(p.soldier(1)) == (1, 2)  # a Gobbot is in the way: no move, but the Slash lands
    assert p.state(p.gobbot(1, 1, 4), "damage") == 1


def test_march_moves_two_soldiers_of_the_players_choice():
    p = Gauntlet()
    soldiers_at(p, (1, 1), (2, 1), (3, 1))
    p.place(p.gobbot(1, 1, 4), 2, 5)
    p.start("Player phase")
    p.choose("Move 1, Slash 1 at 1,2").choose("soldier 1 at 1,1")
    p.choose("Block 2 at 2,2").choose("soldier 1 at 1,2")
    p.choose("March at 3,2")  # no Soldier is asked for: March names its own two
    assert p.decision.label == "march"
    # pairs in board order, bottom row first; a Soldier's tokens show with it
    assert p.options() == ["soldier 2 at 2,1, soldier 3 at 3,1", "soldier 2 at 2,1, soldier 1 (block 2) at 1,2",
                           "soldier 3 at 3,1, soldier 1 (block 2) at 1,2"]
    p.choose("soldier 2 at 2,1, soldier 3 at 3,1")
    assert [p.at(p.soldier(lane)) for lane in (1, 2, 3)] == [(1, 2), (2, 2), (3, 2)]


def test_the_game_ends_when_a_gobbot_reaches_the_bottom_row():
    p = Gauntlet()
    soldiers_at(p, (1, 6), (2, 1), (3, 3))  # one Soldier already through
    p.place(p.gobbot(4, 1, 1), 1, 4)
    p.start("Gobbot phase")
    outcome = p.outcome()
    assert outcome["reason"] == "overrun" and p.at(p.gobbot(4, 1, 1)) == (1, 1)
    assert outcome["results"] == {"commander": "win"} and outcome["scores"] == {"commander": 1}
    assert outcome["ratings"] == {"commander": "minor_victory"}


def test_a_gobbot_blocked_by_a_gobbot_steps_sideways_where_the_player_chooses():
    p = Gauntlet()
    soldiers_at(p, (1, 1), (2, 1), (3, 1))
    below, mover = p.gobbot(1, 1, 4), p.gobbot(3, 1, 1)
    p.place(below, 2, 4).place(mover, 2, 5)
    p.start("Gobbot phase")
    # the lower Gobbot moves first (to 2,3); the upper one follows to 2,4, then is blocked
    assert p.at(below) == (2, 3) and p.at(mover) == (2, 4)
    assert p.decision.label == "sidestep" and p.options() == ["1", "3"]
    p.choose("3")
    assert p.at(mover) == (3, 3)  # one point sideways, the last one down


def test_a_gobbot_steps_sideways_only_once_a_turn():
    p = Gauntlet()
    soldiers_at(p, (1, 1), (2, 1), (3, 1))
    blockers = [p.gobbot(1, 1, 4), p.gobbot(1, 3, 2)]
    p.place(blockers[0], 1, 3).place(blockers[1], 2, 3)
    mover = p.gobbot(4, 1, 1)
    p.place(mover, 1, 4)
    p.start("Gobbot phase")
    # blockers move first (to 1,2 and 2,2); the mover is blocked by the first, its only free side is 2,4...
    # then blocked again by the second and may not step sideways twice
    assert p.at(mover) == (2, 3)


def test_attack_block_and_phalanx_tokens():
    p = Gauntlet()
    soldiers_at(p, (1, 2), (2, 2), (3, 1))
    attacker = p.gobbot(1, 3, 2)
    p.place(attacker, 1, 4)
    s1 = p.soldier(1)
    p.game.set_state(p.st, s1, "block", 2)
    p.game.set_state(p.st, s1, "phalanx", True)
    p.start("Gobbot phase")
    assert p.decision.label == "block_token" and p.options() == ["spend", "keep"]
    p.choose("spend")
    assert p.decision.label == "phalanx_token"
    p.choose("spend")
    # attack 3 - block 2 - phalanx 1 (one other Soldier in the row) = 0; the Phalanx deals 1 back
    assert p.state(s1, "damage") == 0 and p.state(attacker, "damage") == 1
    assert p.state(s1, "block") == 0 and p.state(s1, "phalanx") is False


def test_a_soldier_is_removed_at_its_health():
    p = Gauntlet(lower_board_b=True)
    soldiers_at(p, (1, 2), (2, 1), (3, 1))
    p.game.set_state(p.st, p.soldier(1), "damage", 2)
    p.place(p.gobbot(1, 2, 3), 1, 4)
    p.start("Gobbot phase")
    assert p.at(p.soldier(1)) is None and "soldier 1" in p.zone("fallen")  # 2 + 2 >= 4


def test_upkeep_spawns_in_empty_lanes_below_a_soldier_at_the_top():
    p = Gauntlet()
    soldiers_at(p, (1, 1), (2, 6), (3, 1))
    p.place(p.gobbot(1, 1, 4), 3, 5)
    p.game.set_state(p.st, p.soldier(1), "block", 2)
    p.start("Upkeep phase")
    assert p.state(p.soldier(1), "block") == 0  # tokens are removed
    on_board = {p.at(g) for g in p.game.cards("gobbot")} - {None}
    assert on_board == {(1, 6), (2, 5), (3, 5)}  # lane 3 had a Gobbot


@pytest.mark.parametrize("easy, damage", [(False, 1), (True, 0)])
def test_reshuffling_the_stack_costs_a_soldier_one_damage_unless_easy(easy, damage):
    p = Gauntlet(easy=easy)
    soldiers_at(p, (1, 1), (0, 0), (0, 0))
    p.put("fallen", p.soldier(2), p.soldier(3))
    p.put("gobbot_discard", *p.game.cards("gobbot"))
    p.put("gobbot_stack")
    p.start("Upkeep phase")
    assert p.state(p.soldier(1), "damage") == damage  # the only Soldier left takes it, no choice to make
    assert len(p.zone("gobbot_stack")) == 18 - 3 and p.zone("gobbot_discard") == []


def test_spawn_space_on_the_upper_board_side_b():
    p = Gauntlet(upper_board_b=True)
    soldiers_at(p, (1, 1), (2, 1), (3, 1))
    g = p.gobbot(1, 1, 4)
    p.place(g, 2, 6)
    for lane in (1, 3):
        p.place(p.gobbot(1, 1, 3, copy=lane // 3), lane, 3)
    p.start("Gobbot phase")
    assert p.at(g) == (2, 5)
    assert sum(1 for c in p.game.cards("gobbot") if p.at(c) == (2, 6)) == 1  # spawned in the top row


def test_hard_mode_soldier_at_the_end():
    p = Gauntlet(hard=True)
    soldiers_at(p, (1, 5), (2, 1), (3, 1))
    for lane in (1, 2, 3):
        p.place(p.gobbot(1, 1, 4) if lane == 2 else p.gobbot(1, 1, 3, copy=lane // 3), lane, 4 if lane != 1 else 3)
    p.start("Player phase")
    p.choose("Move 1, Slash 1 at 1,2").choose("soldier 1 at 1,5")
    assert p.at(p.soldier(1)) == (1, 6)
    p.choose("Thrust 1, Move 1 at 1,3")
    assert p.options() == ["soldier 2 at 2,1", "soldier 3 at 3,1"]  # the Soldier at the end takes no commands
    p.choose("soldier 2 at 2,1")
    p.choose("Slash 2 at 2,3").choose("soldier 2 at 2,2")
    # the upkeep: one Sergeant stays above the Soldier at the end
    assert p.decision.label == "command" and p.st.round == 2
    assert len(p.zone("above_the_gauntlet")) == 1 and len(p.zone("sergeants")) == 2
