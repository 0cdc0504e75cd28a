"""A slow, obvious pure-Python Regatta engine: the step contract (init / legal / step / terminal / result)
on plain lists, the twin the numba kernel (kernels/regatta/) is tested against draw for draw.

Positions: cell r * cols + c (row 0 the goal row, the last row the start tiles); cells + c is off the map
south of the start tile of column c; -1 a boat not yet placed. Streams: PURPOSE_TILES lays the grid,
PURPOSE_DECK shuffles and deals the cards (and picks the card a `lose` takes), PURPOSE_POLICY is the bots'.

Legal actions, canonical order (kind, a, b, c): PLACE (0, col) in the placing phase; in a negate window
PASS then NEGATE per card type; in a turn END (hand within the limit) or DISCARD per card type (above it),
REVEAL per face-down neighbour cell, then per card type in hand and per action of it, its targets
(swaps x < y, moves by cell, rotations by cell then clockwise before counter-clockwise), then MULLIGAN
per card type.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.regatta.rules import Rules
from analyzer.rng_reference import Stream

END, DISCARD, REVEAL, SWAP_ADJ, SWAP_ANY, ADV1, ADV2, ROTATE, MULLIGAN, NEGATE, PASS, PLACE = range(12)
KIND_NAMES = ("end", "discard", "reveal", "swap_adjacent", "swap_any", "advance_one", "advance_two", "rotate",
              "mulligan", "negate", "pass", "place")
RIVER, ROCK, GOAL, START = range(4)
PURPOSE_DECK, PURPOSE_POLICY, PURPOSE_TILES = 0, 1, 7
PLACING, TURN, WINDOW, OVER = range(4)
DRAW, LOSE, ROTATE_HERE, BACK, SKIP_REVEAL, EXTRA_PLAY = range(6)
N_KINDS = 12


def turned(mask: int, rot: int) -> int:
    """Openings after `rot` quarter turns clockwise (N -> E -> S -> W)."""
    return ((mask << rot) | (mask >> (4 - rot))) & 15 if rot else mask


@dataclass
class State:
    players: int
    team: bool
    cell_tile: list
    cell_rot: list
    cell_up: list
    boat: list
    boat_turn_start: list
    hand: list  # [seat][card type] counts
    deck: list  # action deck, top = last
    discard: list  # [card type] counts
    ev_deck: list  # [2] lists (event, effect), top = last
    ev_discard: list  # [2][ev type] counts
    deck_stream: Stream
    phase: int = PLACING
    active: int = 0  # whose turn (or who places)
    to_move: int = 0  # who decides now (the responder in a negate window)
    plays: int = 0
    plays_allowed: int = 0
    revealed: bool = False
    skip: list = field(default_factory=list)  # [boat] skip the next reveal
    turn: int = 0
    winner: int = -1
    capped: bool = False
    pending: tuple = ()  # (kind, card, b, c) awaiting its negate window
    chain: int = 0
    last_player: int = 0
    asked: int = 0  # how many seats after last_player the window has passed
    used: list = field(default_factory=list)  # [kind] actions taken
    negated: int = 0  # actions cancelled
    reveals: int = 0
    reshuffle_at_once: bool = True  # the rule option of that name

    def boat_of(self, seat: int) -> int:
        return seat % 2 if self.team else seat


def _shuffle(items: list, stream: Stream) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


def _refill(counts: list, stream: Stream) -> list:
    """A deck of the discarded cards, in type order, shuffled; the discard pile emptied."""
    deck = [k for k, n in enumerate(counts) for _ in range(n)]
    for k in range(len(counts)):
        counts[k] = 0
    _shuffle(deck, stream)
    return deck


def init(rules: Rules, players: int, seed: int, game: int, team: bool = False) -> State:
    cells = rules.rows * rules.cols
    tiles = Stream(seed, game, PURPOSE_TILES)
    piles = {k: [t for t in range(len(rules.tile_kind)) if int(rules.tile_kind[t]) in ks]
             for k, ks in (("river", (RIVER, ROCK)), ("goal", (GOAL,)), ("start", (START,)))}
    for name in ("river", "goal", "start"):
        _shuffle(piles[name], tiles)
    cell_tile = piles["goal"] + piles["river"] + piles["start"]
    stream = Stream(seed, game, PURPOSE_DECK)
    discard = [int(n) for n in rules.card_count]
    deck = _refill(discard, stream)
    ev_deck, ev_discard = [], []
    for d in (0, 1):
        counts = [int(n) if int(rules.ev_deck[k]) == d else 0 for k, n in enumerate(rules.ev_count)]
        ev_deck.append(_refill(counts, stream))
        ev_discard.append(counts)
    boats = 2 if team else players
    s = State(players, team, cell_tile, [0] * cells, [False] * cells, [-1] * boats, [-1] * boats,
              [[0] * len(rules.card_names) for _ in range(players)], deck, discard, ev_deck, ev_discard, stream,
              skip=[False] * boats, used=[0] * N_KINDS)
    deal = min(rules.deal, limit(rules, s)) if team and rules.option("team_deal_at_limit") else rules.deal
    s.reshuffle_at_once = rules.option("reshuffle_at_once")
    for p in range(players):
        for _ in range(deal):
            _draw(s, p)
    return s


def limit(rules: Rules, s: State) -> int:
    return rules.team_limit if s.team else rules.limit


def _draw(s: State, p: int) -> None:
    if not s.deck:
        s.deck = _refill(s.discard, s.deck_stream)
    if s.deck:
        s.hand[p][s.deck.pop()] += 1
        _reshuffle_if_out(s)


def _reshuffle_if_out(s: State) -> None:
    """reshuffle_at_once: "Si en cualquier momento se termina el mazo de acciones, barajea la pila de descarte"."""
    if s.reshuffle_at_once and not s.deck:
        s.deck = _refill(s.discard, s.deck_stream)


def _discard(s: State, p: int, k: int) -> None:
    s.hand[p][k] -= 1
    s.discard[k] += 1
    _reshuffle_if_out(s)


def is_open(rules: Rules, s: State, cell: int) -> int:
    """The openings of the tile at `cell` as it lies now (0 for a face-down tile or a rock)."""
    if not s.cell_up[cell]:
        return 0
    return turned(int(rules.tile_open[s.cell_tile[cell]]), s.cell_rot[cell])


def neighbours(rules: Rules, cell: int) -> list:
    """[(side, cell)] of the orthogonal neighbours on the grid (side 0 N, 1 E, 2 S, 3 W)."""
    r, c = divmod(cell, rules.cols)
    out = []
    if r > 0:
        out.append((0, cell - rules.cols))
    if c < rules.cols - 1:
        out.append((1, cell + 1))
    if r < rules.rows - 1:
        out.append((2, cell + rules.cols))
    if c > 0:
        out.append((3, cell - 1))
    return out


def steps(rules: Rules, s: State, pos: int) -> list:
    """Cells one connected move from `pos` (face-up tiles whose rivers meet), in cell order."""
    cells = rules.rows * rules.cols
    if pos < 0:
        return []
    if pos >= cells:  # off the map: the start tile in front, if it opens south
        front = (rules.rows - 1) * rules.cols + (pos - cells)
        return [front] if is_open(rules, s, front) & 4 else []
    here = is_open(rules, s, pos)
    return sorted(n for side, n in neighbours(rules, pos)
                  if here >> side & 1 and is_open(rules, s, n) >> ((side + 2) % 4) & 1)


def boat_cells(s: State) -> set:
    return set(s.boat)


def swappable(rules: Rules, s: State, cell: int) -> bool:
    """Face up, a river or goal tile (never rock, never start)."""
    return s.cell_up[cell] and int(rules.tile_kind[s.cell_tile[cell]]) in (RIVER, GOAL)


def card_targets(rules: Rules, s: State, kind: int, seat: int) -> list:
    """(b, c) of every legal target of a card action `kind` for `seat`'s boat."""
    cells = rules.rows * rules.cols
    kinds = [int(rules.tile_kind[s.cell_tile[x]]) for x in range(cells)]
    out = []
    if kind in (SWAP_ADJ, SWAP_ANY):
        boats = boat_cells(s)
        for x in range(cells):
            for y in range(x + 1, cells):
                if not (swappable(rules, s, x) and swappable(rules, s, y) and kinds[x] == kinds[y]):
                    continue
                if kind == SWAP_ADJ and y in [n for _, n in neighbours(rules, x)]:
                    out.append((x, y))
                if kind == SWAP_ANY and x not in boats and y not in boats:
                    out.append((x, y))
    elif kind in (ADV1, ADV2):
        pos = s.boat[s.boat_of(seat)]
        reach = set(steps(rules, s, pos))
        if kind == ADV2:
            reach |= {m for n in list(reach) for m in steps(rules, s, n)}
        out = [(x, 0) for x in sorted(reach - {pos})]
    elif kind == ROTATE:
        out = [(x, d) for x in range(cells) if s.cell_up[x] and kinds[x] in (RIVER, START) for d in (1, 3)]
    return out


