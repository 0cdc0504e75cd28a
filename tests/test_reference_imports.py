"""The pure-Python references (analyzer/*/reference*.py, analyzer/seafarers/*_reference.py) are the tests' oracles:
no command imports one. The only other importers are the golden-trace hooks (Game.trace, read by
scripts/golden_traces.py and tests/test_conformance.py), which step the reference beside the kernel on purpose."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_TRACE_HOOKS = {("analyzer/seafarers/game.py", "_pirates_trace"), ("analyzer/seafarers/game.py", "_play_trace"),
                      ("analyzer/seafarers/game.py", "_first_rolls"), ("analyzer/beacon/game.py", "trace")}


def reference_imports(path: Path) -> list[tuple[str, str]]:
    """(top-level function or "", imported module) of every import of a reference module in the file."""
    found = []
    for top in ast.parse(path.read_text("utf-8")).body:
        where = top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ""
        for node in ast.walk(top):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            found += [(where, name) for name in names if any("reference" in part for part in name.split("."))]
    return found


def test_no_module_outside_the_references_imports_one():
    wrong = []
    for path in sorted((ROOT / "analyzer").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "reference" in path.stem:
            continue
        wrong += [f"{rel}:{where or '<module>'} imports {name}" for where, name in reference_imports(path)
                  if (rel, where) not in GOLDEN_TRACE_HOOKS]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_an_import_of_a_reference(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from analyzer.seafarers.full_reference import game_table\n\n\ndef f():\n"
                      "    from analyzer.meographic import reference as ref\n", "utf-8")
    assert reference_imports(module) == [("", "analyzer.seafarers.full_reference.game_table"),
                                         ("f", "analyzer.meographic.reference")]
