"""16-7: The Gauntlet — every rule and ruling on a position built by hand,
with the dice the test names (two d6 a roll: `roll(4, 5)` is a 9)."""
import pytest
from helpers.gauntlet_16_7 import Gauntlet167, game_167

from interpreter.engine.view import Viewer


def trio(**params) -> tuple[Gauntlet167, str, str, str]:
    p = Gauntlet167(3, **params)
    return (p, *p.players)


def alone_in(room: int, **params) -> tuple[Gauntlet167, str]:
    """Player 1 alone in a room; the other two kept out of the round by a Wall each."""
    p, a, b, c = trio(**params)
    p.room(a, room).on(b, "Wall").on(c, "Wall")
    p.start("Reveal green cards")
    return p, a


# ---------------------------------------------------------------- set-up and cards

@pytest.mark.parametrize("players", [3, 4, 5])
def test_set_up_pawns_in_room_1_rooms_in_order_and_a_face_down_pile(players):
    game = game_167(players, explicit_chance=False)
    st = game.new_state(4)
    view = Viewer(game)
    assert game.decision(st).label == "approach"  # round 1: player 2 chooses to face room 1 with player 1 or not
    rooms = view.observe(st, None)["boards"]["rooms"]
    assert list(rooms) == [f"room_{n}" for n in range(1, 14)]  # a path, room 1 to room 13
    room_cards = {c: game.ruleset.cards[c].values["number"] for c in game.cards("room")}
    assert [room_cards[c["id"]] for n in range(1, 14) for c in rooms[f"room_{n}"] if c["id"] in room_cards] \
        == list(range(1, 14))
    assert sorted(c["card"] for c in rooms["room_1"] if c["id"] not in room_cards) == \
        ["pawn " + str(s) for s in range(1, players + 1)]
    assert [c["card"] for c in rooms["room_9"] if c["id"] not in room_cards] == ["Drawbridge"]
    board = game.ruleset.zones["rooms"]
    links = {(board.places[a], board.places[b]) for a, b in board.links}
    assert links == {(f"room_{n}", f"room_{n + 1}") for n in range(1, 13)} | {("room_6", "room_9")}
    assert [m.get("feature") for m in board.space_marks][5] == "forbidden_path"
    deck = st.zones[game.zone_index("deck")]
    assert len(deck) == 24 and not any(st.face_up[c] for c in deck)
    assert all(st.zones[game.zone_index("hand", r)] == [] for r in game.roles)


def test_green_cards_are_played_face_down_and_stay_secret_until_revealed():
    p, a, b, c = trio()
    p.give(a, "Wall", "Shield", "Wall")
    p.start("Play green cards")
    assert p.asks(a, "green_cards") and p.options() == ["play", "keep"]
    p.choose("play")
    assert p.asks(a, "green") and p.options() == ["Wall", "Shield"]  # one of each name
    p.choose("Shield").choose("play")  # two Walls left: one kind, played without asking which
    p.choose("keep")
    assert p.cards_in("played", a) == ["Shield", "Wall"] and p.cards_in("hand", a) == ["Wall"]
    view = Viewer(p.game)
    assert view.observe(p.st, b)["zones"]["played of player_1"] == [None, None]
    assert [x["card"] for x in view.observe(p.st, a)["zones"]["played of player_1"]] == ["Shield", "Wall"]
    # revealed: its player names the target of each, in play order
    assert p.asks(a, "target") and p.options() == ["player 1", "player 2", "player 3"]
    p.choose("player 1").choose("player 2")
    assert p.cards_in("effects", a) == ["Shield"] and p.cards_in("effects", b) == ["Wall"]
    assert [x["card"] for x in view.observe(p.st, c)["zones"]["effects of player_2"]] == ["Wall"]


def test_a_countered_green_card_is_removed_from_play():
    """"Play any countering blue cards on top of the face-down green cards and remove those
    green cards from play. All remaining green cards will activate": a countered Wall never acts."""
    p, a, b, c = trio()
    p.give(a, "Wall").give(b, "Counter").give(c, "Counter")
    p.start("Play green cards")
    p.choose("play")  # player 1's only green card: the Wall, face down
    assert p.asks(b, "counter_card")
    p.choose("counter")
    assert p.options() == ["player 1"]  # only another player's face-down card
    p.choose("player 1").pick(0)  # one of player 1's face-down cards, at random
    assert p.cards_in("taken", b) == ["Wall"] and p.cards_in("played", a) == []
    assert p.cards_in("discard") == ["Counter"] and p.get("counters_played") == 1
    # player 3's counter finds nothing left to counter: a taken card is not countered again;
    # revealing asks no one to aim the countered Wall
    assert not p.asks(b, "target") and p.cards_in("hand", c) == ["Counter"]
    assert all(p.cards_in("effects", x) == [] for x in (a, b, c))
    assert p.get("fights", a) is True and p.get("fights", b) is True and p.get("fights", c) is True
    assert p.cards_in("taken", b) == ["Wall"]  # "this card is now yours for this turn"...
    p.start("End of the round")
    assert p.cards_in("taken", b) == [] and "Wall" in p.cards_in("discard")  # ...and discarded when it ends


