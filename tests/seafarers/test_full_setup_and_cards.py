"""The full game's set-up draft and the development cards the seed takes from the base game, each on a hand-built
position of the reference engine (analyzer/seafarers/full_reference.py; the kernel plays the reference's games,
tests/seafarers/test_full_kernel.py). The seed's words are quoted where it has them; the rest is the base game
("as regras da caixa básica"), as the research note catan_seafarers.md gives it."""

import pytest

from analyzer.seafarers import full_reference as R
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, ORE
from tests.seafarers.test_full_reference import RULES, give, kinds, position, sea_chain, settle

LUMBER, BRICK, WOOL, GRAIN, ORE_CARD = range(5)
STRIP_AXIAL = ((-1, 3), (0, 2), (1, 1))  # through-the-desert.toml: "strip beyond the desert"


def drafted(slug, players):
    """The printed board of a scenario at the start of its draft."""
    table, _ = position(slug, players)
    return table, R.init(table, 1, 0)


def start_cards(table, state, c):
    """What the base game pays for a settlement at c: one card per producing hex (gold: one pick)."""
    cards, picks = [0] * 5, 0
    for h in table.scenario.topology.corner_hexes[c]:
        t = state.terrain[h] if h >= 0 else -1
        if t == GOLD:
            picks += 1
        elif FIRST_RESOURCE_TERRAIN <= t <= ORE:
            cards[t - FIRST_RESOURCE_TERRAIN] += 1
    return cards, picks


# ------------------------------------------------------------------------------------------------ the draft
@pytest.mark.parametrize("players", [3, 4])
def test_the_draft_goes_round_and_back_and_only_the_last_settlement_pays_the_start_cards(players):
    """Base game (research note catan_seafarers.md, 'Setup'): "snake draft, seats 1→2→3→4→4→3→2→1. Each player
    gets 1 card per hex next to their **second** settlement"; the seed: "Os jogadores constroem as suas aldeias
    iniciais ... seguindo as regras da caixa básica"."""
    table, state = drafted("new-shores", players)
    assert state.setup_order == list(range(players)) + list(range(players - 1, -1, -1))
    placed = {p: [] for p in range(players)}
    for pos, seat in enumerate(state.setup_order):
        assert state.phase == R.SETUP_SETTLEMENT and state.actor == seat
        before = [list(h) for h in state.hands]
        c = kinds(R.legal(table, state), R.SETTLE)[-1][1]  # the highest site: away from the lowest's picks
        R.step(table, state, (R.SETTLE, c, 0))
        placed[seat].append(c)
        cards, picks = start_cards(table, state, c)
        if len(placed[seat]) == 1:
            assert state.hands == before and state.gold[seat] == 0  # the first settlement pays nothing
        else:
            assert state.hands[seat] == [a + b for a, b in zip(before[seat], cards)]
            assert state.gold[seat] == picks
            for _ in range(picks):  # a gold hex: a card of the player's choice
                R.step(table, state, (R.PICK_GOLD, ORE_CARD, 0))
        assert state.phase == R.SETUP_EDGE and state.actor == seat
        R.step(table, state, R.legal(table, state)[0])
    assert state.phase == R.PRE_ROLL and state.current == 0 and state.actor == 0
    assert all(len(v) == 2 for v in placed.values())


def test_a_draft_settlement_keeps_the_distance_rule_and_stands_only_where_the_scenario_allows():
    """Base game: no settlement on a corner next to another building; the seed, "Fase de construção": the
    scenario's start area (`table.view.allowed`)."""
    table, state = drafted("new-shores", 4)
    topo = table.scenario.topology
    first = kinds(R.legal(table, state), R.SETTLE)
    assert first and all(table.view.allowed[c] for _, c, _ in first)
    assert len(first) == sum(bool(table.view.allowed[c]) for c in range(topo.n_corner))
    c = first[0][1]
    R.step(table, state, (R.SETTLE, c, 0))
    R.step(table, state, R.legal(table, state)[0])
    after = {a for _, a, _ in kinds(R.legal(table, state), R.SETTLE)}
    assert c not in after and not after & {int(n) for n in topo.corner_neighbours[c] if n >= 0}
    assert after == {a for _, a, _ in first} - {c} - {int(n) for n in topo.corner_neighbours[c]}


