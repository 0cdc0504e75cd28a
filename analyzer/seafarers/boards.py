"""Random legal Seafarers boards: a scenario's variable set-up packed for the kernel, dealt, tabulated.

    plan = deal_plan(load_scenario("new-world", 4))
    boards = generate_boards(plan, count=1000, seed=1)      # Boards: terrain/number [count, n_hex], ...
    table = boards_table(plan.scenario, boards)              # one row per hex per board

How a board is dealt (zone order, shuffles, rejection of illegal numberings, clump limit) is in
kernels/catan/deal.py; the rules come from the scenario files (`[setup]`, `[[setup.forbid]]`).
Board b of a seed is always the same board, whatever the count, chunking or threads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.errors import UserError
from analyzer.job import Job
from analyzer.params import check_seed
from analyzer.provenance import provenance
from analyzer.runner import RunOptions, run_job
from analyzer.seafarers.board import UNKNOWN
from analyzer.seafarers.limits import IN_PARTS, MAX_DEALT_BOARDS, check_range
from analyzer.seafarers.scenarios import HARBOUR_TYPES, SHUFFLED, Scenario
from kernels.catan import deal as kdeal
from kernels.catan.codes import DESERT, GOLD, SEA, TERRAIN_NAMES

__all__ = [
    "Boards",
    "DealPlan",
    "board_drawing",
    "boards_summary",
    "boards_table",
    "deal_plan",
    "generate_boards",
    "harbours_table",
    "robber_start",
    "visible_board",
]

TERRAIN_ENUM = pl.Enum(list(TERRAIN_NAMES))


@dataclass(frozen=True, eq=False)
class DealPlan:
    """A scenario's variable set-up as the kernel's arrays (see kernels/catan/deal.py)."""

    scenario: Scenario
    max_clump: int
    base_terrain: np.ndarray  # int8 [n_hex]: printed terrain of fixed cells (dealt cells are overwritten)
    base_number: np.ndarray  # int8 [n_hex]: printed number of fixed cells, 0 on dealt cells
    cells: np.ndarray  # int32: dealt cells, zone after zone, by cell index
    tiles: np.ndarray  # int8: each zone's terrain pool, sorted, in the same segments
    zone_cells: np.ndarray  # int32 [n_zones + 1]: segment offsets into cells / tiles
    tokens: np.ndarray  # int8: each zone's number pool, sorted
    zone_tokens: np.ndarray  # int32 [n_zones + 1]
    hex_ban: np.ndarray  # int32 [n_hex] bit masks of banned numbers
    terrain_ban: np.ndarray  # int32 [8]
    adjacent_ban: np.ndarray  # int32 [8]
    harbour_pool: np.ndarray  # int8 [n_sites]: printed type per site, as an index of HARBOUR_TYPES
    shuffle_harbours: bool

    @property
    def dealt_zones(self) -> tuple[str, ...]:
        return tuple(name for name, z in self.scenario.zones.items() if z.deal != "fixed")

    def kernel_plan(self) -> kdeal.DealPlan:
        s = self.scenario
        return kdeal.DealPlan(self.base_terrain, self.base_number, s.topology.hex_neighbours, self.cells, self.tiles,
                              self.zone_cells, self.tokens, self.zone_tokens, self.hex_ban, self.terrain_ban,
                              self.adjacent_ban, bool(s.setup.red_adjacent_allowed), int(self.max_clump),
                              self.harbour_pool, bool(self.shuffle_harbours))


@dataclass(frozen=True, eq=False)
class Boards:
    """Boards first .. first + count - 1 of a seed."""

    seed: int
    first: int
    terrain: np.ndarray  # int8 [count, n_hex]: dealt terrain, fog included (face down)
    number: np.ndarray  # int8 [count, n_hex]: number token, 0 none
    harbour: np.ndarray  # int8 [count, n_sites]: harbour type per site of scenario.harbours.sites
    tries: np.ndarray  # int32 [count]: number deals it took (rejections + 1)
    seconds: float

    @property
    def count(self) -> int:
        return len(self.terrain)


def _mask(numbers) -> int:
    return sum(1 << n for n in numbers)


def deal_plan(scenario: Scenario, max_clump: int = 0) -> DealPlan:
    """Pack the scenario's dealt zones, pools and set-up rules for the kernel."""
    hexes = sum(kind != "frame" for kind in scenario.kind)  # no group is larger: a larger limit means nothing
    check_range("--max-clump", max_clump, 0, hexes, f"a group has at most the {hexes} hexes of {scenario.slug}",
                lowest="0 (no limit)")
    n_hex = scenario.topology.n_hex
    base_terrain = np.where(scenario.dealt, SEA, scenario.terrain).astype(np.int8)
    base_number = np.where(scenario.dealt, 0, scenario.number_token).astype(np.int8)
    cells, tiles, zone_cells, tokens, zone_tokens = [], [], [0], [], [0]
    for zone in scenario.zones.values():
        if zone.deal == "fixed":
            continue
        cells += [h for h in zone.hexes if scenario.dealt[h]]
        tiles += sorted(t for t, k in zone.terrains.items() for _ in range(k))
        tokens += sorted(n for n, k in zone.numbers.items() for _ in range(k))
        zone_cells.append(len(cells))
        zone_tokens.append(len(tokens))
    rules = scenario.setup
    hex_ban = np.zeros(n_hex, np.int32)
    terrain_ban = np.zeros(len(TERRAIN_NAMES), np.int32)
    adjacent_ban = np.zeros(len(TERRAIN_NAMES), np.int32)
    for ban in rules.bans:
        mask = _mask(ban.numbers)
        for h in ban.hexes:
            hex_ban[h] |= mask
        for t in ban.terrains:
            terrain_ban[t] |= mask
        if ban.adjacent_to >= 0:
            adjacent_ban[ban.adjacent_to] |= mask
    terrain_ban[GOLD] |= _mask(rules.gold_not_on)
    harbours = scenario.harbours
    pool = np.array([HARBOUR_TYPES.index(s.type) for s in harbours.sites], np.int8)
    return DealPlan(scenario, int(max_clump), base_terrain, base_number, np.array(cells, np.int32),
                    np.array(tiles, np.int8), np.array(zone_cells, np.int32), np.array(tokens, np.int8),
                    np.array(zone_tokens, np.int32), hex_ban, terrain_ban, adjacent_ban, pool,
                    harbours.placement in SHUFFLED)


