"""GobCon rules core: goblin dice, modifiers, Partite, the GP ledger, cards and the end of the game."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.gobcon import (
    AexEquo,
    DeckEmpty,
    Declare,
    Discard,
    EndTurn,
    Face,
    Give,
    GoblinRoll,
    Outcome,
    Payoff,
    PlayPartita,
    TimeUp,
    apply,
    face_of_pips,
    new_game,
    shift,
    views,
)
from companion.rules import find_rules

from .conftest import TABLE, card, join, partita, play, roll

# -------------------------------------------------------------------------------------- goblin dice


def test_plain_d6_maps_to_goblin_faces():
    assert [face_of_pips(p) for p in range(1, 7)] == [
        Face.DARTH, Face.BLACK, Face.BLACK, Face.GREEN, Face.GREEN, Face.KING,
    ]  # fmt: skip
    with pytest.raises(InvalidInput, match="7"):
        face_of_pips(7)
    assert Face.parse("King") is Face.KING


def test_bonus_and_malus_are_steps_along_the_scale_clamped():
    assert shift(Face.GREEN, 1) is Face.KING  # the rulebook's example
    assert shift(Face.GREEN, -1) is Face.BLACK
    assert shift(Face.KING, 2) is Face.KING
    assert shift(Face.BLACK, -3) is Face.DARTH


def test_modifiers_are_netted_before_clamping(three):
    # Amici bonus +1 and Speciale malus -1 on board: a King stays a King (clamping step by step would
    # have made it King, then Green)
    g = play(three, card(0, "amici", "Zio Goblin", 1, "board", "bonus"))
    g = play(g, card(0, "speciale", "Mal di testa", 0, "board", "malus"))
    assert g.steps(0, "board") == 0
    g = partita(g)
    g = play(g, join(1, False), join(2, False), roll(0, "king"))
    assert g.last is not None and g.last.rolls[0].face is Face.KING and g.piles[0] == 3


def test_one_shot_modifiers_add_to_the_cards_in_play(three):
    g = play(three, card(1, "speciale", "Sfiga", 0, "card", "malus"))
    g = partita(g, "card")
    g = play(g, join(1), join(2, False), {"type": "modifier", "player": 1, "steps": -1})
    assert g.roll_steps(1) == -2
    g = play(g, roll(0, "black"), roll(1, "king"))
    assert g.last.rolls[1].face is Face.BLACK


# ------------------------------------------------------------------------------------------ a Partita


def test_declarations_in_turn_order_after_the_proposer():
    g = new_game(["Anna", "Bruno", "Carla", "Dario"], first=2)
    g = partita(g)
    assert g.next_declarer() == 3
    with pytest.raises(IllegalAction, match="proposer takes part"):
        apply(g, Declare(2, True))
    with pytest.raises(IllegalAction, match="Dario declares first"):
        apply(g, Declare(0, True))
    g = play(g, join(3), join(0, False), join(1))
    assert g.participants() == (2, 3, 1)
    assert g.phase == "roll" and g.next_roller() == 2


def test_awaiting_names_everyone_who_still_must_declare():
    """«i giocatori devono dichiarare, in ordine di turno, se vi prenderanno parte o meno [...] Dopo che
    ciascuno ha dichiarato se prenderà parte o meno alla Partita, si passa alla risoluzione»: everyone
    still to declare is named, in turn order, not only the next; a Divieto's exclusion is not."""
    g = new_game(["Anna", "Bruno", "Carla", "Dario"], first=2)
    g = play(g, card(0, "speciale", "Divieto Board", 0, "board", "divieto"))
    g = partita(g)
    assert g.declarers() == (3, 1)
    awaiting = views.awaiting(g)
    assert (awaiting["kind"], awaiting["player"], awaiting["name"]) == ("declare", 3, "Dario")
    assert awaiting["players"] == [3, 1] and awaiting["names"] == ["Dario", "Bruno"]
    assert find_rules("gobcon").awaiting(g) == (3, 1)  # the protocol names them too
    awaiting = views.awaiting(play(g, join(3, False)))
    assert awaiting["players"] == [1] and awaiting["names"] == ["Bruno"]
    assert views.awaiting(play(g, join(3, False), join(1)))["kind"] == "roll"


def test_rolls_in_turn_order_starting_with_the_proposer_out_of_order_refused(three):
    g = play(partita(three), join(1), join(2))
    with pytest.raises(IllegalAction, match="out of turn order: Anna rolls next"):
        apply(g, GoblinRoll(1, Face.GREEN))
    g = play(g, roll(0, "green"))
    with pytest.raises(IllegalAction, match="already rolled"):
        apply(g, GoblinRoll(0, Face.GREEN))
    with pytest.raises(IllegalAction, match="Bruno rolls next"):
        apply(g, GoblinRoll(2, Face.GREEN))


