"""Every rule of the paper-boat regatta rulebook on a hand-built position, the rulebook's words quoted."""

import pytest

from analyzer.errors import UserError
from analyzer.regatta import reference as R
from analyzer.regatta import rules as rules_module

RULES = rules_module.load()
COLS = RULES.cols
CELLS = RULES.rows * COLS


def tile(kind, opening="", sea=False, mark=None):
    """The index of a tile of that kind and printed openings (and mark: 1 event, 2 effect, None either)."""
    mask = sum(1 << "NESW".index(c) for c in opening)
    for t in range(len(RULES.tile_kind)):
        if (RULES.tile_kind[t] == kind and RULES.tile_open[t] == mask and bool(RULES.tile_sea[t]) == sea
                and (mark is None or RULES.tile_mark[t] == mark)):
            return t
    raise LookupError((kind, opening, sea, mark))


def cell(r, c):
    return r * COLS + c


def position(players=2, team=False, hand=None):
    """A game in its first turn: every tile face up, boats placed in columns 0, 1, ..."""
    s = R.init(RULES, players, seed=1, game=0, team=team)
    for c in range(len(s.boat)):
        R.step(RULES, s, R.PLACE, 0, c, 0)
    s.cell_up = [True] * CELLS
    s.cell_rot = [0] * CELLS
    if hand is not None:
        for p in range(players):
            s.hand[p] = [0] * len(RULES.card_names)
        for p, cards in hand.items():
            for k in cards:
                s.hand[p][k] += 1
    return s


def card(name):
    return RULES.card_names.index(name)


def kinds(moves, kind):
    return [m for m in moves if m[0] == kind]


def test_negate_chain():
    """"NEGAR ACCIÖN Cancela la última carta de acción jugada. ... Puedes usar esta carta en respuesta a otra
    carta de Negar acción. Jugar esta carta no cuenta como una acción de tu turno.\""""
    s = position(3, hand={0: [card("rotate"), card("negate")], 1: [card("negate")], 2: [card("negate")]})
    target = cell(2, 1)
    R.step(RULES, s, R.ROTATE, card("rotate"), target, 1)
    assert s.phase == R.WINDOW and s.to_move == 1  # the next seat may answer
    R.step(RULES, s, R.NEGATE, card("negate"), 0, 0)  # seat 1 negates the rotation
    assert s.to_move == 2
    R.step(RULES, s, R.PASS, 0, 0, 0)
    assert s.to_move == 0  # the player who played the card may negate the negate
    R.step(RULES, s, R.NEGATE, card("negate"), 0, 0)
    assert s.plays == 1  # the negate did not count as one of seat 0's uses
    assert s.to_move == 1 or s.to_move == 2
    while s.phase == R.WINDOW:
        R.step(RULES, s, R.PASS, 0, 0, 0)
    assert s.cell_rot[target] == 1 and s.negated == 0  # two negates: the rotation happens


def test_single_negate_cancels():
    s = position(2, hand={0: [card("rotate")], 1: [card("negate")]})
    R.step(RULES, s, R.ROTATE, card("rotate"), cell(2, 1), 1)
    R.step(RULES, s, R.NEGATE, card("negate"), 0, 0)
    assert s.phase == R.TURN and s.cell_rot[cell(2, 1)] == 0 and s.negated == 1
    assert s.plays == 1  # the cancelled card was still played


@pytest.mark.parametrize("team, most", [(False, 5), (True, 3)])
def test_hand_limits(team, most):
    """"no puedes terminar tu turno con más de 5 cartas en la mano" / (Toma otro rumbo) "Cambien el límite de
    cartas de la mano de 5 a 3.\""""
    players = 4 if team else 2
    s = position(players, team, hand={0: [card("advance one")] * (most + 1)})
    moves = R.legal(RULES, s)
    assert not kinds(moves, R.END) and kinds(moves, R.DISCARD)
    R.step(RULES, s, R.DISCARD, card("advance one"), 0, 0)
    assert kinds(R.legal(RULES, s), R.END)


def test_draw_up_to_three_and_reshuffle():
    """"Antes de terminar tu turno, roba hasta tener 3 cartas" / "Si en cualquier momento se termina el mazo de
    acciones, barajea la pila de descarte y colócala nuevamente como mazo de acciones.\""""
    s = position(2, hand={0: [card("rotate")]})
    s.discard = [a + b for a, b in zip(s.discard, [0] * len(s.discard))]
    for k in s.deck:
        s.discard[k] += 1
    s.deck = []
    R.step(RULES, s, R.END, 0, 0, 0)
    assert sum(s.hand[0]) == 3 and len(s.deck) > 0
    assert s.active == 1  # "Pasa el turno al jugador de tu derecha."


