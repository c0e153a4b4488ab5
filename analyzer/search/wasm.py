"""Where the compiled kernels' standalone WebAssembly modules lie: ``_core.wasm`` (the block search) and
``_arms.wasm`` (the search over layouts with arms), ``_draw.wasm`` (draw games, All Fives, Hungarian) and
``analyzer/equity/_race.wasm`` (the match tables' race solver), each next to its CPython extension, built by setup.py from the same kernel source where a wasm32 compiler was at hand (Debian's
clang and lld, or the ``ziglang`` package). Each module imports nothing and exports its kernel's calls
(``analyzer/search/_core_wasm.c`` says how they are called); the static site copies them, the tests run them in
Node against the extensions."""
from __future__ import annotations

from pathlib import Path

__all__ = ["KERNELS", "WasmModule", "wasm_path", "wasm_modules", "table_counts"]

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


class WasmModule:
    """One instantiated kernel module under Pyodide, for its Python binding (:mod:`analyzer.search.wasmcore`,
    :mod:`analyzer.search.wasmarms`): its ``exports`` (``x``), and a scratch area of its memory for one call's arrays,
    written and read in one copy each through fresh views (``memory.grow`` detaches the old ones)."""

    def __init__(self, exports):
        from js import Uint8Array         # (Pyodide's bridge to JavaScript)

        self.x = exports
        self._u8 = Uint8Array
        self.size = 0
        self.base = 0
        self.room(1 << 16)

    def room(self, size: int) -> int:
        """The scratch area's address, at least ``size`` bytes (grown by a new allocation)."""
        if size > self.size:
            if self.base:
                self.x.wasm_free(self.base)
            size = max(size, 2 * self.size)
            self.base = self.x.wasm_alloc(size)
            if not self.base:
                raise MemoryError("the WebAssembly search core has no memory left")
            self.size = size
        return self.base

    def write(self, at: int, data: bytes) -> None:
        """``data`` into the module's memory at ``at``."""
        if data:
            self._u8.new(self.x.memory.buffer, at, len(data)).assign(data)

    def read(self, at: int, n: int) -> bytes:
        """``n`` bytes of the module's memory from ``at``."""
        return self._u8.new(self.x.memory.buffer, at, n).to_bytes()

    def text(self, at: int) -> str:
        """The C string at ``at`` (a kernel's error text)."""
        if not at:
            return "the compiled search failed"
        return self.read(at, 400).split(b"\0", 1)[0].decode("utf-8", "replace")


def table_counts(module: WasmModule, at: int) -> tuple[int, int, int, int, int]:
    """``(buckets, max_buckets, used, stores, replaced)`` of the bucketed table whose fields (``TABLE_FIELDS`` of
    ``_table.h``) begin the struct at ``at``, laid out for wasm32: two 32-bit pointers, then five 64-bit ints."""
    import struct

    return struct.unpack("<5Q", module.read(at + 8, 40))
