"""The ranges of the seafarers commands' whole-number options, and the one check they all go through.

Each upper bound keeps a value inside what the numba kernels take (int64 counts, stream indices and
their products: a larger Python int is a numba typing error), keeps what a run holds in memory within
one machine (numpy would fail to allocate, or the run would take hours before failing), and refuses
what the game makes meaningless. Memory and speed figures: `/usr/bin/time` on the commands, one core.
"""

from __future__ import annotations

from analyzer.errors import UserError
from analyzer.params import check_whole

IN_PARTS = "for more, run in parts with different --seed values"

MAX_BOARDS = 1_000_000  # boards --count, balance --boards: about 3 KB of tables per board (3 GB at the bound)
MAX_DEALT_BOARDS = 10_000_000  # boards.generate_boards alone (no tables): about 250 bytes per board
MAX_SEQUENCES = 100_000  # roll sequences per board: 800 bytes of tallies each per thread while a board is played
MAX_SEQUENCE_ROLLS = 100_000  # rolls per sequence; a game has about 60-100
MAX_BOARD_ROLLS = 10**8  # --sequences x --rolls: about 10 s per board on one core (10 million rolls/s)
MAX_BALANCE_ROLLS = 10**12  # x --boards as well: about a day on one core
MAX_HAND = 95  # no hand holds more than the bank's 95 resource cards, 19 of each (base game)
MAX_DICE_ROLLS = 10**11  # 400 bytes per 65,536-roll block; 15 minutes on 1 core at 115 M rolls/s
MAX_BATTLES = 10**11  # 8 minutes on 1 core at 210 M battles/s
MAX_SIEGES = 10**7  # one column per siege: about 35 bytes with its statistics
MAX_WARSHIPS = 15  # warships are ships, and a colour has 15 (data/rules/pirate_race.toml, supply.ships)
MAX_GAME_PLANS = 1_000_000  # pirates --games x plans: about 4 KB of tables per game and plan
MAX_ROUNDS = 10_000  # a pirate race is decided in about 50 rounds
MAX_PLAYERS = 6  # Catan's 5-6 player extension seats the most

# The options checked by name (check_option): (most, note).
BY_NAME = {
    "--count": (MAX_BOARDS, f"about 3 KB per board in memory; {IN_PARTS}"),
    "--boards": (MAX_BOARDS, f"about 3 KB per board in memory; {IN_PARTS}"),
}


def check_range(option: str, value: int, least: int, most: int, note: str = "", lowest: str = "") -> None:
    """One-line UserError unless least <= value <= most, e.g. `--rolls must be from 1 to 100,000, got
    1,000,000 (note)`. lowest: the lower end in words where it means something ("-1 (never spend)")."""
    check_whole(option, value)
    if not least <= value <= most:
        why = f" ({note})" if note else ""
        raise UserError(f"{option} must be from {lowest or f'{least:,}'} to {most:,}, got {value:,}{why}")


def check_product(what: str, options: dict[str, int], most: int, note: str) -> None:
    """One-line UserError when options each in range multiply to more work than one run should take."""
    total = 1
    for value in options.values():
        total *= value
    if total > most:
        named = " x ".join(f"{name} {value:,}" for name, value in options.items())
        raise UserError(f"{named} is {total:,} {what}, more than {most:,} ({note})")


def check_option(option: str, value: int, least: int = 1) -> None:
    """check_range with the bound and note of an option in BY_NAME."""
    most, note = BY_NAME[option]
    check_range(option, value, least, most, note)