def generate_boards(plan: DealPlan, count: int, seed: int, first: int = 0) -> Boards:
    """Boards first .. first + count - 1 of `seed`; UserError if the rules leave no legal board."""
    check_range("count", count, 1, MAX_DEALT_BOARDS, f"about 250 bytes per board; {IN_PARTS}")
    check_range("first", first, 0, 2**63 - count, "board indices are int64 stream numbers")
    check_seed(seed)
    n_hex = plan.scenario.topology.n_hex
    terrain = np.empty((count, n_hex), np.int8)
    number = np.empty((count, n_hex), np.int8)
    harbour = np.empty((count, len(plan.harbour_pool)), np.int8)
    tries = np.empty(count, np.int32)
    arrays = plan.kernel_plan()
    kdeal.deal_boards(seed, first, arrays, terrain[:0], number[:0], harbour[:0], tries[:0])  # load / compile first
    t0 = time.perf_counter()
    kdeal.deal_boards(seed, first, arrays, terrain, number, harbour, tries)
    seconds = time.perf_counter() - t0
    failed = np.flatnonzero(tries < 0)
    if failed.size:
        s = plan.scenario
        raise UserError(f"{s.slug} ({s.players} players): no legal board found for board {first + failed[0]} "
                        f"after {kdeal.MAX_TERRAIN_TRIES} terrain deals; the clump limit ({plan.max_clump}) or the "
                        "set-up rules are too strict")
    return Boards(seed, first, terrain, number, harbour, tries, seconds)


def boards_job(plan: DealPlan, seed: int) -> Job:
    """Game b of this job is board b of `seed`: int32 columns terrain [n_hex], number [n_hex], harbour
    [n_sites] and the number deals it took (generate_boards)."""
    s = plan.scenario
    spec = {"game": "seafarers", "experiment": "boards", "scenario": s.slug, "players": s.players,
            "max_clump": plan.max_clump, "seed": int(seed)}
    return Job(boards_play_range, spec, 2 * s.topology.n_hex + len(plan.harbour_pool) + 1, "int32")