def test_a_wall_keeps_its_target_out_of_the_round():
    p, a, b, c = trio()
    p.on(b, "Wall").on(c, "Wall")
    p.room(b, 9).set("stage", b, "at_bridge")
    p.start("Reveal green cards")
    assert p.get("fights", b) is False and p.get("fights", c) is False
    p.roll(3, 3)  # player 1's encounter in room 1 (a 6: one normal enemy); nobody else faces a room
    assert p.cards_in("foes", a) == ["normal enemy"] and p.cards_in("foes", c) == []
    p.roll(6, 6)  # player 1 beats it; then rolls for a card
    p.roll(1, 1)
    # the walled player at the Drawbridge does not roll for it: the next round begins
    assert p.where(b) == 9 and p.get("stage", b) == "at_bridge" and p.st.round == 2


# ---------------------------------------------------------------- red cards

def test_red_cards_before_a_roll_add_health_and_roll_bonuses_for_the_round():
    p, a = alone_in(4)
    p.give(a, "Potion", "Fury", "Potion")
    p.roll(1, 1)  # room 4, a roll up to 4: one normal enemy
    assert p.asks(a, "before_roll") and p.options() == ["play", "pass"]  # the window before the fight's first roll
    p.choose("play")
    assert p.options() == ["Potion, play", "Fury, play"]  # one of each name
    p.choose("Potion, play")
    assert p.get("health", a) == 13
    p.choose("play").choose("Fury, play")
    p.choose("pass")  # the other Potion is kept
    assert p.cards_in("effects", a) == ["Potion", "Fury"] and p.cards_in("hand", a) == ["Potion"]
    p.roll(1, 1)  # 2, +2 from the Fury: 4 damage
    assert p.state(p.st.zones[p.game.zone_index("foes", a)][0], "damage") == 4
    p.roll(6, 6)  # the enemy's 12: 6 damage
    assert p.get("health", a) == 7
    p.choose("pass")  # the window again, before the next exchange
    p.roll(1, 4)  # 5 + 2 beats it
    p.choose("pass")  # the window before the card roll: 2 + 2 is not 7
    p.roll(1, 1)
    assert p.cards_in("hand", a) == ["Potion"] and p.where(a) == 5
    # the round ends: red card effects are removed, health is 10 again
    assert p.cards_in("effects", a) == [] and "Fury" in p.cards_in("discard") and p.get("health", a) == 10


def test_a_red_card_played_before_a_roll_changes_that_roll():
    for play, hand in ((True, ["Potion"]), (False, ["Charm"])):
        p, a = alone_in(4)
        p.give(a, "Charm")
        p.roll(1, 1)
        p.choose("pass")  # the fight's first roll: keep the Charm
        p.put("deck", p.spare("Potion"))  # the card the 7 draws
        p.roll(3, 3)  # 6 beats the normal enemy
        assert p.asks(a, "before_roll")  # the window before the card roll
        if play:
            p.choose("play").choose("Charm, play")
        else:
            p.choose("pass")
        p.roll(3, 3)  # 6, + 1 with the Charm: a 7, a card; without it, no card
        assert p.cards_in("hand", a) == hand


def test_a_window_is_offered_to_the_holder_of_a_red_card_only():
    p, a, b, c = trio()
    p.give(b, "Fury")
    for x in (a, b):
        p.room(x, 4)
    p.on(c, "Wall")
    p.start("Reveal green cards")
    p.choose("together").choose("accept")  # player 2 joins player 1
    p.roll(1, 1)  # one normal enemy for the team
    # before the team's rolls: player 1 holds no red card and is not asked; player 2 is, for its one card
    assert p.asks(b, "before_roll") and p.options() == ["play", "pass"]
    p.choose("play")
    assert p.options() == ["Fury, play"]
    p.choose("Fury, play")
    assert p.cards_in("effects", b) == ["Fury"] and p.cards_in("hand", b) == []
    p.roll(1, 1).roll(1, 2)  # the team's highest roll, 3, + 2 from player 2's Fury: the enemy is beaten
    assert p.cards_in("foes", a) == []
    # the card rolls: neither player holds a red card now, so neither is asked before rolling
    p.roll(1, 1).roll(1, 1)
    assert p.where(a) == p.where(b) == 5


