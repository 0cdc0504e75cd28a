"""Catan: Seafarers on the game protocol (analyzer/game.py): its registration, examples and traces."""

from __future__ import annotations

from analyzer.game import Example, Experiment, Game


def cli():
    """The game's Typer app (imported when the CLI is built, so that the registry stays light)."""
    from analyzer.seafarers.cli import app

    return app


def arms() -> dict:
    from analyzer.seafarers.bots import BOTS
    from analyzer.seafarers.pirates import PLANS
    from analyzer.seafarers.setup_policies import HEURISTICS

    return {"heuristic": HEURISTICS, "plan": PLANS, "bot": BOTS}


def _boards_job(scenario: str = "new-world", players: int = 4, seed: int = 3):
    from analyzer.seafarers.boards import boards_job, deal_plan
    from analyzer.seafarers.scenarios import load_scenario

    return boards_job(deal_plan(load_scenario(scenario, players)), seed)


def _balance_job(scenario: str = "four-islands", players: int = 3, seed: int = 3):
    from analyzer.seafarers.balance import balance_job, make_balance

    return balance_job(make_balance(scenario, players, 20, "diverse", seed, sequences=4), "poorest")


def _pirates_job(plan: str, players: int = 4, seed: int = 3):
    from analyzer.seafarers.pirates import parse_plan, pirates_job, race_setup

    return pirates_job(race_setup(players), parse_plan(plan), seed, "each", 200, False)


def _play_job(scenario: str = "new-shores", players: int = 3, seed: int = 3, bots=("weighted",), boards="random"):
    from analyzer.seafarers.full_game import check_play, play_job
    from analyzer.seafarers.full_rules import rules_text

    arms = check_play(scenario, players, list(bots), 1, seed, boards)
    return play_job(scenario, players, arms, seed, boards, rules_text()[0])


def play_example() -> Example:
    from kernels.catan.game import SEAT_COLS

    table = {"game": "Int64", "rotation": "Int8", "seat": "Int8", "bot": "String", "won": "Boolean", "winner": "Int8",
             "turns": "Int32", "rolls": "Int32", "sevens": "Int32", "capped": "Boolean", "cloth_end": "Boolean"}
    table |= {c: "Int16" for c in SEAT_COLS}
    return Example(jobs=[("value", _play_job(bots=("value",)))], games=6,
                   argv=["seafarers", "play", "--scenario", "new-shores", "--players", "3", "--games", "6", "--seed",
                         "3", "--no-progress"], tables={"games.parquet": table})


def tournament_example() -> Example:
    from analyzer.seafarers.bots import parse_bot
    from analyzer.seafarers.full_rules import rules_text
    from analyzer.seafarers.tournament import tournament_jobs
    from kernels.catan.game import SEAT_COLS

    entrants = ("value:opening=pips", "value:opening=port")
    _, _, jobs = tournament_jobs("new-shores", 3, [parse_bot(e) for e in entrants], 3, "random", rules_text()[0])
    table = {"game": "Int64", "seating": "Int8", "seat": "Int8", "entrant": "String", "won": "Boolean",
             "winner": "Int8", "turns": "Int32", "rolls": "Int32", "sevens": "Int32", "capped": "Boolean",
             "cloth_end": "Boolean"}
    table |= {c: "Int16" for c in SEAT_COLS}
    return Example(jobs=jobs, games=6,
                   argv=["seafarers", "tournament", "--scenario", "new-shores", "--players", "3", "--entrants",
                         ",".join(entrants), "--games", "6", "--seed", "3", "--no-progress"],
                   tables={"games.parquet": table}, shares_luck=True)


def seats_example() -> Example:
    from dataclasses import replace

    from analyzer.seafarers.seats import worst_seat

    return Example(jobs=[("new-shores 3 players", replace(_play_job(bots=("value",)), statistic=worst_seat(3)))],
                   games=6, argv=["seafarers", "seats", "--scenarios", "new-shores", "--players", "3", "--games",
                                  "6", "--seed", "3", "--no-base", "--no-progress"],
                   tables={"games.parquet": {"scenario": "String", "players": "Int8", "game": "Int64",
                                             "winner": "Int8", "rolls": "Int32", "turns": "Int32",
                                             "capped": "Boolean"}})


def boards_example() -> Example:
    return Example(jobs=[("boards", _boards_job())], games=30,
                   argv=["seafarers", "boards", "--scenario", "new-world", "--players", "4", "--count", "20",
                         "--seed", "3"], report=False,
                   tables={"boards.parquet": {"board": "Int64", "q": "Int16", "r": "Int16", "terrain": "Enum",
                                              "number": "Int8", "group": "Categorical", "hidden": "Boolean"},
                           "harbours.parquet": {"board": "Int64", "land_q": "Int16", "land_r": "Int16",
                                                "sea_q": "Int16", "sea_r": "Int16", "type": "Categorical"}})