def boards_play_range(spec: dict):
    """Job builder: boards start .. start + out.shape[1] - 1 into out's columns."""
    from analyzer.seafarers.scenarios import load_scenario

    plan = deal_plan(load_scenario(spec["scenario"], spec["players"]), spec["max_clump"])
    n_hex = plan.scenario.topology.n_hex

    def play(start: int, out: np.ndarray) -> None:
        if out.shape[1] == 0:  # the runner's warm-up: the kernel loads or compiles on one scratch board
            play(start, np.zeros((out.shape[0], 1), out.dtype))
            return
        b = generate_boards(plan, out.shape[1], spec["seed"], first=start)
        out[:n_hex] = b.terrain.T
        out[n_hex:2 * n_hex] = b.number.T
        out[2 * n_hex:-1] = b.harbour.T
        out[-1] = b.tries
    return play


def deal_boards(plan: DealPlan, count: int, seed: int, threads: int | None = None, **scale) -> tuple[Boards, dict]:
    """Boards 0 .. count - 1 of `seed` on the runner (threads or Dask; `scale`: chunk_size, progress,
    dask_local or scheduler, checkpoint), and how they ran (RunResult.info, with the boards played in this run)."""
    check_range("count", count, 1, MAX_DEALT_BOARDS, f"about 250 bytes per board; {IN_PARTS}")
    run = run_job(boards_job(plan, seed), RunOptions.of(count, threads=threads, label="boards", **scale))
    n_hex, cols = plan.scenario.topology.n_hex, run.columns
    boards = Boards(seed, 0, cols[:n_hex].T.astype(np.int8), cols[n_hex:2 * n_hex].T.astype(np.int8),
                    cols[2 * n_hex:-1].T.astype(np.int8), cols[-1].astype(np.int32), run.wall)
    return boards, {**run.info, "played": run.played}


