"""`tabletop seafarers ...` commands: a thin Typer layer over analyzer.seafarers."""

import typer

seafarers_app = typer.Typer(no_args_is_help=True,
                            help="Catan: Seafarers: scenarios, boards, dice, production, balance and pirates.")


@seafarers_app.command("scenarios")
def scenarios_cmd(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")):
    """List the scenarios: players, hexes inside the frame, VP target, and whether the layout is reconstructed."""
    import json

    from rich.console import Console
    from rich.table import Table

    from analyzer.seafarers.scenarios import list_scenarios

    rows = [s.summary() for s in list_scenarios()]
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return
    table = Table(title="Catan: Seafarers scenarios (seed 002)")
    for name in ("#", "scenario", "players", "hexes", "land", "fog", "VP", "layout"):
        table.add_column(name, justify="left" if name in ("scenario", "layout") else "right", no_wrap=True)
    for r in rows:
        table.add_row(str(r["number"]), r["slug"], str(r["players"]), str(r["hexes"]), str(r["land"]),
                      str(r["fog"]), str(r["vp_target"]), r["status"])
    Console().print(table)
    print("hexes: tiles inside the frame. layout: published, adjusted (a published layout partly reconstructed "
          "to agree with the seed) or reconstructed; see docs/seafarers_scenarios.md")
