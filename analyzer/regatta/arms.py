"""The Regatta bots by name (`name:key=value`), analyzer.arms.Registry. All fair: they read their own hand,
the face-up tiles and the boats, never a face-down tile, the deck order or another hand."""

from analyzer.arms import ArmSpec, Registry
from kernels.regatta.bots import BOT_BLOCKER, BOT_GREEDY, BOT_PLANNER, BOT_RANDOM, BOT_ROLLOUT

BOTS = Registry("bot", [
    ArmSpec("random", BOT_RANDOM, "uniform over the legal actions"),
    ArmSpec("greedy", BOT_GREEDY, "reveals first, then the card play that most shortens its boat's path to the "
            "sea (search over the visible rivers); never negates"),
    ArmSpec("blocker", BOT_BLOCKER, "greedy valuing its path less spite x the nearest rival's, and negating a card "
            "that leaves it worse off", params=(("spite", 0.5),)),
    ArmSpec("planner", BOT_PLANNER, "searches its turn's card plays (beam x depth) and values each reveal over the "
            "tiles it has not seen, minimising its path less spite x the nearest rival's; negates the leader's "
            "card", params=(("spite", 0.5), ("beam", 3), ("depth", 3))),
    ArmSpec("rollout", BOT_ROLLOUT, "plays the greedy's choice and its top card plays each on k copies of the race "
            "(what it cannot see dealt again), continued by greedies for some rounds, and picks the best mean "
            "result; negates like the planner", params=(("k", 8), ("top", 3), ("rounds", 3))),
], bounds={"beam": (1, 8), "depth": (1, 3), "k": (1, 256), "top": (0, 8), "rounds": (1, 100)})