def test_a_teammates_fury_adds_to_the_card_roll():
    """Fury: "add 2 to your rolls, and your team's" — the card roll of every player of the team too."""
    p, a, b, c = trio()
    p.give(b, "Fury")
    for x in (a, b):
        p.room(x, 4)
    p.on(c, "Wall")
    p.start("Reveal green cards")
    p.choose("together").choose("accept")
    p.roll(1, 1)  # one normal enemy for the team
    p.choose("play").choose("Fury, play")  # player 2's window before the team's first roll
    p.roll(3, 3).roll(1, 1)  # 6 + 2: the enemy is beaten
    p.roll(2, 3)  # player 1's card roll: 5, + 2 from player 2's Fury is 7
    assert len(p.cards_in("hand", a)) == 1 and p.cards_in("hand", b) == []


def test_a_teammate_may_play_a_red_card_before_anothers_card_roll():
    p, a, b, c = trio()
    p.give(b, "Charm")
    for x in (a, b):
        p.room(x, 4)
    p.on(c, "Wall")
    p.start("Reveal green cards")
    p.choose("together").choose("accept")
    p.roll(1, 1)
    p.choose("pass")  # player 2 keeps the Charm through the fight
    p.roll(6, 6).roll(1, 1)  # 12: the enemy is beaten
    assert p.asks(b, "before_roll")  # before player 1's card roll, player 2 may play for the team
    p.choose("play").choose("Charm, play")
    p.roll(3, 3)  # player 1's 6, + 1 from the Charm: a card
    assert len(p.cards_in("hand", a)) == 1


def test_the_teams_first_player_may_refuse_a_player_who_asks_to_join():
    """The rulebook: "Players in the same room decide if they want to approach the encounter together."""
    p, a, b, c = trio()
    for x in (a, b, c):
        p.room(x, 2)
    p.start("Reveal green cards")
    p.choose("together")  # player 2 asks to join player 1...
    assert p.asks(a, "team_up") and p.options() == ["accept", "refuse"]
    p.choose("refuse")  # ...who refuses: player 2 faces the room alone
    assert p.get("team", b) == b and p.get("teams_formed") == 0
    assert p.asks(c, "approach")
    p.choose("together")
    assert p.asks(c, "join") and p.options() == ["player 1", "player 2"]
    p.choose("player 2")
    assert p.asks(b, "team_up")
    p.choose("accept")
    assert p.get("team", c) == b and p.get("teams_formed") == 1 and p.get("joins", c) == 1


# ---------------------------------------------------------------- encounters

@pytest.mark.parametrize("faces, met", [
    ((1, 2), []),  # up to 4 in room 1: a card, no fight
    ((3, 3), ["normal enemy"]),
    ((4, 5), ["normal enemy"]),
    ((6, 6), []),  # 11-12: go through
])
def test_the_room_card_says_what_a_roll_meets(faces, met):
    p, a = alone_in(1)
    p.roll(*faces)
    assert p.cards_in("foes", a) == met


def test_ambush_adds_a_normal_enemy_and_room_13_holds_two_elites():
    p, a = alone_in(12)
    p.on(a, "Ambush")
    p.roll(3, 3)  # room 12, 5-7: an elite and a normal enemy; the Ambush adds one
    assert sorted(p.cards_in("foes", a)) == ["elite enemy", "normal enemy", "normal enemy"]
    p, a = alone_in(13)
    p.roll(6, 6)
    assert p.cards_in("foes", a) == ["elite enemy", "elite enemy"]


def test_a_card_result_is_rolled_off_by_everyone_in_the_room_and_nobody_moves():
    p, a, b, c = trio()
    p.on(c, "Wall")
    p.start("Reveal green cards")
    p.choose("separately")  # player 2, beside player 1 in room 1
    p.roll(1, 2)  # player 1, the oldest, rolls the encounter: 3, a card
    p.roll(2, 2).roll(1, 3)  # the roll-off: 4 and 4, tied
    p.roll(1, 1).roll(5, 6)  # again: player 2 wins the card
    assert len(p.cards_in("hand", b)) == 1 and p.cards_in("hand", a) == []
    assert p.where(a) == p.where(b) == 1 and p.st.round == 2


