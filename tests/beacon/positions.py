"""Hand-built Beacon Patrol positions for the rule tests (tests/beacon/test_rules.py).

The helpers:

* `Tiles(rows)`: a custom tile set from CSV rows without the header. Trailing empty fields may be
  left out (`"L,~,~,~,~,lighthouse"`), `#` lines and blank lines are skipped, and an all-water `HQ`
  row is added when no row has the feature `hq`. `tiles["L"]` is the kernel index of tile `L`.
* `parse_board(text)`: an ASCII board, one whitespace-separated token per cell, `.` for an empty
  cell; every row must have the same number of tokens. A tile id ending in `@` marks the origin
  (and, in a `Position`, the active player's ship). Gives (row, col, tile id, marked) tuples.
* `Position(tiles, board, ...)`: a kernel workspace (`kernels.beacon.new_workspace`) holding that
  board, with the given hands, ships, movement tokens and draw pile. Coordinates are (row, col)
  relative to the origin: the `@` cell, else the HQ tile if the board shows it, else the board's
  first token. North is row - 1. Every ship starts on the origin unless `ships` says otherwise.
  Its actions go through kernels.beacon.take_action, as in games: ending a turn passes it on.
* `RefPosition(...)`: the same position in the pure-Python reference engine, with the same
  arguments, coordinates and methods (the shared ones are `Turn`'s); `ENGINES` names both, so a rule
  test can be parametrized over the two.

`score_ascii(tiles, board)` scores a finished board with `kernels.beacon.score_layout`, and
`play(...)` plays one whole game with `kernels.beacon.play_game`, returning its results and trace.
"""

from __future__ import annotations

import textwrap

import numpy as np

from analyzer.beacon import reference as ref
from analyzer.beacon.policies import N_PARAMS
from analyzer.beacon.rules import load_rules
from analyzer.beacon.simulation import kernel_tiles
from analyzer.beacon.tiles import COLUMNS, TileSet, parse_tiles
from kernels import beacon as kb
from kernels.beacon import actions as action_kernels
from kernels.beacon import board as board_kernels
from kernels.beacon import play as play_kernels
from kernels.jit import from_python

N, E, S, W = kb.NORTH, kb.EAST, kb.SOUTH, kb.WEST
OFFSET = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}

__all__ = ["E", "ENGINES", "N", "OFFSET", "Position", "RefPosition", "S", "Tiles", "W", "parse_board", "play",
           "score_ascii"]


class Tiles:
    """A custom tile set plus its kernel tile table."""

    def __init__(self, rows: str, name: str = "hand-built"):
        lines = [",".join(COLUMNS)]
        has_hq = False
        for raw in textwrap.dedent(rows).strip().splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            cells = [c.strip() for c in line.split(",")]
            if len(cells) > len(COLUMNS):
                raise ValueError(f"too many fields in {line!r}")
            cells += [""] * (len(COLUMNS) - len(cells))
            has_hq |= cells[5].lower() == "hq"
            lines.append(",".join(cells))
        if not has_hq:
            lines.append("HQ,~,~,~,~,hq,,,")
        self.ts: TileSet = parse_tiles("\n".join(lines) + "\n", name)
        self.tt: np.ndarray = kernel_tiles(self.ts)

    @property
    def n(self) -> int:
        return self.ts.n

    @property
    def hq(self) -> int:
        return self.ts.hq

    def __getitem__(self, tile_id: str) -> int:
        return self.ts.index(tile_id)

    def id(self, t: int) -> str:
        return self.ts.ids[int(t)]


def parse_board(text: str) -> list[tuple[int, int, str, bool]]:
    """ASCII board -> [(row, col, tile id, marked '@')] with (0, 0) the top-left token."""
    rows = [line.split() for line in textwrap.dedent(text).strip().splitlines() if line.strip()]
    if rows and len({len(r) for r in rows}) != 1:
        raise ValueError("every board row needs the same number of tokens ('.' for empty cells)")
    cells = [(r, c, tok.rstrip("@"), tok.endswith("@"))
             for r, row in enumerate(rows) for c, tok in enumerate(row) if tok != "."]
    if sum(m for *_, m in cells) > 1:
        raise ValueError("at most one cell may be marked '@'")
    return cells