def balance_example() -> Example:
    from analyzer.seafarers.balance import _INT_SEAT, BOARD_COLUMNS, SEAT_COLUMNS

    boards = {"board": "Int64"} | {c: "Int32" if c in ("tries", "robber_hex") else "Float64" for c in BOARD_COLUMNS}
    seats = {"board": "Int64", "seat": "Int8"} | {c: "Int32" if c in _INT_SEAT else "Float64" for c in SEAT_COLUMNS}
    return Example(jobs=[("boards", _balance_job())], games=5,
                   argv=["seafarers", "balance", "--scenario", "four-islands", "--players", "3", "--boards", "4",
                         "--rolls", "20", "--sequences", "4", "--heuristic", "diverse", "--seed", "3",
                         "--no-progress"],
                   tables={"boards.parquet": boards, "seats.parquet": seats})


def dice_example() -> Example:
    from analyzer.seafarers.dice import dice_job

    return Example(jobs=[("dice", dice_job(200_000, 3))], games=4,
                   argv=["seafarers", "dice", "--rolls", "100000", "--seed", "3", "--json"], writes_results=False)


def fortress_example() -> Example:
    from analyzer.seafarers.fortress import battles_job, sieges_job

    return Example(jobs=[("battles", battles_job(4, 200_000, 3)), ("sieges", sieges_job(4, 3))], games=4,
                   argv=["seafarers", "fortress", "--warships", "4", "--battles", "5000", "--seed", "3", "--json"],
                   writes_results=False)


def pirates_example() -> Example:
    from kernels.catan import pirates as kpi

    plans = ("ships-first", "cards-first:outpost=1", "attack-at:3")
    table = {"plan": "String", "game": "Int64", "seat": "Int64"} | {
        c: "Int64" for c in kpi.SEAT_OUT_NAMES + kpi.GAME_OUT_NAMES}
    return Example(jobs=[(p, _pirates_job(p)) for p in plans], games=10,
                   argv=["seafarers", "pirates", "--players", "3", "--games", "10", "--seed", "3", "--plan",
                         "cards-first", "--plan", "attack-at:3", "--no-progress"],
                   tables={"games.parquet": table}, shares_luck=True)


def trace(job, game: int) -> dict:
    """Game `game` of a Seafarers job as JSON: `luck` the random draws every arm of that game meets (the
    board, the dice, the development deck), `events` what was played and its result."""
    return _TRACES[job.spec["experiment"]](job, game)


def _pirates_trace(job, game: int) -> dict:
    """The race by the pure-Python reference (analyzer/seafarers/pirates_reference.py, which plays the
    kernel's games draw for draw: tests/seafarers/test_pirates.py)."""
    from analyzer.seafarers.pirates import parse_plan, setup_for_spec
    from analyzer.seafarers.pirates_reference import RaceGame

    spec = job.spec
    race = RaceGame(setup_for_spec(spec), parse_plan(spec["plan"]), spec["seed"], game, spec["raid_rule"],
                    spec["max_rounds"], spec["fleet_blocks"])
    deck = list(race.deck)
    result = race.play()
    return {"luck": {"dice": _first_rolls(spec["seed"], game, 120), "deck": deck},  # (what every plan rolls first)
            "events": {"log": race.events, "result": result}}


def _play_trace(job, game: int) -> dict:
    """Full game `game` stepped by the pure-Python reference (analyzer/seafarers/full_reference.py) on the actions
    the kernel's bots choose (the two engines agree decision for decision: tests/seafarers/test_full_kernel.py): its
    board and deck, every action taken, the result."""
    import numpy as np

    from analyzer.seafarers import full_reference as R
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from analyzer.seafarers.full_game import _tables
    from analyzer.seafarers.play import kernel_board
    from analyzer.seafarers.table import printed_board
    from kernels.catan import game as kg
    from kernels.catan import policies as kp
    from kernels.rng import PURPOSE_POLICY, stream_init

    spec = job.spec
    scenario, rules, plan = _tables(spec)
    if spec["boards"] == "fixed":
        luck, dealt = {"board": "printed"}, printed_board(scenario)
    else:
        luck, boards = _board_luck(plan, spec["seed"], game)
        dealt = (boards.terrain[0], boards.number[0], boards.harbour[0])
    table = R.game_table(scenario, rules, *dealt)
    board = kernel_board(table)
    state, sim = R.init(table, spec["seed"], game), kg.new_game(board)
    kg.init(board, sim, spec["seed"], game)
    luck["deck"] = list(state.deck)
    policies, params = bot_vectors([parse_bot(b) for b in spec["bots"]])
    streams, work = np.zeros((kg.MAX_SEATS, 2), np.uint64), kp.bot_work(board)
    for p in range(spec["players"]):
        stream_init(streams[p], spec["seed"], kg.MAX_SEATS * game + p, PURPOSE_POLICY)
    actions = []
    while not R.terminal(state):
        legal = R.legal(table, state)
        n = kg.legal(board, sim)
        seat = state.actor
        action = legal[kp.decide(board, sim, n, policies[seat], params[seat], streams[seat], work)]
        actions.append(list(action))
        R.step(table, state, action)
        kg.step(board, sim, *action)
    return {"luck": luck, "events": {"actions": actions, "result": R.result(table, state)}}