def test_a_player_who_stays_out_cannot_roll(three):
    g = play(partita(three), join(1, False), join(2))
    with pytest.raises(IllegalAction, match="does not take part"):
        apply(g, GoblinRoll(1, Face.KING))


def test_only_one_king_later_kings_count_as_green(three):
    g = play(partita(three), join(1), join(2), roll(0, "king"), roll(1, "king"), roll(2, "king"))
    assert [r.face for r in g.last.rolls] == [Face.KING, Face.GREEN, Face.GREEN]
    assert [r.rule for r in g.last.rolls] == ["", "one-king", "one-king"]
    assert g.piles == (3, 1, 1)


def test_king_uniqueness_applies_after_the_modifiers(three):
    # Anna's Green with a bonus becomes the King; Bruno's King with a malus is Green and takes no crown;
    # Carla's natural King is then demoted because Anna holds it
    g = play(three, card(0, "amici", "Mentore", 1, "board", "bonus"))
    g = play(g, card(1, "speciale", "Distrazione", 0, "board", "malus"))
    g = play(partita(g), join(1), join(2), roll(0, "green"), roll(1, "king"), roll(2, "king"))
    assert [(r.rolled, r.face, r.rule) for r in g.last.rolls] == [
        (Face.GREEN, Face.KING, ""), (Face.KING, Face.GREEN, ""), (Face.KING, Face.GREEN, "one-king"),
    ]  # fmt: skip


def test_a_king_demoted_by_a_malus_leaves_the_crown_free(three):
    g = play(three, card(0, "speciale", "Distrazione", 0, "board", "malus"))
    g = play(partita(g), join(1), join(2, False), roll(0, "king"), roll(1, "king"))
    assert [r.face for r in g.last.rolls] == [Face.GREEN, Face.KING]


def test_aex_equo_lets_more_kings_count(three):
    g = play(partita(three), join(1), join(2))
    g = apply(g, AexEquo())
    g = play(g, roll(0, "king"), roll(1, "king"))
    assert [r.face for r in g.partita.rolls] == [Face.KING, Face.KING]


def test_the_proposers_darth_counts_as_black(three):
    g = play(partita(three), join(1), join(2, False), roll(0, "darth"), roll(1, "darth"))
    assert [(r.face, r.rule, r.gp) for r in g.last.rolls] == [
        (Face.BLACK, "proposer-darth", 0), (Face.DARTH, "", -1),
    ]  # fmt: skip


def test_the_proposers_darth_rule_applies_after_a_malus(three):
    g = play(three, card(0, "speciale", "Distrazione", 0, "gdr", "malus"))
    g = play(partita(g, "gdr"), join(1, False), join(2, False), roll(0, "black"))
    assert (g.last.rolls[0].face, g.last.rolls[0].rule) == (Face.BLACK, "proposer-darth")


def test_a_divieto_keeps_a_player_out_of_the_category(three):
    g = play(three, card(2, "speciale", "Divieto GdR", 0, "gdr", "divieto"))
    g = partita(g, "gdr")
    assert g.partita.excluded == (2,)
    g = play(g, join(1))
    assert g.phase == "roll"
    with pytest.raises(IllegalAction, match="Divieto"):
        apply(g, Declare(2, True))
    g = play(g, roll(0, "green"), roll(1, "black"))
    assert g.partita is None and [r.player for r in g.last.rolls] == [0, 1]


def test_a_divieto_stops_the_proposer_and_its_acquisti_but_keeps_those_in_play(three):
    g = play(three, card(0, "acquisti", "Warhammer", 2, "3d"))
    g = play(g, card(0, "speciale", "Divieto 3D", 0, "3d", "divieto"))
    assert g.total(0) == 2
    with pytest.raises(IllegalAction, match="proposing a 3d Partita"):
        partita(g, "3d")
    g = play(g, {"type": "end-turn"}, {"type": "end-turn"}, {"type": "end-turn"})
    with pytest.raises(IllegalAction, match="playing 3d Acquisti"):
        play(g, card(0, "acquisti", "Space Hulk", 2, "3d"))
    g = play(g, card(0, "acquisti", "Catan", 2, "board"))
    assert g.total(0) == 4


# ------------------------------------------------------------------------------------------ the ledger