def _origin(tiles: Tiles, cells) -> tuple[int, int]:
    for r, c, _, marked in cells:
        if marked:
            return r, c
    for r, c, tid, _ in cells:
        if tiles[tid] == tiles.hq:
            return r, c
    return (cells[0][0], cells[0][1]) if cells else (0, 0)


def score_ascii(tiles: Tiles, board: str, players: int = 1, n_expansions: int = 0):
    """(score, breakdown) of a finished board via kernels.beacon.score_layout."""
    cells = parse_board(board)
    rows = np.array([r for r, _, _, _ in cells], np.int64)
    cols = np.array([c for _, c, _, _ in cells], np.int64)
    ids = np.array([tiles[t] for _, _, t, _ in cells], np.int64)
    out = np.zeros(kb.N_COLS, np.int64)
    score = kb.score_layout(tiles.tt, load_rules().cfg(players, n_expansions), rows, cols, ids, out)
    return int(score), out


class Turn:
    """What both hand-built positions offer (Position: the kernel, RefPosition: the reference engine):
    the offered actions by kind, and taking them by tile id. Subclasses give legal(), do(), hand(),
    ship() and player."""

    def slot(self, tile_id: str, p: int | None = None) -> int:
        return self.hand(p).index(tile_id)

    def next_to_ship(self, d: int) -> tuple[int, int]:
        r, c = self.ship()
        dr, dc = OFFSET[d]
        return r + dr, c + dc

    def of_kind(self, kind: int) -> list[tuple[int, int, int, int]]:
        return [a for a in self.legal() if a[0] == kind]

    def placements(self) -> set[tuple[str, tuple[int, int]]]:
        """(tile id, target cell) of every offered placement."""
        hand = self.hand()
        return {(hand[a], self.next_to_ship(b)) for _, a, b, _ in self.of_kind(kb.ACT_PLACE)}

    def moves(self) -> set[tuple[int, int]]:
        """Target cells of every offered token move."""
        return {self.next_to_ship(a) for _, a, _, _ in self.of_kind(kb.ACT_MOVE)}

    def discard_moves(self) -> set[tuple[str, tuple[int, int]]]:
        hand = self.hand()
        return {(hand[a], self.next_to_ship(b)) for _, a, b, _ in self.of_kind(kb.ACT_DISCARD_MOVE)}

    def trades(self) -> set[tuple[str, int, str]]:
        """(my tile, partner, partner's tile) of every offered trade."""
        mine = self.hand()
        return {(mine[a], b, self.hand(b)[c]) for _, a, b, c in self.of_kind(kb.ACT_TRADE)}

    def end_options(self) -> list[str | None]:
        """The tile kept by each offered end-of-turn action (None: keep nothing)."""
        hand = self.hand()
        return [None if a < 0 else hand[a] for _, a, _, _ in self.of_kind(kb.ACT_END)]

    def place(self, tile_id: str, d: int) -> bool:
        return self.do(kb.ACT_PLACE, self.slot(tile_id), d)

    def move(self, d: int) -> bool:
        return self.do(kb.ACT_MOVE, d)

    def discard_move(self, tile_id: str, d: int) -> bool:
        return self.do(kb.ACT_DISCARD_MOVE, self.slot(tile_id), d)

    def trade(self, tile_id: str, partner: int, their_tile: str) -> bool:
        return self.do(kb.ACT_TRADE, self.slot(tile_id), partner, self.slot(their_tile, partner))

    def end_turn(self, keep: str | None = None) -> bool:
        return self.do(kb.ACT_END, -1 if keep is None else self.slot(keep))


