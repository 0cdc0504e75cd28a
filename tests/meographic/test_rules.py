"""Every rule of the Cational Meographic rulebook (docs/rulebooks/004_4d0bc359b3cf64f1.txt) on a hand-built
position of the pure-Python reference, its words quoted; the defaults where it is silent: docs/meographic/rules.md."""

import pytest

from analyzer.errors import UserError
from analyzer.meographic import reference as ref
from analyzer.meographic.rules import column_names, default_rules, load_rules

RULES = default_rules()
T = {code: i for i, code in enumerate(RULES.type_codes)}
MISSION = {m.id: k for k, m in enumerate(RULES.missions)}


def tile(code: str, points: int, nth: int = 0) -> int:
    """The id of the nth tile of that type and points in the default set."""
    ids = [i for i in range(RULES.n_tiles) if RULES.tile_type[i] == T[code] and RULES.tile_points[i] == points]
    return ids[nth]


def area(*cells) -> dict:
    """{(r, c): tile} from (r, c, type code, points) rows."""
    return {(r, c): tile(code, p, k) for k, (r, c, code, p) in enumerate(cells)}


def test_adjacency_pays_neighbours_of_the_same_type_with_equal_or_fewer_points():
    """"Para cada peça adjacente com o mesmo tipo de paisagem e igual ou menos Patas-Pontos do que a peça
    recém-colocada, os jogadores ganham seus Patas-Pontos base. Nenhum Pata-Ponto é ganho por peças adjacentes
    que tenham um tipo de paisagem diferente OU um valor de Pata-Ponto maior\""""
    a = area((19, 20, "F", 2), (21, 20, "F", 3), (20, 19, "M", 1), (20, 21, "F", 1))
    got = ref.score_placement(RULES, a, tile("F", 2, 1), (20, 20), [])
    assert (got.tile, got.adjacency) == (2, 2 + 1)  # the equal 2 and the lower 1; not the 3, not the mountain
    got = ref.score_placement(RULES, a, tile("F", 4), (20, 20), [])
    assert (got.tile, got.adjacency) == (4, 2 + 3 + 1)
    got = ref.score_placement(RULES, a, tile("F", 1, 1), (20, 20), [])
    assert got.adjacency == 1


def test_a_mission_counts_rotated_or_mirrored_and_must_include_the_new_tile():
    """"A forma é válida mesmo que seja uma versão girada ou espelhada do padrão exigido ... A forma completa deve
    incluir a peça recém-colocada." m06 is FL / F.; its mirror LF / .F is laid here."""
    columns = [[MISSION["m06"], None]]
    a = area((20, 20, "L", 1), (21, 21, "F", 1))
    got = ref.score_placement(RULES, a, tile("F", 2), (20, 21), columns)
    assert got.mission == 8 and got.cards == [MISSION["m06"]]
    assert ref.shape_done(RULES, {**a, (20, 21): tile("F", 2)}, MISSION["m06"], (20, 20))
    # complete already, but not through the new tile: nothing
    full = area((20, 20, "L", 1), (21, 21, "F", 1), (20, 21, "F", 2))
    got = ref.score_placement(RULES, full, tile("C", 1), (19, 19), columns)
    assert got.mission == 0


def test_two_cards_completed_at_once_score_separately_and_a_card_once():
    """"Os jogadores pontuam Patas-Pontos apenas uma vez por carta ... mesmo que várias formas na mesma carta
    sejam completadas ... separadamente para cada carta ... cuja forma é completada simultaneamente.\""""
    columns = [[MISSION["m01"], None], [MISSION["m06"], None]]
    # F F _ F F: the new forest completes FFF twice (left and right) and m06 with the lake below it
    a = area((20, 18, "F", 1), (20, 19, "F", 1), (20, 21, "F", 1), (20, 22, "F", 1), (21, 20, "L", 1))
    got = ref.score_placement(RULES, a, tile("F", 1, 5), (20, 20), columns)
    assert got.mission == 6 + 8 and sorted(got.cards) == sorted([MISSION["m01"], MISSION["m06"]])


