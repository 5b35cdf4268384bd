"""The worked examples of docs/authoring.md (rulesets/examples/): Oh Hell for
3-5 players, Pig Race for 2-4, Blackjack against a dealer written in the
rules. Each is checked at every count of players it allows, simulated with
random and greedy players, replayed from a log, printed, and held to its
rules on positions arranged by hand."""
from __future__ import annotations

import json

import pytest
from helpers import Position

from helpers.commands import cli
from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.analysis.simulate import simulate
from interpreter.analysis.tally import outcome_label
from interpreter.engine.game import Game
from rulelang import load_ruleset

EXAMPLES = ["oh-hell", "pig-race", "blackjack"]


def game(name: str, explicit_chance: bool = False, **params) -> Game:
    return Game(load_ruleset(name, {k: str(v) for k, v in params.items()}), explicit_chance=explicit_chance)


# ------------------------------------------------------------------ all three


@pytest.mark.parametrize("name, counts", [("oh-hell", "3..5"), ("pig-race", "2..4"), ("blackjack", "1..4")])
def test_each_example_checks_at_every_count_of_players(capsys, name, counts):
    code, out, err = cli(capsys, "check", name)
    assert code == 0, err
    assert f"{name}: ok" in out and f"players: {counts}" in out


@pytest.mark.parametrize("name, players", [("oh-hell", 3), ("oh-hell", 5), ("pig-race", 4), ("blackjack", 1),
                                           ("blackjack", 4)])
def test_random_games_all_end_and_every_seat_can_win(name, players):
    tally = simulate(game(name, players=players), 200, jobs=1).to_json()
    assert tally["errors"]["games"] == 0 and tally["games"] == 200
    assert set(tally["win_rate"]) == set(game(name, players=players).roles)
    assert all(w["rate"] > 0 for w in tally["win_rate"].values())


@pytest.mark.parametrize("name, params, at_least", [
    ("oh-hell", {"players": 4, "hands": 3}, 0.45),  # a random player wins about a quarter of four-player games
    ("pig-race", {"players": 2}, 0.6),              # and about half of two
    ("blackjack", {"hands": 3}, 0.4),               # and comes out ahead of the dealer a quarter of the time
])
def test_the_greedy_player_does_better_than_random(name, params, at_least):
    g = game(name, **params)
    first = g.roles[0]
    rates = {r: w["rate"] for r, w in simulate(g, 40, agents={first: "greedy"}, jobs=1).to_json()["win_rate"].items()}
    assert rates[first] >= at_least and all(rates[first] > rate for r, rate in rates.items() if r != first), rates


@pytest.mark.parametrize("name, players", [("oh-hell", 5), ("pig-race", 3), ("blackjack", 2)])
def test_a_game_log_replays(tmp_path, capsys, name, players):
    log = tmp_path / "game.jsonl"
    code, _, err = cli(capsys, "run", name, "--set", f"players={players}", "--seed", 7, "--log", log)
    assert code == 0, err
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["params"]["players"] == players and records[-1]["type"] == "outcome"
    assert len(records[-1]["places"]) == players
    code, out, err = cli(capsys, "replay", log)
    assert code == 0, err


@pytest.mark.parametrize("name, sentences", [
    ("oh-hell", ["Pick the dealer at random.",
                 "that player chooses a playing card in their hand that they may play, then moves it to "
                 "the trick.",
                 "The player who played the winning card becomes the player who leads the trick.",
                 "The player to the left of the dealer becomes the dealer.",
                 "**the winning card**: the playing card in the trick whose strength is the highest",
                 "Each suit (♠ spades, ♥ hearts, ♦ diamonds, ♣ clubs) has one card of each of these:",
                 "the player with the highest *points* wins; a tie goes to the one with the highest *exact bids*"]),
    ("pig-race", ["2 to 4 players, in seats numbered from 1 in this order: Red, Blue, Green and Yellow.",
                  "Roll two dice (gust); call the result *gusts*.",
                  "If there is a player whose *position* is 40: the game ends.",
                  "Each player's *position* (spaces up the track): 0 at the start (never below 0 nor above 40)."]),
    ("blackjack", ["*double* (only if that player's hand holds exactly 2 cards and their *chips* are at least "
                   "2 × their *bet*)",
                   "the game ends in a draw.", "Turn face down the right-most card of the dealer's hand.",
                   "deal a card to the dealer's hand until the value of the dealer's hand is at least 17."]),
])
def test_the_printed_rules_say_it(capsys, name, sentences):
    code, out, err = cli(capsys, "summary", name)
    assert code == 0, err
    for sentence in sentences:
        assert sentence in out
    assert "None" not in out