def legal(rules: Rules, s: State) -> list:
    cells = rules.rows * rules.cols
    p = s.to_move
    if s.phase == PLACING:
        return [(PLACE, 0, c, 0) for c in range(rules.cols)]
    if s.phase == WINDOW:
        return [(PASS, 0, 0, 0)] + [(NEGATE, k, 0, 0) for k in range(len(rules.card_names))
                                    if s.hand[p][k] and int(rules.card_actions[k, 0]) == NEGATE]
    if s.phase == OVER:
        return []
    out = []
    held = sum(s.hand[p])
    if held <= limit(rules, s):
        out.append((END, 0, 0, 0))
    else:
        out += [(DISCARD, k, 0, 0) for k in range(len(rules.card_names)) if s.hand[p][k]]
    pos = s.boat[s.boat_of(p)]
    if not s.revealed:
        if pos >= cells:
            around = [(rules.rows - 1) * rules.cols + pos - cells]
        else:
            around = sorted(n for _, n in neighbours(rules, pos))
        out += [(REVEAL, 0, x, 0) for x in around if not s.cell_up[x]]
    if s.plays < s.plays_allowed:
        for k in range(len(rules.card_names)):
            if not s.hand[p][k]:
                continue
            for kind in (int(a) for a in rules.card_actions[k]):
                if kind >= 0 and kind != NEGATE:
                    out += [(kind, k, b, c) for b, c in card_targets(rules, s, kind, p)]
        out += [(MULLIGAN, k, 0, 0) for k in range(len(rules.card_names)) if s.hand[p][k]]
    return out


