"""Rules checked against the rulebook (issue 52): each on a hand-built position of the printed board, in the
reference (analyzer/seafarers/full_reference.py) and the kernel (kernels/catan/game.py) alike, the seed's words
quoted (and checked to be the seed's: `said`)."""

import dataclasses

import numpy as np
import pytest

from analyzer.seafarers import full_reference as R
from analyzer.seafarers.setup_policies import _first_piece, board_view
from kernels.catan import fleet as kf
from kernels.catan import game as kg
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD
from tests.seafarers.test_forgotten_tribe import Both, said
from tests.seafarers.test_full_reference import sea_chain

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)
PIRATE_BLOCK = ("Enquanto o pirata estiver num hexágono de mar não podem ser colocados nem retirados barcos das vias "
                "marítimas que rodeiam o pirata (isto é, os 6 lados do hexágono que ocupa).")


class Draft(Both):
    """A scenario's printed board in both engines at the start of its draft (seat 0 places first)."""

    SLUG = "new-shores"
    SKIP_DRAFT = False


def _draft(slug, players, rule=None):
    return type("D", (Draft,), {"SLUG": slug})(players, rule=rule)


def _played(slug, players=4):
    """A scenario's printed board in both engines, the draft skipped: seat 0 to play (rolled), nothing built."""
    return type("P", (Both,), {"SLUG": slug})(players)


def pirate_corner(b):
    """A draft site at a corner of the pirate's start hex with a sea-side edge on that hex: (corner, those edges)."""
    h = b.table.pirate_start
    for c in b.topo.hex_corners[h]:
        if c < 0 or not b.table.view.allowed[c] or not R._corner_coastal(b.table, b.state, int(c)):
            continue
        edges = [int(e) for e in b.topo.corner_edges[c] if e >= 0 and h in b.topo.edge_hexes[e]
                 and R._may_ship(b.table, b.state, int(e))]
        if edges:
            return int(c), edges
    raise AssertionError("no draft site on the pirate's hex")


def ship_edges(acts):
    return {a for k, a, _ in acts if k == R.SHIP}


# ------------------------------------------------------------------------------------------ the pirate in the draft
@pytest.mark.parametrize("slug, players", [("new-shores", 3), ("new-shores", 4), ("four-islands", 4),
                                           ("fog-islands", 3), ("cloth-for-catan", 4)])
def test_a_draft_ship_never_goes_on_a_side_of_the_pirates_hex(slug, players):
    """Seed 002, "E) O pirata": the pirate starts on its marked sea hex ("O pirata começa o jogo no hexágono de mar
    marcado com um "X"") and blocks its six sides for every ship, the draft's too."""
    assert said(PIRATE_BLOCK) and said('O pirata começa o jogo no hexágono de mar marcado com um "X"')
    b = _draft(slug, players)
    c, beside = pirate_corner(b)
    b.step((R.SETTLE, c, 0))
    acts = b.legal()  # the kernel's list is the reference's
    assert not ship_edges(acts) & set(beside)
    assert acts  # a road (or a ship elsewhere) is still there
    # the pirate elsewhere: the same edges take a ship (unless one faces the frame)
    away = next(h for h in range(b.topo.n_hex) if b.table.pirate_hexes[h] and h not in b.topo.edge_hexes[beside])
    b.state.pirate = b.game.st[kg.ST_PIRATE] = away
    assert ship_edges(b.legal()) & set(beside)


def test_the_draft_heuristic_never_puts_a_ship_beside_the_pirate():
    """The set-up heuristics (analyzer/seafarers/setup_policies.py) obey the same rule: with every corner beyond
    the pirate's sides scored best, the piece still goes elsewhere."""
    b = _draft("new-shores", 4)
    c, beside = pirate_corner(b)
    s = b.s
    view = board_view(s, s.terrain, s.number_token, [0] * len(s.harbours.sites))
    scores = np.zeros(s.topology.n_corner)
    for e in beside:  # the corners two steps away through the pirate's sides score best
        far = [x for x in s.topology.edge_corners[e] if x != c][0]
        scores[[n for n in s.topology.corner_neighbours[far] if n >= 0 and n != c]] = 100.0
    blocked = np.zeros(s.topology.n_corner, bool)
    blocked[c] = True
    edge, piece = _first_piece(view, scores, c, blocked, np.zeros(s.topology.n_edge, bool),
                               np.array([1, 2], np.uint64))
    assert edge >= 0 and not (piece == "ship" and edge in beside)


