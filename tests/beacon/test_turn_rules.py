"""Beacon Patrol turns on hand-built positions, in the kernel and in the pure-Python reference alike.

Each test runs once per engine (tests/beacon/positions.py ENGINES: `Position`, the numba kernel through
kernels.beacon.take_action as games call it; `RefPosition`, analyzer/beacon/reference.py through
reference.take) and quotes the rulebook it checks: seed 000, the official Portuguese rulebook (page
numbers are its own), with seed 001's English words where it has them.
"""

from __future__ import annotations

import pytest

from analyzer.beacon import reference as ref
from analyzer.beacon.simulation import make_setup
from kernels import beacon as kb
from tests.beacon.positions import ENGINES, E, N, Tiles, W, reset_workspace

# Open sea only, so every placement fits: the board (S*), Patricia's (P*) and Mauricio's (M*)
# hands, other seats' (Q*) and the draw pile (D*).
TILES = Tiles("\n".join(["HQ,~,~,~,~,hq"] + [f"{k}{i},~,~,~,~,none" for k in "SPMQ" for i in range(1, 5)]
                        + [f"D{i},~,~,~,~,none" for i in range(1, 13)]))

HAND = {1: 3, 2: 3, 3: 3, 4: 2}  # page 3 table
TOKENS = {1: 4, 2: 3, 3: 3, 4: 2}
DECK = [f"D{i}" for i in range(1, 13)]

engines = pytest.mark.parametrize("engine", list(ENGINES))


# --------------------------------------------------------------------------- the worked turn (page 4)


@engines
def test_worked_turn_p4(engine):
    """Page 4, "Exemplo de jogada", move by move. Two or three players: 3 tiles and 3 tokens each."""
    pos = ENGINES[engine](TILES, """
        .    S3   .
        HQ@  S1   S2
    """, players=2, hands={0: ["P1", "P2", "P3"], 1: ["M1", "M2", "M3"]}, deck=DECK[:6])
    patricia, mauricio = 0, 1
    assert pos.player == patricia and pos.tokens == 3

    # "No turno dela, Patrícia move o próprio navio dois espaços e usa duas fichas de movimento."
    assert pos.move(E) is False
    assert pos.ship() == (0, 1) and pos.tokens == 2
    pos.move(E)
    assert pos.ship() == (0, 2) and pos.tokens == 1

    # "Em seguida, ela posiciona uma das peças dela" (the ship moves onto it: "Esse movimento é
    # gratuito e não usa uma ficha de movimento", page 5)
    assert pos.place("P1", N) is False
    assert pos.at(-1, 2) == "P1" and pos.ship() == (-1, 2) and pos.tokens == 1
    assert pos.hand() == [None, "P2", "P3"]

    # "e depois usa a última ficha de movimento que possui para mover o navio novamente."
    assert pos.moves() == {(-1, 1), (0, 2)}
    pos.move(W)
    assert pos.ship() == (-1, 1) and pos.tokens == 0
    assert pos.moves() == set() and pos.of_kind(kb.ACT_MOVE) == []

    # "Patrícia troca uma das peças dela com Maurício, outro jogador."
    assert ("P2", mauricio, "M1") in pos.trades()
    assert pos.trade("P2", mauricio, "M1") is False
    assert pos.hand(patricia) == [None, "M1", "P3"] and pos.hand(mauricio) == ["P2", "M2", "M3"]
    assert pos.traded and pos.trades() == set()  # "Uma vez por turno" (page 6)

    # "Ela posiciona a peça que recebeu de Maurício, assim como a última peça na frente dela."
    pos.place("M1", N)
    assert pos.at(-2, 1) == "M1" and pos.ship() == (-2, 1)
    pos.place("P3", E)
    assert pos.at(-2, 2) == "P3" and pos.ship() == (-2, 2)
    assert pos.hand() == [None, None, None] and pos.tokens == 0
    assert pos.board_tiles() == {(0, 0): "HQ", (0, 1): "S1", (0, 2): "S2", (-1, 1): "S3",
                                 (-1, 2): "P1", (-2, 1): "M1", (-2, 2): "P3"}

    # "O turno de Patrícia acabou." Nothing is left to discard; she draws 3; Maurício plays next with
    # his tokens blue side up and a trade of his own; his ship has not moved.
    assert pos.end_turn() is True
    assert pos.discarded == 0 and pos.turns == 1
    assert pos.hand(patricia) == ["D1", "D2", "D3"] and pos.pile == ["D4", "D5", "D6"]
    assert pos.player == mauricio and pos.tokens == 3 and not pos.traded
    assert pos.ship(mauricio) == (0, 0) and pos.ship(patricia) == (-2, 2)
    assert pos.hand(mauricio) == ["P2", "M2", "M3"]