def _begin_turn(rules: Rules, s: State) -> None:
    b = s.boat_of(s.active)
    s.to_move = s.active
    s.plays, s.plays_allowed = 0, rules.plays
    s.revealed = s.skip[b]
    s.skip[b] = False
    s.boat_turn_start[b] = s.boat[b]


def _apply(rules: Rules, s: State, kind: int, b: int, c: int) -> None:
    """An action card's effect (after its negate window let it through)."""
    if kind in (SWAP_ADJ, SWAP_ANY):
        s.cell_tile[b], s.cell_tile[c] = s.cell_tile[c], s.cell_tile[b]
        s.cell_rot[b], s.cell_rot[c] = s.cell_rot[c], s.cell_rot[b]
        s.boat = [c if x == b else b if x == c else x for x in s.boat]  # "Puede haber jugadores sobre ..."
    elif kind == ROTATE:
        s.cell_rot[b] = (s.cell_rot[b] + c) % 4
    elif kind in (ADV1, ADV2):
        boat = s.boat_of(s.active)
        s.boat[boat] = b
        t = s.cell_tile[b]
        if int(rules.tile_kind[t]) == GOAL and rules.tile_sea[t]:
            s.winner, s.phase = boat, OVER


def _open_window(rules: Rules, s: State) -> None:
    """Ask the seats after last_player in order, skipping those without a negate (they can only pass)."""
    while s.asked < s.players - 1:
        s.asked += 1
        seat = (s.last_player + s.asked) % s.players
        if any(s.hand[seat][k] and int(rules.card_actions[k, 0]) == NEGATE for k in range(len(rules.card_names))):
            s.phase, s.to_move = WINDOW, seat
            return
    kind, _card, b, c = s.pending
    s.phase, s.to_move = TURN, s.active
    if s.chain % 2 == 0:
        _apply(rules, s, kind, b, c)
    else:
        s.negated += 1


