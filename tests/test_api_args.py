"""The Python API takes the CLI's standard (issue 52): a wrong type, an unknown keyword or a missing argument is one
UserError naming the function and the argument, before any game; nothing is read as true or as a path that is
neither (`rotate="yes"`, `base="no"`, out=5, None where a list is)."""

from pathlib import Path

import numpy as np
import pytest

from analyzer import beacon, seafarers
from analyzer.api_args import BACKEND, PATH, RUN, TEXTS, checked_api
from analyzer.errors import UserError


@pytest.mark.parametrize("call,fragment", [
    (lambda: beacon.simulate(games="10"), "beacon.simulate: games must be a whole number or None, got '10'"),
    (lambda: beacon.simulate(games=10, out=5), "out must be a path"),
    (lambda: beacon.simulate(games=10, progres=True), "unknown argument 'progres' (did you mean 'progress'?)"),
    (lambda: beacon.simulate(games=10, checkpoint=3), "checkpoint must be a path"),
    (lambda: beacon.simulate(games=10, per_game="no"), "per_game must be True or False"),
    (lambda: beacon.simulate(games=10, threads=2.0), "threads must be a whole number"),
    (lambda: beacon.simulate(games=True), "games must be a whole number"),
    (lambda: beacon.simulate(games=10, rules={"solo_keep_on_empty_pile": "yes"}), "rules must be a dict"),
    (lambda: beacon.compare(None, games=10), "beacon.compare: policies must be text or a list of texts, got None"),
    (lambda: beacon.compare(["random", 3], games=10), "policies must be"),
    (lambda: beacon.compare(["random", "greedy"], games=10, tiles=[5]), "tiles must be"),
    (lambda: beacon.score(5), "beacon.score: layout_csv must be a path"),
    (lambda: beacon.score(""), "layout_csv must be a path (text or a Path, not empty)"),
    (lambda: beacon.score(), "beacon.score: missing a required argument: 'layout_csv'"),
    (lambda: seafarers.run_play("new-shores", rotate="yes"), "seafarers.run_play: rotate must be True or False"),
    (lambda: seafarers.run_play("new-shores", bots=5), "seafarers.run_play: bots must be text, a list of texts"),
    (lambda: seafarers.run_seats(base="no"), "seafarers.run_seats: base must be True or False, got 'no'"),
    (lambda: seafarers.run_pirates(plans="ships-first"), "plans must be a list of texts or None"),
    (lambda: seafarers.run_balance("new-shores", sequencez=3), "unknown argument 'sequencez' (did you mean"),
    (lambda: seafarers.run_balance("new-shores", rules_file=7, by="wins"), "rules_file must be a path"),
    (lambda: seafarers.run_dice(10, threds=2), "seafarers.run_dice: unknown argument 'threds'"),
    (lambda: seafarers.run_boards(), "seafarers.run_boards: missing a required argument: 'scenario'"),
    (lambda: seafarers.run_fortress(3, 10, 1, None, "rebuilt", 5), "too many positional arguments"),
    (lambda: seafarers.run_tournament("new-shores", entrants=None, games=4), None),  # (its own check: 2 entrants)
])
def test_a_wrong_argument_is_one_line_naming_it(call, fragment):
    with pytest.raises(UserError) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message
    if fragment is not None:
        assert fragment in message, message


def test_the_checker_follows_annotations_and_hints():
    @checked_api("demo", run=BACKEND, keywords={"extra": int | None}, out=PATH, names=TEXTS)
    def demo(n: int, x: float = 1.0, flag: bool = False, out=None, names=None, **run):
        return n, x, flag, out, names, run

    assert demo(np.int64(3), 2, True, Path("o"), ["a"], threads=2, extra=None) == (
        3, 2, True, Path("o"), ["a"], {"threads": 2, "extra": None})
    assert demo(1, names="a,b", out="o")[3:5] == ("o", "a,b")
    for bad, fragment in [(dict(n=1.5), "n must be a whole number"), (dict(n=1, x="2"), "x must be a number"),
                          (dict(n=1, flag=1), "flag must be True or False"),
                          (dict(n=1, flag=np.bool_(True)), "flag must be True or False"),
                          (dict(n=1, out=""), "out must be a path"),
                          (dict(n=1, names=[None]), "names must be"), (dict(n=1, games=5), "unknown argument 'games'"),
                          (dict(n=1, extra="1"), "extra must be a whole number or None")]:
        with pytest.raises(UserError, match="^demo: ") as caught:
            demo(**bad)
        assert fragment in str(caught.value), caught.value

    @checked_api("every", run=RUN)
    def every(**run):
        return run

    assert every(games=5, precision=0.1, per_game=False) == {"games": 5, "precision": 0.1, "per_game": False}
    with pytest.raises(UserError, match="every: precision must be a number or None"):
        every(precision="0.1")
