"""Cational Meographic in slow, obvious Python: the step contract (init, legal, step, terminal, result) that
the numba kernel (kernels/meographic/) must match game for game, draw for draw.

Every rule is the seed's (docs/rulebooks/004_4d0bc359b3cf64f1.txt); the defaults where it is silent are in
docs/meographic/rules.md. Actions are (kind, a, b, c):

    (EXPLORE, a, 0, 0)  a = 0, 1, 2: the top tile of the pile in that slot (left to right); 3: blind from the
                        bag; 4: nothing (no pile stands and the bag is empty)
    (PLACE, a, r, c)    held tile a (0 the hand, 1 the explored tile) to row r, column c of the own area
    (PASS, 0, 0, 0)     no tile held: no photo

listed by `legal` in that order: piles left to right then the bag; held slot 0 then 1, cells row by row.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from analyzer.meographic.rules import ANY, MAX_PLAYERS, RuleSet
from analyzer.rng_reference import GOLDEN, U64, Stream, mix64

EXPLORE, PLACE, PASS = 0, 1, 2
ACTION_NAMES = ("explore", "place", "pass")
ROUNDS = 21  # "O jogo consiste em 21 rodadas"
SUPPLY_PILES = 3  # "Continue comprando até haver 3 pilhas"
GRID = 41  # 21 tiles from the centre never reach the edge
CENTRE = GRID // 2
PURPOSE_DECK = 0  # kernels/rng.py: mission cards, then the bag
PURPOSE_POLICY = 1
PURPOSE_ROLLOUT = 7  # the rollout's determinizations (kernels/meographic/engine.py)
N_POINTS = 10  # a tile's class, what a seat tells apart: type * N_POINTS + points
MAX_K = 64  # the rollout's continuations per candidate at most
NEIGHBOURS = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dataclass
class Points:
    tile: int = 0
    adjacency: int = 0
    mission: int = 0
    bonus: int = 0
    cards: list = field(default_factory=list)  # the cards that scored

    @property
    def total(self) -> int:
        return self.tile + self.adjacency + self.mission + self.bonus


@dataclass
class State:
    players: int
    bag: list  # tile ids in draw order
    bag_pos: int = 0
    piles: list = field(default_factory=lambda: [[] for _ in range(SUPPLY_PILES)])  # per slot: bottom..top
    hands: list = field(default_factory=list)  # per seat [hand, explored], None where empty
    areas: list = field(default_factory=list)  # per seat {(r, c): tile}
    mission_pile: list = field(default_factory=list)  # card indices, next first
    columns: list = field(default_factory=list)  # per column [top card, half-covered card or None]
    points: list = field(default_factory=list)  # per seat Points
    completed: list = field(default_factory=list)  # per card
    revealed: list = field(default_factory=list)
    discarded: int = 0
    discards: list = field(default_factory=list)  # the solo discards, face up
    bag_out: int = 0  # the round (from 1) in which the bag's last tile was drawn; 0 while tiles remain
    scored: list = field(default_factory=list)  # per seat the set of cards it has scored
    round: int = 0
    seat: int = 0
    phase: int = EXPLORE

    def bag_left(self) -> int:
        return len(self.bag) - self.bag_pos


def shuffled(n: int, stream: Stream) -> list:
    """Fisher-Yates from the top: the kernel's order."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def draw(state: State):
    if state.bag_left() == 0:
        return None
    state.bag_pos += 1
    if state.bag_left() == 0:  # the bag's last tile: from here the refill stops short (rules.md "an empty bag")
        state.bag_out = state.round + 1
    return state.bag[state.bag_pos - 1]


def pack_right(state: State) -> None:
    """"mova a pilha restante para a extrema direita": standing piles slide right, keeping their order."""
    standing = [p for p in state.piles if p]
    state.piles = [[] for _ in range(SUPPLY_PILES - len(standing))] + standing


def refill(state: State, rules: RuleSet) -> None:
    """"se peças de paisagem idênticas forem compradas, elas são colocadas na mesma pilha ... até que três tipos
    distintos": draw until 3 piles stand; a tile of a standing pile's type joins it, any other type starts a
    pile left of the standing ones."""
    pack_right(state)
    while sum(1 for p in state.piles if p) < SUPPLY_PILES:
        tile = draw(state)
        if tile is None:
            return
        same = [p for p in state.piles if p and rules.tile_type[p[0]] == rules.tile_type[tile]]
        if same:
            same[0].append(tile)
        else:
            free = max(i for i, p in enumerate(state.piles) if not p)
            state.piles[free].append(tile)