def test_a_partita_never_takes_the_pile_below_zero_nor_touches_card_gp(three):
    bad = Payoff.parse("K+1 G+0 B-2 D-5")
    g = play(three, card(1, "speciale", "Premio", 2))
    g = play(partita(g, payoff=bad), join(1), join(2, False), roll(0, "green"), roll(1, "darth"))
    assert g.piles[1] == 0 and g.total(1) == 2
    assert (g.last.rolls[1].gp, g.last.rolls[1].change) == (-5, 0)


def test_a_loss_takes_only_what_the_pile_has(three):
    g = play(three, {"type": "tokens", "player": 1, "delta": 3})
    g = play(partita(g, payoff=Payoff.parse("K+1 G+0 B-2 D-5")), join(1), join(2, False))
    g = play(g, roll(0, "green"), roll(1, "darth"))
    assert g.piles[1] == 0 and g.last.rolls[1].change == -3


def test_totals_add_amici_acquisti_and_speciali_and_may_go_negative(three):
    g = play(three, card(0, "speciale", "Figuraccia", -2))
    assert g.total(0) == -2
    g = play(g, card(0, "amici", "Amico", 1), card(0, "acquisti", "Gioco", 3, "card"))
    ledger = g.ledger(0)
    assert ledger.total == ledger.pile + sum(v for _, v in ledger.cards) == 2


def test_bonus_and_malus_change_categorised_acquisti_but_not_below_zero(three):
    g = play(three, card(0, "acquisti", "Risiko", 1, "board"), card(0, "speciale", "Gadget", 2))
    g = play(g, card(0, "speciale", "Promo board", 0, "board", "bonus"))
    assert [v for _, v in g.ledger(0).cards] == [2, 2, 0] and g.total(0) == 4
    crollo = card(0, "speciale", "Crollo", 0, "board", "malus", 3)
    g = play(three, card(0, "acquisti", "Risiko", 1, "board"), crollo)
    assert [v for _, v in g.ledger(0).cards] == [0, 0] and g.total(0) == 0


def test_one_amici_at_a_time_and_one_card_of_each_kind_per_turn(three):
    g = play(three, card(0, "amici", "Primo", 1))
    with pytest.raises(IllegalAction, match="already played an Amici"):
        play(g, card(0, "amici", "Secondo", 2))
    g = play(g, {"type": "end-turn"}, {"type": "end-turn"}, {"type": "end-turn"})
    with pytest.raises(IllegalAction, match="discard it first"):
        play(g, card(0, "amici", "Secondo", 2))
    g = play(g, {"type": "discard", "player": 0, "card": 1}, card(0, "amici", "Secondo", 2))
    assert [c.name for c in g.cards[0]] == ["Secondo"]
    with pytest.raises(IllegalAction, match="only in its own turn"):
        play(g, card(1, "acquisti", "Fuori turno", 1))


def test_speciali_bonus_and_malus_of_a_category_on_one_player_cancel(three):
    g = play(three, card(1, "speciale", "Bonus Card", 0, "card", "bonus"))
    g = play(g, card(1, "speciale", "Malus Card", 0, "card", "malus"))
    assert g.cards[1] == () and g.steps(1, "card") == 0
    assert [n.what for n in g.news] == ["cancel"]


def test_an_amici_bonus_and_a_speciale_malus_stack(three):
    g = play(three, card(0, "amici", "Amico Card", 1, "card", "bonus"))
    g = play(g, card(0, "speciale", "Malus Card", 0, "card", "malus"))
    assert len(g.cards[0]) == 2 and g.steps(0, "card") == 0


def test_logorrea_man_is_played_at_once_and_blocks_other_amici(three):
    g = play(three, card(0, "amici", "Amico", 2), card(0, "acquisti", "Gioco", 1))
    g = play(g, card(0, "amici", "Logorrea-Man", 1))
    assert [c.name for c in g.cards[0]] == ["Gioco", "Logorrea-Man"]
    assert "replaced" in [n.what for n in g.news]
    g = play(g, {"type": "end-turn"}, {"type": "end-turn"}, {"type": "end-turn"})
    with pytest.raises(IllegalAction, match="Logorrea-Man"):
        play(g, card(0, "amici", "Altro", 1))


def give(player: int, card_id: int, to: int) -> dict[str, object]:
    return {"type": "give", "player": player, "card": card_id, "to": to}