# ------------------------------------------------------------------------------------------------ draft ships move
def test_a_draft_ship_may_move_on_seat_1s_first_turn():
    """Seed 002, "4. Recolocar barcos": "O barco no extremo de uma rota marítima aberta pode ser retirado e
    colocado noutro local"; "não é possível recolocar um barco construído nesse mesmo turno" forbids only a ship
    built this turn: the draft's ship was built before seat 1's first turn (turn 0), so it may move then."""
    assert said("não é possível recolocar um barco construído nesse mesmo turno")
    b = Draft(4)
    f = b.table.view.flags
    c = next(c for c in b.coastal_sites() if any(
        R._may_ship(b.table, b.state, e) and f.edge_sea[e] for e in R._corner_edges(b.table, c)))
    b.step((R.SETTLE, c, 0))
    e = next(a for k, a, _ in b.legal() if k == R.SHIP and f.edge_sea[a])
    b.step((R.SHIP, e, 0))
    b.skip_draft(turn=0)  # seat 1's first turn, rolled
    assert b.state.turn == 0 and b.state.current == 0
    moves = [a for k, a, _ in b.legal() if k == R.MOVE_SHIP]
    assert moves == [e] * len(moves) and moves
    # a ship built in this turn does not move
    b.give(0, LUMBER, WOOL)
    e2 = next(a for k, a, _ in b.legal() if k == R.SHIP and set(b.ends(a)) & (set(b.ends(e)) - {c}))
    b.step((R.SHIP, e2, 0))  # the route's new end, built this turn: nothing moves now
    assert not [a for k, a, _ in b.legal() if k == R.MOVE_SHIP]


# ------------------------------------------------------------------------------------------------ the longest route
def _paths(b, lengths):
    """Disjoint simple paths of free in-play edges (no corner shared between paths), one per length."""
    topo = b.topo
    used, out = set(), []
    for n in lengths:
        found = None
        for c0 in range(topo.n_corner):
            if c0 in used or not topo.corner_in_play[c0]:
                continue
            stack = [(c0, [], [c0])]
            while stack and found is None:
                c, path, corners = stack.pop()
                if len(path) == n:
                    found = (path, corners)
                    break
                for e in topo.corner_edges[c]:
                    if e < 0 or not topo.edge_in_play[e]:
                        continue
                    d = [x for x in topo.edge_corners[e] if x != c][0]
                    if d in corners or d in used or any(x in used for x in topo.corner_neighbours[d] if x >= 0):
                        continue
                    stack.append((int(d), path + [int(e)], corners + [int(d)]))
            if found:
                break
        path, corners = found
        used |= set(corners)
        out.append((path, corners))
    return out


def routes(b):
    R._update_route(b.table, b.state)
    kg._update_routes(b.board, b.game)
    assert b.game.route[:4].tolist() == b.state.route + [0] * (4 - len(b.state.route))
    assert b.game.st[kg.ST_ROUTE_HOLDER] == b.state.route_holder
    return b.state.route_holder


