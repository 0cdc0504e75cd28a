"""kernels/whole_program.py: entry kernels are optimised as one program, helpers only linked."""

import numpy as np
import pytest
from numba import njit

import kernels


def _as_kernels(*fns):
    """Give test functions a module of the kernels package, as if they were kernels."""
    for fn in fns:
        fn.__module__ = "kernels.whole_program"


def _defined(module):
    return {f.name: f.linkage.name for f in module.functions if not f.is_declaration}


def _compiled_pair():
    def doubled(a, i):
        return a[i] * 2

    _as_kernels(doubled)
    helper = njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)(doubled)

    def total_doubled(a):
        total = 0
        for i in range(a.shape[0]):
            total += helper(a, i)
        return total

    _as_kernels(total_doubled)
    entry = njit(_nrt=False)(total_doubled)
    return helper, entry


def test_whole_program_is_installed_for_this_numba():
    assert kernels.WHOLE_PROGRAM


def test_entry_kernel_gets_its_helpers_as_internal_functions():
    helper, entry = _compiled_pair()
    assert entry(np.arange(5, dtype=np.int64)) == 20
    entry_lib = entry.overloads[entry.signatures[0]].library
    helper_lib = helper.overloads[helper.signatures[0]].library
    assert entry_lib._role == "entry" and helper_lib._role == "helper"
    # merged into the loop or at least internal: never an exported copy of the helper
    linkages = {name: link for name, link in _defined(entry_lib._final_module).items() if "doubled" in name
                and "total" not in name}
    assert all(link == "internal" for link in linkages.values())


def test_helper_is_linked_into_callers_but_compiled_to_no_machine_code():
    helper, entry = _compiled_pair()
    entry(np.arange(3, dtype=np.int64))
    helper_lib = helper.overloads[helper.signatures[0]].library
    assert _defined(helper_lib._final_module) == {}  # what the JIT compiles: no functions
    shared = _defined(helper_lib._get_module_for_linking())
    assert any("doubled" in name and link == "linkonce_odr" for name, link in shared.items())


def test_other_code_is_compiled_as_numba_does():
    @njit
    def plain(a):
        return a.sum()

    assert plain(np.arange(4)) == 6
    assert plain.overloads[plain.signatures[0]].library._role is None


def test_python_calling_an_internal_kernel_gets_a_clear_error_not_a_crash():
    from kernels import beacon as kb
    from kernels.beacon import board
    from kernels.jit import from_python

    with pytest.raises(TypeError, match="internal kernel"):
        kb.rank_of(np.zeros(16, np.int64), 3)
    assert from_python(board._step)(5, kb.SOUTH) == 5  # the Python-callable twin: one row of 5 cells


def _entry_calling_twice(helper_decorator, stem):
    """An entry kernel calling a long helper from two places: LLVM keeps such a helper a function of its own
    unless it is `merged`."""
    lines = [f"def {stem}(a, i):", "    n = a.shape[0]", "    t = 0"]
    for k in range(1, 120):
        lines += [f"    if a[(i + {k}) % n] > {k}:", f"        t += a[(i * {k}) % n] * {k}", "    else:",
                  f"        t -= {k}"]
    lines.append("    return t")
    scope = {}
    exec("\n".join(lines), scope)
    _as_kernels(scope[stem])
    scope[stem].__qualname__ = stem
    helper = helper_decorator(scope[stem])

    def calls_twice(a):
        return helper(a, a[1]) + helper(a, a[3])

    _as_kernels(calls_twice)
    entry = njit(_nrt=False)(calls_twice)
    expected = scope[stem](np.arange(7, dtype=np.int64), 1) + scope[stem](np.arange(7, dtype=np.int64), 3)
    assert entry(np.arange(7, dtype=np.int64)) == expected
    module = entry.overloads[entry.signatures[0]].library._final_module
    return [name for name in _defined(module) if stem in name]


def test_a_merged_kernel_is_copied_into_its_callers_and_a_plain_one_is_called():
    from kernels.jit import mark_merged

    plain = njit(_nrt=False)  # (`kernel` and `merged` are these plus numba's disk cache, which exec'd code lacks)
    assert _entry_calling_twice(plain, "long_plain_helper")  # kept as a function: two calls of it
    assert _entry_calling_twice(lambda fn: plain(mark_merged(fn)), "long_merged_helper") == []  # copied into both