def test_logorrea_man_must_be_passed_to_an_opponent_with_acquisti(three):
    """«Quando il giocatore non ha più carte Acquisti in gioco, deve passare Logorrea-Man ad un avversario
    che abbia carte Acquisti, il quale subirà gli stessi effetti»."""
    g = play(three, card(0, "acquisti", "Gioco", 1), {"type": "end-turn"})  # Gioco is #1
    g = play(g, card(1, "acquisti", "Dado", 2), {"type": "end-turn"})  # Dado is #2; Carla's turn
    g = play(g, card(0, "amici", "Logorrea-Man", 1))  # #3, drawn and played at once by Anna
    with pytest.raises(IllegalAction, match="Anna still has Acquisti in play"):
        play(g, give(0, 3, 1))
    assert Give(0, 3, 1) not in g.legal
    g = play(g, {"type": "discard", "player": 0, "card": 1})  # Anna's last Acquisti leaves
    assert g.logorrea_owed() == (0, g.find_card(0, 3), (1,))
    awaiting = views.awaiting(g)
    assert (awaiting["kind"], awaiting["name"]) == ("pass-logorrea", "Anna")
    assert awaiting["options"] == [1] and awaiting["option_names"] == ["Bruno"]
    # nothing else happens until it is passed on (or a Speciale discards it)
    with pytest.raises(IllegalAction, match="Anna has no Acquisti left and must first pass Logorrea-Man"):
        play(g, {"type": "end-turn"})
    with pytest.raises(IllegalAction, match="an opponent with Acquisti in play, and Carla has none"):
        play(g, give(0, 3, 2))
    assert set(g.legal) == {Give(0, 3, 1), Discard(0, 3)}
    g = play(g, give(0, 3, 1))
    assert [c.name for c in g.cards[1]] == ["Dado", "Logorrea-Man"] and g.logorrea_owed() is None
    assert views.awaiting(g)["kind"] == "turn" and EndTurn() in g.legal


def test_logorrea_man_is_discarded_at_once_when_nobody_has_acquisti(three):
    """«Logorrea-Man viene scartato immediatamente se nessun giocatore ha più Acquisti in gioco»."""
    g = play(three, card(0, "acquisti", "Gioco", 1), card(0, "amici", "Logorrea-Man", 1))
    assert g.total(0) == 2
    g = play(g, {"type": "discard", "player": 0, "card": 1})
    assert g.cards == ((), (), ()) and [n.what for n in g.news] == ["discard", "logorrea-gone"]
    said = g.news[-1].text(g.players)
    assert said == "nobody has Acquisti in play any more: Anna's Logorrea-Man is discarded"
    # drawn while nobody has Acquisti: played at once, and discarded at once
    g = play(g, card(2, "amici", "Logorrea Man", 1))
    assert g.cards == ((), (), ()) and [n.what for n in g.news] == ["card", "logorrea-gone"]


def test_logorrea_man_passed_in_the_middle_of_a_partita_then_the_rolls_go_on(three):
    """«deve passare Logorrea-Man ad un avversario che abbia carte Acquisti»: at once, even mid-Partita."""
    g = play(three, card(0, "acquisti", "Gioco", 1), {"type": "end-turn"}, card(1, "acquisti", "Dado", 1))
    g = play(g, card(0, "amici", "Logorrea-Man", 1))  # #3
    g = play(partita(g), join(2), join(0))  # Bruno proposes
    g = play(g, {"type": "discard", "player": 0, "card": 1})  # a card's effect takes Anna's Gioco
    with pytest.raises(IllegalAction, match="must first pass Logorrea-Man"):
        play(g, roll(1, "king"))
    g = play(g, give(0, 3, 1))
    assert g.phase == "roll" and g.next_roller() == 1
    g = play(g, roll(1, "king"))
    assert g.piles[1] == 3


# --------------------------------------------------------------------------------------------- the end


def test_the_first_to_the_target_wins_at_once():
    g = new_game(["Anna", "Bruno"], target=5)
    g = play(g, card(0, "acquisti", "Collezione", 4))
    g = play(partita(g), join(1), roll(0, "green"))
    assert g.outcome == Outcome("target", (0,)) and g.partita is None
    with pytest.raises(IllegalAction, match="over"):
        apply(g, GoblinRoll(1, Face.KING))


def test_two_reaching_the_target_in_one_partita_apply_in_roll_order():
    g = new_game(["Anna", "Bruno", "Carla"], target=3, first=1)
    g = play(partita(g), join(2), join(0))
    g = play(g, roll(1, "green"), roll(2, "king"))
    assert g.outcome == Outcome("target", (2,))
    assert [r.player for r in g.last.rolls] == [1, 2]  # Anna's roll never happens


