"""Policy registry: a name (optionally with parameters, `name:key=value,...`) -> kernel id + vector.

Every policy is a branch of kernels.beacon.choose_action; new ones register here with their
parameter names and defaults, in the order of the kernel's parameter vector. Kernel ids are
numbered by cost (a kernel compiles the policies up to the costliest one its seats use).
"""

from analyzer.arms import Arm, ArmSpec, Registry
from kernels import beacon as kb

N_PARAMS = kb.N_PARAMS  # length of every policy's parameter vector


# Weights of the lookahead value function, in kernel vector order (kernels.beacon LA_*), tuned by
# paired one-at-a-time sweeps with `tabletop beacon compare` (docs/beacon/policies.md).
LOOKAHEAD_PARAMS = (
    ("width", 2.0),  # candidate placements searched per step of the plan
    ("near", 0.6),  # unexplored tile missing one neighbour: weight of points x fill chance
    ("far", 0.25),  # the same for tiles missing two or more
    ("hole", 0.0),  # penalty per dead hole next to placed tiles (the sweep found any penalty hurts)
    ("ship", 0.05),  # value per fillable open side around the ship for next turn
    ("keep", 0.25),  # solo: weight of the kept tile's points
    ("trade", 0.25),  # a trade must raise the team's value by more than this
    ("discard", 0.5),  # cost of a discard-to-move per point of the discarded tile
)
# Parameters that count things: (smallest, largest) allowed; `inner` names a policy id.
BOUNDS = {"width": (1, kb.MAX_WIDTH), "samples": (1, 10_000), "options": (1, kb.MAX_OPTIONS),
          "inner": (kb.POLICY_GREEDY, kb.POLICY_LOOKAHEAD), "horizon": (0, 10_000)}
BOUNDS.update({"replay_" + k: v for k, v in BOUNDS.items()})
# rollout/oracle: vector positions 8.. (kernels.beacon R_*)
ROLLOUT_PARAMS = (("samples", 4.0), ("options", 3.0), ("inner", float(kb.POLICY_LOOKAHEAD)), ("horizon", 2.0))
ORACLE_PARAMS = (("samples", 1.0), ("options", 3.0), ("inner", float(kb.POLICY_LOOKAHEAD)), ("horizon", 0.0)) + tuple(
    ("replay_" + name, value) for name, value in ROLLOUT_PARAMS)  # the rollout it also replays

POLICIES = Registry("policy", [
    ArmSpec("random", kb.POLICY_RANDOM, "uniform over the legal actions (ending the turn included)"),
    ArmSpec("greedy", kb.POLICY_GREEDY, "most immediate points, then cells with more neighbours; sails towards "
                                        "placements"),
    ArmSpec("lookahead", kb.POLICY_LOOKAHEAD,
            "plans the whole turn (moves, placements, discard-moves, keep) on a board value", LOOKAHEAD_PARAMS),
    ArmSpec("rollout", kb.POLICY_ROLLOUT, "lookahead's best turn options, each continued `samples` times with the "
                                          "unseen tiles shuffled; plays the best mean",
            LOOKAHEAD_PARAMS + ROLLOUT_PARAMS),
    ArmSpec("oracle", kb.POLICY_ORACLE, "NOT A FAIR POLICY: sees the future draw order; best of its search and the "
                                        "greedy, lookahead and rollout replays — an upper bound",
            LOOKAHEAD_PARAMS + ORACLE_PARAMS, fair=False),
], BOUNDS)
FAIR = tuple(name for name in POLICIES if POLICIES[name].fair)
# What `simulate` plays unless told: the strongest fair policy that plays the default 10,000 games in
# seconds (rollout is stronger by ~3 points but ~50x slower; docs/beacon/policies.md).
DEFAULT_POLICY = "lookahead"

Policy = Arm  # a policy with its parameter values: .label, .spec.code (kernel id), .vector(N_PARAMS)


def parse_policy(text: str) -> Policy:
    return POLICIES.parse(text)


def policy_help() -> str:
    """The --policy help: every policy by name with what it does (parameters: docs/beacon/policies.md)."""
    names = "; ".join(f"{name}{' (default)' if name == DEFAULT_POLICY else ''}: {POLICIES[name].description}"
                      for name in POLICIES)
    return f"Policy, optionally with parameters (name:key=value,...). {names}."


def bot_of(text: str) -> dict:
    """What a report says of the policy that played: its short label, whether it is fair, what it does."""
    policy = parse_policy(text)
    return {"label": policy.short_label, "fair": policy.spec.fair, "about": policy.spec.description}