def test_the_longest_route_card_from_5_pieces_kept_on_a_tie_and_nobodys_after_a_tie_for_the_lead():
    """Seed 002, "C) Barcos e estradas": "O jogador que construa a maior rota de estradas e barcos consecutiva que não
    esteja interrompida por uma aldeia ou cidade de outro jogador obterá esta carta especial"; the base game (research
    note catan_seafarers.md, 'Longest road'): at least 5 pieces, 2 VP; a player who only ties the holder does not
    take it; when the holder's route is broken and others tie for the longest, nobody holds it."""
    assert said("que não esteja interrompida por uma aldeia ou cidade de outro jogador obterá esta carta especial")
    b = _played("new-shores")
    (p0, _), (p1, c1), (p2, _) = _paths(b, [5, 6, 5])
    for e in p0[:4]:
        b.lay(e, 0, ship=False)
    assert routes(b) == -1  # 4 pieces: too short
    b.lay(p0[4], 0, ship=False)
    assert routes(b) == 0 and R.victory_points(b.table, b.state, 0)["longest_route"] == 2
    for e in p1[:5]:
        b.lay(e, 1, ship=False)
    assert routes(b) == 0  # 5 against 5: the holder keeps it
    b.lay(p1[5], 1, ship=False)
    assert routes(b) == 1  # 6: seat 1 passes the holder
    for e in p2:
        b.lay(e, 2, ship=False)
    assert routes(b) == 1
    b.settle(c1[2], 3)  # a rival's settlement cuts seat 1's route to 4: seats 0 and 2 tie at 5
    assert routes(b) == -1 and b.state.route[1] == 4
    assert all(R.victory_points(b.table, b.state, p)["longest_route"] == 0 for p in range(4))
    assert all(kg.total_vp(b.board, b.game, p) == R.total_vp(b.table, b.state, p) for p in range(4))


# ------------------------------------------------------------------------------------------------ the robber
def test_the_robber_crosses_the_sea_to_any_land_hex():
    """Seed 002, "Cenários com o pirata e o ladrão": "O ladrão pode mover-se para qualquer hexágono de terreno
    desejado, ainda que este se encontre separado por mar do terreno em que ele se encontra.\""""
    assert said("O ladrão pode mover-se para qualquer hexágono de terreno desejado, ainda que este se encontre "
                "separado por mar do terreno em que ele se encontra.")
    b = _played("new-shores")
    b.state.phase = b.game.st[kg.ST_PHASE] = R.MOVE_THIEF
    robber = {a for k, a, _ in b.legal() if k == R.MOVE_ROBBER}
    land = {h for h in range(b.topo.n_hex) if not b.topo.hex_frame[h] and R._side(b.state, h) == 1}
    assert robber == land - {b.state.robber}
    island, todo = {b.state.robber}, [b.state.robber]  # the robber's island: land hexes joined by land edges
    while todo:
        h = todo.pop()
        for e in b.topo.hex_edges[h]:
            for g in b.topo.edge_hexes[e] if e >= 0 else ():
                if g >= 0 and g in land and g not in island:
                    island.add(int(g))
                    todo.append(int(g))
    assert robber - island  # hexes across the sea


def test_the_robber_on_a_gold_field_stops_its_picks():
    """Seed 002, "F) ... OURO": "Se o número do hexágono com o filão de ouro sai nos dados, os jogadores que têm
    aldeias nesse hexágono receberão 1 carta de matéria-prima à sua escolha"; the base game: the robber's hex
    produces nothing ("De resto, seguem-se as regras da caixa básica")."""
    assert said("De resto, seguem-se as regras da caixa básica")
    b = _played("new-shores")
    h = next(h for h in range(b.topo.n_hex) if b.state.terrain[h] == GOLD and b.state.number[h] > 0)
    c = next(int(c) for c in b.topo.hex_corners[h] if c >= 0 and b.topo.corner_in_play[c])
    b.settle(c, 1)
    total = b.state.number[h]
    for robber, picks in ((h, 0), (b.table.robber_start, 1)):
        b.state.robber = b.game.st[kg.ST_ROBBER] = robber
        b.state.gold = [0] * 4
        b.game.gold[:] = 0
        R._produce(b.table, b.state, total)
        kg._produce(b.board, b.game, total)
        assert b.state.gold[1] == picks and b.game.gold[1] == picks