def _board_luck(plan, seed: int, board: int) -> tuple[dict, object]:
    from analyzer.seafarers.boards import generate_boards
    from analyzer.seafarers.scenarios import HARBOUR_TYPES, TERRAIN_NAMES

    dealt = generate_boards(plan, 1, seed, first=board)
    cells = [h for h, kind in enumerate(plan.scenario.kind) if kind != "frame"]
    coords = plan.scenario.coords
    return {"board": [[int(coords[h][0]), int(coords[h][1]), TERRAIN_NAMES[dealt.terrain[0, h]],
                       int(dealt.number[0, h])] for h in cells],
            "harbours": [HARBOUR_TYPES[k] for k in dealt.harbour[0]], "number_deals": int(dealt.tries[0])}, dealt


def _boards_trace(job, game: int) -> dict:
    from analyzer.seafarers.boards import deal_plan
    from analyzer.seafarers.scenarios import load_scenario

    spec = job.spec
    luck, _ = _board_luck(deal_plan(load_scenario(spec["scenario"], spec["players"]), spec["max_clump"]),
                          spec["seed"], game)
    return {"luck": luck, "events": {}}


def _first_rolls(seed: int, sequence: int, n: int) -> list[list[int]]:
    from analyzer.seafarers.reference import rolls

    return [list(pair) for pair in rolls(seed, sequence, n)]


def _balance_trace(job, game: int) -> dict:
    """Board `game`: its deal, the draft on it, the first rolls of its first sequence, its figures."""
    import numpy as np

    from analyzer.seafarers.balance import BOARD_COLUMNS, SEAT_COLUMNS, balance_play_range, make_balance

    spec = job.spec
    exp = make_balance(spec["scenario"], spec["players"], spec["rolls"], spec["heuristic"], spec["seed"],
                       sequences=spec["sequences"], gold_policy=spec["gold_policy"], spend_to=spec["spend_to"],
                       max_clump=spec["max_clump"])
    luck, dealt = _board_luck(exp.plan, spec["seed"], game)
    luck["dice"] = _first_rolls(spec["seed"], game * spec["sequences"], min(spec["rolls"], 30))
    _, placed = exp.seat_view(game, dealt.terrain[0], dealt.number[0], dealt.harbour[0])
    out = np.zeros((exp.n_cols, 1))
    balance_play_range(spec)(game, out)
    figures = dict(zip(BOARD_COLUMNS, out[:len(BOARD_COLUMNS), 0].round(9).tolist()))
    seats = out[len(BOARD_COLUMNS):, 0].reshape(exp.players, len(SEAT_COLUMNS)).round(9)
    return {"luck": luck,
            "events": {"settlements": [[int(c), s + 1] for c, s in placed.settlements],
                       "pieces": [[int(e), s + 1, kind] for e, s, kind in placed.pieces],
                       "board_figures": figures,
                       "seat_figures": [dict(zip(SEAT_COLUMNS, row)) for row in seats.tolist()]}}


def _block_trace(job, game: int) -> dict:
    """A block of dice or battles, or a siege: its columns (and for dice, the block's first rolls)."""
    import numpy as np

    out = np.zeros((job.n_cols, 1), job.dtype)
    job.builder(job.spec)(game, out)
    luck = {"dice": _first_rolls(job.spec["seed"], game, 20)} if job.spec["experiment"] == "dice" else {}
    return {"luck": luck, "events": {"columns": out[:, 0].tolist()}}


_TRACES = {"pirates": _pirates_trace, "boards": _boards_trace, "balance": _balance_trace, "dice": _block_trace,
           "battles": _block_trace, "sieges": _block_trace, "play": _play_trace}


