"""analyzer.warmup: every kernel compiled once, a game's warm-up groups each in a process of its own."""

from analyzer.game import resolve
from analyzer.games import games


def test_each_warm_up_group_compiles_its_own_experiments_and_together_all(monkeypatch):
    from analyzer import runner

    compiled = []
    monkeypatch.setattr(runner, "warm_up", lambda job: compiled.append(job))
    for game in games().values():
        groups = game.warm_groups()
        assert set(groups) == {e.warm_group for e in game.experiments} and len(groups) == len(set(groups))
        per_group = {}
        for group in groups:
            compiled.clear()
            game.warm_up(group)
            per_group[group] = len(compiled)
            expected = sum(len(resolve(e.example)().jobs) for e in game.experiments if e.warm_group == group)
            assert per_group[group] == expected > 0, (game.id, group)
        compiled.clear()
        game.warm_up()
        assert len(compiled) == sum(per_group.values())
    assert games()["seafarers"].warm_groups() == ["", "full game"]  # the full game's kernels apart