# ------------------------------------------------------------------------------------------------ a moved ship
def test_a_moved_ship_never_lands_beside_the_pirate():
    """Seed 002, "E) O pirata": no ship is placed ("colocados") on the pirate's six sides, a moved one neither."""
    assert said(PIRATE_BLOCK)
    b = _played("new-shores")
    c0, chain, _ = sea_chain(b.table, 2)
    b.settle(c0, 0)
    for e in chain:
        b.lay(e, 0)
    targets = {t for k, a, t in b.legal() if k == R.MOVE_SHIP and a == chain[1]}
    # a sea hex beside a target, not beside the moving ship (which it would hold: "nem retirados")
    h = next(int(h) for t in sorted(targets) for h in b.topo.edge_hexes[t] if h >= 0 and b.table.pirate_hexes[h]
             and h not in b.topo.edge_hexes[chain[1]])
    b.state.pirate = b.game.st[kg.ST_PIRATE] = h
    after = {t for k, a, t in b.legal() if k == R.MOVE_SHIP and a == chain[1]}
    side = {int(e) for e in b.topo.hex_edges[h] if e >= 0}
    assert targets & side and not after & side and after == targets - side


# ------------------------------------------------------------------------------------------------ a loop of ships
def test_a_ship_loop_from_a_settlement_back_to_it_has_no_end_ship_to_move():
    """Seed 002, "4. Recolocar barcos": "O barco no extremo de uma rota marítima aberta pode ser retirado"; a loop
    from a settlement round a sea hex back to it links the settlement to no other ("ligue uma aldeia ou cidade a
    outra"), yet has no end: every ship meets the settlement or another ship at both ends, so none moves (the
    loop counts as closed; docs/seafarers/full_game.md). One ship fewer, the loop is open and its last ship moves."""
    assert said("O barco no extremo de uma rota marítima aberta pode ser retirado")
    b = _played("new-shores")
    f = b.table.view.flags
    h, c = next((h, int(c)) for h in range(b.topo.n_hex) if b.table.pirate_hexes[h] and h != b.state.pirate
                for c in b.topo.hex_corners[h] if c >= 0 and f.corner_land[c] and b.topo.corner_in_play[c]
                and all(b.topo.edge_in_play[e] and b.state.pirate not in b.topo.edge_hexes[e]
                        for e in b.topo.hex_edges[h]))
    b.settle(c, 0)
    ring, at = [], c  # the hex's six sides in order from c
    while len(ring) < 6:
        e = next(int(e) for e in b.topo.corner_edges[at] if e >= 0 and e not in ring and e in b.topo.hex_edges[h]
                 and (len(ring) < 5 or c in b.ends(int(e))))
        ring.append(e)
        at = [x for x in b.ends(e) if x != at][0]
    for e in ring[:5]:
        b.lay(e, 0)
    assert [a for k, a, _ in b.legal() if k == R.MOVE_SHIP] != []  # open: its last ship moves
    b.lay(ring[5], 0)
    assert not [a for k, a, _ in b.legal() if k == R.MOVE_SHIP]


# ------------------------------------------------------------------------------------------------ switches
@pytest.mark.parametrize("facing", [False, True])
def test_a_draft_ship_on_a_coast_facing_the_frame_follows_the_option(facing):
    """Seed 002, CENÁRIOS 2 and 3, "Fase de construção": "recomenda-se que construa um barco em vez de uma estrada.
    Como é óbvio, isto é válido apenas nas linhas costeiras a partir das quais se pode viajar até outras ilhas, e não
    nas linhas costeiras que dão para peças de mar que servem de fronteira": advice, not a rule; option
    draft_ship_facing_frame says whether such a ship may go there."""
    assert said("isto é válido apenas nas linhas costeiras a partir das quais se pode viajar até outras ilhas")
    b = _draft("new-shores", 4, rule=[f"draft_ship_facing_frame={str(facing).lower()}"])

    def faces(e):
        sides = R._sides(b.table, e)
        return 1 in [R._side(b.state, h) for h in sides] and any(b.topo.hex_frame[h] for h in sides if h >= 0)

    c, e = next((c, e) for c in b.coastal_sites() for e in R._corner_edges(b.table, c)
                if R._may_ship(b.table, b.state, e) and faces(e) and not R._pirate_blocks(b.table, b.state, e))
    b.step((R.SETTLE, c, 0))
    assert ((R.SHIP, e, 0) in b.legal()) == facing