def test_a_coastal_draft_settlement_takes_a_road_or_a_ship_beside_it():
    """Seed, "3. Fase de construção": "Se, durante a Fase de construção, um jogador constrói uma aldeia na linha
    costeira, poderá construir um barco em vez de uma estrada." An inland one takes a road only."""
    table, state = drafted("new-shores", 4)
    f = table.view.flags
    sites = [c for _, c, _ in kinds(R.legal(table, state), R.SETTLE)]
    coastal = next(c for c in sites if f.corner_coastal[c])
    R.step(table, state, (R.SETTLE, coastal, 0))
    edges = R.legal(table, state)
    beside = {int(e) for e in table.scenario.topology.corner_edges[coastal] if e >= 0}
    assert kinds(edges, R.ROAD) and kinds(edges, R.SHIP)
    assert {a for _, a, _ in edges} <= beside
    table, state = drafted("new-shores", 4)
    inland = next(c for c in sites if not f.corner_coastal[c])
    R.step(table, state, (R.SETTLE, inland, 0))
    assert kinds(R.legal(table, state), R.ROAD) and not kinds(R.legal(table, state), R.SHIP)


# ------------------------------------------------------------------------------------------------ the cards
def test_year_of_plenty_takes_any_two_cards_the_bank_still_has():
    """Base game: the year of plenty card takes any 2 resource cards from the bank (a documented default: only
    cards the bank has, docs/seafarers/full_game.md)."""
    table, state = position()
    state.cards[0][R.YEAR_OF_PLENTY] = 1
    plays = kinds(R.legal(table, state), R.PLAY_YEAR_OF_PLENTY)
    assert len(plays) == 15  # 5 pairs of one resource and 10 of two
    state.bank[ORE_CARD] = 1  # one ore left: two ores are no longer on offer, one ore and another card are
    plays = kinds(R.legal(table, state), R.PLAY_YEAR_OF_PLENTY)
    assert (R.PLAY_YEAR_OF_PLENTY, ORE_CARD, ORE_CARD) not in plays
    assert (R.PLAY_YEAR_OF_PLENTY, GRAIN, ORE_CARD) in plays
    R.step(table, state, (R.PLAY_YEAR_OF_PLENTY, GRAIN, ORE_CARD))
    assert state.hands[0][GRAIN] == 1 and state.hands[0][ORE_CARD] == 1 and state.bank[ORE_CARD] == 0
    assert state.cards[0][R.YEAR_OF_PLENTY] == 0 and state.dev_played


def test_monopoly_takes_every_card_of_one_resource_from_every_other_player():
    """Base game: the monopoly card names a resource; every other player gives the player all of theirs."""
    table, state = position()
    give(state, 1, WOOL, WOOL, BRICK)
    give(state, 2, WOOL)
    give(state, 3, GRAIN)
    give(state, 0, WOOL)
    state.cards[0][R.MONOPOLY] = 1
    assert len(kinds(R.legal(table, state), R.PLAY_MONOPOLY)) == 5
    R.step(table, state, (R.PLAY_MONOPOLY, WOOL, 0))
    assert state.hands[0][WOOL] == 4 and state.hands[1] == [0, 1, 0, 0, 0] and state.hands[2] == [0] * 5
    assert state.hands[3][GRAIN] == 1 and state.cards[0][R.MONOPOLY] == 0 and state.dev_played


def test_victory_point_cards_count_while_held_and_win_on_the_turn_one_is_bought():
    """Base game: a victory point card is 1 VP, kept hidden until it wins; the seed, "G) Final do jogo": "Para
    vencer, o jogador tem de estar no seu turno e somar os pontos necessários." A card bought this turn counts."""
    table, state = position()
    target = table.scenario.victory.target
    assert RULES.vp["victory_point_card"] == 1
    state.cards[0][R.VP_CARD] = 1
    assert R.victory_points(table, state, 0)["vp_cards"] == 1
    state.bonus_vp[0] = target - 2  # one card short
    state.deck[state.deck_pos] = R.VP_CARD
    give(state, 0, WOOL, GRAIN, ORE_CARD)
    R.step(table, state, (R.BUY_CARD, 0, 0))
    assert state.new_cards[0][R.VP_CARD] == 1 and R.total_vp(table, state, 0) == target
    assert state.winner == 0 and R.terminal(state)