def init(rules: RuleSet, players: int, seed: int, game: int) -> State:
    stream = Stream(seed, game, PURPOSE_DECK)
    cards = shuffled(len(rules.missions), stream)
    bag = shuffled(rules.n_tiles, stream)
    state = State(players=players, bag=bag)
    state.mission_pile = cards[1:]
    state.columns = [[cards[0], None]]
    state.completed = [0] * len(rules.missions)
    state.revealed = [0] * len(rules.missions)
    state.revealed[cards[0]] = 1
    refill(state, rules)
    state.hands = [[draw(state), None] for _ in range(players)]
    state.areas = [{} for _ in range(players)]
    state.points = [Points() for _ in range(players)]
    state.scored = [set() for _ in range(players)]
    return state


def legal_cells(area: dict) -> list:
    if not area:
        return [(CENTRE, CENTRE)]
    cells = {(r + dr, c + dc) for r, c in area for dr, dc in NEIGHBOURS}
    return sorted(cell for cell in cells if cell not in area)


def legal(state: State, rules: RuleSet) -> list:
    if terminal(state):
        return []
    if state.phase == EXPLORE:
        acts = [(EXPLORE, i, 0, 0) for i in range(SUPPLY_PILES) if state.piles[i]]
        if state.bag_left():
            acts.append((EXPLORE, 3, 0, 0))
        return acts or [(EXPLORE, 4, 0, 0)]
    held = state.hands[state.seat]
    cells = legal_cells(state.areas[state.seat])
    acts = [(PLACE, k, r, c) for k in (0, 1) if held[k] is not None for r, c in cells]
    return acts or [(PASS, 0, 0, 0)]


def shape_done(rules: RuleSet, area: dict, mission: int, at: tuple) -> bool:
    """Some rotation or mirror of the card's shape lies on the area, a cell of it on `at`, every cell on a tile
    of the type it needs."""
    for orient in rules.missions[mission].orientations:
        for r0, c0, _ in orient:
            placed = [(at[0] + r - r0, at[1] + c - c0, t) for r, c, t in orient]
            if all((r, c) in area and (t == ANY or rules.tile_type[area[(r, c)]] == t) for r, c, t in placed):
                return True
    return False


def score_placement(rules: RuleSet, area: dict, tile: int, at: tuple, columns: list, spent=frozenset()) -> Points:
    """What placing `tile` on `at` of `area` (not yet holding it) scores, with the mission row `columns`; the
    cards in `spent` (those the seat has scored, under the rule card_scores_once) pay nothing."""
    kind, pts = rules.tile_type[tile], rules.tile_points[tile]
    got = Points(tile=pts)
    for dr, dc in NEIGHBOURS:
        other = area.get((at[0] + dr, at[1] + dc))
        if other is not None and rules.tile_type[other] == kind and rules.tile_points[other] <= pts:
            got.adjacency += rules.tile_points[other]
    after = {**area, at: tile}
    for top, under in columns:
        if top not in spent and shape_done(rules, after, top, at):
            got.mission += rules.missions[top].points
            got.cards.append(top)
            if under is not None:
                got.bonus += rules.missions[under].points
    return got


def spent(rules: RuleSet, state: State, seat: int):
    """The cards that no longer pay the seat: those it scored, under card_scores_once ("apenas uma vez por carta
    de missão fotográfica"); none otherwise."""
    return state.scored[seat] if rules.card_scores_once else frozenset()


def mission_update(state: State) -> None:
    """"Se uma carta estiver semi-coberta ... mova essa carta. Caso contrário, mova a carta superior da pilha ...
    mais à esquerda. Mova a carta para a direita. Se houver uma carta à sua direita, cubra seu padrão ...
    Caso contrário, coloque a carta no espaço vazio para formar uma nova pilha.\""""
    covered = [i for i, (_, under) in enumerate(state.columns) if under is not None]
    if covered:
        i = covered[0]
        card, state.columns[i][1] = state.columns[i][1], None
        to = i + 1
    elif state.mission_pile:
        card = state.mission_pile.pop(0)
        to = 0
        if state.round + 1 < ROUNDS:  # (turned up after the last placement, it could never be completed)
            state.revealed[card] = 1
    else:
        return
    if to < len(state.columns):
        state.columns[to] = [card, state.columns[to][0]]
    else:
        state.columns.append([card, None])


def step(state: State, rules: RuleSet, action: tuple) -> None:
    kind, a, r, c = action
    seat = state.seat
    if kind == EXPLORE:
        tile = state.piles[a].pop() if a < SUPPLY_PILES else draw(state) if a == 3 else None
        state.hands[seat][1] = tile
        if state.players == 1:  # "descarte a peça superior da pilha mais à direita"
            standing = [p for p in state.piles if p]
            if standing:
                state.discards.append(standing[-1].pop())
                state.discarded += 1
        refill(state, rules)
        state.phase = PLACE
        return
    if kind == PLACE:
        held = state.hands[seat]
        tile, other = held[a], held[1 - a]
        area = state.areas[seat]
        got = score_placement(rules, area, tile, (r, c), state.columns, spent(rules, state, seat))
        area[(r, c)] = tile
        p = state.points[seat]
        p.tile += got.tile
        p.adjacency += got.adjacency
        p.mission += got.mission
        p.bonus += got.bonus
        for card in got.cards:
            state.completed[card] += 1
            state.scored[seat].add(card)
        state.hands[seat] = [other, None]
    state.phase = EXPLORE
    if seat + 1 < state.players:
        state.seat += 1
        return
    mission_update(state)  # "somente realizada pelo último jogador da rodada"
    state.seat = 0
    state.round += 1