def test_a_pass_takes_the_roll_off_winners_whole_team_on_without_a_card_roll():
    p, a, b, c = trio()
    p.start("Reveal green cards")
    p.choose("together").choose("accept").choose("separately")  # player 2 joins player 1; player 3 alone
    p.roll(5, 6)  # 11: go through
    p.roll(1, 1).roll(6, 6).roll(2, 2)  # every player rolls: player 2 wins
    assert p.where(a) == p.where(b) == 2 and p.where(c) == 1
    assert p.st.round == 2 and p.cards_in("hand", a) == p.cards_in("hand", b) == []


# ---------------------------------------------------------------- combat

@pytest.mark.parametrize("room, faces, damage", [
    (12, (4, 5), 4),  # an elite's roll above 8 deals 4
    (12, (6, 6), 4),
    (12, (4, 4), 8),  # up to 8 it deals its roll
    (12, (1, 2), 3),
    (4, (4, 5), 4),  # a normal enemy deals half its roll, rounded down
    (4, (6, 6), 6),
    (4, (1, 1), 1),
])
def test_enemy_damage(room, faces, damage):
    p, a = alone_in(room)
    p.roll(1, 1)  # room 12: one elite; room 4: one normal enemy
    p.roll(1, 1)  # player 1's 2 does not beat it
    p.roll(*faces)
    assert p.get("health", a) == 10 - damage


@pytest.mark.parametrize("normal, elite, damage", [
    ((6, 6), (4, 4), 6),  # the highest roll (the normal enemy's 12) deals its damage, not the elite's 8
    ((4, 4), (4, 4), 8),  # tied at 8: the greater damage
    ((1, 1), (6, 6), 4),
])
def test_several_enemies_deal_the_damage_of_the_highest_roll(normal, elite, damage):
    p, a = alone_in(12)
    p.roll(3, 3)  # room 12, 5-7: an elite and a normal enemy
    p.roll(1, 1)
    assert p.asks(a, "target") and p.options() == ["normal enemy", "elite enemy"]  # picked after the roll
    p.choose("normal enemy")
    p.roll(*normal).roll(*elite)
    assert p.get("health", a) == 10 - damage


def test_a_team_has_ten_health_between_them_and_strikes_with_its_highest_roll():
    p, a, b, c = trio()
    p.on(b, "Shield")
    for x in (a, b, c):
        p.room(x, 2)
    p.start("Reveal green cards")
    assert p.asks(b, "approach")
    p.choose("together")  # player 1's is the only team to join: no choice of team
    assert p.asks(a, "team_up")
    p.choose("accept").choose("separately")
    assert p.get("team", b) == a and p.get("team", c) == c and p.get("teams_formed") == 1
    p.roll(3, 3)  # the oldest player rolls once for the room: 6, one normal enemy each
    assert p.cards_in("foes", a) == ["normal enemy"] and p.cards_in("foes", b) == []
    assert p.get("health", a) == p.get("health", b) == 13  # 10 between them, and the Shield on player 2
    p.roll(1, 1).roll(1, 2)  # players 1 and 2 roll 2 and 3: the team strikes 3
    foe = p.st.zones[p.game.zone_index("foes", a)][0]
    assert p.state(foe, "damage") == 3
    p.roll(6, 6)  # the enemy strikes back: 6
    assert p.get("health", a) == p.get("health", b) == 7
    p.roll(1, 1).roll(2, 2)  # player 3 alone: strikes 2, takes 2
    assert p.get("health", c) == 8
    p.roll(2, 2).roll(1, 1)  # the team strikes 4: its enemy is beaten
    p.roll(1, 1).roll(1, 1)  # player 3's enemy is not, in the same exchange
    p.roll(3, 3).roll(4, 3)  # card rolls: player 1's 6 gets none, player 2's 7 one
    assert p.where(a) == p.where(b) == 3 and p.where(c) == 2
    assert p.cards_in("hand", a) == [] and len(p.cards_in("hand", b)) == 1


def test_a_team_out_of_health_stays_and_health_is_ten_again_next_round():
    p, a = alone_in(12)
    p.roll(1, 1)  # one elite
    p.roll(1, 1).roll(4, 4)  # 8 damage
    p.roll(1, 1).roll(4, 4)  # 8 more: out of health
    assert p.where(a) == 12 and p.get("health", a) == 10 and p.st.round == 2
    assert p.cards_in("foes", a) == []  # the enemies never stay