def test_a_covered_card_scores_nothing_and_pays_its_points_through_the_covering_card():
    """"Uma carta coberta não concederá Patas-Pontos por completar seu padrão. Em vez disso, a carta que a cobre
    concederá Patas-Pontos de bônus iguais aos da carta coberta.\""""
    columns = [[MISSION["m03"], MISSION["m01"]]]  # MMM covers FFF
    forest = area((20, 19, "F", 1), (20, 21, "F", 1))
    assert ref.score_placement(RULES, forest, tile("F", 1, 2), (20, 20), columns).mission == 0
    mountains = area((20, 19, "M", 1), (20, 21, "M", 1))
    got = ref.score_placement(RULES, mountains, tile("M", 1, 2), (20, 20), columns)
    assert (got.mission, got.bonus) == (6, 6)


def _state(bag_codes, players=1):
    bag = [tile(code, 1, k) for k, code in enumerate(bag_codes)]
    state = ref.State(players=players, bag=bag)
    state.hands = [[None, None] for _ in range(players)]
    state.areas = [{} for _ in range(players)]
    state.points = [ref.Points() for _ in range(players)]
    state.scored = [set() for _ in range(players)]
    state.columns, state.completed, state.revealed = [[0, None]], [0] * 15, [0] * 15
    return state


def test_the_refill_puts_identical_types_on_one_pile_until_three_distinct_types_stand():
    """"se peças de paisagem idênticas forem compradas, elas são colocadas na mesma pilha. Isso continua até que
    três tipos distintos de peças de paisagem sejam reabastecidos para formar três pilhas separadas.\""""
    state = _state(["F", "F", "M", "F", "L", "C"])
    ref.refill(state, RULES)
    assert [[RULES.type_codes[RULES.tile_type[t]] for t in p] for p in state.piles] == [["L"], ["M"], ["F", "F", "F"]]
    assert state.bag_pos == 5  # the campo stays in the bag


def test_three_piles_left_after_a_take_draw_nothing():
    """"Se restarem três pilhas de suprimentos depois que um jogador pegar uma peça de paisagem, não compre uma
    nova." (two players: no solo discard)"""
    state = _state(["F", "F", "M", "L", "C", "P"], players=2)
    ref.refill(state, RULES)
    state.hands[0][0] = tile("P", 2)
    ref.step(state, RULES, (ref.EXPLORE, 2, 0, 0))  # one forest of two
    assert state.bag_pos == 4 and [len(p) for p in state.piles] == [1, 1, 1]
    ref.step(state, RULES, (ref.PLACE, 1, ref.CENTRE, ref.CENTRE))
    ref.step(state, RULES, (ref.EXPLORE, 2, 0, 0))  # the last forest: refill with the campo
    assert state.bag_pos == 5
    assert [RULES.type_codes[RULES.tile_type[p[0]]] for p in state.piles] == ["C", "L", "M"]


def test_solo_discards_from_the_rightmost_pile_and_moves_the_rest_right():
    """"descarte a peça superior da pilha mais à direita. Se a pilha mais à direita ficar vazia, mova a pilha
    restante para a extrema direita. Em seguida, reabasteça novas peças de paisagem até que três tipos distintos
    sejam formados.\""""
    state = _state(["F", "M", "L", "L", "C", "P"])
    ref.refill(state, RULES)  # piles: L | M | F (first drawn stands rightmost)
    assert [RULES.type_codes[RULES.tile_type[p[0]]] for p in state.piles] == ["L", "M", "F"]
    state.hands[0][0] = tile("P", 3)
    ref.step(state, RULES, (ref.EXPLORE, 3, 0, 0))  # blind: the second lake joins nothing, it is drawn
    # the forest (rightmost) is discarded and empties: lake and mountain move right, the campo enters left
    assert state.discarded == 1
    assert [RULES.type_codes[RULES.tile_type[p[0]]] for p in state.piles] == ["C", "L", "M"]
    assert RULES.type_codes[RULES.tile_type[state.hands[0][1]]] == "L"