def visible_board(scenario: Scenario, terrain: np.ndarray, number: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(terrain, number) as the players see them at set-up: fog hexes UNKNOWN, without a number."""
    fog = np.array([k == "fog" for k in scenario.kind])
    return (np.where(fog, UNKNOWN, terrain).astype(np.int8), np.where(fog, 0, number).astype(np.int8))


def robber_start(scenario: Scenario, terrain: np.ndarray, number: np.ndarray) -> int:
    """The robber's start hex on a dealt board, -1 for none or off the board.

    desert: the printed desert if it stayed one, else the lowest-index desert of a dealt board;
    number: the land hex with that token, of the preferred terrain if there is one (lowest index)."""
    rule = scenario.robber
    if rule.rule == "desert":
        if terrain[rule.hex] == DESERT:
            return rule.hex
        deserts = np.flatnonzero(terrain == DESERT)
        return int(deserts[0]) if deserts.size else -1
    if rule.rule == "number":
        hits = np.flatnonzero(number == rule.number)
        preferred = [h for h in hits if terrain[h] == rule.terrain]
        return int((preferred or list(hits) or [-1])[0])
    return -1


def boards_table(scenario: Scenario, boards: Boards) -> pl.DataFrame:
    """One row per hex inside the frame per board: board, q, r, terrain, number, group (zone letter), hidden."""
    inner = np.array([k != "frame" for k in scenario.kind])
    cells = np.flatnonzero(inner)
    n = boards.count
    coords = scenario.coords[cells]
    return pl.DataFrame({
        "board": np.repeat(np.arange(boards.first, boards.first + n, dtype=np.int64), len(cells)),
        "q": np.tile(coords[:, 0].astype(np.int16), n),
        "r": np.tile(coords[:, 1].astype(np.int16), n),
        "terrain": pl.Series(np.asarray(TERRAIN_NAMES)[boards.terrain[:, cells].ravel()], dtype=TERRAIN_ENUM),
        "number": boards.number[:, cells].ravel(),
        "group": pl.Series(np.tile(np.asarray(scenario.cell_zone, dtype=object)[cells], n).astype(str),
                           dtype=pl.Categorical),
        "hidden": np.tile(np.array([scenario.kind[h] == "fog" for h in cells]), n),
    })


def harbours_table(scenario: Scenario, boards: Boards) -> pl.DataFrame:
    """One row per harbour site per board: board, land and sea hex (q, r), type ("3:1" or the resource)."""
    sites = scenario.harbours.sites
    n = boards.count
    land = scenario.coords[[s.land for s in sites]].reshape(-1, 2)
    sea = scenario.coords[[s.sea for s in sites]].reshape(-1, 2)
    return pl.DataFrame({
        "board": np.repeat(np.arange(boards.first, boards.first + n, dtype=np.int64), len(sites)),
        "land_q": np.tile(land[:, 0].astype(np.int16), n), "land_r": np.tile(land[:, 1].astype(np.int16), n),
        "sea_q": np.tile(sea[:, 0].astype(np.int16), n), "sea_r": np.tile(sea[:, 1].astype(np.int16), n),
        "type": pl.Series(np.asarray(HARBOUR_TYPES)[boards.harbour.ravel()].astype(str), dtype=pl.Categorical),
    })


def board_drawing(scenario: Scenario, boards: Boards, j: int = 0) -> dict:
    """Board row j as reports.seafarers.hexplot wants it: terrain, number, harbours [(land, sea, type)]."""
    harbours = [(site.land, site.sea, HARBOUR_TYPES[kind]) for site, kind in zip(scenario.harbours.sites,
                                                                                  boards.harbour[j])]
    return {"terrain": boards.terrain[j], "number": boards.number[j], "harbours": harbours}


def deal_assumptions(s: Scenario) -> list[str]:
    """What a dealt board of scenario `s` rests on: its layout's status and notes, how it is dealt."""
    return [
        f"Layout: {s.slug} for {s.players} players is '{s.status}'"
        + ("" if s.status == "published" else " (a published map partly reconstructed to agree with the seed)")
        + ". Its notes: " + " ".join(s.notes),
        "Boards: every dealt zone's terrains are shuffled uniformly; numbers are dealt uniformly over the legal "
        "numberings of that terrain (rejection of red 6/8 neighbours where the scenario forbids them, and of "
        "every [[setup.forbid]] and gold rule, 'recommended' rules included); see docs/seafarers/balance.md.",
        *([f"Red 6/8 never on neighbouring hexes: {s.setup.red_adjacent_note} (setup.red_adjacent_allowed in "
           f"analyzer/seafarers/data/{s.slug}.toml)."] if s.setup.red_adjacent_note else []),
    ]


def boards_summary(plan: DealPlan, boards: Boards, command: str = "", run: dict | None = None) -> dict:
    """What was dealt and how: scenario, rules in force, speed, rejection rate; `run`: how the runner
    dealt them (deal_boards), whose boards dealt in this run (not resumed) make the speed."""
    s = plan.scenario
    rules = s.setup
    dealt = boards.count if run is None else run["played"]
    summary = {
        "scenario": {"slug": s.slug, "name": s.name, "players": s.players, "status": s.status,
                     "notes": list(s.notes)},
        "count": boards.count, "seed": boards.seed, "first_board": boards.first, "max_clump": plan.max_clump,
        "dealt_zones": {z: s.zones[z].deal for z in plan.dealt_zones},
        "rules": {"red_adjacent_allowed": rules.red_adjacent_allowed,
                  "red_adjacent_basis": rules.red_adjacent_note or rules.red_adjacent_quote,
                  "gold_not_on": list(rules.gold_not_on),
                  "bans": [{"numbers": sorted(b.numbers), "hexes": [s.coords[h].tolist() for h in b.hexes],
                            "terrains": [TERRAIN_NAMES[t] for t in b.terrains],
                            "adjacent_to": TERRAIN_NAMES[b.adjacent_to] if b.adjacent_to >= 0 else None}
                           for b in rules.bans]},
        "harbours": s.harbours.placement,
        "number_deals_per_board": float(boards.tries.mean()),
        "seconds": round(boards.seconds, 4),
        "boards_per_second": round(dealt / boards.seconds, 1) if boards.seconds > 0 and dealt else None,
        **provenance("seafarers", boards.seed, command, deal_assumptions(s)),
    }
    if run is not None:
        summary["run"] = {k: v for k, v in run.items() if k != "played"}
    return summary