def test_a_configurable_target():
    g = new_game(["Anna", "Bruno"], target=30)
    g = play(g, {"type": "tokens", "player": 0, "delta": 25})
    assert g.outcome is None
    g = play(g, {"type": "tokens", "player": 0, "delta": 5})
    assert g.outcome == Outcome("target", (0,))


def test_timed_game_finishes_the_turn_then_the_highest_total_wins():
    g = new_game(["Anna", "Bruno"], target=None, timed=True)
    g = play(g, {"type": "tokens", "player": 1, "delta": 4}, {"type": "time-up"})
    assert g.outcome is None and g.time_up
    g = play(g, {"type": "tokens", "player": 0, "delta": 5})
    assert g.outcome is None
    g = apply(g, EndTurn())
    assert g.outcome == Outcome("time", (0,))


def test_a_tie_at_a_timed_end_is_a_tie():
    g = new_game(["Anna", "Bruno", "Carla"], timed=True)
    g = play(g, {"type": "tokens", "player": 0, "delta": 4}, {"type": "tokens", "player": 2, "delta": 4})
    g = play(g, {"type": "time-up"}, {"type": "end-turn"})
    assert g.outcome == Outcome("time", (0, 2))


def test_time_up_needs_a_timed_game(three):
    with pytest.raises(IllegalAction, match="not timed"):
        apply(three, TimeUp())


def test_the_empty_deck_ends_the_game_only_with_the_option(three):
    with pytest.raises(IllegalAction, match="reshuffled"):
        apply(three, DeckEmpty())
    g = new_game(["Anna", "Bruno"], deck_end=True)
    g = play(g, {"type": "tokens", "player": 1, "delta": 2})
    g = apply(g, DeckEmpty())
    assert g.outcome == Outcome("deck", (1,))


def test_a_game_needs_a_way_to_end():
    with pytest.raises(InvalidInput, match="timed"):
        new_game(["Anna", "Bruno"], target=None)


# ------------------------------------------------------------------------------------------ notation


def test_payoff_notation_round_trips():
    p = Payoff.parse("K+3 G+1 B+0 D-1")
    assert Payoff.parse(p.notation()) == p and repr(p) == "Payoff.parse('K+3 G+1 B+0 D-1')"
    for bad in ("K+3 G+1 B+0", "K+3 K+1 B0 D0", "X1 G1 B1 D1", "K+a G1 B1 D1"):
        with pytest.raises(InvalidInput, match="payoff"):
            Payoff.parse(bad)


def test_the_legal_view(three):
    assert EndTurn() in three.legal and GoblinRoll(0, Face.KING) not in three.legal
    g = partita(three)
    assert set(g.legal) >= {Declare(1, True), Declare(1, False), AexEquo()}
    assert g.legal.count() == len(list(g.legal)) and bool(g.legal)


def test_a_speciale_passed_onto_its_opposite_cancels_too(three):
    g = play(three, card(0, "speciale", "Bonus 3D", 0, "3d", "bonus"))
    g = play(g, card(1, "speciale", "Malus 3D", 0, "3d", "malus"))
    g = play(g, {"type": "give", "player": 1, "card": 2, "to": 0})
    assert g.cards == ((), (), ()) and [n.what for n in g.news] == ["give", "cancel"]


def test_a_card_reaching_the_target_during_a_partita_ends_it_at_once():
    g = new_game(["Anna", "Bruno"], target=3)
    g = play(partita(g), join(1))
    g = play(g, card(1, "speciale", "Premio", 3))
    assert g.outcome == Outcome("target", (1,)) and g.partita is None and g.last.card.name == "Risiko"


def test_the_recent_partite_are_listed_where_one_may_be_played_again(three):
    """A Partita played lately is a card on the table: the legal view lists playing it again (the
    table's choice), and a Partita's name and payoff typed in stay checked by ``in`` alone."""
    game = partita(three, name="Risiko")
    assert not any(isinstance(e, PlayPartita) for e in game.legal)  # declarations come first
    game = play(game, join(1, False), join(2, False), roll(0, "king"))
    assert game.phase == "turn" and [c.name for c in game.recent] == ["Risiko"]
    assert not any(isinstance(e, PlayPartita) for e in game.legal)  # one Partita a turn
    game = play(game, {"type": "end-turn"})
    listed = [e for e in game.legal if isinstance(e, PlayPartita)]
    assert listed == [PlayPartita("Risiko", "board", TABLE)]  # Bruno may play it again
    assert PlayPartita("Uno", "card", TABLE) in game.legal and PlayPartita("Uno", "card", TABLE) not in listed