def test_the_same_seed_and_decisions_play_the_same_game():
    for name in EXAMPLES:
        g = game(name)
        agents = {r: make_agent("random", 11, r) for r in g.roles}
        one = play(g, 11, agents).to_json()
        agents = {r: make_agent("random", 11, r) for r in g.roles}
        assert play(g, 11, agents).to_json() == one, name


# ------------------------------------------------------------------ Oh Hell


def card(p: Position, label: str) -> int:
    rank, _, suit = label.partition(" of ")
    return p.card("playing", rank=rank, suit=suit)


def hands(p: Position, **held: str) -> Position:
    """Deal by hand: `player_1="ace of hearts, two of clubs"`, each hand's cards in order."""
    for player, labels in held.items():
        p.put("hand", *(card(p, x) for x in labels.split(", ")), owner=player)
    return p


def oh_hell(**params) -> Position:
    p = Position(game("oh-hell", **params))  # at the first bid of a shuffled deal
    p.set("dealer", "player_4")
    p.put("trump_spot", card(p, "three of spades"))  # spades are trumps
    return hands(p, player_1="ace of hearts, king of clubs, two of diamonds, five of clubs, six of clubs",
                 player_2="two of hearts, king of spades, four of diamonds, five of diamonds, six of diamonds",
                 player_3="four of spades, queen of clubs, jack of diamonds, seven of clubs, eight of clubs",
                 player_4="king of hearts, ace of clubs, ten of diamonds, nine of clubs, ten of clubs")


def test_oh_hell_the_dealer_may_not_bid_so_that_the_bids_add_up():
    p = oh_hell().start("Bid")  # five cards each: the bids go round from the dealer's left
    assert p.decision.role == "player_1" and p.options() == ["0", "1", "2", "3", "4", "5"]
    p.choose("2").choose("1").choose("0")
    assert p.decision.role == "player_4" and p.options() == ["0", "1", "3", "4", "5"]  # not 2: 2 + 1 + 0 + 2 = 5
    p.choose("3")
    assert [p.var("bid", r) for r in p.game.roles] == [2, 1, 0, 3]


def test_oh_hell_follow_suit_if_you_can_and_the_trick_goes_to_the_highest_trump():
    p = oh_hell().start("Play the tricks")
    assert p.decision.role == "player_1"  # the dealer's left leads
    assert len(p.options()) == 5  # the leader plays anything
    p.choose("ace of hearts")
    assert p.options() == ["two of hearts"]  # player 2 has a heart: must follow
    p.choose("two of hearts")
    assert len(p.options()) == 5  # player 3 has none: any card, a trump too
    p.choose("four of spades")
    assert p.options() == ["king of hearts"]
    p.choose("king of hearts")
    # the four of spades trumps the ace of hearts; player 3 took the trick and leads the next
    assert p.var("tricks", "player_3") == 1 and p.var("leader") == "player_3"
    assert p.decision.role == "player_3" and len(p.options()) == 4
    assert p.zone("last_trick") == ["ace of hearts", "two of hearts", "four of spades", "king of hearts"]
    assert [p.game.state_of(p.st, card(p, x), "player") for x in ("ace of hearts", "four of spades")] == \
        ["player_1", "player_3"]  # each card remembers who played it (a role in a card's state)


def test_oh_hell_without_trumps_the_highest_card_of_the_suit_led_wins():
    p = oh_hell().start("Play the tricks")
    p.choose("king of clubs").choose("four of diamonds").choose("queen of clubs").choose("ace of clubs")
    assert p.var("leader") == "player_4" and p.decision.role == "player_4"  # the diamond was off-suit: no use