# --------------------------------------------------------------------------- trading (page 6)


@engines
@pytest.mark.parametrize("players", [2, 3, 4])
def test_unplaced_traded_tile_is_discarded_at_the_end_of_the_turn(engine, players):
    # Page 6: "Você pode posicionar a nova peça imediatamente. Você deve descartar a peça trocada se
    # não a posicionar durante este turno." (seed 001: "You must discard the tile traded if you do not
    # place it during this turn.")
    h = HAND[players]
    mine, theirs = [f"P{i}" for i in range(1, h + 1)], [f"M{i}" for i in range(1, h + 1)]
    pos = ENGINES[engine](TILES, "HQ", players=players, hands={0: mine, 1: theirs}, deck=DECK[:h + 1])
    pos.trade("P1", 1, "M1")
    assert pos.hand(0) == ["M1"] + mine[1:] and pos.hand(1) == ["P1"] + theirs[1:]
    for tile in mine[1:]:  # place every tile but the one received
        pos.place(tile, N)
    assert pos.hand(0) == ["M1"] + [None] * (h - 1)
    pos.end_turn()
    # "Descarte qualquer peça não posicionada ... (peças descartadas são removidas do jogo e não são
    # reembaralhadas na pilha de compra)"
    assert pos.discarded == 1
    assert pos.hand(0) == DECK[:h] and pos.pile == [DECK[h]]
    assert "M1" not in pos.board_tiles().values()
    assert all("M1" not in pos.hand(p) for p in range(players))
    # rules.toml [assumptions] trade_partner_keeps: the partner keeps the tile received
    assert pos.hand(1) == ["P1"] + theirs[1:]


# --------------------------------------------------------------------------- end of turn (page 6)


@engines
@pytest.mark.parametrize("players", [2, 3, 4])
def test_drawing_from_a_pile_shorter_than_a_hand(engine, players):
    # Page 6, "Fim de Turno" 1: "Em seguida, compre novas peças (compre 3 peças se estiver jogando uma
    # partida com 1 a 3 jogadores, e 2 peças em partidas com 4 jogadores)." With fewer left, the player
    # draws what is left, into the first empty places, and the others draw nothing; "A partida termina
    # quando todas as peças tiverem sido posicionadas ou descartadas."
    h = HAND[players]
    short = DECK[:h - 1]
    pos = ENGINES[engine](TILES, "HQ", players=players, hands={0: [], 1: ["M1"]}, deck=short)
    pos.end_turn()
    assert pos.hand(0) == short + [None] and pos.pile == [] and pos.discarded == 0
    assert not pos.game_over()
    assert pos.player == 1
    pos.end_turn()  # discards M1, draws nothing
    assert pos.hand(1) == [None] * h and pos.discarded == 1
    assert not pos.game_over()  # seat 0 still holds tiles
    while pos.player != 0:
        assert pos.hand() == [None] * h
        pos.end_turn()
        assert not pos.game_over()
    assert pos.hand(0) == short + [None]  # kept through the others' turns
    pos.end_turn()
    assert pos.discarded == 1 + len(short) and pos.game_over()
    assert all(pos.hand(p) == [None] * h for p in range(players))


# --------------------------------------------------------------------------- turn order (page 4)


@engines
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_turns_go_round_the_seats_from_the_first_player(engine, players):
    # Page 4: "Os jogadores revezam turnos em sentido horário, começando pelo primeiro jogador."
    # Seats are numbered clockwise from the first player (seat 0).
    pos = ENGINES[engine](TILES, "HQ", players=players, deck=DECK)
    order = []
    for _ in range(2 * players + 1):
        order.append(pos.player)
        assert pos.end_turn() is True
    assert order == [i % players for i in range(2 * players + 1)]
    assert pos.turns == 2 * players + 1


