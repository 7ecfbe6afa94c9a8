"""Turns, brawls, the end of the game, notation and JSON round trips."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidInput
from companion.goblins.core import (
    CANNON,
    RAM,
    Adjust,
    Army,
    Brawl,
    EndTurn,
    Face,
    Game,
    Hero,
    Machine,
    NoCombat,
    PlayHero,
    PlayMachine,
    Recrew,
    Reinforce,
    Shout,
    Terrain,
    Toss,
    TossRequest,
    apply,
    event_to_json,
    parse_event,
    ranking,
)
from tests.goblins.conftest import with_army

T1, T2, T3 = Terrain("Bosco", 3, 1), Terrain("Fiume", 5, 2, "river"), Terrain("Mura", 7, 3, "walls")


def run(game, *events):
    for event in events:
        game = apply(game, event)
    return game


# ------------------------------------------------------------------------------------------------ phases


def test_phase_a_reinforcements_heroes_and_machines_spend_goblins():
    game = run(
        Game.new(["Ada", "Bea"]), Reinforce(2), PlayHero(Hero.parse("Cavalleria|4|2")), PlayMachine(RAM)
    )
    assert game.armies[0].troops == 5 + 2 - 2 - 1
    with pytest.raises(IllegalAction):
        apply(game, Reinforce(1))  # once per phase A
    with pytest.raises(IllegalAction):
        apply(game, PlayHero(Hero("Gigante", 9, 9)))


def test_uncrewed_machines_are_recrewed_or_discarded_at_the_end_of_the_turn():
    army = Army("Ada", 3, (), (replace(RAM, crew=0), replace(CANNON, crew=1)))
    game = run(with_army(army), NoCombat())
    assert Recrew(0) in game.legal and Recrew(1) in game.legal
    game = run(game, Recrew(1), EndTurn())
    assert game.armies[0].machines == (CANNON,) and game.armies[0].troops == 2
    assert game.current == 1 and game.phase == "A"


def test_legal_events_are_a_lazy_view():
    game = Game.new(["Ada", "Bea", "Cid"])
    legal = game.legal
    assert Reinforce(1) in legal and Reinforce(3) not in legal and Brawl(0) not in legal
    assert bool(legal) and legal.count() == 3 + 1 + 2
    game = run(game, Face(T2))
    assert list(game.legal) == [Toss(5, 0), Toss(4, 1), Toss(3, 2), Toss(2, 3), Toss(1, 4), Toss(0, 5)]


def test_a_toss_must_count_the_tossed_goblins():
    game = run(Game.new(["Ada", "Bea"]), Face(T2))
    with pytest.raises(IllegalAction, match="5 goblins were tossed"):
        apply(game, Toss(2, 2))


# --------------------------------------------------------------------------------------------------- brawl


def test_brawl_winner_takes_the_top_card_and_both_toss_the_weaker_attack():
    att = Army("Ada", 4, (Hero("Orco", 3, 0),), (RAM,), (T1, T2))  # 4 + 3 + 1 crew = 8
    dfn = Army("Bea", 2, (), (CANNON,), (T3,))  # 2 + 2 crew = 4
    game = apply(with_army(att, dfn), Brawl(1))
    assert game.armies[0].pile == (T1, T2, T3) and game.armies[1].pile == ()
    assert game.tosses == (
        TossRequest("troops", 0, 4),
        TossRequest("troops", 1, 2),
        TossRequest("crew", 1, 2, machine=0),
    )
    game = run(game, Toss(2, 2), Toss(1, 1), Toss(0, 2))
    assert game.armies[0].troops == 2 and game.armies[1].troops == 1
    assert game.armies[1].machines[0].crew == 0 and game.phase == "D"


def test_brawl_tie_swaps_the_top_cards_and_the_attacker_goes_back():
    game = apply(with_army(Army("Ada", 3, (), (), (T1, T2)), Army("Bea", 3, (), (), (T3,))), Brawl(1))
    assert game.armies[0].pile == (T1, T3) and game.armies[1].pile == (T2,)
    assert game.tosses == (TossRequest("troops", 0, 3), TossRequest("troops", 1, 3))
    assert any("goes back" in line for line in game.log)


def test_brawl_against_an_empty_pile_takes_nothing():
    game = apply(with_army(Army("Ada", 1), Army("Bea", 6, (), (), ())), Brawl(1))
    assert game.armies[1].pile == () and game.armies[0].pile == ()
    assert any("nothing to take" in line for line in game.log)
    game = apply(with_army(Army("Ada", 2, (), (), (T1,)), Army("Bea", 2)), Brawl(1))
    assert game.armies[0].pile == (T1,)  # a tie with one empty pile swaps nothing


# ----------------------------------------------------------------------------------------------- the end


def test_the_game_ends_when_every_city_centre_is_taken():
    centre = Terrain("Castello", 2, 5, "centre")
    game = apply(with_army(Army("Ada", 6, (), (), (T1,)), Army("Bea", 9, (), (), (T3, T2))), Face(centre))
    game = apply(game, Toss(2, 0))
    assert game.outcome is not None and game.outcome.winners == (0,)  # 6 VP against 5
    with pytest.raises(IllegalAction):
        apply(game, EndTurn())


@pytest.mark.parametrize(
    ("a", "b", "winners"),
    [
        (Army("Ada", 1, pile=(T3,)), Army("Bea", 1, pile=(T1, T1, T1)), (1,)),  # 3 VP each: more cards
        (Army("Ada", 4, pile=(T3,)), Army("Bea", 2, pile=(T1, T2)), (0,)),  # 3 VP, 2 cards: more troops
        (Army("Ada", 2, pile=(T3,)), Army("Bea", 2, pile=(T1, T2)), (0, 1)),  # all equal: shout "Goblin!"
    ],
)
def test_end_of_game_tie_breaks(a, b, winners):
    castle = Terrain("Castello", 0, 0, "centre")  # an automatic win: no losses, no VP, one more card
    game = run(with_army(a, b), Face(castle))
    assert game.armies[0].pile == (*a.pile, castle) and game.armies[0].troops == a.troops
    assert tuple(sorted(game.outcome.winners)) == winners
    assert tuple(sorted(ranking(game.armies)[: len(winners)])) == winners
    if len(winners) > 1:
        assert game.awaiting == "shout" and game.outcome.winner is None
        with pytest.raises(IllegalAction):
            apply(game, EndTurn())
        game = apply(game, Shout(1))
        assert game.outcome.winner == 1 and game.outcome.termination == "shout"
    else:
        assert game.awaiting is None and game.outcome.winner == winners[0]


# -------------------------------------------------------------------------------------- notation and JSON


def test_value_objects_print_evaluable_notation():
    for value in (Terrain.parse("Lego-Las|walls|10|3|hero"), Hero.parse("Cavalleria|4|2"), RAM, CANNON):
        assert eval(repr(value)) == value


@pytest.mark.parametrize("bad", ["Lego-Las|walls|10", "X|moon|1|1|-", "X|wood|a|1|-", "X|wood|1|1|king"])
def test_bad_terrain_notation_is_invalid_input_quoting_it(bad):
    with pytest.raises(InvalidInput, match=r"X|Lego"):
        Terrain.parse(bad)


def test_bad_events_are_invalid_input():
    for bad in (
        {"type": "fly"},
        {"type": "toss", "alive": -1, "dead": 0},
        {"type": "declare", "epic": 1},
        [],
    ):
        with pytest.raises(InvalidInput):
            parse_event(bad)


names = st.text(alphabet="abcdefgh ", min_size=1, max_size=6).map(str.strip).filter(bool)
terrains = st.builds(
    Terrain,
    names,
    st.integers(0, 15),
    st.integers(0, 6),
    st.sampled_from(["wood", "river", "walls", "centre"]),
    st.sampled_from([None, "hero", "machine"]),
)
heroes = st.builds(Hero, names, st.integers(0, 6), st.integers(0, 3))
machines = st.integers(1, 3).flatmap(
    lambda size: st.builds(
        Machine,
        names,
        st.sampled_from(["ram", "cannon", "plain"]),
        st.integers(0, 6),
        st.just(size),
        st.integers(0, size),
    )
)
armies = st.builds(
    Army,
    names,
    st.integers(0, 12),
    st.lists(heroes, max_size=3).map(tuple),
    st.lists(machines, max_size=2).map(tuple),
    st.lists(terrains, max_size=3).map(tuple),
)


@st.composite
def games(draw):
    """Reachable games: a few armies, then a handful of legal events."""
    n = draw(st.integers(2, 4))
    game = Game.new([f"P{i}" for i in range(n)], draw(st.integers(1, 2)))
    game = replace(game, armies=tuple(replace(draw(armies), name=f"P{i}") for i in range(n)))
    for _ in range(draw(st.integers(0, 8))):
        if game.outcome is not None and game.outcome.winner is not None:
            break
        legal = list(game.legal)
        if game.awaiting is None and game.phase in ("A", "B") and draw(st.booleans()):
            game = apply(game, Face(draw(terrains)))
            continue
        if not legal:
            break
        game = apply(game, draw(st.sampled_from(legal)))
    return game


@settings(max_examples=60, deadline=None)
@given(games())
def test_state_json_round_trips(game):
    assert Game.from_json(game.to_json()) == game


@settings(max_examples=60, deadline=None)
@given(games())
def test_reachable_games_keep_their_counts_sane(game):
    for army in game.armies:
        assert army.troops >= 0
        assert all(0 <= m.crew <= m.crew_size for m in army.machines)
    for toss in game.tosses:
        assert toss.count >= 1
    if game.awaiting == "toss":
        assert game.combat is not None or game.brawl is not None


@settings(max_examples=60, deadline=None)
@given(armies)
def test_notation_round_trips(army):
    for value in (*army.heroes, *army.machines, *army.pile):
        assert type(value).parse(value.notation()) == value
    assert Army.from_json(army.to_json()) == army


def test_event_json_round_trips():
    events = [
        Reinforce(1),
        PlayHero(Hero("A", 1, 1)),
        PlayMachine(RAM),
        Face(T1),
        Toss(1, 2),
        Brawl(1),
        Adjust(1, -2),
        Shout(0),
        Recrew(0),
        EndTurn(),
        NoCombat(),
    ]
    for event in events:
        assert parse_event(event_to_json(event)) == event