def test_oh_hell_scoring_and_the_deal_passing_left():
    p = oh_hell().start("Bid")
    for bid in ("2", "1", "0", "3"):
        p.choose(bid)
    for player, tricks in zip(p.game.roles, (2, 0, 0, 3)):
        p.set("tricks", tricks, owner=player)
        p.put("hand", owner=player)  # the tricks are played: the hands are empty, the cards in the deck
    p.put("deck", *[c for c in range(52) if c not in p.st.zones[p.game.zone_index("trump_spot")]])
    p.start("Score")
    # a point a trick, and ten more for a bid made exactly
    assert [p.var("points", r) for r in p.game.roles] == [12, 0, 10, 13]
    assert [p.var("exact_bids", r) for r in p.game.roles] == [1, 0, 1, 1]
    # the next hand: one card fewer, dealt by the player to the dealer's left, who bids last
    assert p.st.round == 2 and p.var("dealer") == "player_1" and p.decision.role == "player_2"
    assert [len(p.zone("hand", r)) for r in p.game.roles] == [4, 4, 4, 4]
    assert len(p.zone("trump_spot")) == 1 and len(p.zone("deck")) == 52 - 16 - 1


@pytest.mark.parametrize("points, exact, places, results, decided, label", [
    # tied on points and exact bids: a shared first
    ((20, 20, 20, 5), (2, 2, 1, 0), (1, 1, 3, 4), ("draw", "draw", "lose", "lose"), "points", "draw (last_hand)"),
    # the exact bids break the tie on points: they decided, and the label says so
    ((20, 20, 20, 5), (2, 3, 1, 0), (2, 1, 3, 4), ("lose", "win", "lose", "lose"), "exact_bids",
     "player_2 wins on exact bids (last_hand)"),
    ((20, 21, 20, 5), (2, 0, 1, 0), (2, 1, 3, 4), ("lose", "win", "lose", "lose"), "points",
     "player_2 wins on points (last_hand)"),
])
def test_oh_hell_the_last_hand_ends_the_game_ranked_by_points_then_exact_bids(points, exact, places, results,
                                                                               decided, label):
    p = oh_hell(hands=1)
    for player, n_points, n in zip(p.game.roles, points, exact):
        p.set("points", n_points, owner=player).set("exact_bids", n, owner=player)
    p.start("Score")  # no tricks and no bids: everyone made a bid of 0 this hand
    out = p.game.outcome(p.st)
    assert list(out["scores"].values()) == [x + 10 for x in points]
    assert tuple(out["places"].values()) == places and tuple(out["results"].values()) == results
    assert out["ranked_by"] == decided and out["reason"] == "last_hand"
    assert outcome_label(out) == label


def test_oh_hell_five_players_ten_cards_leaves_a_card_to_spare():
    p = Position(game("oh-hell", players=5, hands=10))
    assert [len(p.zone("hand", r)) for r in p.game.roles] == [10] * 5
    assert len(p.zone("trump_spot")) == 1 and len(p.zone("deck")) == 1
    assert p.decision.role == p.game.ruleset.roles[(p.game.roles.index(p.var("dealer")) + 1) % 5].name


# ------------------------------------------------------------------ Blackjack


def stack(p: Position, *shoe: str) -> Position:
    """The shoe stacked: `shoe` the cards in the order they are dealt (from the top: the zone's last), the rest
    of the deck under them."""
    top = [card(p, x) for x in reversed(shoe)]
    return p.put("shoe", *[c for c in range(52) if c not in top], *top).put("discard")


def blackjack(bet: str, *shoe: str, **params) -> Position:
    """At the first bet, the shoe stacked, then the bet made (one player: the deal goes player, dealer, player,
    dealer — the dealer's second card face down)."""
    return stack(Position(game("blackjack", **params)), *shoe).choose(bet)


def test_blackjack_a_push_alone_is_a_draw():
    p = blackjack("2", "ten of spades", "ten of hearts", "eight of spades", "eight of hearts", hands=1)
    assert p.options() == ["hit", "stand", "double"]
    p.choose("stand")
    out = p.game.outcome(p.st)
    assert out["ended_by"] == "draw" and out["results"] == {"player_1": "draw"} and out["reason"] == "push"
    assert out["scores"] == {"player_1": 10}


def test_blackjack_the_dealers_hole_card_is_hidden_until_the_dealers_turn():
    p = blackjack("1", "ten of spades", "nine of hearts", "eight of spades", "seven of clubs")
    seen = p.viewer.observe(p.st, "player_1")["zones"]["dealer_hand"]
    assert seen[0]["card"] == "nine of hearts" and seen[1] is None
    p.choose("stand")  # 18 against 16: the dealer turns the seven up and draws
    assert p.zone("dealer_hand")[:2] == ["nine of hearts", "seven of clubs"]
    assert all(c is not None for c in p.viewer.observe(p.st, "player_1")["zones"]["dealer_hand"])


