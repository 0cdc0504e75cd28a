"""`tabletop seafarers ...` commands: a thin Typer layer over analyzer.seafarers."""

import typer

seafarers_app = typer.Typer(no_args_is_help=True,
                            help="Catan: Seafarers: scenarios, boards, dice, production, balance and pirates.")
