"""`tabletop seafarers ...` commands: a thin Typer layer over analyzer.seafarers."""

from pathlib import Path
from typing import Optional

import typer

from analyzer.command import (
    backend_fields,
    command_line,
    out_console,
    print_run_notes,
    repeat_hint,
    run_fields,
    run_options,
)
from analyzer.params import path_value
from reports.document import ci_phrase, ci_range, plural, rate

app = typer.Typer(no_args_is_help=True,
                  help="Catan: Seafarers: scenarios, boards, set-up balance, dice, fortress and pirates.")


# options several commands share: the full-game rules file and a results folder with games.parquet
RULES_FILE_OPTION = typer.Option(None, parser=path_value, help="Rule data (costs, pieces, bank, deck, VP, turn cap) "
                                                               "in the format of the package's full_game.toml.")
GAMES_OUT_OPTION = typer.Option(..., parser=path_value,
                                help="Output folder for summary.json, games.parquet and the report.")


LADDER_OPTION = typer.Option(None, help="Bots, comma-separated (value,planner,rollout; value:opening=pips): play the "
                                         "experiment once per rung on the same games and say first whether its "
                                         "verdict holds at every rung (docs/seafarers/ladder.md).")
BUDGET_OPTION = typer.Option(None, help="With --ladder: refuse a ladder estimated to take more than this many seconds.")


def _ladder(experiment: str, ladder: str, budget: Optional[float], out: Path, **options) -> None:
    """The experiment once per rung of --ladder: the estimate, then the verdict's first line and the report."""
    from rich.console import Console

    from analyzer.runner import duration_text
    from analyzer.seafarers.api import run_ladder
    from reports.ladder import first_line

    def say(estimate: dict) -> None:
        Console(stderr=True, soft_wrap=True).print(
            f"{'up to' if estimate['upper_bound'] else 'about'} {duration_text(estimate['seconds'])} for "
            f"{plural(len(estimate['per_rung_seconds']), 'rung')} ("
            + ", ".join(f"{r} {duration_text(t)}" for r, t in estimate["per_rung_seconds"].items())
            + (", by --max-games: a precision run stops sooner" if estimate["upper_bound"] else "") + ")",
            highlight=False)

    summary = run_ladder(experiment, ladder, budget, out=out, command=command_line(), on_estimate=say, **options)
    out_console.print(first_line(summary), highlight=False)
    out_console.print(f"report: {out / 'report.html'}")


def _rule_option(examples: str):
    return typer.Option(None, metavar="NAME=VALUE", help="Switch a documented rules default of the rules data's "
                                                         f"\\[options]; repeatable ({examples}).")


