"""A game's parts and a job's builder are plain callables, never "package.module:attribute" strings resolved with
importlib (issue 48): a reader (and a tool) follows every hop from the CLI to the kernel by name, and a module-level
function pickles by reference for Dask. Read from the sources with ast; the registry is imported to check its fields."""

import ast
import json
import pickle
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer

import analyzer.job
from analyzer.games import games
from analyzer.job import Job, play_chunk
from analyzer.runner import RunOptions, run_job

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("analyzer", "kernels", "reports")

# Modules that may import by name, each with why. The list only shrinks: a module that no longer does fails until its
# entry is deleted.
IMPORTS_BY_NAME = {
    "analyzer/__init__.py": "lazy_names: a package's Python API (PEP 562 __getattr__) loads its module on first use, "
                            "so `import analyzer.<game>` and the registry stay light for `tabletop --help`",
    "analyzer/games.py": "the registry names each game's module: the core asks the registry (provenance, the CLI's "
                         "checks, the warm-up) and each game imports the core, so a static import would close a "
                         "circle (tests/test_layers.py)",
}
REFERENCE = re.compile(r"(analyzer|kernels|reports|tests|scripts)(\.\w+)*:\w+")  # "package.module:attribute"
LOADERS = {"import_module", "__import__", "spec_from_file_location", "module_from_spec", "run_path", "run_module",
           "resolve_name"}


def findings(source: str, where: str = "<planted>") -> list[str]:
    """Each "package.module:attribute" string (or f"{__name__}:name") and each import by name in `source`."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and REFERENCE.fullmatch(node.value):
            found.append(f"{where}:{node.lineno}: the reference {node.value!r}")
        elif isinstance(node, ast.JoinedStr):
            parts = node.values
            for value, after in zip(parts, parts[1:]):
                if (isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name)
                        and value.value.id == "__name__" and isinstance(after, ast.Constant)
                        and str(after.value).startswith(":")):
                    found.append(f"{where}:{node.lineno}: a reference f\"{{__name__}}{after.value}...\"")
        elif (node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)) in LOADERS:
            found.append(f"{where}:{node.lineno}: an import by name ({ast.unparse(node)})")
        elif isinstance(node, ast.ImportFrom) and {a.name for a in node.names} & LOADERS:
            found.append(f"{where}:{node.lineno}: an import by name (from {node.module} import ...)")
    return found


def test_the_finder_sees_a_planted_reference_and_import_by_name():
    """What the next test trusts: each form of a string reference and of an import by name is found; prose, an arm
    on a command line and importlib.resources are not."""
    planted = {
        'BUILDER = "analyzer.beacon.simulation:play_range_for_spec"': "the reference",
        'job = Job(f"{__name__}:dice_play_range", spec, 3)': "a reference f",
        "import importlib\nm = importlib.import_module('analyzer.beacon.cli')": "import by name",
        "from importlib import import_module": "import by name",
        "m = __import__('analyzer')": "import by name",
        "from importlib.util import spec_from_file_location": "import by name",
    }
    for source, what in planted.items():
        found = findings(source)
        assert len(found) == 1 and what in found[0], (source, found)
    clean = ('"""Names a "module:function" in prose."""\nARM = "rollout:samples=4"\n'
             'from importlib import resources\nPATH = resources.files("analyzer") / "data"\n'
             'NAME = f"{job.builder.__module__}:{job.builder.__qualname__}"')
    assert findings(clean) == []


def test_no_string_references_or_imports_by_name():
    found, allowed_and_found = [], set()
    for layer in SCANNED:
        for path in sorted((ROOT / layer).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            hits = findings(path.read_text(), where)
            if where in IMPORTS_BY_NAME and hits and all("import by name" in h for h in hits):
                allowed_and_found.add(where)
            else:
                found += hits
    assert not found, "name parts by callables, not strings (analyzer/game.py):\n" + "\n".join(found)
    stale = sorted(set(IMPORTS_BY_NAME) - allowed_and_found)
    assert not stale, f"no longer import by name, delete them from IMPORTS_BY_NAME: {stale}"


def _module_level(function) -> bool:
    """A function importable by its module and name: what pickle (and Dask's cloudpickle) sends by reference."""
    module = sys.modules.get(getattr(function, "__module__", None) or "")
    return module is not None and getattr(module, getattr(function, "__qualname__", "<"), None) is function


@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.id)
def test_every_part_of_a_game_is_a_module_level_function(game):
    parts = {"cli": game.cli, "arms": game.arms, "trace": game.trace, "golden": game.golden}
    parts |= {f"experiment {e.command}": e.example for e in game.experiments}
    assert not [name for name, part in parts.items() if not (callable(part) and _module_level(part))]
    assert isinstance(game.cli(), typer.Typer)
    for experiment in game.experiments:
        for label, job in experiment.example().jobs:
            assert _module_level(job.builder), (experiment.command, label, job.builder)
            assert pickle.loads(pickle.dumps(job.builder)) is job.builder


def test_the_registry_imports_no_cli_no_experiment_and_no_numba():
    """`tabletop --help` and `tabletop games` stay fast: a game's heavy parts import inside their functions."""
    code = ("import sys\nfrom analyzer.games import games\ngames()\n"
            "print('\\n'.join(m for m in sys.modules if m.split('.')[0] in ('analyzer', 'kernels', 'reports', "
            "'numba', 'numpy', 'typer')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=ROOT).stdout.split()
    parts = [m.split(".") for m in loaded]
    heavy = [".".join(p) for p in parts if p[0] in ("numba", "numpy", "typer", "kernels", "reports")
             or (len(p) > 2 and p[1] in games() and p[2] != "game")]  # a game's CLI or experiment modules
    assert "analyzer.beacon.game" in loaded and not heavy, heavy


BUILT = []  # the specs count_calls built, in this process


def count_calls(spec: dict):
    """A Job builder that counts how often it is called: a play_range writing game numbers plus the spec's offset."""
    BUILT.append(spec["offset"])

    def play_range(start, out):
        out[0, :] = range(start + spec["offset"], start + spec["offset"] + out.shape[1])
    return play_range


def test_a_job_is_built_once_per_process_whatever_its_chunks_and_copies(monkeypatch):
    """Each chunk finds its play_range by the key computed once where the job was made (and pickled with it), not by
    dumping the spec again; a copy received by pickle (as on a Dask worker) finds the same one."""
    BUILT.clear()
    job = Job(count_calls, {"offset": 1000, "rules": "x" * 10_000}, 1, "int64")
    copy = pickle.loads(pickle.dumps(job))
    assert copy.key == job.key and len(job.key) == 64
    dumps = []
    counted = SimpleNamespace(dumps=lambda *a, **k: dumps.append(a) or json.dumps(*a, **k))
    monkeypatch.setattr(analyzer.job, "json", counted)
    columns = run_job(job, RunOptions(games=12, threads=2, chunk_size=1)).columns
    assert dumps == []  # no chunk dumps the spec
    assert columns[0].tolist() == list(range(1000, 1012))
    assert play_chunk(copy, 3, 5).tolist() == [[1003, 1004]]
    assert BUILT == [1000]
    other = Job(count_calls, {"offset": 7, "rules": "x" * 10_000}, 1, "int64")
    assert other.key != job.key and play_chunk(other, 0, 2).tolist() == [[7, 8]] and BUILT == [1000, 7]


def test_a_job_refuses_a_builder_that_cannot_pickle_by_reference():
    def local(spec):
        return None

    for builder in (local, lambda spec: None, "tests.test_callables:count_calls"):
        with pytest.raises(TypeError, match="module-level function"):
            Job(builder, {}, 1)