def test_the_first_tile_anywhere_then_edge_adjacent_and_either_held_tile():
    """"A primeira peça pode ser colocada livremente. Exceto pela primeira peça, cada peça subsequente deve ser
    colocada adjacente a peças existentes"; the player holds the hand and the explored tile and places one
    (docs/meographic/rules.md)."""
    state = ref.init(RULES, 1, 5, 0)
    acts = ref.legal(state, RULES)
    assert acts == [(ref.EXPLORE, 0, 0, 0), (ref.EXPLORE, 1, 0, 0), (ref.EXPLORE, 2, 0, 0), (ref.EXPLORE, 3, 0, 0)]
    ref.step(state, RULES, acts[0])
    assert ref.legal(state, RULES) == [(ref.PLACE, 0, 20, 20), (ref.PLACE, 1, 20, 20)]
    hand, explored = state.hands[0]
    ref.step(state, RULES, (ref.PLACE, 0, 20, 20))
    assert state.hands[0] == [explored, None]  # the explored tile is the new hand
    ref.step(state, RULES, ref.legal(state, RULES)[0])
    cells = {(r, c) for _, _, r, c in ref.legal(state, RULES)}
    assert cells == {(19, 20), (20, 19), (20, 21), (21, 20)}


def test_the_mission_update_is_done_by_the_last_player_and_moves_one_step_right():
    """"A etapa de Atualização de Missão é realizada apenas pelo último jogador da rodada ... Se uma carta
    estiver semi-coberta por uma carta acima dela, mova essa carta. Caso contrário, mova a carta superior da
    pilha ... mais à esquerda ... Se houver uma carta à sua direita, cubra seu padrão ... Caso contrário,
    coloque a carta no espaço vazio para formar uma nova pilha.\""""
    state = ref.init(RULES, 2, 1, 0)
    first, pile = state.columns[0][0], list(state.mission_pile)
    for _ in range(2):  # seat 1 explores and places: no update yet
        ref.step(state, RULES, ref.legal(state, RULES)[0])
    assert state.columns == [[first, None]] and state.seat == 1
    for _ in range(2):  # seat 2, the last: the pile's top card covers column 1
        ref.step(state, RULES, ref.legal(state, RULES)[0])
    assert state.columns == [[pile[0], first]] and state.round == 1
    ref.mission_update(state)  # the half-covered card moves right: a new column
    assert state.columns == [[pile[0], None], [first, None]]
    ref.mission_update(state)
    assert state.columns == [[pile[1], pile[0]], [first, None]]
    ref.mission_update(state)  # the half-covered card covers the card to its right
    assert state.columns == [[pile[1], None], [pile[0], first]]


def test_21_rounds_then_the_most_points_wins_ties_shared():
    """"O jogo consiste em 21 rodadas ... o jogador com o maior total de Patas-Pontos vence o jogo.\""""
    for players in (1, 3):
        state, played = ref.play(RULES, players, 2, 0, lambda s, acts: 0)
        assert state.round == 21 and len(state.areas[0]) == 21 and len(played) == 2 * 21 * players
        out = dict(zip(column_names(15), ref.result(state, RULES)))
        scores = [out[f"score_{s + 1}"] for s in range(players)]
        assert [out[f"win_{s + 1}"] for s in range(players)] == [int(x == max(scores)) for x in scores]
        assert out["top_seats"] == scores.count(max(scores))
        assert sum(out[f"{w}_1"] for w in ("tile", "adjacency", "mission", "bonus")) == out["score_1"]


def test_orientations_are_the_distinct_rotations_and_mirrors():
    n = {m.id: len(m.orientations) for m in RULES.missions}
    assert n["m01"] == 2 and n["m06"] == 8 and n["m09"] == 4 and n["m12"] == 4 and n["m14"] == 2


@pytest.mark.parametrize("text,needle", [
    ('[[missions]]\nid = "x"\nshape = ["FQ"]\npoints = 3\n', "missions[0] (id x): shape cell 'Q'"),
    ('[[missions]]\nid = "x"\nshape = ["F.", ".F"]\npoints = 3\n', "edge-connected"),
    ('[[missions]]\nid = "x"\nshape = ["FF", "F"]\npoints = 3\n', "one length"),
    ('[[missions]]\nid = "x"\nshape = ["FF"]\npoints = 2.5\n', "points must be a whole number"),
    ('[[types]]\ncode = "F"\n[[types]]\ncode = "M"\n[[types]]\ncode = "L"\n'
     '[[tiles]]\ntype = "Z"\npoints = 1\n', "tiles[0]: type 'Z'"),
    ('[[types]]\ncode = "F"\n', "tiles: missing"),
    ('colour = 1\n', "unknown key 'colour' in the top level"),
    ('[[missions\n', "invalid TOML"),
])
def test_a_bad_rules_file_is_one_line_naming_file_entry_and_problem(tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UserError) as err:
        load_rules(path)
    message = str(err.value)
    assert "\n" not in message and path.name in message and needle in message, message