@app.command("scenarios")
def scenarios_cmd(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")):
    """List the scenarios: players, hexes inside the frame, VP target, and the layout status (published, adjusted
    or reconstructed)."""
    import json

    from rich.console import Console
    from rich.table import Table

    from analyzer.seafarers.api import catalog

    rows = catalog()
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    table = Table(title="Catan: Seafarers scenarios (the rulebook: Catan Navegantes, Devir 2015)")
    for name in ("#", "scenario", "players", "hexes", "land", "fog", "VP", "layout"):
        table.add_column(name, justify="left" if name in ("scenario", "layout") else "right", no_wrap=True)
    for r in rows:
        table.add_row(str(r["number"]), r["slug"], str(r["players"]), str(r["hexes"]), str(r["land"]),
                      str(r["fog"]), str(r["vp_target"]), r["status"])
    Console().print(table)
    print("hexes: tiles inside the frame. layout: published, adjusted (a published layout partly reconstructed "
          "to agree with the rulebook) or reconstructed; see docs/seafarers/scenarios.md")


@app.command("boards")
@run_options(count=None, progress=False)
def boards_cmd(
    scenario: str = typer.Option(..., help="Scenario slug (see `tabletop seafarers scenarios`)."),
    players: int = typer.Option(4, help="Number of players, 3 or 4."),
    count: int = typer.Option(1, help="Number of random legal boards."),
    seed: int = typer.Option(0, help="Seed: board b of a seed is always the same board."),
    max_clump: int = typer.Option(0, help="Largest connected group of one producing terrain (0: no limit)."),
    out: Path = typer.Option(..., parser=path_value,
        help="Output folder for boards.parquet, harbours.parquet, board.png, summary.json."),
    run=None,
):
    """Deal random legal boards with the scenario's variable set-up; draw the first one."""
    from analyzer.seafarers.api import run_boards

    summary = run_boards(scenario, players, count, seed, max_clump, out=out, command=command_line(),
                   **backend_fields(run)).summary
    speed = summary["boards_per_second"]
    out_console.print(f"{count:,} legal {scenario} boards for {players} players, "
                      + (f"{rate(speed)} boards/s, " if speed else "")
                      + f"{summary['number_deals_per_board']:.2f} number deals per board; drawing: {out / 'board.png'}")
    print_run_notes(summary["run"])


@app.command("balance")
@run_options(count=None)
@repeat_hint(heuristic="to compare heuristics by winning full games, use `tabletop seafarers tournament --entrants "
                       "value:opening=pips,value:opening=diverse`")
def balance_cmd(
    scenario: str = typer.Option(..., help="Scenario slug (see `tabletop seafarers scenarios`)."),
    players: int = typer.Option(4, help="Number of players, 3 or 4."),
    boards: int = typer.Option(1000, help="Number of random legal boards."),
    rolls: int = typer.Option(60, help="Rolls per sequence."),
    heuristic: str = typer.Option("pips", help="Placement heuristic, name:key=value,... (pips, diverse, port)."),
    seed: int = typer.Option(0, help="Experiment seed; with it every result is reproducible."),
    sequences: int = typer.Option(100, help="Roll sequences per board."),
    gold_policy: str = typer.Option("poorest", help="Gold field pick: poorest, or a resource name."),
    spend_to: int = typer.Option(4, help="The roller spends down to this many cards each turn (-1: never)."),
    max_clump: int = typer.Option(0, help="Largest connected group of one producing terrain (0: no limit)."),
    by: str = typer.Option("income", help="income: the income model alone (rolls without building; fast); wins: "
                                          "also full games on every board: each seat's win rate, how much boards "
                                          "move it, which features predict a win, and how well the income model "
                                          "predicts the games."),
    games_per_board: Optional[int] = typer.Option(None, help="With --by wins: full games on each board (default "
                                                             "100)."),
    bot: Optional[str] = typer.Option(None, help="With --by wins: the bot in every seat (default: value drafting "
                                                 "with --heuristic and its weights, e.g. value:opening=pips,gold=1)."),
    rules: Optional[Path] = typer.Option(None, parser=path_value, help="With --by wins: full-game rule data in the "
                                         "format of the package's full_game.toml."),
    rule: Optional[list[str]] = typer.Option(None, metavar="NAME=VALUE", help="With --by wins: switch a documented "
                                             "full-game rules default (e.g. domestic_trade=false); repeatable."),
    ladder: Optional[str] = LADDER_OPTION,
    budget: Optional[float] = BUDGET_OPTION,
    out: Path = typer.Option(..., parser=path_value,
        help="Output folder for summary.json, boards/seats parquet and the report."),
    run=None,
):
    """Draft with a heuristic on random legal boards, roll, and report how fair the seats are (--by wins: and who
    wins full games on them)."""
    from analyzer.seafarers.api import run_balance

    wins = {"games_per_board": games_per_board, "bot": bot, "rules_file": rules, "rule": rule}
    if ladder is not None:
        return _ladder("balance", ladder, budget, out, scenario=scenario, players=players, boards=boards, rolls=rolls,
                       heuristic=heuristic, seed=seed, by=by, sequences=sequences, gold_policy=gold_policy,
                       spend_to=spend_to, max_clump=max_clump, **{k: v for k, v in wins.items() if v is not None},
                       **backend_fields(run))
    result = run_balance(scenario, players, boards, rolls, heuristic, seed, out=out, command=command_line(), by=by,
                     sequences=sequences, gold_policy=gold_policy, spend_to=spend_to, max_clump=max_clump,
                     **{k: v for k, v in wins.items() if v is not None}, **backend_fields(run))
    s = result.summary
    if "by_wins" in s:
        from reports.seafarers.balance_wins import wins_headline

        for line in wins_headline(s):
            out_console.print(line, highlight=False)
    first, last = s["seats"][0]["income"]["total"], s["seats"][-1]["income"]["total"]
    out_console.print(f"{plural(boards, 'board')}, {s['heuristic']}: seat 1 {first['mean']:.3f} cards/roll, seat "
                      f"{players} {last['mean']:.3f}"
                      + (f"; {rate(s['boards_per_second'])} boards/s" if s["boards_per_second"] else ""))
    print_run_notes(s["run"])
    if s.get("pirate_fleet"):  # a figure the reader must not miss: the fleet's raids are left out
        out_console.print(f"note: {s['pirate_fleet']['warning']}", highlight=False)
    out_console.print(f"report: {out / 'report.html'}")


def _table(title: str, *columns: str):
    """A rich table of right-aligned columns."""
    from rich.table import Table

    table = Table(title=title)
    for name in columns:
        table.add_column(name, justify="right")
    return table


@app.command("dice")
@run_options(count=None, progress=False)
def dice_cmd(
    rolls: int = typer.Option(1_000_000, help="Number of rolls (pairs of dice); game k of the run is the "
                                              "block k of 65,536 of them."),
    seed: int = typer.Option(0, help="Seed: roll i of a seed is always the same roll."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    run=None,
):
    """Roll pairs of dice: sums and lower dice against the exact laws, longest gaps without each sum."""
    import json

    from analyzer.seafarers.api import run_dice

    r = run_dice(rolls, seed, **backend_fields(run))
    if as_json:
        print(json.dumps(r))
        return
    table = _table(f"{plural(rolls, 'roll')}, seed {seed}", "sum", "count", "share", "exact", "longest gap")
    for s, count in r["sum_counts"].items():
        table.add_row(s, f"{count:,}", f"{count / rolls:.5f}", r["sum_exact_p"][s], f"{r['longest_gap'][s]:,}")
    out_console.print(table)
    low = _table("lower die (the pirate fleet's move)", "die", "count", "share", "exact")
    for k, count in r["low_die_counts"].items():
        low.add_row(k, f"{count:,}", f"{count / rolls:.5f}", r["low_die_exact_p"][k])
    out_console.print(low)
    for key, label in (("sum", "sum"), ("low_die", "lower die")):
        c, m = r[f"{key}_chi_square"], r[f"mean_{key}"]
        out_console.print(f"{label}: mean {m['mean']:.4f} ({ci_phrase(m['ci95'], m['n'], 4)}, exact "
                          f"{m['exact']:.4f}); chi-square {c['statistic']:.2f} on {c['df']} df, p = {c['p_value']:.3f}"
                          + ("" if c["reliable"] else f" (unreliable: expected counts down to {c['min_expected']:.2g}, "
                                                      "below 5)"))
    if r["rolls_per_second"]:
        out_console.print(f"{rate(r['rolls_per_second'])} rolls/s")
    print_run_notes(r["run"])


@app.command("fortress")
@run_options(count=None, progress=False)
def fortress_cmd(
    warships: int = typer.Option(..., help="Warships on the route to the pirate fortress."),
    battles: int = typer.Option(100_000, help="Single battles to simulate."),
    sieges: Optional[int] = typer.Option(None, help="Whole sieges (3 chits) to simulate (default: --battles, at most "
                                                    "1,000,000)."),
    loss_model: str = typer.Option("rebuilt", help="Ships lost in a tie/defeat: 'rebuilt' (the rulebook, literally: "
                                                   "the ships rebuilt to attack again stand ahead and go first) or "
                                                   "'warships' (each one a warship)."),
    seed: int = typer.Option(0, help="Seed: battle i of a seed is always the same battle."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    run=None,
):
    """Pirate fortress ("The Pirate Islands"): single-battle odds and whole sieges, exact and simulated."""
    import json

    from analyzer.seafarers.api import run_fortress

    r = run_fortress(warships, battles, seed, sieges, loss_model, **backend_fields(run))
    if as_json:
        print(json.dumps(r))
        return
    table = _table(f"{plural(battles, 'battle')} with {warships} warship(s), seed {seed}",
                   "outcome", "count", "share", "95% CI", "exact")
    for name, b in r["battle"].items():
        table.add_row(name, f"{b['count']:,}", f"{b['p']:.4f}", f"{b['ci95'][0]:.4f}–{b['ci95'][1]:.4f}",
                      f"{b['exact_fraction']} = {b['exact']:.4f}")
    out_console.print(table)
    exact, sim = r["siege"]["exact"], r["siege"]["simulated"]
    siege = _table(f"{plural(r['sieges'], 'siege')} of a full fortress ({r['chits']} chits), loss model {loss_model}",
                   "", "exact (Markov chain)", "simulated", "95% CI")
    for key in ("p_conquer", "battles", "ships_lost", "warships_lost", "battles_if_conquered",
                "ships_lost_if_conquered"):
        s = sim[key]
        value = s["p"] if key == "p_conquer" else s["mean"] if s else None
        siege.add_row(key.replace("_", " "), "–" if exact[key] is None else f"{exact[key]:.4f}",
                      "–" if value is None else f"{value:.4f}",
                      "–" if s is None else ci_range(s["ci95"], 4))
    out_console.print(siege)
    out_console.print("A siege ends with the fortress taken or with fewer than 2 warships (no die can be beaten).")


@app.command("pirates")
@run_options(count=None)
def pirates_cmd(
    players: int = typer.Option(4, help="Number of players, 3 or 4."),
    games: int = typer.Option(2000, help="Games per plan (every plan plays the same games)."),
    seed: int = typer.Option(0, help="Seed: game g's dice and development deck are the same for every plan."),
    plan: Optional[list[str]] = typer.Option(None, "--plan", help="A plan, name:key=value,... (ships-first, "
                                             "cards-first, attack-at; attack=N, outpost=0|1; attack-at:3 = "
                                             "attack-at:attack=3). Repeat to compare (default: all three)."),
    raid_rule: str = typer.Option("each", help="Several players at the raided hex: 'each' is raided, or 'sole' "
                                               "(a raid only when exactly one player is there; JSettlers2)."),
    max_rounds: int = typer.Option(200, help="Rounds after which a game stops."),
    heuristic: str = typer.Option("pips", help="Set-up heuristic of the draft, name:key=value,... (pips, diverse, "
                                               "port)."),
    draft_seed: int = typer.Option(0, help="Seed of the one set-up draft (breaks the heuristic's ties)."),
    fleet_blocks: bool = typer.Option(False, help="The fleet blocks ship building on the 6 sides of its hex."),
    rules: Optional[Path] = typer.Option(None, parser=path_value, help="Rule data (costs, pieces, bank rate, "
                                         "development deck) in the format of the package's pirate_race.toml."),
    out: Path = GAMES_OUT_OPTION,
    run=None,
):
    """The Pirate Islands: fleet, raids and a race to the fortresses by purchase plans, on paired games."""
    from analyzer.seafarers.api import run_pirates

    result = run_pirates(players, games, seed, plan, raid_rule, max_rounds, heuristic, fleet_blocks, draft_seed,
                     rules_file=rules, out=out, command=command_line(), **backend_fields(run))
    for label, t in result.summary["turns_to_conquer"].items():
        a, mean = t["all seats"], t["all seats"]["mean"]
        text = "" if mean is None else (f"; those took {mean['mean']:.1f} rounds on average "
                                        f"({ci_phrase(mean['ci95'], mean['n'], 1, mean['clusters'])})")
        out_console.print(f"{label}: fortress conquered within {max_rounds} rounds in {a['p_conquered']:.1%} "
                          f"of seat-games{text}")
    print_run_notes(result.summary["run"])
    out_console.print(f"{plural(games, 'game')} × {len(result.summary['plans'])} plan(s), raid rule {raid_rule}; "
                      f"report: {out / 'report.html'}")


@app.command("play")
@run_options(count="games", default_games=1000, precision=True, streaming=True,
             statistic="seat 1's win rate, a share: 0.01 is one point")
def play_cmd(
    scenario: str = typer.Option(..., help="Scenario slug: base, new-shores, four-islands, fog-islands, "
                                           "through-the-desert, new-world, forgotten-tribe, cloth-for-catan, "
                                           "pirate-islands or wonders-of-catan."),
    players: int = typer.Option(4, help="Number of players, 3 or 4."),
    bots: str = typer.Option("value", help="Bots, one per seat or one for all, comma-separated: random, weighted, "
                                           "value[:opening=pips|diverse|port,key=value...], planner, "
                                           "rollout[:playouts=4,candidates=3,horizon=8] (docs/seafarers/"
                                           "full_game.md)."),
    seed: int = typer.Option(0, help="Seed: game g's board, dice, deck and bots' draws."),
    boards: str = typer.Option("random", help="random: every game on its own random legal board; fixed: the "
                                              "printed layout."),
    rotate: bool = typer.Option(False, help="Play every game once per rotation of the bots through the seats (the "
                                            "same boards, dice and decks): bot and seat effects apart."),
    rules: Optional[Path] = RULES_FILE_OPTION,
    rule: Optional[list[str]] = _rule_option("domestic_trade=false; New World: harbours_after_draft=true, "
                                             "harbour_hexes_apart=true; the Wonders: wonder_site_city=true; "
                                             "draft_ship_facing_frame=false, progress_before_roll=false; the Fog "
                                             "Islands: fog_explore_next_corner=false; the Pirate Islands: "
                                             "pirate_seven_steal_optional=false"),
    out: Path = GAMES_OUT_OPTION,
    run=None,
):
    """Full games by bots: who wins, from which seat, how long games last, where the VP come from."""
    from analyzer.seafarers.api import run_play
    from reports.seafarers.play import headline

    fields = run_fields(run)
    fields.pop("label")
    result = run_play(scenario, players, bots, fields.pop("games"), seed, boards,
                      rules_file=rules, rotate=rotate, out=out, command=command_line(), rule=rule, **fields)
    out_console.print(headline(result.summary), highlight=False)
    print_run_notes(result.summary["run"])
    out_console.print(f"report: {out / 'report.html'}")


@app.command("tournament")
@run_options(count="games", default_games=1000)
def tournament_cmd(
    scenario: str = typer.Option(..., help="Scenario slug: any `play` plays (see `tabletop seafarers scenarios`)."),
    players: int = typer.Option(4, help="Number of players, 3 or 4."),
    entrants: str = typer.Option(..., help="The bots compared, at least 2, comma-separated, as `play --bots` names "
                                           "them: value:opening=pips,value:opening=diverse,planner,... With fewer "
                                           "entrants than seats each seating is repeated round the table."),
    seed: int = typer.Option(0, help="Seed: game g's board, dice and deck, the same in every seating."),
    boards: str = typer.Option("random", help="random: every game on its own random legal board; fixed: the "
                                              "printed layout."),
    rules: Optional[Path] = RULES_FILE_OPTION,
    rule: Optional[list[str]] = _rule_option("domestic_trade=false; New World: harbours_after_draft=true"),
    ladder: Optional[str] = typer.Option(None, help="Bots, comma-separated: play the tournament once per rung, each "
                                                    "entrant's name replaced by the rung's bot (its parameters "
                                                    "kept: --entrants value:opening=pips,value:opening=diverse "
                                                    "--ladder value,rollout), on the same games; say first whether "
                                                    "the strongest entrant holds at every rung."),
    budget: Optional[float] = BUDGET_OPTION,
    out: Path = GAMES_OUT_OPTION,
    run=None,
):
    """Bots compared by winning full games: every game once per seating of the entrants, on the same boards and
    dice; win rates, head-to-head differences and Bradley-Terry strengths with CIs."""
    from analyzer.seafarers.api import run_tournament
    from reports.seafarers.tournament import headline

    fields = run_fields(run)
    fields.pop("label")
    if ladder is not None:
        return _ladder("tournament", ladder, budget, out, scenario=scenario, players=players, entrants=entrants,
                       seed=seed, boards=boards, rules_file=rules, rule=rule, **fields)
    result = run_tournament(scenario, players, entrants, fields.pop("games"), seed,
                            boards, rules_file=rules, out=out, command=command_line(), rule=rule, **fields)
    out_console.print(headline(result.summary), highlight=False)
    print_run_notes(result.summary["run"])
    out_console.print(f"report: {out / 'report.html'}")


@app.command("seats")
@run_options(count="games", default_games=1000, precision=True, streaming=True,
             statistic="the worst seat's win rate in each scenario, a share: 0.01 is one point")
def seats_cmd(
    scenarios: str = typer.Option("all", help="'all' (every scenario and the base map) or slugs separated by "
                                              "commas."),
    players: str = typer.Option("3,4", help="Player counts, comma-separated."),
    bot: Optional[str] = typer.Option(None, help="The bot in every seat (as `play --bots` names one; default value)."),
    seed: int = typer.Option(0, help="Seed: game g's board, dice and deck."),
    base: bool = typer.Option(True, help="Play the base map too, as the reference (--no-base: only the scenarios "
                                         "named)."),
    rules: Optional[Path] = RULES_FILE_OPTION,
    rule: Optional[list[str]] = _rule_option("domestic_trade=false"),
    ladder: Optional[str] = LADDER_OPTION,
    budget: Optional[float] = BUDGET_OPTION,
    out: Path = GAMES_OUT_OPTION,
    run=None,
):
    """Seat advantage: the same bot in every seat, random boards, each scenario and player count; seat win rates
    with CIs, a heat-map of scenario × seat and the base map beside them."""
    from analyzer.seafarers.api import run_seats
    from reports.seafarers.seats import headline

    fields = run_fields(run)
    fields.pop("label")
    if ladder is not None:
        return _ladder("seats", ladder, budget, out, scenarios=scenarios, players=players, bot=bot, seed=seed,
                       base=base, rules_file=rules, rule=rule, **fields)
    result = run_seats(scenarios, players, bot or "value", fields.pop("games"), seed, base, rules_file=rules, out=out,
                       command=command_line(), rule=rule, **fields)
    out_console.print(headline(result.summary), highlight=False)
    cells = result.summary["cells"]
    if fields.get("precision") is not None:  # each cell stops on its own: say how many reached it
        reached = sum(c["stopped"] == "precision" for c in cells)
        sizes = sorted({c["games"] for c in cells})
        out_console.print(f"precision ±{fields['precision']:g} on the worst seat's win rate reached in {reached} of "
                          f"{plural(len(cells), 'cell')}; games per cell: "
                          + (f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,}–{sizes[-1]:,}"))
    print_run_notes({k: v for k, v in result.summary["run"].items() if k != "precision"})
    out_console.print(f"report: {out / 'report.html'}")


@app.command("versus-catanatron")
def versus_catanatron_cmd(
    ours: str = typer.Option("value", help="Our bots, comma-separated, as `play --bots` names them: value, planner, "
                                           "value:opening=pips, rollout, ... (each is a pairing with every one of "
                                           "--theirs)."),
    theirs: str = typer.Option("R,W", help="catanatron's players by its command line's codes, comma-separated: R "
                                           "random, W weighted random, VP victory-point greedy; AB alpha-beta and F "
                                           "value function need catanatron 3.3.0, from GitHub only "
                                           "(docs/seafarers/catanatron.md)."),
    games: int = typer.Option(100, help="Games per pairing."),
    seed: int = typer.Option(0, help="Seed: catanatron's map, dice and players' draws of each game, our bot's."),
    players: int = typer.Option(2, help="2: 1v1; 3 or 4: ours in one seat against theirs in every other."),
    out: Path = GAMES_OUT_OPTION,
):
    """Our bots as players inside catanatron's own engine (the optional extra .[catanatron]), on its base map and
    rules: win rates with CIs, seats rotated, game length in catanatron's turns (docs/seafarers/catanatron.md)."""
    from analyzer.seafarers.api import run_versus_catanatron
    from reports.seafarers.versus_catanatron import headline

    result = run_versus_catanatron(ours, theirs, games, seed, players, out=out, command=command_line())
    out_console.print(headline(result.summary), highlight=False)
    for pairing in result.summary["pairings"]:
        out_console.print(f"  {pairing['sentence']}", highlight=False)
    out_console.print(f"report: {out / 'report.html'}")
