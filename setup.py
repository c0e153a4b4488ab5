"""Build the compiled search cores (``analyzer.search._core``, the two-ended block search, and
``analyzer.search._arms``, the search over layouts with arms, and ``analyzer.search._draw``, the search
of draw games in a fixed boneyard order and of All Fives, and ``analyzer.equity._race``, the match tables, and
``analyzer.hidden._cfr``, the CFR+ iteration of the hidden-information solver)
where a C compiler is at hand, and the same kernels as standalone WebAssembly modules (``_core.wasm``, ...,
next to the extensions) where a wasm32 compiler is.

All the extensions are optional: where one cannot be built (no compiler, no Python headers) the package
installs without it and searches with the pure-Python core (see ``analyzer/search/core.py``). So are the
WebAssembly modules: built with Debian's clang and lld (``--target=wasm32 -nostdlib``, no Emscripten, no C
library: ``analyzer/search/_wasm_libc.c``), or with the ``ziglang`` package from PyPI where those are missing;
without either the package installs without them (``analyzer.search.wasm`` says which are there).
Everything else about the package is declared in pyproject.toml.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SEARCH = "analyzer/search"
HEADERS = [f"{SEARCH}/{name}.h" for name in ("_kernel", "_leaf", "_table", "_binding", "_core_kernel",
                                                         "_arms_kernel", "_draw_kernel")]
#: the kernels each binding links (the pure C searches, no Python: see docs/development.md)
KERNELS = {name: [f"{SEARCH}/{name}_kernel.c"] for name in ("_core", "_arms", "_draw")}
#: -g0: no debug information in the installed cores (Python's own flags ask for it: 0.6 MB of the package, not 0.2)
FLAGS = ["-O2", "-g0"]
#: each WebAssembly module: the extension it sits next to, and its sources (its kernel, its wasm binding); built with
#: a stack of 1 MB placed first in memory (an overflow traps, it does not overwrite data), without name sections
WASM = {**{f"analyzer.search.{name}": [f"{SEARCH}/{name}_kernel.c", f"{SEARCH}/{name}_wasm.c"]
           for name in ("_core", "_arms", "_draw")},
        "analyzer.equity._race": ["analyzer/equity/_race_kernel.c", "analyzer/equity/_race_wasm.c"],
        "analyzer.hidden._cfr": ["analyzer/hidden/_cfr_kernel.c", "analyzer/hidden/_ranges_kernel.c",
                                 "analyzer/hidden/_cfr_wasm.c"],
        # (no extension: the site's XZ reader, the LZMA SDK's decoder, for Pyodide, which has no lzma)
        "analyzer.equity._xz": ["analyzer/equity/_xz_wasm.c"]}
WASM_FLAGS = ["-O2", "-mbulk-memory", "-nostdlib", "-fvisibility=hidden", "-Wno-unused-function", f"-I{SEARCH}",
              "-Wl,--no-entry", "-Wl,--gc-sections", "-Wl,-z,stack-size=1048576", "-Wl,--stack-first",
              "-Wl,--strip-all"]


def wasm_compiler() -> list[str] | None:
    """The command that compiles C to a standalone wasm32 module: Debian's clang with lld's wasm-ld, else the
    ``ziglang`` package's ``zig cc``; None without either."""
    clang = shutil.which("clang")
    if clang and shutil.which("wasm-ld"):
        return [clang, "--target=wasm32"]
    try:
        import ziglang  # noqa: F401  (only whether it is installed)
    except ImportError:
        return None
    return [sys.executable, "-m", "ziglang", "cc", "-target", "wasm32-freestanding"]


class BuildWithWasm(build_ext):
    """``build_ext``, then each kernel as a WebAssembly module next to its extension, where a compiler for it is
    at hand (a warning, not an error, where it fails)."""

    def run(self):
        super().run()
        cc = wasm_compiler()
        if cc is None:
            self.warn("no wasm32 compiler (clang and wasm-ld, or ziglang): the WebAssembly kernels are not built")
            return
        for name, sources in WASM.items():
            target = os.path.join(os.path.dirname(self.get_ext_fullpath(name)), name.rsplit(".", 1)[1] + ".wasm")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            command = [*cc, *WASM_FLAGS, "-o", target, *sources, f"{SEARCH}/_wasm_libc.c"]
            try:
                subprocess.run(command, check=True, capture_output=True, text=True)
            except (OSError, subprocess.CalledProcessError) as exc:
                self.warn(f"{target} not built: {getattr(exc, 'stderr', None) or exc}")


setup(ext_modules=[Extension(f"analyzer.search.{name}", [f"{SEARCH}/{name}.c", *KERNELS.get(name, [])],
                             depends=HEADERS, extra_compile_args=FLAGS, optional=True)
                   for name in ("_core", "_arms", "_draw")]
            + [Extension("analyzer.equity._race", ["analyzer/equity/_race.c", "analyzer/equity/_race_kernel.c"],
                         depends=[f"{SEARCH}/_kernel.h", "analyzer/equity/_race_kernel.h"], extra_compile_args=FLAGS,
                         optional=True),
               Extension("analyzer.hidden._cfr", ["analyzer/hidden/_cfr.c", "analyzer/hidden/_cfr_kernel.c",
                                                    "analyzer/hidden/_ranges_kernel.c"],
                         depends=[f"{SEARCH}/_kernel.h", f"{SEARCH}/_leaf.h", "analyzer/hidden/_cfr_kernel.h",
                                  "analyzer/hidden/_ranges_kernel.h"], extra_compile_args=[*FLAGS, "-pthread"],
                         extra_link_args=["-pthread"], optional=True)],   # (its walks over several threads)
      cmdclass={"build_ext": BuildWithWasm})
