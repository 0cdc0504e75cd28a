"""The step contract (after Pgx), checked: every game played move by move declares its kernels in a `StepGame`
(`step_game()` in analyzer/<game>/game.py, named by the registry's Game.step); `check` reads their signatures and
`play` drives one game through them from Python, checking at every move what the contract promises.
tests/test_step_contract.py runs both over every registered step game.

The kernels, by the roles of their parameters:

    init(state, setup, seed, game)          game `game` of `seed` after set-up, its streams keyed by (seed, game,
                                            purpose) (kernels/rng.py)
    legal(state, setup, actions) -> n       until terminal, the n >= 1 legal actions into actions[:n], distinct rows
                                            (kind, a, b, ...) in one documented canonical order
    step(state, setup, kind, a, b, ...)     carry out one legal action: its row, one parameter per column
    terminal(state, setup) -> bool          the game is over
    result(state, setup, out)               the finished game's result columns into out: as many as its jobs write
                                            (Job.n_cols), each of them
    decide(state, setup, actions, n, policy, params, rng, work) -> i
                                            the seat to move's choice among actions[:n]; it leaves them as they are

each over named tuples of arrays the caller owns (`state`, `setup`), allocating nothing. What a game may choose,
declared in its StepGame and checked:
  * the order of state and setup, the same in all six (`setup_first`: the Catan kernels' (board, game));
  * its parameter names (`names`, role -> name: the river race's `st`, the Catan kernels' `g` for the game index);
  * the actions array kept in the state (`actions_in`, its field): then neither legal nor decide takes it;
  * decide's optional roles, in that order: `policy` (the seat's bot code), `params` (its parameter vector), `rng`
    (its policy stream), `work` (the bots' scratch); one it does not take, it finds where `elsewhere` says.
The streams the game loop sets up per game beside init (the seats' policy streams) are the fixture's `begin`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

__all__ = ["ContractError", "Fixture", "Played", "StepGame", "check", "play"]

KERNELS = ("init", "legal", "step", "terminal", "result", "decide")
OPERANDS = ("a", "b", "c", "d", "e")  # step's parameters after kind, one per column of an action row
DECIDE_OPTIONAL = ("policy", "params", "rng", "work")
SEAT_ROLES = ("policy", "params", "rng")  # what decide needs of the seat to move, passed or found `elsewhere`
ROLES = {"state", "setup", "seed", "game", "actions", "kind", "out", "n", *OPERANDS, *DECIDE_OPTIONAL}
_UNWRITTEN = -987_654_321  # result's out starts as this, and the guard behind it stays so
_GUARD = 8


class ContractError(ValueError):
    """A step game's declaration or kernels break the step contract (the message names the game and kernel)."""


@dataclass(frozen=True)
class Fixture:
    """One step game's arrays for one job, built by the game's own set-up code (what its command plays)."""
    job: object  # analyzer.job.Job: the command's job (seed, bots, rules); result's width is its n_cols
    state: tuple
    setup: tuple
    actions: np.ndarray  # the array legal writes into (the state's own field where the game keeps it there)
    seat: Callable[[int], dict]  # seat -> decide's per-seat arguments it takes, by role (policy, params, rng, work)
    begin: Callable[[int, int], None] = lambda seed, game: None  # (seed, game): what the game loop sets up per game
    # beside init (the seats' policy streams)


@dataclass(frozen=True)
class StepGame:
    """A step game's kernels as its game loop calls them, and how to build a small game of them."""
    game: str  # the registry id
    init: Callable | None
    legal: Callable | None
    step: Callable | None
    terminal: Callable | None
    result: Callable | None
    decide: Callable | None
    action_width: int  # columns of an action row: kind, then step's operands
    actor: Callable[[tuple], int]  # state -> the seat to move (whose decide chooses)
    fixture: Callable[[int], Fixture]  # seed -> the arrays of a small job of that seed
    setup_first: bool = False  # (setup, state) lead every kernel rather than (state, setup)
    names: Mapping[str, str] = field(default_factory=dict)  # role -> this game's parameter name, where they differ
    actions_in: str = ""  # the state's field holding the actions (legal and decide then take none); "": passed
    elsewhere: Mapping[str, str] = field(default_factory=dict)  # decide's seat roles it reads, not takes: -> where
    twins: Mapping[str, Callable] = field(default_factory=dict)  # kernel -> a Python-callable kernel of the same
    # signature standing in for an internal one (kernels.jit.internal) when `play` calls it


def _lead(game: StepGame) -> tuple[str, ...]:
    return ("setup", "state") if game.setup_first else ("state", "setup")


def _contract(game: StepGame, name: str) -> tuple[str, ...]:
    """The roles of kernel `name`'s parameters for this game (decide: without its optional roles)."""
    actions = () if game.actions_in else ("actions",)
    return _lead(game) + {"init": ("seed", "game"), "legal": actions, "terminal": (), "result": ("out",),
                          "step": ("kind", *OPERANDS[:game.action_width - 1]),
                          "decide": (*actions, "n")}[name]


def _shown(game: StepGame, roles) -> str:
    names = dict(game.names)
    return "(" + ", ".join(names.get(r, r) for r in roles) + ")"


def roles_of(game: StepGame, name: str) -> tuple[str, ...]:
    """The roles of the declared kernel's parameters, read from its Python function; ContractError if one has none."""
    fn = getattr(game, name)
    if fn is None:
        raise ContractError(f"{game.game}: no {name} kernel declared; the step contract's {name} is "
                            f"{name}{_shown(game, _contract(game, name))}")
    py_func = getattr(fn, "py_func", None)
    if py_func is None:
        raise ContractError(f"{game.game}: {name} is {fn!r}, not a numba kernel")
    params = list(inspect.signature(py_func).parameters)
    by_name = {v: k for k, v in game.names.items()}
    roles = []
    for p in params:
        role = by_name.get(p, p if p in ROLES and p not in game.names else None)
        if role is None:
            raise ContractError(f"{game.game}: {name}({', '.join(params)}): parameter {p!r} has no role in the step "
                                f"contract; the contract's {name} is {name}{_shown(game, _contract(game, name))}")
        roles.append(role)
    return tuple(roles)


