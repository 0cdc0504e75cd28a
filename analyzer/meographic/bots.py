"""The Meographic bots by name, with their parameters (`planner:mission=0.8`): kernels/meographic/bots.py plays
them. Every one is fair: it sees the piles, the mission row, its own area and tiles and the public counts,
never the bag's order."""

from analyzer.arms import ArmSpec, Registry
from kernels import meographic as km

PLANNER_PARAMS = (("adj", 0.5), ("mission", 0.5), ("keep", 0.3), ("look", 4.0))
ROLLOUT_PARAMS = PLANNER_PARAMS + (("k", 2.0), ("width", 3.0))  # (kernels/meographic/rollout.py RO_K, RO_WIDTH)

BOTS = Registry("bot", [
    ArmSpec("random", km.BOT_RANDOM, "uniform over the legal actions"),
    ArmSpec("greedy", km.BOT_GREEDY, "most immediate points over pile choices x held tiles x legal cells "
                                     "(blind from the bag only when no pile stands)"),
    ArmSpec("planner", km.BOT_PLANNER, "immediate points + adj x open same-type sides + mission x unblocked "
                                       "partial shapes times the chance the unseen tiles give the missing types "
                                       "+ keep x the kept tile's points", PLANNER_PARAMS),
    ArmSpec("rollout", km.BOT_ROLLOUT, "each candidate (every explore; the planner's best `width` placements) "
                                       "played k times to the end by greedy in every seat, the unseen tiles "
                                       "shuffled by count (the same k shuffles for every candidate); the most "
                                       "points in sum", ROLLOUT_PARAMS),
], bounds={"look": (1, 21), "k": (1, 64), "width": (1, 256)})
DEFAULT_BOT = "planner"


def bots_help() -> str:
    return "Bots, one for every seat or one per seat, comma-separated (name:key=value,...). " + BOTS.describe()