def test_separate_players_in_one_room_race_and_a_tie_is_rolled_off():
    p, a, b, c = trio()
    p.on(c, "Wall")
    p.start("Reveal green cards")
    p.choose("separately")
    p.roll(3, 3)  # one normal enemy each
    p.roll(3, 3)  # player 1 beats it in the first exchange...
    p.roll(2, 4)  # ...and so does player 2: a tie
    p.roll(2, 2).roll(1, 3)  # the roll-off: 4 and 4
    p.roll(1, 1).roll(5, 6)  # again: player 2 goes on
    p.roll(1, 1)  # player 2's card roll
    assert p.where(b) == 2 and p.where(a) == 1


def test_the_first_to_beat_its_enemies_goes_on_and_the_others_stay():
    p, a, b, c = trio()
    p.on(c, "Wall")
    p.start("Reveal green cards")
    p.choose("separately")
    p.roll(3, 3)
    p.roll(1, 1).roll(1, 1)  # player 1 strikes 2, takes 1
    p.roll(6, 6)  # player 2 beats its enemy first
    p.roll(1, 1)  # its card roll: the fight in room 1 is over
    assert p.where(b) == 2 and p.where(a) == 1 and p.cards_in("foes", a) == []


# ---------------------------------------------------------------- the Forbidden Path

def beat_room_6(p: Gauntlet167, who: str) -> None:
    p.room(who, 6).set("cleared", who, "beaten")
    p.start("Roll for cards and move on")
    p.roll(1, 1)  # no card


@pytest.mark.parametrize("faces, room", [((1, 2), 9), ((2, 2), 6)])
def test_the_forbidden_path_takes_an_odd_roll_to_room_9(faces, room):
    p, a, b, c = trio()
    beat_room_6(p, a)
    p.roll(*faces)
    assert p.where(a) == room and p.get("stage", a) == ("in_room" if room == 9 else "at_path")
    if room == 6:  # room 6 is beaten once: next round player 1 does not face it
        assert p.get("fights", a) is False and p.get("fights", b) is True


def test_the_forbidden_path_must_be_tried_again_and_a_shortcut_needs_no_roll():
    """"They have to roll again ... they must remain in room 6 until their next turn, at which
    point they must try to roll an odd number again": no one is asked, no one walks on to room 7."""
    p, a, b, c = trio()
    beat_room_6(p, a)
    assert p.get("stage", a) == "at_path"
    p.roll(2, 2)  # even: stay
    assert p.where(a) == 6 and p.get("stage", a) == "at_path"
    p.start("The Forbidden Path and the Drawbridge").roll(3, 4)  # the next round's try: odd
    assert p.where(a) == 9 and p.get("path_taken") == 1
    p, a, b, c = trio()
    p.on(a, "Shortcut")
    beat_room_6(p, a)
    assert p.where(a) == 9 and p.get("path_taken") == 1


# ---------------------------------------------------------------- the Drawbridge

def test_the_drawbridge_threshold_falls_each_turn_and_is_shared():
    p, a, b, c = trio()
    p.room(a, 9).set("stage", a, "at_bridge")
    bridge = p.bridge()
    p.start("The Forbidden Path and the Drawbridge")
    p.roll(4, 5)  # turn 1: 9 is not 10
    assert p.state(bridge, "needed") == 9 and p.where(a) == 9
    p.start("The Forbidden Path and the Drawbridge")
    p.roll(4, 4)  # turn 2: 8 is not 9
    assert p.state(bridge, "needed") == 8
    p.room(b, 9).set("stage", b, "at_bridge")  # player 2 arrives: its first try needs 8 too
    p.start("The Forbidden Path and the Drawbridge")
    p.roll(3, 4)  # turn 3: player 1's 7 misses...
    p.roll(4, 4)  # ...player 2's 8 lowers it: everyone waiting crosses
    assert p.state(bridge, "lowered") is True and p.state(bridge, "needed") == 8
    assert p.where(a) == p.where(b) == 10 and p.get("crossed", a) == p.get("crossed", b) == p.st.round - 1
    assert p.get("bridge_turns") == 2


def test_a_lowered_drawbridge_is_crossed_as_soon_as_room_9_is_beaten():
    p, a, b, c = trio()
    p.game.set_state(p.st, p.bridge(), "lowered", True)
    p.room(a, 9).set("cleared", a, "beaten")
    p.start("Roll for cards and move on")
    p.roll(1, 1)  # the card roll; no roll for the bridge
    assert p.where(a) == 10