def check(game: StepGame) -> StepGame:
    """The declaration, if its kernels meet the step contract; else ContractError naming the game and the kernel."""
    if len(set(game.names.values())) != len(game.names) or not set(game.names) <= ROLES:
        raise ContractError(f"{game.game}: names {dict(game.names)} must map roles of the step contract to distinct "
                            "parameter names")
    if not 2 <= game.action_width <= 1 + len(OPERANDS):
        raise ContractError(f"{game.game}: action_width {game.action_width}: an action row is kind and 1 to "
                            f"{len(OPERANDS)} operands")
    for name in KERNELS:
        roles, want = roles_of(game, name), _contract(game, name)
        params = inspect.signature(getattr(game, name).py_func).parameters
        shown = f"{name}({', '.join(params)})"
        if name == "decide":
            extra = roles[len(want):]
            if roles[:len(want)] != want or list(extra) != [r for r in DECIDE_OPTIONAL if r in extra]:
                raise ContractError(f"{game.game}: {shown}: the step contract's decide is {name}"
                                    f"{_shown(game, want)} then any of {_shown(game, DECIDE_OPTIONAL)} in that order")
            for role in SEAT_ROLES:
                if (role in extra) == (role in game.elsewhere):
                    raise ContractError(f"{game.game}: {shown}: the seat's {role} must be either passed to decide or "
                                        f"declared in elsewhere (where decide reads it), not "
                                        f"{'both' if role in extra else 'neither'}")
        elif roles != want:
            raise ContractError(f"{game.game}: {shown} takes {len(roles)} parameters in the roles "
                                f"({', '.join(roles)}); the step contract's {name} is {name}{_shown(game, want)}")
    return game


@dataclass(frozen=True)
class Played:
    """One game driven through the contract's kernels."""
    moves: list[tuple[int, ...]]  # (seat, kind, a, b, ...) of every action taken
    legal: list[int]  # n at every move
    result: np.ndarray  # the result columns (int64, the job's n_cols)


def _callable(game: StepGame, name: str) -> Callable:
    from kernels.jit import InternalKernel, from_python

    fn = getattr(game, name)
    if name in game.twins:
        twin = game.twins[name]
        if inspect.signature(twin.py_func) != inspect.signature(fn.py_func):
            raise ContractError(f"{game.game}: the twin of {name} has another signature")
        return twin
    return from_python(fn) if isinstance(fn, InternalKernel) else fn


def play(game: StepGame, fixture: Fixture, seed: int, index: int, max_moves: int = 200_000) -> Played:
    """Game `index` of `seed` on the fixture's arrays: init, then legal / decide / step until terminal, then result,
    each called by its parameters' roles; ContractError where a kernel breaks the contract."""
    check(game)
    kernels = {name: (_callable(game, name), roles_of(game, name)) for name in KERNELS}
    values = {"state": fixture.state, "setup": fixture.setup, "actions": fixture.actions}

    def call(name: str, **more):
        fn, roles = kernels[name]
        args = values | more
        return fn(*[args[r] for r in roles])

    where = f"{game.game}, game {index} of seed {seed}"
    actions = fixture.actions
    if actions.ndim != 2 or actions.shape[1] != game.action_width:
        raise ContractError(f"{game.game}: the fixture's actions are {actions.shape}, not [rows, {game.action_width}]")
    if game.actions_in and actions is not getattr(fixture.state, game.actions_in):
        raise ContractError(f"{game.game}: the fixture's actions are not state.{game.actions_in}, where legal writes")
    call("init", seed=seed, game=index)
    fixture.begin(seed, index)
    moves, counts = [], []
    while not call("terminal"):
        if len(moves) >= max_moves:
            raise ContractError(f"{where}: not over after {max_moves} moves")
        n = int(call("legal"))
        if not 1 <= n <= len(actions):
            raise ContractError(f"{where}, move {len(moves)}: legal gave n = {n} before terminal; the contract wants "
                                f"1 <= n <= {len(actions)}")
        listed = actions[:n].copy()
        if len(np.unique(listed, axis=0)) != n:
            raise ContractError(f"{where}, move {len(moves)}: legal listed an action twice")
        seat = int(game.actor(fixture.state))
        i = int(call("decide", n=n, **fixture.seat(seat)))
        if not 0 <= i < n:
            raise ContractError(f"{where}, move {len(moves)}: decide chose {i}, not one of the {n} legal actions")
        if not np.array_equal(actions[:n], listed):
            raise ContractError(f"{where}, move {len(moves)}: decide changed the legal actions it chose from")
        row = listed[i]
        call("step", kind=row[0], **dict(zip(OPERANDS, row[1:])))
        moves.append((seat, *(int(x) for x in row)))
        counts.append(n)
    width = fixture.job.n_cols
    out = np.full(width + _GUARD, _UNWRITTEN, np.int64)
    call("result", out=out[:width])
    if (out[width:] != _UNWRITTEN).any():
        raise ContractError(f"{where}: result wrote past the {width} columns its jobs write")
    if (out[:width] == _UNWRITTEN).any():
        raise ContractError(f"{where}: result left columns {np.flatnonzero(out[:width] == _UNWRITTEN).tolist()} of "
                            f"its jobs' {width} unwritten")
    return Played(moves, counts, out[:width].copy())