class Pirates(Both):
    SLUG = "pirate-islands"


@pytest.mark.parametrize("blocks", [False, True])
def test_the_pirate_fleet_blocks_new_ships_on_its_sides_only_with_the_option(blocks):
    """The Pirate Islands give the fleet a move and a raid ("A frota pirata circunda as duas ilhas desertas
    centrais"); the pirate's block of "E) O pirata" is named nowhere for it: option fleet_blocks_ships (default
    false)."""
    assert said(PIRATE_BLOCK) and said("A frota pirata circunda as duas ilhas desertas centrais")
    b = Pirates(rule=[f"fleet_blocks_ships={str(blocks).lower()}"])
    path = list(b.table.fleet_path)
    b.state.fleet = b.game.st[kg.ST_FLEET] = -1  # off the board while the route is laid by hand
    for _ in range(20):
        hit = [(e, path.index(h)) for e in R.route_sites(b.table, b.state, 0) for h in b.topo.edge_hexes[e]
               if h in path]
        if hit:
            break
        e = R.route_sites(b.table, b.state, 0)[0]
        R._place_edge(b.table, b.state, 0, e, True)
        b.state.fort_route[0].append(e)
        b.state.fort_war[0].append(False)
        kg._place_edge(b.board, b.game, 0, e, 1)
        kf.extend(b.board, b.game, 0, e)
    e, i = hit[0]
    b.state.fleet = b.game.st[kg.ST_FLEET] = i
    b.give(0, LUMBER, WOOL)
    assert ((R.SHIP, e, 0) in b.legal()) != blocks
    b.state.fleet = b.game.st[kg.ST_FLEET] = (i + 7) % len(path)  # elsewhere on its path
    if path[(i + 7) % len(path)] not in b.topo.edge_hexes[e]:
        assert (R.SHIP, e, 0) in b.legal()


@pytest.mark.parametrize("four", [False, True])
def test_the_pirate_islands_deck_keeps_its_vp_cards_as_knights(four):
    """CENÁRIO 7: "Se o jogo é com 4 jogadores, as cartas de pontos de vitória são mantidas no baralho, mas contam
    como cartas de cavaleiro" (all the deck's, the base game's 5: the default), then "lembre-se que também contam as
    4 cartas de pontos de vitória" (option pirate_four_vp_cards: the seed's 4); with 3 players they are removed."""
    assert said("as cartas de pontos de vitória são mantidas no baralho, mas contam como cartas de cavaleiro")
    assert said("lembre-se que também contam as 4 cartas de pontos de vitória")
    for players in (3, 4):
        b = Pirates(players, rule=[f"pirate_four_vp_cards={str(four).lower()}"])
        rules = b.table.rules
        assert rules.deck["victory_point"] == 5 and rules.pirate_vp_cards == 4
        kept = 4 if four else 5
        assert R.deck_counts(b.table)["knight"] == rules.deck["knight"] + (kept if players == 4 else 0)
        assert b.state.deck.count(R.KNIGHT) == 14 + (kept if players == 4 else 0)
        assert R.VP_CARD not in b.state.deck
        assert b.game.deck[:b.board.params[kg.P_DECK_LEN]].tolist() == b.state.deck


# ------------------------------------------------------------------------------------------ the Pirate Islands' 7
SEVEN_STEAL = 'Em seguida, o jogador ao qual calhou o "7" poderá roubar uma carta a um jogador à sua escolha.'