@engines
@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_passes_after_the_last_seat_back_to_the_first(engine, players):
    pos = ENGINES[engine](TILES, "HQ", players=players, player=players - 1, deck=DECK)
    pos.end_turn()
    assert pos.player == 0


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_first_player_starts_with_every_token_blue(players):
    # Page 3, "Preparação" 5: each player takes "fichas de movimento (com o lado azul para cima)";
    # 7: "O jogador que tiver visitado o mar pela última vez é o primeiro a jogar" (seat 0).
    setup = make_setup(players, "random", "", None)
    tt, n = setup.kernel_tiles, setup.tiles.n
    game = kb.new_workspace(n, kb.grid_size(n))
    reset_workspace(game, tt, setup.cfg, kb.grid_size(n), setup.active, setup.tiles.hq, 5, 2)
    st = game[0]
    assert (st[kb.ST_PLAYER], st[kb.ST_TOKENS], st[kb.ST_TRADED]) == (0, TOKENS[players], 0)
    g = ref.setup(setup.tiles, players, frozenset(), 5, 2)
    assert (g.player, g.tokens, g.traded) == (0, TOKENS[players], False)


# --------------------------------------------------------------------------- token reset (pages 5-6)


@engines
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_tokens_flip_back_to_blue_at_the_end_of_each_turn(engine, players):
    # Page 5: "Cada vez que você mover seu navio um espaço, vire uma das suas fichas de movimento do lado
    # azul para o vermelho." Page 6, "Fim de Turno" 2: "Vire todas as suas fichas de movimento de volta
    # para o lado azul." (seed 001: "Flip all your movement tokens back to the blue side.")
    tokens = TOKENS[players]
    pos = ENGINES[engine](TILES, "HQ@ S1", players=players, deck=DECK)
    for _ in range(tokens):  # seat 0 turns every token red, sailing back and forth
        pos.move(E if pos.ship() == (0, 0) else W)
    assert pos.tokens == 0 and pos.moves() == set()
    sailed_to = pos.ship()
    pos.end_turn()
    assert pos.tokens == tokens and pos.moves() == {(0, 1)}
    if players > 1:  # the next player sails its own ship, which stayed on the HQ
        assert pos.player == 1 and pos.ship() == (0, 0) and pos.ship(0) == sailed_to
        pos.move(E)  # spends one token and leaves the others blue
        assert pos.tokens == tokens - 1
        pos.end_turn()
        assert pos.tokens == tokens  # flipped back: no more, no fewer, whatever was spent
        while pos.player != 0:
            assert pos.tokens == tokens
            pos.end_turn()  # spends none: the next player still starts with exactly `tokens`
    assert pos.player == 0 and pos.tokens == tokens
    assert pos.ship() == sailed_to and pos.moves() != set()  # seat 0 may sail again


@engines
@pytest.mark.parametrize("players", [2, 3, 4])
def test_trade_is_once_per_turn_not_once_per_game(engine, players):
    # Page 6: "Uma vez por turno, você pode trocar peças que ainda não foram posicionadas com outro jogador."
    hands = {p: [f"{'PMQQ'[p]}{p + 1}"] for p in range(players)}
    pos = ENGINES[engine](TILES, "HQ", players=players, hands=hands, deck=DECK)
    pos.trade("P1", 1, "M2")
    assert pos.traded and pos.trades() == set()
    pos.end_turn()
    assert pos.player == 1 and not pos.traded
    assert {partner for _, partner, _ in pos.trades()} == set(range(players)) - {1}


def test_both_engines_offer_the_same_actions_through_the_worked_turn():
    """The page-4 turn again, on both engines side by side: after every action they list the same legal
    actions in the same canonical order, so a policy picking an index picks the same action in both."""
    board = """
        .    S3   .
        HQ@  S1   S2
    """
    hands = {0: ["P1", "P2", "P3"], 1: ["M1", "M2", "M3"]}
    kernel, reference = (engine(TILES, board, players=2, hands=hands, deck=DECK[:6]) for engine in ENGINES.values())
    turn = [lambda p: p.move(E), lambda p: p.move(E), lambda p: p.place("P1", N), lambda p: p.move(W),
            lambda p: p.trade("P2", 1, "M1"), lambda p: p.place("M1", N), lambda p: p.place("P3", E),
            lambda p: p.end_turn(), lambda p: p.move(E)]
    for act in turn:
        assert kernel.legal() == reference.legal()
        assert act(kernel) == act(reference)
        assert (kernel.board_tiles(), kernel.ship(0), kernel.ship(1), kernel.tokens, kernel.pile) == \
            (reference.board_tiles(), reference.ship(0), reference.ship(1), reference.tokens, reference.pile)