def test_a_designers_missions_replace_the_default_ones_only(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[[missions]]\nid = "duo"\nshape = ["FM"]\npoints = 3\n')
    rules = load_rules(path)
    assert [m.id for m in rules.missions] == ["duo"] and rules.n_tiles == 100
    assert len(rules.missions[0].orientations) == 4


# --------------------------------------------------------------------------- the bag, the last update, repeats

def test_an_empty_bag_stops_the_refill_short_then_offers_no_blind_draw_then_nothing():
    """"Após esta ação, se o número de pilhas de suprimentos cair abaixo de três, compre peças do saco para
    reabastecê-las para três pilhas." The rulebook never says the bag runs out ("Embaralhe as 100 Peças de Paisagem
    e coloque-as no Saco de Compra"); its default (docs/meographic/rules.md, "an empty bag"): the refill stops
    short, no blind draw is offered, with nothing left a player takes nothing and one holding no tile passes."""
    state = _state(["F", "M", "L"], players=2)
    ref.refill(state, RULES)
    assert [len(p) for p in state.piles] == [1, 1, 1] and state.bag_left() == 0 and state.bag_out == 1
    state.round = 16
    assert ref.legal(state, RULES) == [(ref.EXPLORE, i, 0, 0) for i in range(3)]  # no (EXPLORE, 3): the bag
    ref.step(state, RULES, (ref.EXPLORE, 2, 0, 0))  # the refill finds no tile: two piles stand
    assert [len(p) for p in state.piles] == [0, 1, 1] and state.bag_out == 1
    ref.step(state, RULES, (ref.PLACE, 1, ref.CENTRE, ref.CENTRE))
    state.piles = [[], [], []]
    assert ref.legal(state, RULES) == [(ref.EXPLORE, 4, 0, 0)]  # no pile, no bag: take nothing
    ref.step(state, RULES, (ref.EXPLORE, 4, 0, 0))
    assert state.hands[1] == [None, None] and ref.legal(state, RULES) == [(ref.PASS, 0, 0, 0)]


def test_the_round_in_which_the_bag_ran_out_is_recorded():
    """The result column bag_out: the round (from 1) of the bag's last draw, 0 while tiles remain."""
    state = _state(["F", "M", "L", "C", "P"], players=2)
    ref.refill(state, RULES)
    assert state.bag_left() == 2 and state.bag_out == 0
    state.round = 16
    state.hands[0][0] = tile("P", 2)
    ref.step(state, RULES, (ref.EXPLORE, 3, 0, 0))
    assert state.bag_out == 0
    ref.step(state, RULES, (ref.PLACE, 1, ref.CENTRE, ref.CENTRE))
    ref.step(state, RULES, (ref.EXPLORE, 3, 0, 0))
    assert state.bag_left() == 0 and state.bag_out == 17
    out = dict(zip(column_names(15), ref.result(state, RULES)))
    assert out["bag_out"] == 17


def test_a_card_turned_up_after_the_last_round_is_not_counted_as_revealed():
    """"O jogo consiste em 21 rodadas ... 4. Atualização de Missão (somente realizada pelo último jogador da
    rodada)" and "O jogo termina após 21 rodadas terem sido completadas": the update of round 21 still turns a
    card up, but no placement follows, so it could never be completed: it does not count as revealed (a mission
    completion rate is completions over the games a card was open to a photo)."""
    state = ref.init(RULES, 1, 3, 0)
    first, (p0, p1) = state.columns[0][0], state.mission_pile[:2]
    state.round = ref.ROUNDS - 2  # round 20 of 21: the pile's top card covers column 1; a placement follows
    ref.mission_update(state)
    assert state.columns == [[p0, first]] and state.revealed[p0] == 1
    state.columns = [[p0, None], [first, None]]  # none half-covered: the next update takes the pile's top card
    state.round = ref.ROUNDS - 1  # the 21st round's update
    ref.mission_update(state)
    assert state.columns[0] == [p1, p0] and state.revealed[p1] == 0
    final, _ = ref.play(RULES, 2, 4, 1, lambda s, acts: 0)
    assert sum(final.revealed) == 6  # the first card and the updates after rounds 1, 3, 6, 10, 15; not 21


def test_a_card_pays_a_seat_once_a_game_by_default_or_again_with_the_switch():
    """"Os jogadores pontuam Patas-Pontos apenas uma vez por carta de missão fotográfica, mesmo que várias formas
    na mesma carta sejam completadas." Read literally (the default card_scores_once = true): a seat scores each card
    once a game; a second FFF through a new forest later pays nothing. With --rule card_scores_once=false it pays
    again."""
    once = load_rules(rule=["card_scores_once=true"])
    again = load_rules(rule={"card_scores_once": False})
    assert once.card_scores_once and RULES.card_scores_once and not again.card_scores_once
    got = {}
    for name, rules in (("once", once), ("again", again)):
        state = _state([], players=2)
        state.columns = [[MISSION["m01"], None]]
        state.areas[0] = area((20, 19, "F", 1), (20, 20, "F", 1))
        for at, nth in (((20, 21), 5), ((20, 22), 6)):  # F F [F]: FFF; then F F F [F]: FFF again, through it
            state.hands[0] = [tile("F", 1, nth), None]
            state.seat, state.phase = 0, ref.PLACE
            ref.step(state, rules, (ref.PLACE, 0, *at))
        got[name] = (state.points[0].mission, state.completed[MISSION["m01"]], state.scored[0])
    assert got["once"] == (6, 1, {MISSION["m01"]})
    assert got["again"] == (12, 2, {MISSION["m01"]})


def test_once_a_game_a_spent_covering_card_pays_no_bonus_and_other_seats_still_score_it():
    """"a carta que a cobre concederá Patas-Pontos de bônus iguais aos da carta coberta": the bonus comes with
    the covering card's scoring, so a covering card the seat has scored pays neither; another seat scores it."""
    columns = [[MISSION["m03"], MISSION["m01"]]]  # MMM covers FFF
    mountains = area((20, 19, "M", 1), (20, 21, "M", 1))
    spent = {MISSION["m03"]}
    got = ref.score_placement(RULES, mountains, tile("M", 1, 2), (20, 20), columns, spent)
    assert (got.mission, got.bonus, got.cards) == (0, 0, [])
    got = ref.score_placement(RULES, mountains, tile("M", 1, 2), (20, 20), columns, set())
    assert (got.mission, got.bonus) == (6, 6)


def test_a_card_with_several_shapes_is_completed_by_any_and_pays_once(tmp_path):
    """"mesmo que várias formas na mesma carta sejam completadas": a card printing FFF and FF / F. (shapes = [...])
    is completed by either; completing both with one tile pays the card once."""
    path = tmp_path / "two_shapes.toml"
    path.write_text('[[missions]]\nid = "both"\nshapes = [["FFF"], ["FF", "F."]]\npoints = 9\n', "utf-8")
    rules = load_rules(path)
    card = rules.missions[0]
    assert card.shapes == (("FFF",), ("FF", "F.")) and card.shape == "FFF or FF / F."
    assert len(card.orientations) == 2 + 4  # FFF's two, the L-tromino's four
    columns = [[0, None]]
    line = area((20, 19, "F", 1), (20, 21, "F", 1))
    assert ref.score_placement(rules, line, tile("F", 1, 2), (20, 20), columns).mission == 9
    corner = area((20, 21, "F", 1), (21, 20, "F", 1))
    assert ref.score_placement(rules, corner, tile("F", 1, 2), (20, 20), columns).mission == 9
    both = area((20, 19, "F", 1), (20, 21, "F", 1), (21, 20, "F", 1))  # a line and corners at once
    got = ref.score_placement(rules, both, tile("F", 1, 3), (20, 20), columns)
    assert got.mission == 9 and got.cards == [0]
    again = load_rules(path).data  # the job spec's copy keeps both shapes
    assert again["missions"][0]["shapes"] == [["FFF"], ["FF", "F."]]