@pytest.mark.parametrize("optional", [True, False])
def test_the_pirate_islands_seven_steal_may_be_declined(optional):
    """CENÁRIO 7, "Sai um "7"?": "poderá roubar" (may): with option pirate_seven_steal_optional (default true) the
    roller may also steal nothing; false, the steal is compulsory while a player holds a card."""
    assert said(SEVEN_STEAL) and said("Neste cenário não há ladrão.")
    b = Pirates(rule=[f"pirate_seven_steal_optional={str(optional).lower()}"])
    b.give(1, LUMBER)
    b.give(2, ORE, ORE)
    R._start_thief(b.table, b.state, R.MAIN)  # after a 7's discards
    kg._start_thief(b.board, b.game, kg.MAIN)
    steals = [(R.STEAL_FROM, 1, 0), (R.STEAL_FROM, 2, 0)]
    assert b.legal() == steals + ([(R.NO_STEAL, 0, 0)] if optional else [])
    if optional:
        hands = [list(h) for h in b.state.hands]
        b.step((R.NO_STEAL, 0, 0))
        assert b.state.phase == R.MAIN and b.state.hands == hands


def test_the_built_in_bots_still_steal_on_the_pirate_islands_seven():
    """A steal never costs the thief: the value, planner and rollout bots never decline it (their games are those of
    the compulsory steal), the random bot picks uniformly among the steals and declining."""
    from analyzer.seafarers.full_game import bot_vectors, parse_bot
    from kernels.catan import policies as kp

    b = Pirates()
    b.give(1, LUMBER)
    kg._start_thief(b.board, b.game, kg.MAIN)
    n = kg.legal(b.board, b.game)
    assert b.game.actions[:n].tolist() == [[kg.STEAL_FROM, 1, 0], [kg.NO_STEAL, 0, 0]]
    work = kp.bot_work(b.board)
    for bot in ("value", "planner", "rollout"):
        policies, params = bot_vectors([parse_bot(bot)] * 4)
        assert kp.decide(b.board, b.game, n, policies[0], params[0], np.array([1, 2], np.uint64), work) == 0, bot


# ------------------------------------------------------------------------------------------ the Fog Islands
class Fog(Both):
    SLUG = "fog-islands"


@pytest.mark.parametrize("next_corner", [True, False])
def test_the_fog_is_explored_at_the_corner_a_new_piece_leads_to(next_corner):
    """CENÁRIO 4, "Explorar novos territórios": "Sempre que um jogador construa um barco ou estrada e falte um
    hexágono na encruzilhada seguinte, esse jogador retira um hexágono do monte": the corner the piece leads to
    (option fog_explore_next_corner, default true), not the one it starts from; false: both ends. The readings
    differ where a moved ship (which explores nothing) left the start corner beside fog still hidden."""
    assert said("Sempre que um jogador construa um barco ou estrada e falte um hexágono na encruzilhada seguinte")
    b = Fog(rule=[f"fog_explore_next_corner={str(next_corner).lower()}"])
    topo = b.topo

    def hidden(h):
        return h >= 0 and b.table.fog[h] and b.state.terrain[h] == R.UNKNOWN

    def case():
        """(moved ship's edge, new ship's edge, the fog hex only at their shared corner, one on the new edge)"""
        for c in range(topo.n_corner):
            for e2 in (int(e) for e in topo.corner_edges[c] if e >= 0 and topo.edge_in_play[e]):
                sides = [int(h) for h in topo.edge_hexes[e2]]
                behind = [int(h) for h in topo.corner_hexes[c] if h not in sides]
                ahead = [h for h in sides if hidden(h)]
                if len(behind) != 1 or not hidden(behind[0]) or not ahead or not R._may_ship(b.table, b.state, e2) \
                        or R._pirate_blocks(b.table, b.state, e2):
                    continue
                for e1 in (int(e) for e in topo.corner_edges[c] if e >= 0 and e != e2 and topo.edge_in_play[e]):
                    if R._may_ship(b.table, b.state, e1):
                        return e1, e2, behind[0], ahead[0]
        raise AssertionError("no such corner on the Fog Islands")

    e1, e2, behind, ahead = case()
    terrain, number = b.table.terrain.copy(), b.table.number.copy()  # the printed board leaves the fog undealt
    terrain[[behind, ahead]], number[[behind, ahead]] = FIRST_RESOURCE_TERRAIN, 8  # a forest under both
    b.table = dataclasses.replace(b.table, terrain=terrain, number=number)
    b.board = b.board._replace(terrain=terrain.astype(np.int8), number=number.astype(np.int8))
    # a ship moved to e1 ends there without exploring (a moved ship explores nothing): its far corner touches fog
    b.state.edge_owner[e1], b.state.edge_ship[e1] = 0, True
    b.game.edge_owner[e1], b.game.edge_ship[e1] = 0, 1
    kg._join_edge(b.board, b.game, 0, e1)
    b.give(0, LUMBER, WOOL)
    b.step((R.SHIP, e2, 0))  # from that corner on
    assert b.state.terrain[ahead] != R.UNKNOWN  # the corner it leads to: explored either way
    assert (b.state.terrain[behind] == R.UNKNOWN) == next_corner
    assert b.game.terrain.tolist() == b.state.terrain