def test_blackjack_the_dealer_draws_below_17():
    p = blackjack("1", "ten of spades", "six of hearts", "eight of spades", "ten of clubs", "ace of diamonds",
                  "two of clubs")
    p.choose("stand")
    assert p.zone("dealer_hand") == ["six of hearts", "ten of clubs", "ace of diamonds"]  # 16 draws; 17 stands
    assert p.var("chips", "player_1") == 11  # 18 beats 17


def test_blackjack_the_dealer_stands_on_a_soft_17_and_an_ace_counts_one_or_eleven():
    p = blackjack("1", "ten of spades", "ace of hearts", "seven of spades", "six of clubs", "two of clubs")
    p.choose("stand")
    assert p.zone("dealer_hand") == ["ace of hearts", "six of clubs"]  # ace and six: 17, and it stands
    assert p.var("chips", "player_1") == 10  # 17 against 17: a push
    p = blackjack("1", "ace of spades", "ten of hearts", "ace of clubs", "seven of clubs", "nine of clubs")
    p.choose("hit")  # ace, ace: 12; the nine makes 21 (an ace counts one, the other eleven), and the hand stands
    assert p.zone("hand", "player_1") == ["ace of spades", "ace of clubs", "nine of clubs"]
    assert p.var("chips", "player_1") == 11


def test_blackjack_a_blackjack_pays_three_to_two_at_once():
    p = blackjack("3", "ace of spades", "nine of hearts", "king of spades", "seven of clubs", "ten of clubs")
    assert p.decision.label == "bet" and p.st.round == 2  # no choice to make: the hand is paid
    assert p.var("chips", "player_1") == 14 and p.zone("dealer_hand") == ["nine of hearts", "seven of clubs"]


def test_blackjack_a_dealers_blackjack_takes_every_bet_but_a_blackjacks():
    p = stack(Position(game("blackjack", players=2)), "ten of spades", "ace of clubs", "ace of hearts",
              "nine of spades", "jack of clubs", "king of clubs")  # player 1, player 2, the dealer, again
    p.choose("2").choose("3")
    assert p.decision.label == "bet" and p.st.round == 2  # the hand is over before anyone plays
    assert [p.var("chips", r) for r in p.game.roles] == [8, 10]  # the blackjack pushes
    assert all(c is not None for c in p.viewer.observe(p.st, "player_1")["zones"]["dealer_hand"])


def test_blackjack_double_doubles_the_bet_for_exactly_one_card():
    p = blackjack("2", "five of spades", "ten of hearts", "six of spades", "six of clubs", "two of clubs",
                  "king of diamonds")
    p.choose("double")
    assert p.zone("hand", "player_1") == ["five of spades", "six of spades", "two of clubs"]  # 13, and it stands
    assert p.var("chips", "player_1") == 14  # the dealer's 16 draws the king: bust, and the doubled bet is won


def test_blackjack_a_bust_hand_loses_at_once_and_the_dealer_then_draws_for_no_one():
    p = blackjack("2", "ten of spades", "six of hearts", "six of spades", "king of clubs", "queen of diamonds")
    p.choose("hit")
    assert p.var("chips", "player_1") == 8 and p.zone("dealer_hand") == ["six of hearts", "king of clubs"]
    assert p.decision.label == "bet"


def test_blackjack_an_empty_shoe_is_made_again_from_the_discards():
    p = Position(game("blackjack"))
    p.put("shoe", card(p, "ten of spades"), card(p, "nine of spades"))  # two cards: not enough for a deal
    rest = [c for c in range(52) if p.st.where[c] != p.game.zone_index("shoe")]
    p.put("discard", *rest).choose("1")
    held = len(p.zone("hand", "player_1")) + len(p.zone("dealer_hand"))
    assert held == 4 and len(p.zone("shoe")) + len(p.zone("discard")) == 52 - held
    assert p.zone("discard") == [] and p.zone("hand", "player_1")[0] == "nine of spades"


def test_blackjack_at_a_table_the_most_chips_win_and_a_player_without_chips_sits_out():
    p = Position(game("blackjack", players=3, hands=1))
    p.set("chips", 0, owner="player_2").set("chips", 1, owner="player_3").start("Bet")
    p.choose("1")
    assert p.decision.role == "player_3" and p.options() == ["1"]  # player 2 has no chips: no bet, no cards
    p.choose("1")
    assert p.zone("hand", "player_2") == []
    while not p.game.is_terminal(p.st):
        p.choose("stand")
    out = p.game.outcome(p.st)
    assert out["ended_by"] == "end" and out["reason"] == "last_hand" and out["places"]["player_2"] == 3
    chips = out["scores"]
    assert chips["player_2"] == 0 and out["places"]["player_1"] == (1 if chips["player_1"] >= chips["player_3"] else 2)


