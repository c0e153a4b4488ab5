"""Where the compiled kernels' standalone WebAssembly modules lie: ``_core.wasm`` (the block search) and
``_arms.wasm`` (the search over layouts with arms), ``_draw.wasm`` (draw games, All Fives, Hungarian) and
``analyzer/equity/_race.wasm`` (the match tables' race solver), each next to its CPython extension, built by setup.py from the same kernel source where a wasm32 compiler was at hand (Debian's
clang and lld, or the ``ziglang`` package). Each module imports nothing and exports its kernel's calls
(``analyzer/search/_core_wasm.c`` says how they are called); the static site copies them, the tests run them in
Node against the extensions."""
from __future__ import annotations

from pathlib import Path

__all__ = ["KERNELS", "wasm_path", "wasm_modules"]

#: Each kernel's module: the package it sits in, and its file.
KERNELS = {"core": ("analyzer.search", "_core.wasm"), "arms": ("analyzer.search", "_arms.wasm"),
           "draw": ("analyzer.search", "_draw.wasm"), "race": ("analyzer.equity", "_race.wasm")}

_HERE = Path(__file__).resolve().parent


def wasm_path(kernel: str) -> Path | None:
    """The WebAssembly module of ``kernel`` (a key of :data:`KERNELS`), or None where it was not built."""
    package, name = KERNELS[kernel]
    path = _HERE.parent.joinpath(*package.split(".")[1:], name)
    return path if path.is_file() else None


def wasm_modules() -> dict[str, Path]:
    """The kernels whose WebAssembly module was built, and where it lies."""
    return {kernel: path for kernel in KERNELS if (path := wasm_path(kernel)) is not None}