# ------------------------------------------------------------------------------------------ cards before the roll
@pytest.mark.parametrize("before", [True, False])
def test_a_progress_card_may_be_played_before_the_roll(before):
    """The seed keeps the base game's rules ("Serão fundamentalmente utilizadas as regras da caixa básica") and says
    nothing of when a development card is played; the base game allows one at any time of one's turn, before the
    roll included (option progress_before_roll, default true). Road building's free pieces then come before the
    roll, and no second card follows."""
    assert said("Serão fundamentalmente utilizadas as regras da caixa básica")
    b = type("P", (Both,), {"SLUG": "new-shores"})(rule=[f"progress_before_roll={str(before).lower()}"])
    c = next(c for c in b.coastal_sites())
    b.settle(c, 0)
    b.state.phase = b.game.st[kg.ST_PHASE] = R.PRE_ROLL
    for card in (R.ROAD_BUILDING, R.YEAR_OF_PLENTY, R.MONOPOLY):
        b.state.cards[0][card] = b.game.cards[0, card] = 1
    kinds = {k for k, _, _ in b.legal()}
    if not before:
        assert kinds == {R.ROLL}
        return
    assert kinds == {R.ROLL, R.PLAY_ROAD_BUILDING, R.PLAY_YEAR_OF_PLENTY, R.PLAY_MONOPOLY}
    b.step((R.PLAY_ROAD_BUILDING, 0, 0))
    for _ in range(2):
        assert b.state.phase == R.FREE_ROADS
        b.step(b.legal()[0])
    assert b.state.phase == R.PRE_ROLL and b.legal() == [(R.ROLL, 0, 0)]  # one card a turn
    assert sum(o == 0 for o in b.state.edge_owner) == 2


def test_the_value_bot_rolls_before_a_progress_card_but_plays_a_knight_off_its_own_hex():
    """The value bots play a progress card only after the roll (what the roll brings tells what to take), and a
    knight before it (the robber off the seat's producing hex before the roll, as before issue 52)."""
    from analyzer.seafarers.full_game import bot_vectors, parse_bot
    from kernels.catan import policies as kp

    b = type("P", (Both,), {"SLUG": "new-shores"})()
    c = next(c for c in b.coastal_sites())
    b.settle(c, 0)
    b.game.st[kg.ST_PHASE] = kg.PRE_ROLL
    for card in (R.ROAD_BUILDING, R.YEAR_OF_PLENTY, R.MONOPOLY):
        b.game.cards[0, card] = 1
    work = kp.bot_work(b.board)
    for bot, knight, want in (("value", 0, kg.ROLL), ("planner", 0, kg.ROLL), ("value", 1, kg.PLAY_KNIGHT)):
        b.game.cards[0, kg.KNIGHT] = knight
        h = next(int(h) for h in b.topo.corner_hexes[c] if h >= 0 and b.game.number[h] > 0)
        b.game.st[kg.ST_ROBBER] = h  # on the seat's own producing hex
        n = kg.legal(b.board, b.game)
        policies, params = bot_vectors([parse_bot(bot)] * 4)
        i = kp.decide(b.board, b.game, n, policies[0], params[0], np.array([1, 2], np.uint64), work)
        assert b.game.actions[i, 0] == want, bot