# ------------------------------------------------------------------ Pig Race


GUST = {-1: 0, 0: 1, 1: 3, 2: 5}  # a gust die's face -> its outcome (the index of a face showing it)


def pig(**params) -> Position:
    """A race whose dice we throw: every roll waits for its outcome (explicit chance)."""
    p = Position(game("pig-race", explicit_chance=True, **params))
    assert p.game.chance(p.st).kind == "pick"
    p.game.apply_chance(p.st, 0)  # the start player: red; the first roll of red's turn is waiting
    assert p.var("start") == "red" and p.game.chance(p.st).site.die == "d6"
    return p


def roll(p: Position, *faces: int) -> Position:
    for face in faces:
        chance = p.game.chance(p.st)
        assert chance is not None, f"no roll is waiting for {face}"
        p.game.apply_chance(p.st, GUST[face] if chance.site.die == "gust" else face - 1)
    return p


def turn_of(p: Position, player: str) -> Position:
    return p.set("start", player).start("Turns")


def test_pig_race_a_one_on_the_first_roll_is_rolled_again_once():
    p = turn_of(pig(), "blue")
    roll(p, 1, 4)  # the first 1 is rolled again
    assert p.decision.role == "blue" and p.var("run", "blue") == 4
    p = turn_of(pig(), "blue")
    roll(p, 1, 1)  # a second 1 ends the turn
    assert p.var("busts", "blue") == 1 and p.var("run", "blue") == 0
    assert p.game.chance(p.st) is not None  # red's turn begins with a roll


def test_pig_race_a_one_loses_the_run_and_stopping_moves_the_pawn_with_the_gusts():
    p = turn_of(pig(), "red")
    roll(p, 5).choose("again")
    roll(p, 6).choose("again")
    roll(p, 1)
    assert p.var("run", "red") == 0 and p.var("position", "red") == 0 and p.var("busts", "red") == 1
    roll(p, 3).choose("again")  # blue's turn
    roll(p, 4).choose("stop")
    roll(p, 2, -1)  # the gusts: 7 + 2 - 1
    assert p.var("position", "blue") == 8 and p.var("run", "blue") == 0


def test_pig_race_a_pawn_stops_at_the_top_and_the_round_ends_the_race():
    p = pig(players=3)
    p.set("position", 37, owner="green").set("position", 39, owner="blue")
    turn_of(p, "green")  # green, red, blue: clockwise from the start player
    assert p.decision is None
    roll(p, 6)
    assert p.decision.role == "green"
    p.choose("stop")
    roll(p, 2, 2)  # 37 + 6 + 4: the pawn stops at the top
    assert p.var("position", "green") == 40 and not p.game.is_terminal(p.st)  # the round goes on
    roll(p, 6).choose("stop")
    roll(p, 0, 0)  # red: 6
    roll(p, 2)
    assert p.decision.role == "blue"
    p.choose("stop")
    roll(p, 0, -1)  # blue: 39 + 2 - 1 = 40, beside green
    out = p.game.outcome(p.st)
    assert out["reason"] == "home" and out["places"] == {"red": 3, "blue": 1, "green": 1}
    assert out["results"] == {"red": "lose", "blue": "draw", "green": "draw"}


def test_pig_race_fewer_busts_break_a_tie_and_the_start_passes_left():
    p = pig()
    p.set("position", 40, owner="red").set("position", 40, owner="blue").set("busts", 2, owner="red")
    p.start("Pass the start")
    out = p.game.outcome(p.st)
    assert out["results"] == {"red": "lose", "blue": "win"} and out["places"] == {"red": 2, "blue": 1}
    p = pig().set("start", "blue").start("Pass the start")
    assert p.var("start") == "red" and p.st.round == 2  # blue passed the start to red, the next round began


def test_pig_race_a_race_ends_after_its_last_round():
    p = pig(rounds=1).set("position", 12, owner="blue").start("Pass the start")
    out = p.game.outcome(p.st)
    assert out["reason"] == "out_of_time" and out["results"] == {"red": "lose", "blue": "win"}
