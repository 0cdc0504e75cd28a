"""Each kernel Python calls is optimised by LLVM as one whole program.

Numba compiles every jitted function into its own library, links the libraries of its
callees into it and runs LLVM's full optimisation and code generation on the result. A
helper's code is therefore optimised and emitted once in its own library and again in
every caller, and it stays an exported (`linkonce_odr`) function, which LLVM may not strip
of unused arguments and merges into a caller only when it is small. Our kernels pass each
array as 7-9 scalars, so a call of a helper pushed up to about a hundred of them: 15% of a
greedy game's run time.

This module changes that for libraries defining functions of the `kernels` package:
  * a library Python can call (it has a Python wrapper) is an entry point: the helpers
    linked into it become internal functions, then LLVM optimises the whole program;
  * a `kernels.jit.merged` kernel linked into an entry point is marked `alwaysinline`: LLVM
    copies it into each caller rather than keep a function whose calls pass some hundreds of
    scalars (the Seafarers game's step, legal and bots: 9-18% of a value-bot game);
  * a helper library (`kernels.jit.internal`: no wrapper) is only ever linked into an
    entry point, so it is neither optimised nor compiled to machine code on its own. Numba
    still caches it (the IR it links into callers, and an object defining its environment
    pointer only).

On the Beacon Patrol kernels: the same games, greedy 20-37% faster, the lookahead
40-60%, all four policy tiers compiled in half the time (docs/performance.md). Libraries
of other code are compiled exactly as numba does. `install()` returns False, leaving numba
as it is, if numba's code library lacks the methods this relies on, or if a small entry point with a helper does
not compile and run right under it (`self_test`: once per cache folder and numba version; one line says so).
pyproject.toml pins numba to the versions this was tested on.
"""

import os
import sys

import llvmlite.binding as llvm
import numba
import numpy as np
from numba import njit
from numba.core import codegen, config

from kernels.jit import MERGED

_OURS = "_ZN7kernels"  # mangled names of functions defined in the kernels package
_WRAPPED = "_ZN7cpython7kernels"  # their Python wrappers
_ENV = "_ZN08NumbaEnv"  # the global numba fills with a function's environment pointer


class WholeProgramLibrary(codegen.JITCodeLibrary):
    """numba's JIT code library, except for the two kinds of `kernels` library above."""

    _role = None  # "entry", "helper" or None (not ours, or loaded from the cache)

    def finalize(self):
        own = {f.name for f in self._final_module.functions if not f.is_declaration}
        self._own = own
        if any(name.startswith(_OURS) for name in own):
            self._role = "entry" if any(name.startswith(_WRAPPED) for name in own) else "helper"
        super().finalize()

    def _optimize_final_module(self):
        if self._role == "helper":
            return  # optimised inside each entry point it is linked into
        if self._role == "entry":
            for f in self._final_module.functions:
                if not f.is_declaration and f.name not in self._own and f.linkage.name == "linkonce_odr":
                    f.linkage = "internal"
                    if any(f.name.startswith(stem + "B") for stem in MERGED):  # (numba's ABI tags follow a B)
                        f.add_function_attribute("alwaysinline")
        super()._optimize_final_module()

    def serialize_using_object_code(self):
        """numba's, but the bitcode where the object code is gone: numba hands a library's object code to LLVM's
        engine once and forgets it (`_object_getbuffer_hook`), and a cold-cache run once failed saving a kernel
        with "no compiled object yet". The bitcode loads a little slower and gives the same machine code."""
        if self._object_caching_enabled and self._compiled_object is None:
            return self.serialize_using_bitcode()
        return super().serialize_using_object_code()

    def _finalize_final_module(self):
        if self._role == "helper":
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._shared_module = self._linkable(self._final_module)
            self._final_module = self._environment_only(self._final_module)
        super()._finalize_final_module()

    @staticmethod
    def _linkable(module):
        """The module callers link in: its exported functions made `linkonce_odr`, as numba's
        `_get_module_for_linking` does for every library."""
        shared = module.clone()
        for f in shared.functions:
            if not f.is_declaration and f.linkage.name == "external":
                f.linkage = "linkonce_odr"
        return shared

    def _environment_only(self, module):
        """A module defining only the environment pointers numba sets after compiling."""
        envs = "".join(f"{g}\n" for g in module.global_variables if g.name.startswith(_ENV))
        empty = llvm.parse_assembly(str(self._codegen._create_empty_module(self.name)) + envs)
        empty.name = module.name
        return empty


_NEEDED = ("finalize", "_optimize_final_module", "_finalize_final_module", "_finalize_dynamic_globals",
           "_verify_declare_only_symbols", "_get_module_for_linking", "_unserialize")


def install():
    """Make numba's JIT codegen create WholeProgramLibrary libraries; True if it does (and passed self_test)."""
    if not all(hasattr(codegen.JITCodeLibrary, name) for name in _NEEDED):
        return False
    if not hasattr(codegen.JITCPUCodegen, "_library_class"):
        return False
    plain = codegen.JITCodeLibrary  # numba's own
    codegen.JITCPUCodegen._library_class = WholeProgramLibrary
    passed = os.path.join(config.CACHE_DIR or ".", f"whole-program-ok-numba-{numba.__version__}")
    if config.CACHE_DIR and os.path.exists(passed):
        return True
    problem = self_test()
    if problem:
        codegen.JITCPUCodegen._library_class = plain
        print(f"warning: numba {numba.__version__} fails the whole-program self-test ({problem}); the kernels compile "
              "with plain numba: the same games, somewhat slower", file=sys.stderr)
        return False
    if config.CACHE_DIR:
        try:
            open(passed, "w").close()
        except OSError:
            pass  # (tested again next time)
    return True


def probe_pair():
    """A helper kernel (no wrapper) and an entry kernel calling it, compiled without the disk cache, as if defined
    in the kernels package (their mangled names are what WholeProgramLibrary looks for)."""
    def doubled(a, i):
        return a[i] * 2

    doubled.__module__ = __name__
    helper = njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)(doubled)

    def total_doubled(a):
        total = 0
        for i in range(a.shape[0]):
            total += helper(a, i)
        return total

    total_doubled.__module__ = __name__
    return helper, njit(_nrt=False)(total_doubled)


def self_test() -> str | None:
    """None if probe_pair compiles into an entry and a helper library, runs right and its entry serialises for the
    disk cache (here as bitcode: the probe compiled without object caching); else what went wrong."""
    try:
        helper, entry = probe_pair()
        if entry(np.arange(5, dtype=np.int64)) != 20:
            return "a probe kernel computed a wrong value"
        entry_lib = entry.overloads[entry.signatures[0]].library
        helper_lib = helper.overloads[helper.signatures[0]].library
        if (entry_lib._role, helper_lib._role) != ("entry", "helper"):
            return f"the probe's libraries took the roles {entry_lib._role}, {helper_lib._role}"
        entry_lib.enable_object_caching()
        entry_lib.serialize_using_object_code()
    except Exception as exc:  # any failure means: do not use the swap
        return f"{type(exc).__name__}: {exc}"
    return None
