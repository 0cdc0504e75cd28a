"""The full Seafarers game's bots by name (`--bots`, `--entrants`): the registry of kernels/catan/policies.py's
policies with their parameters (kernels/catan/bots.py V_*), a bot from its text, the name a reader sees, and the
kernel's per-seat vectors.

    arms = [parse_bot(text) for text in ("value:opening=port", "weighted")]
    policies, params = bot_vectors(arms)      # what kernels/catan/play.py play_games takes per seat (Seats)
"""

from __future__ import annotations

import re

import numpy as np

from analyzer.arms import ArmSpec, Registry
from analyzer.errors import UserError
from kernels.catan import bots as kb
from kernels.catan import game as kg
from kernels.catan import policies as kp

__all__ = ["BOTS", "OPENINGS", "bot_name", "bot_vectors", "parse_bot"]

OPENINGS = ("pips", "diverse", "port")  # kernels/catan/bots.py OPENING_*: the draft heuristics by name
VALUE_PARAMS = (("opening", 1.0), ("gold", 1.0), ("variety", 4.0), ("scarce", 1.0), ("generic", 2.0),
                ("special", 1.0), ("match", 0.5), ("vp", 10.0), ("pips", 1.0), ("new", 2.0), ("reach", 0.6),
                ("card", 4.0), ("goals", 1.0))  # kernels/catan/bots.py V_*
ROLLOUT_PARAMS = (("playouts", 4.0), ("candidates", 3.0), ("horizon", 8.0))  # V_PLAYOUTS, V_CANDIDATES, V_HORIZON
BOTS = Registry("bot", [
    ArmSpec("random", kp.POLICY_RANDOM, "uniform over the legal actions (a baseline)"),
    ArmSpec("weighted", kp.POLICY_WEIGHTED, "three times in four a uniform pick among the builds, development "
                                            "cards, robber moves and steals; else uniform over every action "
                                            "(a baseline that builds)"),
    ArmSpec("value", kp.POLICY_VALUE, "one ply over the legal actions on a hand-weighted value: income, new "
                                      "resources, harbours, VP, roads and ships towards free sites, saving for a "
                                      "city or settlement; drafts with an opening heuristic (opening=pips, diverse "
                                      "or port)",
            VALUE_PARAMS),
    ArmSpec("planner", kp.POLICY_PLANNER, "plans its next build (a city, a settlement on a site it can take, a road "
                                          "or ship towards the best site its pieces lead to, or a development card) "
                                          "by value per expected roll to afford it from its income, trades towards "
                                          "it and spends on nothing else; the value bot's weights",
            VALUE_PARAMS),
    ArmSpec("rollout", kp.POLICY_ROLLOUT, "tries the value bot's best few actions (candidates=3) in playouts "
                                          "(playouts=4) of a few rolls (horizon=8; 0 to the game's end) by value "
                                          "bots on a copy of the game whose hidden hands, deck, fog and dice are "
                                          "dealt afresh from what its seat sees, and plays the best mean outcome "
                                          "(a win, else its VP, income and cards against the best rival's); the "
                                          "value bot's weights",
            VALUE_PARAMS + ROLLOUT_PARAMS),
], bounds={"opening": (0, 2), "goals": (0, 100), "playouts": (0, 64), "candidates": (1, 16), "horizon": (0, 1000)})


def parse_bot(text: str):
    """A bot from `name:key=value,...`; the opening heuristic may be named (value:opening=port)."""
    def opening(m) -> str:  # the whole value by name; a number is left to the registry's bounds
        value = m[1].strip()
        if value in OPENINGS:
            return f"opening={OPENINGS.index(value)}"
        if re.fullmatch(r"[+-]?[\d.eE+-]+", value):
            return m[0]
        raise UserError(f"bot {text.partition(':')[0].strip()}: opening must be {', '.join(OPENINGS[:-1])} or "
                        f"{OPENINGS[-1]}, got {value!r}")

    if isinstance(text, str):
        text = re.sub(r"(?<![\w.])opening\s*=([^,]*)", opening, text)
    return BOTS.parse(text)


def bot_name(arm) -> str:
    """The bot as a reader writes it: only the parameters set away from their defaults, the opening by name."""
    text = arm.short_label
    for k, name in enumerate(OPENINGS):
        text = text.replace(f"opening={k}", f"opening={name}")
    return text


def bot_vectors(arms: list) -> tuple[np.ndarray, np.ndarray]:
    """(policies int64 [MAX_SEATS], params float64 [MAX_SEATS, N_VALUE_PARAMS]) of the seats' bots."""
    policies = np.zeros(kg.MAX_SEATS, np.int64)
    params = np.zeros((kg.MAX_SEATS, kb.N_VALUE_PARAMS), np.float64)
    for seat, arm in enumerate(arms):
        policies[seat] = arm.spec.code
        params[seat] = arm.vector(kb.N_VALUE_PARAMS)
    return policies, params