@pytest.mark.parametrize("faces, raised", [((4, 4), True), ((3, 4), False)])
def test_a_player_across_may_spend_the_next_round_raising_the_drawbridge(faces, raised):
    p, a, b, c = trio()
    p.st.round = 2
    p.room(a, 10).set("crossed", a, 1).room(b, 5).room(c, 5)
    p.game.set_state(p.st, p.bridge(), "lowered", True)
    p.game.set_state(p.st, p.bridge(), "needed", 7)
    p.start("Reveal green cards")
    assert p.asks(a, "drawbridge") and p.options() == ["raise", "go on"]
    p.choose("raise").roll(*faces)
    assert p.state(p.bridge(), "lowered") is not raised
    assert p.state(p.bridge(), "needed") == (10 if raised else 7)
    assert p.get("fights", a) is False  # the attempt is the whole of player 1's round
    assert not p.asks(b, "drawbridge")


def test_once_the_drawbridge_is_raised_no_one_else_is_offered_to_raise_it():
    """The loop over the players who crossed last round tests the bridge for each of them, not once."""
    p, a, b, c = trio()
    p.st.round = 2
    p.room(a, 10).set("crossed", a, 1).room(b, 10).set("crossed", b, 1).room(c, 5)
    p.game.set_state(p.st, p.bridge(), "lowered", True)
    p.start("Reveal green cards")
    assert p.asks(a, "drawbridge")
    p.choose("raise").roll(4, 4)  # 8: raised
    assert p.state(p.bridge(), "lowered") is False
    assert not p.asks(b, "drawbridge") and p.get("fights", b) is True


def test_the_drawbridge_is_raised_only_in_the_round_after_crossing():
    p, a, b, c = trio()
    p.st.round = 3
    p.room(a, 10).set("crossed", a, 1).room(b, 5)
    p.game.set_state(p.st, p.bridge(), "lowered", True)
    p.start("Reveal green cards")
    assert not p.asks(a, "drawbridge") and p.get("fights", a) is True


# ---------------------------------------------------------------- room 13 and the end

def test_room_13_is_faced_alone_and_the_first_through_wins():
    p, a, b, c = trio()
    p.on(c, "Wall")
    p.room(a, 13).room(b, 13)
    p.start("Reveal green cards")
    assert not p.asks(b, "approach")  # no teams in room 13
    p.roll(1, 1)  # two elites each
    p.roll(6, 6).roll(1, 1)  # player 1 beats one; the other strikes 2
    p.roll(1, 1).roll(1, 1).roll(1, 2)  # player 2 strikes 2; takes the higher roll's 3
    assert p.get("health", a) == 8 and p.get("health", b) == 7
    p.roll(5, 5)  # player 1 beats the second: through room 13...
    assert p.outcome() is None  # ...but player 2 still has its turn in this exchange
    p.roll(1, 1)
    # one of each kind and damage (with the roll each made last)
    assert p.asks(b, "target") and p.options() == ["elite enemy (damage 2, rolled 2)", "elite enemy (rolled 3)"]
    p.choose("elite enemy (damage 2, rolled 2)")
    p.roll(1, 1).roll(1, 1)  # both elites still stand and strike back
    out = p.outcome()
    assert out["results"] == {a: "win", b: "lose", c: "lose"} and out["reason"] == "through_room_13"
    assert out["measures"]["winner_joined"] is False


def test_players_through_room_13_in_the_same_exchange_roll_off_for_the_one_win():
    p, a, b, c = trio()
    p.on(c, "Wall")
    p.room(a, 13).room(b, 13)
    p.start("Reveal green cards")
    p.roll(1, 1)
    for who in (a, b):  # each beats one elite, then takes a 2
        p.roll(6, 6).roll(1, 1)
    for who in (a, b):
        p.roll(5, 5)  # each beats the second: both through in the same exchange
    p.roll(3, 3).roll(3, 3)  # the roll-off ties...
    p.roll(1, 2).roll(3, 4)  # ...and player 2 wins it
    assert p.outcome()["results"] == {a: "lose", b: "win", c: "lose"}


def test_the_spinner_stands_in_for_two_dice():
    p, a = alone_in(12, use_spinner=True)
    p.roll(1)  # a single spin of 1: up to 4, one elite
    assert p.cards_in("foes", a) == ["elite enemy"]
    p.roll(2).roll(9)  # player 1 spins 2; the elite 9: 4 damage
    assert p.get("health", a) == 6
