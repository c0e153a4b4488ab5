"""Python's ``lzma``, or where this Python has none (the static site's Pyodide: its npm package leaves ``lzma`` out) a
stand-in that unpacks XZ streams on the ``_xz.wasm`` module (``_xz_wasm.c``: the LZMA SDK's decoder, the XZ
container and its checks read there), which the site's worker instantiates as ``dominoKernels.xz``. The shipped
tables (``store.py``'s blocks, ``shipped.py``'s solved races) are XZ streams: with it the site reads the very files
the command line reads, byte for byte the same (and so the same digests, the same values).

The stand-in unpacks only: one whole stream a call (:func:`decompress`, or :class:`LZMADecompressor` given the
stream at once, as the readers here give it), every CRC of the container and the data's check (CRC-32 or CRC-64)
checked; a damaged or cut short stream, or bytes after it, raise :class:`LZMAError`. Packing (``lzma.compress``)
is the command line's alone (``domino equity``): the stand-in refuses it."""
from __future__ import annotations

import types

__all__ = ["lzma_module", "wasm_lzma"]


class LZMAError(Exception):
    """A stream the stand-in cannot unpack (as ``lzma.LZMAError``)."""


def lzma_module():
    """``lzma``, else the stand-in over ``_xz.wasm`` (:func:`wasm_lzma`); ``ModuleNotFoundError`` without either."""
    try:
        import lzma
        return lzma
    except ImportError:
        pass
    module = wasm_lzma()
    if module is None:
        raise ModuleNotFoundError("No module named 'lzma' (and this browser's worker has no _xz.wasm to read the "
                                  "equity tables with)", name="lzma")
    return module


_MADE: list = []


def wasm_lzma(exports=None):
    """The stand-in for ``lzma`` over the ``_xz.wasm`` module's ``exports`` (None: ``js.dominoKernels.xz``, where this
    Python runs in Pyodide and the worker instantiated it; else None)."""
    if exports is None:
        if _MADE:
            return _MADE[0]
        try:
            import js
            exports = getattr(getattr(js, "dominoKernels"), "xz")
        except (ImportError, AttributeError):
            return None
        if exports is None:
            return None
        module = _stand_in(exports)
        _MADE.append(module)
        return module
    return _stand_in(exports)


def _stand_in(exports) -> types.ModuleType:
    from ..search.wasm import WasmModule      # (the module's memory: one copy in, one out)

    wasm = WasmModule(exports)

    def unpack(data) -> bytes:
        data = bytes(data)
        at = wasm.room(max(len(data), 1))
        wasm.write(at, data)
        size = int(exports.xz_size(at, len(data)))
        if size < 0:
            raise LZMAError(wasm.text(exports.xz_error_text()))
        out = exports.wasm_alloc(max(size, 1))
        if not out:
            raise MemoryError(f"no memory left to unpack {size:,} bytes")
        try:
            got = int(exports.xz_unpack(at, len(data), out, size))
            if got < 0:
                raise LZMAError(wasm.text(exports.xz_error_text()))
            return wasm.read(out, got)
        finally:
            exports.wasm_free(out)

    class LZMADecompressor:
        """``lzma.LZMADecompressor`` for a whole XZ stream given at once."""

        def __init__(self, format=0, memlimit=None, filters=None):
            if format not in (0, 1) or filters is not None:
                raise ValueError("the stand-in for lzma reads XZ streams only")
            self.eof, self.unused_data, self.needs_input = False, b"", True

        def decompress(self, data, max_length: int = -1) -> bytes:
            if self.eof:
                raise EOFError("Already at end of stream")
            out = unpack(data)
            if 0 <= max_length < len(out):      # (as lzma gives it: the first max_length bytes, the stream not ended)
                self.needs_input = False
                return out[:max_length]
            self.eof = True
            return out

    def decompress(data, format=0, memlimit=None, filters=None) -> bytes:
        return LZMADecompressor(format, memlimit, filters).decompress(data)

    def compress(*args, **kwargs):
        raise LZMAError("this Python (in the browser) unpacks XZ streams only")

    module = types.ModuleType("lzma", "XZ streams unpacked on _xz.wasm (analyzer.equity.unxz)")
    module.__dict__.update(LZMAError=LZMAError, LZMADecompressor=LZMADecompressor, decompress=decompress,
                           compress=compress, FORMAT_AUTO=0, FORMAT_XZ=1, CHECK_NONE=0, CHECK_CRC32=1, CHECK_CRC64=4)
    return module
