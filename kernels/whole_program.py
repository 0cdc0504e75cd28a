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
as it is, if numba's code library lacks the methods this relies on.
"""

import llvmlite.binding as llvm
from numba.core import codegen

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
    """Make numba's JIT codegen create WholeProgramLibrary libraries; True if it does."""
    if not all(hasattr(codegen.JITCodeLibrary, name) for name in _NEEDED):
        return False
    if not hasattr(codegen.JITCPUCodegen, "_library_class"):
        return False
    codegen.JITCPUCodegen._library_class = WholeProgramLibrary
    return True
