"""Which kernels Python may call, read from the sources with ast (no numba needed).

A `kernel` has a Python wrapper, so numba optimises and emits it as a whole program of its own besides inside every
kernel that calls it (kernels/whole_program.py): a helper no Python calls is an `internal` kernel, or it costs
compile time for nothing (the river race's warm-up fell from some 350 CPU-s to 45, the Seafarers full game's from
400-536 to 290, when 250 helpers became internal). And an `internal` kernel called from Python raises TypeError.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECORATORS = {"kernel", "internal", "merged", "allocating", "inline"}


def kernel_functions() -> dict[tuple[str, str], str]:
    """(module, function) -> its decorator, for every decorated function under kernels/."""
    out = {}
    for path in sorted((ROOT / "kernels").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.decorator_list:
                decorator = ast.unparse(node.decorator_list[0])
                if decorator in DECORATORS:
                    out[(module, node.name)] = decorator
    return out


def python_uses(functions) -> dict[tuple[str, str], set[str]]:
    """(module, function) -> the folders whose Python code names it (`from kernels.x import f`, or `alias.f` where
    alias is a kernels module)."""
    uses: dict[tuple[str, str], set[str]] = {}
    exported = package_names(functions)
    for folder in ("analyzer", "reports", "scripts", "tests", "examples"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text("utf-8"))
            modules = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules.update({a.asname or a.name: a.name for a in node.names if a.name.startswith("kernels.")})
                elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kernels"):
                    for a in node.names:
                        key = exported.get((node.module, a.name), (node.module, a.name))
                        if key in functions:
                            uses.setdefault(key, set()).add(folder)
                        else:
                            modules[a.asname or a.name] = f"{node.module}.{a.name}"
            twins = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and "from_python" in ast.unparse(node.func) + " ".join(ast.unparse(a) for a in node.args[:1])
                     for arg in node.args for inner in ast.walk(arg)}  # from_python(f), map(from_python, (f, g))
            twins |= {id(inner) for node in ast.walk(tree) if isinstance(node, ast.With)
                      and "raises" in ast.unparse(node.items[0].context_expr)
                      for statement in node.body for inner in ast.walk(statement)}  # (a test of the error)
            twins |= {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Call)
                      and ast.unparse(node.func) == "StepGame" for arg in node.args[1:7]
                      for inner in ast.walk(arg)}  # a step game's six kernels: analyzer/step_contract.py calls an
            # internal one through from_python
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
                    key = (modules[node.value.id], node.attr)
                    key = exported.get(key, key)
                    if key in functions:  # (through from_python(f), a Python-callable twin of an internal kernel)
                        uses.setdefault(key, set()).add("from_python" if id(node) in twins else folder)
    return uses


def package_names(functions) -> dict[tuple[str, str], tuple[str, str]]:
    """(package, name) -> (module, function) for the kernels a package's __init__ imports (`km.play_range`)."""
    out = {}
    for path in (ROOT / "kernels").rglob("__init__.py"):
        package = ".".join(path.parent.relative_to(ROOT).parts)
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [a.name for a in node.names]
                if names == ["*"]:  # (a star import: the module's public names)
                    names = [f for m, f in functions if m == node.module and not f.startswith("_")]
                out.update({(package, name): (node.module, name) for name in names if (node.module, name) in functions})
    return out


FUNCTIONS = kernel_functions()
USES = python_uses(FUNCTIONS)


def test_no_internal_kernel_is_called_from_python():
    called = sorted(f"{m}.{f} (from {', '.join(sorted(USES[m, f] - {'from_python'}))})"
                    for (m, f), d in FUNCTIONS.items() if d == "internal" and USES.get((m, f), set()) - {"from_python"})
    assert not called, "internal kernels Python calls (make them @kernel, or call from_python(f)): " + "; ".join(called)


def test_every_kernel_with_a_python_wrapper_is_called_from_python():
    unused = sorted(f"{m}.{f}" for (m, f), d in FUNCTIONS.items() if d == "kernel" and (m, f) not in USES)
    assert not unused, "kernels no Python calls (make them @internal: each costs a whole program's compile): " + \
        "; ".join(unused)


def test_the_reader_sees_both_ways_of_naming_a_kernel():
    """The two tests above can fail: this file's own imports are found, an unnamed helper is not."""
    assert ("kernels.regatta.bots", "play_range") in USES  # (analyzer/regatta/simulation.py: kb.play_range)
    assert ("kernels.catan.game", "_start_thief") in USES  # (tests: kg._start_thief)
    assert FUNCTIONS[("kernels.catan.bots", "_new_ground")] == "internal"
    assert ("kernels.catan.bots", "_new_ground") not in USES