def test_rock_never_moves_and_carries_no_boat():
    """"Las losetas de roca no pueden moverse ni cambiar de posición en el mapa, y los barcos no pueden colocarse
    sobre ellas.\""""
    s = position(2, hand={0: [card("swap any"), card("swap adjacent"), card("rotate"), card("advance one")]})
    rock = tile(R.ROCK)
    s.cell_tile[cell(4, 0)], s.cell_tile[cell(1, 3)] = rock, s.cell_tile[cell(4, 0)]
    s.cell_tile[cell(5, 0)] = tile(R.START, "NS")
    s.boat[0] = cell(5, 0)
    moves = R.legal(RULES, s)
    rock_cell = cell(4, 0)
    assert all(rock_cell not in (m[2], m[3]) for m in moves if m[0] in (R.SWAP_ADJ, R.SWAP_ANY))
    assert all(m[2] != rock_cell for m in moves if m[0] in (R.ROTATE, R.ADV1, R.ADV2))


def test_swap_restrictions():
    """Swap adjacent: "Puede haber jugadores sobre una o ambas losetas" / "Solo puedes intercambiar losetas del
    mismo tipo (ríos o metas)"; swap any: "No puede haber jugadores sobre una o ambas losetas elegidas.\""""
    s = position(2, hand={0: [card("swap adjacent"), card("swap any")]})
    s.boat[0] = cell(2, 1)
    moves = R.legal(RULES, s)
    adj = {(b, c) for k, _, b, c in moves if k == R.SWAP_ADJ}
    far = {(b, c) for k, _, b, c in moves if k == R.SWAP_ANY}
    assert (cell(2, 1), cell(2, 2)) in adj  # boat on one: allowed for adjacent swaps
    assert all(cell(2, 1) not in pair for pair in far)  # never with a boat for any-two swaps
    assert (cell(0, 0), cell(0, 1)) in adj  # two goal tiles
    assert all(not (b < COLS) ^ (c < COLS) for b, c in adj | far)  # never a goal with a river
    assert all(b < CELLS - COLS and c < CELLS - COLS for b, c in adj | far)  # start tiles never swap
    assert all(abs(b - c) in (1, COLS) for b, c in adj)
    R.step(RULES, s, R.SWAP_ADJ, card("swap adjacent"), cell(2, 1), cell(2, 2))
    assert s.boat[0] == cell(2, 2)  # the boat rides along


def test_reveal_at_most_once_per_turn():
    """"REVELAR LOSETA (hasta 1 vez por turno) Selecciona una loseta adyacente a tu barco.\""""
    s = position(2, hand={0: []})
    s.cell_up = [False] * CELLS
    s.boat[0] = CELLS + 0  # off the map south of column 0
    moves = kinds(R.legal(RULES, s), R.REVEAL)
    assert moves == [(R.REVEAL, 0, cell(5, 0), 0)]
    s.cell_tile[cell(5, 0)] = tile(R.START, "NS")
    s.cell_tile[cell(4, 0)] = tile(R.RIVER, "NS")
    R.step(RULES, s, R.REVEAL, 0, cell(5, 0), 0)
    assert s.cell_up[cell(5, 0)]
    assert not kinds(R.legal(RULES, s), R.REVEAL)


def test_rotate_never_a_goal_tile():
    """"Rota 90° una loseta de tu elección. No puedes rotar losetas de meta.\""""
    s = position(2, hand={0: [card("rotate")]})
    targets = {b for k, _, b, _ in R.legal(RULES, s) if k == R.ROTATE}
    assert targets and all(b >= COLS for b in targets)


def test_movement_needs_connected_rivers():
    """"Mueve tu barco a una loseta de río adyacente que conecte con tu posición actual.\""""
    s = position(2, hand={0: [card("advance one"), card("advance two")]})
    s.cell_tile[cell(5, 0)] = tile(R.START, "NS")
    s.cell_tile[cell(4, 0)] = tile(R.RIVER, "NS")
    s.cell_tile[cell(3, 0)] = tile(R.RIVER, "ES")
    s.cell_tile[cell(3, 1)] = tile(R.RIVER, "EW")
    s.boat[0] = cell(5, 0)
    moves = R.legal(RULES, s)
    assert [m[2] for m in kinds(moves, R.ADV1)] == [cell(4, 0)]
    assert [m[2] for m in kinds(moves, R.ADV2)] == [cell(3, 0), cell(4, 0)]


def test_win_on_the_goal_tile_with_an_exit_to_the_sea():
    """"El primer jugador en colocar su barco sobre la loseta de meta con salida al mar gana la partida.\""""
    s = position(2, hand={0: [card("advance one")] * 2})
    sea, plain = tile(R.GOAL, "ESW", sea=True), tile(R.GOAL, "ESW")
    s.cell_tile[cell(0, 0)], s.cell_tile[cell(0, 1)] = plain, sea
    s.cell_tile[cell(1, 0)] = tile(R.RIVER, "NESW", mark=1)
    s.cell_tile[cell(1, 1)] = tile(R.RIVER, "NESW", mark=2)
    s.boat[0] = cell(1, 0)
    R.step(RULES, s, R.ADV1, card("advance one"), cell(0, 0), 0)
    assert s.winner == -1  # a goal tile without the sea
    s.boat[0] = cell(1, 1)
    R.step(RULES, s, R.ADV1, card("advance one"), cell(0, 1), 0)
    assert s.winner == 0 and R.terminal(s)