def _resolve_card(rules: Rules, s: State, ev: int) -> None:
    effect, amount = int(rules.ev_effect[ev]), int(rules.ev_amount[ev])
    p, boat = s.active, s.boat_of(s.active)
    if effect == DRAW:
        for _ in range(amount):
            _draw(s, p)
    elif effect == LOSE:
        for _ in range(amount):
            held = sum(s.hand[p])
            if held:
                u = s.deck_stream.below(held)
                k = 0
                while u >= s.hand[p][k]:
                    u -= s.hand[p][k]
                    k += 1
                _discard(s, p, k)
    elif effect == BACK:
        s.boat[boat] = s.boat_turn_start[boat]
    elif effect == SKIP_REVEAL:
        s.skip[boat] = True
    elif effect == EXTRA_PLAY:
        s.plays_allowed += amount


def step(rules: Rules, s: State, kind: int, a: int, b: int, c: int) -> None:
    cells = rules.rows * rules.cols
    p = s.to_move
    s.used[kind] += 1
    if kind == PLACE:
        s.boat[s.boat_of(p)] = cells + b
        s.active += 1
        if s.active == len(s.boat):
            s.phase, s.active = TURN, 0
            _begin_turn(rules, s)
        else:
            s.to_move = s.active
    elif kind == END:
        while sum(s.hand[p]) < rules.draw_to and (s.deck or any(s.discard)):
            _draw(s, p)
        s.turn += 1
        if s.turn >= rules.turn_cap:
            s.phase, s.capped = OVER, True
            return
        s.active = (s.active + 1) % s.players  # "Pasa el turno al jugador de tu derecha."
        _begin_turn(rules, s)
    elif kind in (DISCARD, MULLIGAN):
        _discard(s, p, a)
        if kind == MULLIGAN:
            s.plays += 1
            _draw(s, p)
    elif kind == REVEAL:
        s.revealed = True
        s.reveals += 1
        s.cell_up[b] = True
        mark = int(rules.tile_mark[s.cell_tile[b]])
        if mark:
            d = mark - 1
            if not s.ev_deck[d]:
                s.ev_deck[d] = _refill(s.ev_discard[d], s.deck_stream)
            if s.ev_deck[d]:
                ev = s.ev_deck[d].pop()
                s.ev_discard[d][ev] += 1
                if int(rules.ev_effect[ev]) == ROTATE_HERE:
                    if int(rules.tile_kind[s.cell_tile[b]]) in (RIVER, START):
                        s.cell_rot[b] = (s.cell_rot[b] + 1) % 4
                else:
                    _resolve_card(rules, s, ev)
    elif kind == PASS:
        _open_window(rules, s)
    elif kind == NEGATE:  # "Puedes usar esta carta en respuesta a otra carta de Negar acción."
        _discard(s, p, a)
        s.chain += 1
        s.last_player, s.asked = p, 0
        _open_window(rules, s)
    else:  # an action card: played, counted, then its negate window
        _discard(s, p, a)
        s.plays += 1
        s.pending, s.chain, s.last_player, s.asked = (kind, a, b, c), 0, p, 0
        _open_window(rules, s)


def terminal(s: State) -> bool:
    return s.phase == OVER


def result(s: State) -> dict:
    return {"winner": s.winner, "turns": s.turn, "capped": int(s.capped), "negated": s.negated,
            "reveals": s.reveals, **{f"used_{name}": s.used[k] for k, name in enumerate(KIND_NAMES)}}


def play_random(rules: Rules, players: int, seed: int, game: int, team: bool = False) -> tuple[list, dict]:
    """One game of uniform random choices (policy stream): the actions taken and the result."""
    s = init(rules, players, seed, game, team)
    policy = Stream(seed, game, PURPOSE_POLICY)
    actions = []
    while not terminal(s):
        moves = legal(rules, s)
        move = moves[policy.below(len(moves))]
        actions.append(move)
        step(rules, s, *move)
    return actions, result(s)