class Position(Turn):
    """A kernel workspace with a hand-built board, hands, ships, tokens and draw pile.

    hands: {player: [tile id or None per slot]}; ships: {player: (row, col)} (default: the origin);
    deck: tile ids in draw order; tokens: movement tokens left to the active player (default: the
    per-player count of the rules).
    """

    def __init__(self, tiles: Tiles, board: str = "HQ", *, players: int = 1, n_expansions: int = 0,
                 player: int = 0, hands=None, ships=None, tokens: int | None = None, deck=()):
        self.tiles = tiles
        self.tt = tiles.tt
        self.cfg = load_rules().cfg(players, n_expansions)
        self.players = players
        self.g = kb.grid_size(tiles.n)
        ws = kb.new_workspace(tiles.n, self.g)
        (self.st, self.board, self.pos, self.placed, self.piers, self.hands, self.ships, self.deck,
         self.flood, self.actions) = ws[:10]
        self.centre = (self.g // 2) * self.g + self.g // 2
        cells = parse_board(board)
        r0, c0 = _origin(tiles, cells)
        for r, c, tid, _ in cells:
            self.put(tid, r - r0, c - c0)
        self.st[kb.ST_PLAYER] = player
        self.st[kb.ST_TOKENS] = self.cfg[kb.CFG_TOKENS] if tokens is None else tokens
        for p in range(players):
            self.ships[p] = self.cell(0, 0)
        for p, rc in (ships or {}).items():
            self.ships[p] = self.cell(*rc)
        for p, ids in (hands or {}).items():
            self.set_hand(p, ids)
        for i, tid in enumerate(deck):
            self.deck[i] = tiles[tid]
        self.st[kb.ST_DECK_LEN] = len(deck)

    # ------------------------------------------------------------------ coordinates and contents
    def cell(self, r: int, c: int) -> int:
        return self.centre + r * self.g + c

    def rc(self, cell: int) -> tuple[int, int]:
        return (int(cell) // self.g - self.g // 2, int(cell) % self.g - self.g // 2)

    def put(self, tile_id: str, r: int, c: int) -> None:
        """Place a tile by hand (no rule checks), as kernels.beacon.board._place does in a game."""
        assert self.board[self.cell(r, c), kb.B_TILE] < 0, f"cell {(r, c)} already holds a tile"
        from_python(board_kernels._place)(self.tt, self.g, self.st, self.board, self.pos, self.placed, self.piers,
                                          self.tiles[tile_id], self.cell(r, c))

    def at(self, r: int, c: int) -> str | None:
        t = self.board[self.cell(r, c), kb.B_TILE]
        return None if t < 0 else self.tiles.id(t)

    def set_hand(self, p: int, ids) -> None:
        assert len(ids) <= self.cfg[kb.CFG_HAND]
        for s in range(kb.MAX_HAND):
            tid = ids[s] if s < len(ids) else None
            self.hands[p * kb.MAX_HAND + s] = -1 if tid is None else self.tiles[tid]

    def hand(self, p: int | None = None) -> list[str | None]:
        p = self.player if p is None else p
        return [None if t < 0 else self.tiles.id(t)
                for t in self.hands[p * kb.MAX_HAND:p * kb.MAX_HAND + self.cfg[kb.CFG_HAND]]]

    @property
    def player(self) -> int:
        return int(self.st[kb.ST_PLAYER])

    @property
    def tokens(self) -> int:
        return int(self.st[kb.ST_TOKENS])

    @property
    def discarded(self) -> int:
        return int(self.st[kb.ST_DISCARDED])

    @property
    def traded(self) -> bool:
        return bool(self.st[kb.ST_TRADED])

    @property
    def turns(self) -> int:
        return int(self.st[kb.ST_TURNS])

    @property
    def pile(self) -> list[str]:
        """The draw pile's tiles still to be drawn, in draw order."""
        return [self.tiles.id(t) for t in self.deck[self.st[kb.ST_DECK_POS]:self.st[kb.ST_DECK_LEN]]]

    def board_tiles(self) -> dict[tuple[int, int], str]:
        return {self.rc(cell): self.tiles.id(t) for cell, t in enumerate(self.board[:, kb.B_TILE]) if t >= 0}

    def game_over(self) -> bool:
        return bool(from_python(action_kernels._game_over)(self.cfg, self.st, self.hands))

    def ship(self, p: int | None = None) -> tuple[int, int]:
        return self.rc(self.ships[self.player if p is None else p])

    def explored(self, r: int, c: int) -> bool:
        return bool(from_python(kb.is_explored)(self.board, self.g, self.cell(r, c)))

    def fits(self, tile_id: str, r: int, c: int) -> bool:
        return bool(from_python(kb.fits)(self.tt, self.board, self.g, self.tiles[tile_id], self.cell(r, c)))

    # ------------------------------------------------------------------ actions
    def legal(self) -> list[tuple[int, int, int, int]]:
        n = from_python(kb.legal_actions)(self.tt, self.cfg, self.g, self.st, self.board, self.hands,
                                          self.ships, self.actions)
        return [tuple(int(x) for x in self.actions[i]) for i in range(n)]

    def do(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> bool:
        """Take one action, which must be among the legal ones, as games do (kernels.beacon.take_action:
        ending the turn passes it to the next seat with fresh tokens); True when it ended the turn."""
        legal = self.legal()
        assert (kind, a, b, c) in legal, f"{(kind, a, b, c)} is not legal here: {legal}"
        return bool(from_python(kb.take_action)(self.tt, self.cfg, self.g, self.st, self.board, self.pos,
                                                self.placed, self.piers, self.hands, self.ships, self.deck,
                                                kind, a, b, c))

    # ------------------------------------------------------------------ scoring
    def breakdown(self) -> np.ndarray:
        out = np.zeros(kb.N_COLS, np.int64)
        from_python(kb.score_board)(self.tt, self.cfg, self.board, self.pos, self.placed,
                                    self.st[kb.ST_N_PLACED], self.g, self.flood, out)
        return out

    def score(self) -> int:
        return int(self.breakdown()[kb.COL_SCORE])

    def gain(self, tile_id: str, r: int, c: int) -> int:
        """kernels.beacon.placement_gain of putting tile_id on the empty cell (r, c)."""
        return int(from_python(kb.placement_gain)(self.tt, self.cfg, self.board, self.pos, self.piers,
                                                  self.st[kb.ST_N_PIERS], self.g, self.tiles[tile_id],
                                                  self.cell(r, c), self.flood))

    def pier_buildings(self, tile_id: str) -> int:
        return int(from_python(kb.pier_buildings)(self.tt, self.board, self.pos, self.g, self.tiles[tile_id],
                                                  self.flood))


class RefPosition(Turn):
    """The same hand-built position in the pure-Python reference engine (analyzer/beacon/reference.py),
    with Position's arguments and the same coordinates, so one test can run on both engines."""

    def __init__(self, tiles: Tiles, board: str = "HQ", *, players: int = 1, n_expansions: int = 0,
                 player: int = 0, hands=None, ships=None, tokens: int | None = None, deck=()):
        self.tiles = tiles
        book = load_rules()
        self.cfg = book.cfg(players, n_expansions)
        self.players = players
        self.game = ref.Game(tl=ref.tile_list(tiles.ts), players=players, hand_size=book.hand_size[players],
                             tokens_per_turn=book.move_tokens[players], pts=ref.points_of(self.cfg))
        cells = parse_board(board)
        r0, c0 = _origin(tiles, cells)
        self.game.board = {(r - r0, c - c0): tiles[tid] for r, c, tid, _ in cells}
        self.game.player = player
        self.game.tokens = self.game.tokens_per_turn if tokens is None else tokens
        self.game.ships = [(0, 0)] * players
        for p, rc in (ships or {}).items():
            self.game.ships[p] = rc
        self.game.hands = [[None] * self.game.hand_size for _ in range(players)]
        for p, ids in (hands or {}).items():
            assert len(ids) <= self.game.hand_size
            self.game.hands[p] = [tiles[t] if t is not None else None for t in ids]
            self.game.hands[p] += [None] * (self.game.hand_size - len(ids))
        self.game.deck = [tiles[t] for t in reversed(deck)]  # the reference draws from the end

    def at(self, r: int, c: int) -> str | None:
        t = self.game.board.get((r, c))
        return None if t is None else self.tiles.id(t)

    def hand(self, p: int | None = None) -> list[str | None]:
        p = self.player if p is None else p
        return [None if t is None else self.tiles.id(t) for t in self.game.hands[p]]

    @property
    def player(self) -> int:
        return self.game.player

    @property
    def tokens(self) -> int:
        return self.game.tokens

    @property
    def discarded(self) -> int:
        return self.game.discarded

    @property
    def traded(self) -> bool:
        return self.game.traded

    @property
    def turns(self) -> int:
        return self.game.turns

    @property
    def pile(self) -> list[str]:
        return [self.tiles.id(t) for t in reversed(self.game.deck)]

    def board_tiles(self) -> dict[tuple[int, int], str]:
        return {cell: self.tiles.id(t) for cell, t in self.game.board.items()}

    def game_over(self) -> bool:
        return ref.game_over(self.game)

    def ship(self, p: int | None = None) -> tuple[int, int]:
        return self.game.ships[self.player if p is None else p]

    def legal(self) -> list[tuple[int, int, int, int]]:
        return ref.legal_actions(self.game)

    def do(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> bool:
        """Take one legal action with reference.take; True when it ended the turn."""
        legal = self.legal()
        assert (kind, a, b, c) in legal, f"{(kind, a, b, c)} is not legal here: {legal}"
        return ref.take(self.game, (kind, a, b, c))


ENGINES = {"kernel": Position, "reference": RefPosition}


def play(tt: np.ndarray, cfg: np.ndarray, active: np.ndarray, hq: int, policy_id: int, seed: int,
         index: int, trace_len: int = 20_000):
    """Play one game with the kernel -> (results row, trace, workspace, grid size)."""
    n = tt.shape[0]
    g = kb.grid_size(n)
    out = np.zeros((kb.N_COLS, 1), np.int16)
    trace = np.zeros((trace_len, 5), np.int64)
    policy_ids = np.full(kb.MAX_PLAYERS, policy_id, np.int64)
    params = np.zeros((kb.MAX_PLAYERS, N_PARAMS), np.float64)
    tier = kb.policy_tier(policy_ids)
    game = kb.new_workspace(n, g, tier)
    setup = kb.Setup(tt, cfg, active.astype(np.uint8), hq, policy_ids, params)
    _, n_actions = kb.simulate_range_of(tier)(game, setup, seed, index, out, trace, np.zeros((0, 3), np.int64))
    assert n_actions <= trace_len, "trace buffer too small"
    return out[:, 0].astype(np.int64), trace[:n_actions], game, g


def reset_workspace(game, tt, cfg, g, active, hq, seed, index) -> None:
    """Start game `index` in a workspace, as the kernel does before playing it."""
    st, board, pos, placed, piers, hands, ships, deck, _, _, deck_rng, rng = game[:12]
    from_python(play_kernels._reset)(st, board, pos, placed, piers, hands, ships, deck, deck_rng, rng, tt, cfg, g,
                                     active, hq, seed, index)
    if game.planner:
        from_python(kb.forget_plan)(game.planner.plan)


def dealt_deck(tt, cfg, active, hq, seed, index) -> np.ndarray:
    """The shuffled draw pile of game `index`, as the kernel deals it."""
    n = active.shape[0]
    game = kb.new_workspace(n, kb.grid_size(n), kb.POLICY_GREEDY)
    reset_workspace(game, tt, cfg, kb.grid_size(n), active, hq, seed, index)
    return game.deck[:game.st[kb.ST_DECK_LEN]].copy()