def test_team_boats_shared():
    """"ambos jugadores controlarán el mismo barco\""""
    s = position(4, team=True)
    assert len(s.boat) == 2 and s.boat_of(2) == 0 and s.boat_of(3) == 1


def test_bad_rules_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[grid]\nrows = 2\n')
    with pytest.raises(UserError, match=r"bad.toml: \[grid\]: rows = 2"):
        rules_module.load(bad)
    bad.write_text('event = [{ name = "x", effect = "teleport", count = 1 }]\n')
    with pytest.raises(UserError, match=r"event 1 \(x\): effect = 'teleport'"):
        rules_module.load(bad)


def test_a_rules_file_that_is_not_utf8_text_is_one_line(tmp_path, capsys):
    """Found by a fuzz run of the new games' commands: a binary --rules file gave a traceback."""
    from tests.support import one_line_error, run_cli

    binary = tmp_path / "rules.toml"
    binary.write_bytes(b"\xff\xfe\x00[grid]")
    with pytest.raises(UserError, match="not UTF-8 text"):
        rules_module.load(binary)
    code, _, err = run_cli(["regatta", "simulate", "--rules", str(binary), "--games", "3", "--out",
                            str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "not UTF-8 text"), err


def test_the_deck_reshuffles_the_moment_it_runs_out():
    """"Si en cualquier momento se termina el mazo de acciones, barajea la pila de descarte y colócala nuevamente
    como mazo de acciones." The literal reading (reshuffle_at_once, the default): the moment the last card is
    drawn, not at the next draw."""
    for at_once in (True, False):
        rules = rules_module.load(rule=[f"reshuffle_at_once={str(at_once).lower()}"])
        s = R.init(rules, 2, seed=1, game=0)
        for c in range(2):
            R.step(rules, s, R.PLACE, 0, c, 0)
        s.hand[0] = [0] * len(rules.card_names)
        s.hand[0][card("rotate")] = 1
        s.discard = [0] * len(rules.card_names)
        for k in s.deck[:-1]:  # all but one card on the discard pile
            s.discard[k] += 1
        s.deck = s.deck[-1:]
        piled = sum(s.discard)
        R.step(rules, s, R.MULLIGAN, card("rotate"), 0, 0)  # discard the rotate, draw the deck's last card
        if at_once:
            assert len(s.deck) == piled + 1 and sum(s.discard) == 0  # the rotate went in too: it was discarded first
        else:
            assert s.deck == [] and sum(s.discard) == piled + 1  # waits for the next draw
        R.step(rules, s, R.END, 0, 0, 0)
        assert sum(s.hand[0]) == 3 and len(s.deck) == piled + 1 - 2  # either way the end-of-turn draw finds cards


def test_an_empty_deck_takes_a_card_discarded_at_once():
    """"en cualquier momento": with the deck and its discard pile empty, a played card is the deck again at
    once (reshuffle_at_once)."""
    s = position(2, hand={0: [card("rotate")]})
    s.deck, s.discard = [], [0] * len(RULES.card_names)
    R.step(RULES, s, R.ROTATE, card("rotate"), cell(2, 1), 1)
    assert s.deck == [card("rotate")] and sum(s.discard) == 0


@pytest.mark.parametrize("at_limit, dealt", [(False, 5), (True, 3)])
def test_the_team_variant_deals_five(at_limit, dealt):
    """"Reparte 5 cartas de acción ... a cada jugador." and Toma otro rumbo: "Cambien el límite de cartas de la
    mano de 5 a 3." -- the variant changes the limit only, so the deal stays 5 (team_deal_at_limit=false, the
    default) and a player discards down to 3 before ending a turn."""
    rules = rules_module.load(rule={"team_deal_at_limit": at_limit})
    s = R.init(rules, 4, seed=2, game=0, team=True)
    assert [sum(h) for h in s.hand] == [dealt] * 4
    for c in range(2):
        R.step(rules, s, R.PLACE, 0, c, 0)
    assert bool(kinds(R.legal(rules, s), R.END)) == (dealt <= 3)


def test_every_revealed_tile_draws_the_card_it_names():
    """"Toma una carta de evento o efecto, según lo indique la loseta." Every reveal draws one card of the
    deck its tile names: every default tile names one."""
    assert set(RULES.tile_mark.tolist()) == {1, 2}
    for t in range(len(RULES.tile_kind)):
        s = position(2, hand={0: []})
        s.cell_up = [False] * CELLS
        s.boat[0] = CELLS + 0
        x = s.cell_tile.index(t)
        s.cell_tile[x], s.cell_tile[cell(5, 0)] = s.cell_tile[cell(5, 0)], t  # tile t in front of the boat
        before = [sum(d) for d in s.ev_discard]
        R.step(RULES, s, R.REVEAL, 0, cell(5, 0), 0)
        drawn = [sum(d) - b for d, b in zip(s.ev_discard, before)]
        assert drawn == ([1, 0] if RULES.tile_mark[t] == 1 else [0, 1])