def terminal(state: State) -> bool:
    return state.round >= ROUNDS


def result(state: State, rules: RuleSet) -> list:
    """The values of rules.column_names(len(rules.missions)), in order."""
    scores = [p.total for p in state.points]
    top = max(scores)
    pad = [0] * (MAX_PLAYERS - state.players)
    out = scores + pad
    for what in ("tile", "adjacency", "mission", "bonus"):
        out += [getattr(p, what) for p in state.points] + pad
    out += [int(s == top) for s in scores] + pad
    out += [scores.count(top), state.discarded, state.bag_out]
    return out + list(state.completed) + list(state.revealed)


def play(rules: RuleSet, players: int, seed: int, game: int, choose) -> tuple[State, list]:
    """A whole game; `choose(state, actions) -> index` picks each move. Returns the final state and the
    actions played."""
    state = init(rules, players, seed, game)
    played = []
    while not terminal(state):
        acts = legal(state, rules)
        action = acts[choose(state, acts)]
        played.append(action)
        step(state, rules, action)
    return state, played


# --------------------------------------------------------------------------- the bots' rules, plainly

def random_chooser(seed: int, game: int):
    """The kernel's random bot: uniform over the legal actions from the policy stream (none drawn for one)."""
    stream = Stream(seed, game, PURPOSE_POLICY)
    return lambda state, acts: 0 if len(acts) == 1 else stream.below(len(acts))


def greedy_choice(rules: RuleSet):
    """The kernel's greedy bot: the most immediate points; explore takes the pile whose top tile (or the hand)
    scores most on its best cell, the bag only when no pile stands; the first action on ties."""
    def placed_value(state, tile):
        area, done = state.areas[state.seat], spent(rules, state, state.seat)
        return max(score_placement(rules, area, tile, cell, state.columns, done).total for cell in legal_cells(area))

    def choose(state, acts):
        if len(acts) == 1:
            return 0
        if state.phase == PLACE:
            area, done = state.areas[state.seat], spent(rules, state, state.seat)
            values = [score_placement(rules, area, state.hands[state.seat][a], (r, c), state.columns, done).total
                      for _, a, r, c in acts]
            return values.index(max(values))
        hand = state.hands[state.seat][0]
        hand_value = placed_value(state, hand) if hand is not None else -1
        values = [max(hand_value, placed_value(state, state.piles[a][-1])) if a < SUPPLY_PILES else hand_value
                  for _, a, _, _ in acts]
        return values.index(max(values))
    return choose


def type_chances(rules: RuleSet, state: State, seat: int, look: float) -> list:
    """The planner's chance of meeting each type among `look` tiles the seat has not seen: 1 - (1 - q)^look, q the
    type's share of them (the set less every area, the discards, the piles and the seat's own tiles)."""
    unseen = []
    for t in range(rules.n_types):
        n = sum(1 for k in rules.tile_type if k == t)
        n -= sum(1 for area in state.areas for tile in area.values() if rules.tile_type[tile] == t)
        n -= sum(1 for tile in state.discards if rules.tile_type[tile] == t)
        n -= sum(len(p) for p in state.piles if p and rules.tile_type[p[0]] == t)
        n -= sum(1 for tile in state.hands[seat] if tile is not None and rules.tile_type[tile] == t)
        unseen.append(float(max(n, 0)))
    total = 0.0
    for n in unseen:
        total += n
    return [1.0 - (1.0 - (n / total if total > 0 else 0.0)) ** look for n in unseen]


def partial_value(rules: RuleSet, state: State, area: dict, at: tuple, kind: int, chance: list) -> float:
    """Per uncovered card that can still pay the seat, its best shape through a tile of type `kind` on `at` that no
    tile blocks and that still misses a tile: the card's points times the chance of every missing type."""
    value = 0.0
    done = spent(rules, state, state.seat)
    for top, _ in state.columns:
        if top in done:
            continue
        best = 0.0
        for orient in rules.missions[top].orientations:
            for k, (r0, c0, need) in enumerate(orient):
                if need != ANY and need != kind:
                    continue
                p, missing = 1.0, 0
                for j, (r, c, want) in enumerate(orient):
                    if j == k:
                        continue
                    tile = area.get((at[0] + r - r0, at[1] + c - c0))
                    if tile is None:
                        missing += 1
                        if want != ANY:
                            p *= chance[want]
                    elif want != ANY and rules.tile_type[tile] != want:
                        p = 0.0
                        break
                if missing > 0 and p > best:
                    best = p
        value += best * rules.missions[top].points
    return value


