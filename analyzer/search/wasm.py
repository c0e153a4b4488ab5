"""Where the compiled kernels' standalone WebAssembly modules lie: ``_core.wasm`` (the block search) and
``_arms.wasm`` (the search over layouts with arms), ``_draw.wasm`` (draw games, All Fives, Hungarian) and
``analyzer/equity/_race.wasm`` (the match tables' race solver) and ``analyzer/hidden/_cfr.wasm`` (the CFR+ iteration of
the hidden-information solver), each next to its CPython extension, built by setup.py from the same kernel source where a wasm32 compiler was at hand (Debian's
clang and lld, or the ``ziglang`` package); and ``analyzer/equity/_xz.wasm``, no kernel and no extension: the site's
reader of the XZ-packed equity tables (:mod:`analyzer.equity.unxz`). Each module imports nothing and exports its kernel's calls
(``analyzer/search/_core_wasm.c`` says how they are called); the static site copies them, the tests run them in
Node against the extensions. Under Pyodide, :mod:`analyzer.search.wasmcore`, :mod:`~analyzer.search.wasmarms` and
:mod:`~analyzer.search.wasmdraw` bind three of them with the extensions' Python API (:mod:`~analyzer.search.wasmrace`
and :mod:`~analyzer.search.wasmcfr` the race solver's and the CFR+ kernel's); their shared parts are here
(:class:`WasmModule`, :class:`KernelHandle`, :class:`TableCounts`)."""
from __future__ import annotations

from pathlib import Path

__all__ = ["KERNELS", "KernelHandle", "TableCounts", "WasmModule", "wasm_path", "wasm_modules", "table_counts"]

#: Each kernel's module: the package it sits in, and its file.
KERNELS = {"core": ("analyzer.search", "_core.wasm"), "arms": ("analyzer.search", "_arms.wasm"),
           "draw": ("analyzer.search", "_draw.wasm"), "race": ("analyzer.equity", "_race.wasm"),
           "xz": ("analyzer.equity", "_xz.wasm"), "cfr": ("analyzer.hidden", "_cfr.wasm")}

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
        self._memory = exports.memory     # (kept: one crossing less a copy; its buffer is asked each time)
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
            self._u8.new(self._memory.buffer, at, len(data)).assign(data)

    def read(self, at: int, n: int) -> bytes:
        """``n`` bytes of the module's memory from ``at``."""
        return self._u8.new(self._memory.buffer, at, n).to_bytes()

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


#: A kernel's error kinds (``_kernel.h``: K_TYPE, K_RUNTIME, K_MEMORY, K_OVERFLOW) as the CPython bindings raise them
#: (``_binding.h``'s ``kernel_raise``); any other: ValueError.
KINDS = {2: TypeError, 3: RuntimeError, 4: MemoryError, 5: OverflowError}


class KernelHandle:
    """A kernel's object in its module's memory, owned by a Python object of a wasm binding: made (:meth:`_made`),
    its error raised as the CPython binding raises it (:meth:`_raise`), deleted with its owner. ``_delete``: the
    export that deletes it; ``_errors``: the prefix of its ``<prefix>_error_kind`` and ``<prefix>_error_text``
    exports ("" where it has none)."""

    _delete = _errors = ""
    _d = 0

    def _made(self, module: WasmModule, handle: int, what: str) -> None:
        """Take ``handle`` (0: no memory) from ``module``, raising the kernel's error where it made it with one."""
        self._m = module
        if not handle:
            raise MemoryError(f"no memory for the {what}")
        self._d = handle
        if self._errors and getattr(module.x, f"{self._errors}_error_kind")(handle):
            self._raise()

    def __del__(self):
        if self._d:
            getattr(self._m.x, self._delete)(self._d)
            self._d = 0

    def _raise(self):
        x = self._m.x
        kind = getattr(x, f"{self._errors}_error_kind")(self._d)
        raise KINDS.get(kind, ValueError)(self._m.text(getattr(x, f"{self._errors}_error_text")(self._d)))


class TableCounts:
    """The counts of the bucketed table whose fields begin a kernel's struct (:func:`table_counts`; buckets of four
    slots of ``slot_bytes``), as the CPython bindings' getters give them."""

    slot_bytes = 0

    def _counts(self) -> tuple[int, int, int, int, int]:
        return table_counts(self._m, self._d)

    @property
    def entries(self) -> int:
        """The slots of the table now."""
        return 4 * self._counts()[0]

    @property
    def max_entries(self) -> int:
        """The slots the table may grow to."""
        return 4 * self._counts()[1]

    @property
    def used(self) -> int:
        """The slots holding an entry."""
        return self._counts()[2]

    @property
    def nbytes(self) -> int:
        """The memory of the slots now, in bytes."""
        return 4 * self._counts()[0] * self.slot_bytes

    @property
    def stores(self) -> int:
        """Entries written since the table was made or cleared."""
        return self._counts()[3]

    @property
    def replaced(self) -> int:
        """Entries that pushed out an entry of another state."""
        return self._counts()[4]