def golden() -> list:
    from analyzer.seafarers.dice import dice_job
    from analyzer.seafarers.fortress import sieges_job

    return [("pirates race, 4 players, ships-first", _pirates_job("ships-first", 4, 7), 0),
            ("pirates race, 3 players, attack-at:3", _pirates_job("attack-at:3", 3, 7), 1),
            ("balance board, Four Islands, 3 players", _balance_job("four-islands", 3, 7), 2),
            ("balance board, Cloth for Catan, 4 players", _balance_job("cloth-for-catan", 4, 7), 0),
            ("board, Fog Islands, 4 players", _boards_job("fog-islands", 4, 7), 5),
            ("dice block", dice_job(100_000, 7), 1),
            ("siege, 3 warships", sieges_job(3, 7), 4),
            ("full game, New Shores, 3 players, weighted bots", _play_job("new-shores", 3, 7), 0),
            ("full game, Four Islands, 4 players, value bots", _play_job("four-islands", 4, 7, ("value",)), 1)]


def step_game():
    """The full game's kernels (kernels/catan/game.py, policies.py) on the step contract (analyzer/step_contract.py):
    (board, game) = (setup, state), the game index `g`, the actions in game.actions; decide takes the seat's
    policy code, parameters and policy stream, and the bots' scratch (policies.BotWork)."""
    from analyzer.step_contract import StepGame
    from kernels.catan import game as kg
    from kernels.catan import policies as kp

    return StepGame("seafarers", kg.init, kg.legal, kg.step, kg.terminal, kg.result, kp.decide, action_width=3,
                    actor=lambda game: game.st[kg.ST_ACTOR], fixture=_step_fixture, setup_first=True,
                    names={"state": "game", "setup": "board", "game": "g", "rng": "stream"}, actions_in="actions")


def _step_fixture(seed: int):
    """The printed New Shores board for 3 value bots (`seafarers play --boards fixed`)."""
    import numpy as np

    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from analyzer.seafarers.full_game import _tables
    from analyzer.seafarers.play import kernel_board
    from analyzer.seafarers.table import game_table, printed_board
    from analyzer.step_contract import Fixture
    from kernels.catan import game as kg
    from kernels.catan import policies as kp
    from kernels.rng import PURPOSE_POLICY, stream_init

    job = _play_job("new-shores", 3, seed, ("value",), boards="fixed")
    scenario, rules, _ = _tables(job.spec)
    board = kernel_board(game_table(scenario, rules, *printed_board(scenario)))
    game = kg.new_game(board)
    policies, params = bot_vectors([parse_bot(b) for b in job.spec["bots"]])
    streams, work = np.zeros((kg.MAX_SEATS, 2), np.uint64), kp.bot_work(board)

    def begin(seed: int, g: int) -> None:
        for seat in range(job.spec["players"]):
            stream_init(streams[seat], seed, kg.MAX_SEATS * g + seat, PURPOSE_POLICY)

    return Fixture(job, game, board, game.actions, begin=begin,
                   seat=lambda seat: {"policy": policies[seat], "params": params[seat], "rng": streams[seat],
                                      "work": work})


GAME = Game(
    id="seafarers",
    title="Catan: Seafarers",
    version="2",  # 2: the Pirate Islands draft gives drafted settlements roads, never ships
    about="the nine scenarios: random legal boards, set-up balance by income, dice, pirate fortresses, the "
          "Pirate Islands race, full games by bots",
    rulebooks=("docs/rulebooks/002_f78565adfc528f93.txt",),
    cli=cli,
    arms=arms,
    experiments=(
        Experiment("boards", "random legal boards of a scenario's variable set-up",
                   boards_example, warm_seconds=40),
        Experiment("balance", "a heuristic draft on random boards, roll sequences: how fair the seats are",
                   balance_example),
        Experiment("dice", "pairs of dice against their exact laws", dice_example),
        Experiment("fortress", "pirate-fortress battles and sieges, exact and simulated",
                   fortress_example),
        Experiment("pirates", "the Pirate Islands race by purchase plans, on paired games",
                   pirates_example),
        Experiment("play", "full games by bots: who wins, from which seat, how long, with which VP",
                   play_example, warm_group="full game", warm_seconds=300),
        Experiment("tournament", "bots compared by winning full games, every game once per seating",
                   tournament_example, warm_group="full game"),
        Experiment("seats", "seat advantage: one bot in every seat, each scenario and player count",
                   seats_example, warm_group="full game"),
    ),
    trace=trace,
    golden=golden,
    docs="docs/seafarers/",
    step=step_game,
)