def plan_value(rules: RuleSet, state: State, at: tuple, tile: int, params: dict, chance: list) -> float:
    """The planner's value of `tile` on `at` of the seat to move: its points now, adj x its points per open side
    times the chance of its type, mission x the partial shapes through it."""
    area = state.areas[state.seat]
    kind, pts = rules.tile_type[tile], rules.tile_points[tile]
    v = float(score_placement(rules, area, tile, at, state.columns, spent(rules, state, state.seat)).total)
    sides = sum(1 for dr, dc in NEIGHBOURS if (at[0] + dr, at[1] + dc) not in area)
    v += params["adj"] * pts * sides * chance[kind]
    return v + params["mission"] * partial_value(rules, state, area, at, kind, chance)


def unseen_tiles(rules: RuleSet, state: State, seat: int) -> list:
    """The tiles the seat has not seen, known by count per class (type, points): the set less every area, the
    piles, its own tiles and the discards; as each class's lowest tile id, in class order."""
    def cls(tile):
        return rules.tile_type[tile] * N_POINTS + rules.tile_points[tile]

    count, lowest = {}, {}
    for tile in range(rules.n_tiles):
        count[cls(tile)] = count.get(cls(tile), 0) + 1
        lowest.setdefault(cls(tile), tile)
    seen = [t for area in state.areas for t in area.values()] + [t for p in state.piles for t in p]
    seen += [t for t in state.hands[seat] if t is not None] + state.discards
    for tile in seen:
        count[cls(tile)] -= 1
    return [lowest[c] for c in sorted(count) for _ in range(count[c])]


def determinized(state: State, pool: list, seat: int) -> State:
    """A copy of the state with the other seats' hands (in seat order), then the rest of the bag, dealt from pool."""
    sim = copy.deepcopy(state)
    rest = iter(pool)
    for o in range(sim.players):
        if o != seat and sim.hands[o][0] is not None:
            sim.hands[o][0] = next(rest)
    sim.bag[sim.bag_pos:] = list(rest)
    assert len(sim.bag) == len(state.bag), "the unseen tiles are the bag and the other seats' hands"
    return sim


ROLLOUT_DEFAULTS = {"adj": 0.5, "mission": 0.5, "keep": 0.3, "look": 4.0, "k": 2, "width": 3}


def rollout_choice(rules: RuleSet, seed: int, game: int, **params):
    """The kernel's rollout bot: candidates are every explore action, or the planner's best `width` placements;
    each is played k times to the end by greedy in every seat, continuation j of a decision on the unseen tiles
    shuffled from draw decision * MAX_K + j + 1 of the rollout stream; the most points in sum, the first on ties."""
    p = ROLLOUT_DEFAULTS | params
    key = Stream(seed, game, PURPOSE_ROLLOUT).key
    greedy = greedy_choice(rules)

    def choose(state, acts):
        if len(acts) == 1:
            return 0
        seat = state.seat
        order = list(range(len(acts)))
        if state.phase == PLACE:
            chance = type_chances(rules, state, seat, p["look"])
            held = state.hands[seat]
            values = []
            for _, a, r, c in acts:
                other = held[1 - a]
                kept = p["keep"] * rules.tile_points[other] if other is not None else 0.0
                values.append(plan_value(rules, state, (r, c), held[a], p, chance) + kept)
            order = sorted(order, key=lambda i: (-values[i], i))[:min(max(int(p["width"]), 1), len(acts))]
        if len(order) == 1:
            return order[0]
        sums = [0] * len(order)
        decision = (state.round * state.players + seat) * 2 + state.phase
        for j in range(min(max(int(p["k"]), 1), MAX_K)):
            pool = unseen_tiles(rules, state, seat)
            stream = Stream(seed, game, PURPOSE_ROLLOUT)
            stream.key = mix64((key + (decision * MAX_K + j + 1) * GOLDEN) & U64)
            for i in range(len(pool) - 1, 0, -1):
                k = stream.below(i + 1)
                pool[i], pool[k] = pool[k], pool[i]
            for i, a in enumerate(order):
                sim = determinized(state, pool, seat)
                step(sim, rules, acts[a])
                while not terminal(sim):
                    moves = legal(sim, rules)
                    step(sim, rules, moves[greedy(sim, moves)])
                sums[i] += sim.points[seat].total
        best = max(range(len(order)), key=lambda i: (sums[i], -i))
        return order[best]
    return choose
