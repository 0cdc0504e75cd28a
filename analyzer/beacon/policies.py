"""Policy registry: a name (optionally with parameters, `name:key=value,...`) -> kernel id + vector.

Every policy is a branch of kernels.beacon.choose_action; new ones register here with their
parameter names and defaults, in the order of the kernel's parameter vector.
"""

from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from kernels import beacon as kb

N_PARAMS = 8  # length of every policy's parameter vector


@dataclass(frozen=True)
class PolicySpec:
    name: str
    kernel_id: int
    description: str
    params: tuple[tuple[str, float], ...] = ()  # (name, default) in vector order


POLICIES = {
    "random": PolicySpec("random", kb.POLICY_RANDOM, "uniform over the legal actions (ending the turn included)"),
    "greedy": PolicySpec("greedy", kb.POLICY_GREEDY,
                         "most immediate points, then cells with more neighbours; sails towards placements"),
}


@dataclass(frozen=True)
class Policy:
    spec: PolicySpec
    vector: np.ndarray

    @property
    def label(self) -> str:
        parts = [f"{k}={v:g}" for (k, _), v in zip(self.spec.params, self.vector)]
        return self.spec.name + (":" + ",".join(parts) if parts else "")


def parse_policy(text: str) -> Policy:
    name, _, args = text.strip().partition(":")
    spec = POLICIES.get(name)
    if spec is None:
        raise UserError(f"unknown policy {name!r}; choose from {', '.join(POLICIES)}")
    vector = np.zeros(N_PARAMS, np.float64)
    index = {k: i for i, (k, _) in enumerate(spec.params)}
    for i, (_, default) in enumerate(spec.params):
        vector[i] = default
    for item in filter(None, args.split(",")):
        key, eq, value = item.partition("=")
        if key not in index or not eq:
            known = ", ".join(index) or "none"
            raise UserError(f"policy {name}: bad parameter {item!r} (parameters: {known})")
        try:
            vector[index[key]] = float(value)
        except ValueError:
            raise UserError(f"policy {name}: parameter {key} needs a number, got {value!r}") from None
    return Policy(spec, vector)
