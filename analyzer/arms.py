"""Named arms (policies, plans, heuristics, bots): one registry type for every game, and arms played
on common random numbers.

Every game chooses its arms on the command line as `name:key=value,...` (analyzer.lineup, which reads
lists of them too):

    POLICIES = Registry("policy", [ArmSpec("greedy", 1, "most points now"), ...], bounds={"width": (1, 8)})
    arm = POLICIES.parse("lookahead:width=3")      # Arm(spec, values): arm.label, arm.vector(16)

`run_arms` plays several arms on the same game indices of one seed: every game draws its luck (deck,
dice) from streams keyed by (seed, game, purpose), whatever the arm, so the arms meet the same luck
game by game and their difference is measured on paired games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from analyzer.lineup import MAX_ARMS, parse_arm
from analyzer.params import value_text

__all__ = ["MAX_ARMS", "Arm", "ArmSpec", "Registry", "arm_folders", "check_arm_count", "run_arms", "arms_run_info"]


@dataclass(frozen=True)
class ArmSpec:
    """One entry of a registry: a name, the kernel's code for it, what it does, its parameters."""
    name: str
    code: int  # the kernel's id for it (a policy id, a plan kind); -1 where the kernel has none
    description: str
    params: tuple[tuple[str, float], ...] = ()  # (name, default) in the kernel's vector order
    fair: bool = True  # False: it sees what its seat could not see at the table (an oracle)


@dataclass(frozen=True)
class Arm:
    """A spec with its parameter values, as parsed from `name:key=value,...`."""
    spec: ArmSpec
    values: dict[str, float]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def label(self) -> str:
        """The canonical text: every parameter written out, with just the digits that tell values apart."""
        args = ",".join(f"{k}={value_text(self.values[k])}" for k, _ in self.spec.params)
        return f"{self.name}:{args}" if args else self.name

    @property
    def short_label(self) -> str:
        """The name with only the parameters set away from their defaults, for titles and sentences
        (`lookahead`, `lookahead:hole=2`); `label` is the one to record."""
        args = ",".join(f"{k}={value_text(self.values[k])}" for k, default in self.spec.params
                        if self.values[k] != default)
        return f"{self.name}:{args}" if args else self.name

    def vector(self, length: int, dtype=np.float64) -> np.ndarray:
        """The parameter values in spec order, zero-padded to `length` (a kernel's parameter vector)."""
        v = np.zeros(length, dtype)
        v[:len(self.values)] = [self.values[k] for k, _ in self.spec.params]
        return v


class Registry:
    """Arms of one kind ("policy", "plan", "heuristic") by name, with the rules of their parameters:
    `bounds` gives whole-number parameters their (lowest, highest); `positional` lets `name:N` set the
    first parameter."""

    def __init__(self, kind: str, specs: Iterable[ArmSpec], bounds: dict[str, tuple[int, int]] | None = None,
                 positional: bool = False):
        self.kind = kind
        self.specs = {s.name: s for s in specs}
        self.bounds = dict(bounds or {})
        self.positional = positional

    def parse(self, text: str) -> Arm:
        """The arm `text` names; a one-line UserError for an unknown name or a bad parameter."""
        spec, values = parse_arm(text, self.kind, self.specs, self.bounds, positional=self.positional)
        return Arm(spec, values)

    def __getitem__(self, name: str) -> ArmSpec:
        return self.specs[name]

    def __contains__(self, name: str) -> bool:
        return name in self.specs

    def __iter__(self) -> Iterator[str]:
        return iter(self.specs)

    def get(self, name: str, default=None):
        return self.specs.get(name, default)

    def describe(self) -> str:
        """One line per arm for help texts: `name: description (parameters: a=1, b=2)`."""
        lines = []
        for s in self.specs.values():
            params = ", ".join(f"{k}={value_text(v)}" for k, v in s.params)
            lines.append(f"{s.name}: {s.description}" + (f" (parameters: {params})" if params else ""))
        return "; ".join(lines)


def arm_folders(labels: list[str]) -> list[str]:
    """Checkpoint sub-folder names, one per arm: its label made file-safe, and numbered when two labels
    become the same name ("a b.csv" and "a_b.csv")."""
    names = [re.sub(r"[^A-Za-z0-9._=+-]+", "_", label).strip("_") or "arm" for label in labels]
    return [f"{name}-{i + 1}" if names.count(name) > 1 else name for i, name in enumerate(names)]


def check_arm_count(arms: int, what: str = "arms") -> None:
    """One-line UserError when a comparison would play more than MAX_ARMS arms."""
    from analyzer.errors import UserError

    if arms > MAX_ARMS:
        raise UserError(f"{what}: {arms:,} arms, more than the {MAX_ARMS} one comparison plays (every two are "
                        f"paired: {arms * (arms - 1) // 2:,} pairs); compare them in smaller groups")


def run_arms(jobs: list[tuple[str, object]], options, notes: dict | None = None, aggregate: bool = False,
             paired: bool = True) -> list:
    """Play games 0 .. G-1 of every (label, Job) arm with the same run options (common random numbers:
    each arm's job has the same seed); with a checkpoint, each arm keeps its chunks in a sub-folder
    named after its label (arm_folders). Returns the arms' RunResults in order. `paired=False`: the arms are
    separate studies, never compared two by two (the cells of a seat study), so MAX_ARMS does not bound them."""
    from analyzer.runner import backend_for, run_job

    if paired:
        check_arm_count(len(jobs), ", ".join(label for label, _ in jobs[:3]) + (", ..." if len(jobs) > 3 else ""))
    folders = arm_folders([label for label, _ in jobs])
    runs = []
    with backend_for(options) as backend:  # one thread pool or Dask cluster for every arm
        for i, ((label, job), folder) in enumerate(zip(jobs, folders)):
            arm_options = replace(options, label=f"{options.label} ({label})")  # games (seating 1): bar, estimates
            if options.checkpoint is not None:
                arm_options = replace(arm_options, checkpoint=Path(options.checkpoint) / folder)
            runs.append(run_job(job, arm_options, aggregate=aggregate, notes=notes, runs=len(jobs) - i,
                                backend=backend))
    return runs


def arms_run_info(runs: list) -> dict:
    """How the arms ran, for a summary: the first arm's backend and chunks, the arms' wall time in all,
    and the checkpoint folder holding the arms' sub-folders with the games resumed in all."""
    info = {**runs[0].info, "wall_seconds": round(sum(r.wall for r in runs), 3), "arms": len(runs)}
    if "checkpoint" in runs[0].info:
        info["checkpoint"] = {"dir": str(Path(runs[0].info["checkpoint"]["dir"]).parent),
                              "resumed_games": sum(r.info["checkpoint"]["resumed_games"] for r in runs)}
    return info
