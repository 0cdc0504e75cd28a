"""kernels/whole_program.py: entry kernels are optimised as one program, helpers only linked."""

import numpy as np
import pytest
from numba import njit

import kernels
from kernels import whole_program
from kernels.whole_program import probe_pair


def _as_kernels(*fns):
    """Give test functions a module of the kernels package, as if they were kernels."""
    for fn in fns:
        fn.__module__ = "kernels.whole_program"


def _defined(module):
    return {f.name: f.linkage.name for f in module.functions if not f.is_declaration}


def test_whole_program_is_installed_for_this_numba():
    assert kernels.WHOLE_PROGRAM


def test_entry_kernel_gets_its_helpers_as_internal_functions():
    helper, entry = probe_pair()
    assert entry(np.arange(5, dtype=np.int64)) == 20
    entry_lib = entry.overloads[entry.signatures[0]].library
    helper_lib = helper.overloads[helper.signatures[0]].library
    assert entry_lib._role == "entry" and helper_lib._role == "helper"
    # merged into the loop or at least internal: never an exported copy of the helper
    linkages = {name: link for name, link in _defined(entry_lib._final_module).items() if "doubled" in name
                and "total" not in name}
    assert all(link == "internal" for link in linkages.values())


def test_helper_is_linked_into_callers_but_compiled_to_no_machine_code():
    helper, entry = probe_pair()
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


def _attributes_before_optimising(helper_decorator, stem, monkeypatch):
    """Each function named `stem` in the entry kernel that calls it twice: its LLVM attributes as the entry's
    module goes to LLVM's optimiser (which may then copy any function into its callers, or not)."""
    from numba.core import codegen

    seen = {}
    optimise = codegen.JITCodeLibrary._optimize_final_module

    def spy(library):
        for f in library._final_module.functions:
            if stem in f.name and not f.is_declaration and f.name not in library._own:  # linked into a caller
                seen[f.name] = {str(a) for a in f.attributes}
        optimise(library)

    monkeypatch.setattr(codegen.JITCodeLibrary, "_optimize_final_module", spy)

    def scaled(a, i):
        return a[i] * 3

    scaled.__qualname__ = scaled.__name__ = stem
    _as_kernels(scaled)
    helper = helper_decorator(scaled)

    def calls_twice(a):
        return helper(a, a[1]) + helper(a, a[3])

    _as_kernels(calls_twice)
    assert njit(_nrt=False)(calls_twice)(np.arange(5, dtype=np.int64)) == 12
    return seen


def test_a_merged_kernel_is_marked_for_copying_into_its_callers_and_a_plain_one_is_not(monkeypatch):
    from kernels.jit import mark_merged

    plain = njit(_nrt=False)  # (`kernel` and `merged` are these plus numba's disk cache)
    kept = _attributes_before_optimising(plain, "plain_helper", monkeypatch)
    copied = _attributes_before_optimising(lambda fn: plain(mark_merged(fn)), "merged_helper", monkeypatch)
    assert kept and not any("alwaysinline" in a for attrs in kept.values() for a in attrs)
    assert copied and all(any("alwaysinline" in a for a in attrs) for attrs in copied.values())


def test_the_self_test_passes_here_and_a_failing_one_leaves_plain_numba_with_one_line(monkeypatch, tmp_path, capsys):
    from numba.core import codegen, config

    assert whole_program.self_test() is None
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))  # no marker of an earlier pass there
    monkeypatch.setattr(whole_program, "self_test", lambda: "a probe kernel computed a wrong value")
    before = codegen.JITCPUCodegen._library_class
    try:
        assert whole_program.install() is False
        assert codegen.JITCPUCodegen._library_class is not whole_program.WholeProgramLibrary
    finally:
        codegen.JITCPUCodegen._library_class = before
    line = capsys.readouterr().err.strip()
    assert line.startswith("warning: numba") and "self-test (a probe kernel computed a wrong value)" in line
    assert "\n" not in line
    monkeypatch.undo()