def test_a_knight_before_the_roll_moves_the_robber_or_the_pirate_and_steals():
    """Seed, "E) O pirata": "Quando um jogador usa uma Carta de Cavaleiro, tem a opção de mover o ladrão ou o
    pirata"; base game: a knight may be played before the roll, and the mover steals one card."""
    table, state = position()
    topo = table.scenario.topology
    c0, chain, _ = sea_chain(table, 1)
    settle(state, c0, 1)
    state.edge_owner[chain[0]], state.edge_ship[chain[0]] = 1, True
    give(state, 1, BRICK)
    state.phase = R.PRE_ROLL
    state.cards[0][R.KNIGHT] = 1
    assert kinds(R.legal(table, state), R.PLAY_KNIGHT)
    R.step(table, state, (R.PLAY_KNIGHT, 0, 0))
    moves = R.legal(table, state)
    assert state.phase == R.MOVE_THIEF and kinds(moves, R.MOVE_ROBBER) and kinds(moves, R.MOVE_PIRATE)
    sea = next(h for h in topo.edge_hexes[chain[0]] if h >= 0 and table.pirate_hexes[h] and h != state.pirate)
    R.step(table, state, (R.MOVE_PIRATE, sea, 0))
    assert state.pirate == sea and state.phase == R.STEAL and R.legal(table, state) == [(R.STEAL_FROM, 1, 0)]
    R.step(table, state, (R.STEAL_FROM, 1, 0))
    assert state.hands[0][BRICK] == 1 and state.hands[1][BRICK] == 0
    assert state.phase == R.PRE_ROLL and state.knights[0] == 1  # back to the roll


# ------------------------------------------------------------------------------------------------ scenario bonuses
def _corners_by_territory(table):
    topo = table.scenario.topology
    out: dict[int, list[int]] = {}
    for c in range(topo.n_corner):
        if table.corner_territory[c] >= 0 and topo.corner_in_play[c] and not table.no_settle[c]:
            out.setdefault(int(table.corner_territory[c]), []).append(c)
    return out


def _apart(table, corners):
    """Two corners of the list that are not neighbours (both may hold a settlement)."""
    topo = table.scenario.topology
    a = corners[0]
    return a, next(c for c in corners[1:] if c not in topo.corner_neighbours[a])


def test_through_the_desert_pays_two_vp_once_for_the_strip_and_once_for_each_islet():
    """Seed, "Através do deserto": "Pela primeira aldeia que um jogador construa numa terra "desconhecida" (em
    qualquer das ilhotas ou na faixa de terreno a noroeste), obtém 2 pontos de vitória especiais ... Os pontos de
    "primeira aldeia" são conseguidos independentemente do facto de já existir nesse mesmo território uma aldeia
    construída por outro jogador." The strip is one territory, every islet its own; the main island pays none."""
    table, state = position("through-the-desert", 4)
    coords = [tuple(int(v) for v in q) for q in table.scenario.coords]
    strip_hexes = {coords.index(q) for q in STRIP_AXIAL}
    territories = _corners_by_territory(table)
    strip = next(t for t, cs in territories.items() if {int(h) for c in cs for h in
                                                         table.scenario.topology.corner_hexes[c]} & strip_hexes)
    a, b = _apart(table, territories[strip])
    R._settle(table, state, 1, a, False)  # a rival first: it changes nothing for seat 0
    R._settle(table, state, 0, b, False)
    assert state.bonus_vp == [2, 2, 0, 0]
    islets = [t for t in territories if t != strip]
    assert len(islets) == 3  # the five islet hexes make three islets: [4, 1]-[4, 2] and [2, 6]-[1, 7] touch
    R._settle(table, state, 0, territories[islets[0]][0], False)
    assert state.bonus_vp[0] == 4  # another territory: 2 more
    main = next(c for c in range(len(state.corner_owner)) if table.view.allowed[c] and R._distance_ok(table, state, c)
                and table.corner_territory[c] < 0)
    R._settle(table, state, 0, main, False)
    assert state.bonus_vp[0] == 4  # the main island pays nothing


def test_new_world_pays_one_vp_for_each_first_settlement_on_an_island_that_is_not_home():
    """Seed, "Um novo mundo": "no início do jogo, cada jogador terá uma ou duas ilhas natais. As restantes ilhas
    serão consideradas "desconhecidas". ... Por cada primeira aldeia que um jogador construa numa ilha
    "desconhecida", receberá 1 ponto de vitória (ficha Catan) adicional." """
    table, state = position("new-world", 4)
    territories = _corners_by_territory(table)
    assert all(table.territory_foreign_only)  # every island: a bonus only off the seat's home islands
    home, away = sorted(territories, key=lambda t: -len(territories[t]))[:2]
    a, b = _apart(table, territories[home])
    R._settle(table, state, 0, a, True)  # a draft settlement: this island is home
    R._settle(table, state, 0, b, False)
    assert state.bonus_vp[0] == 0
    R._settle(table, state, 0, territories[away][0], False)
    R._settle(table, state, 0, _apart(table, [territories[away][0]] + territories[away][1:])[1], False)
    assert state.bonus_vp[0] == 1  # one VP for the island, not per settlement
    c = next(c for c in territories[home] if R._distance_ok(table, state, c))
    R._settle(table, state, 1, c, False)
    assert state.bonus_vp[1] == 1  # seat 0's home is unknown land to seat 1
