"""The site's XZ reader (``analyzer/equity/_xz.wasm``: the LZMA SDK's decoder, the XZ container read in
``_xz_wasm.c``), which unpacks the shipped equity tables in the browser, where Pyodide has no ``lzma``: run in Node
(tests/wasm/xz.mjs) against Python's ``lzma``. Every XZ stream of every shipped table unpacks to the same bytes;
streams of every check the format's writers choose (none, CRC-32, CRC-64) and of many blocks (the ``xz`` tool's
``--block-size``) too; a stream cut short, followed by other bytes, or with a byte changed is refused wherever
``lzma`` refuses it, and unpacks to ``lzma``'s bytes where it does not. Where CI builds the modules
(DOMINO_REQUIRE_COMPILED=1) a missing module or Node fails; elsewhere the tests skip, saying why."""
from __future__ import annotations

import hashlib
import json
import lzma
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from conftest import require_built

from analyzer.equity import store
from analyzer.equity.shipped import MAGIC as SOLVED
from analyzer.search.wasm import wasm_path

pytestmark = pytest.mark.slow

HARNESS = Path(__file__).parent / "wasm" / "xz.mjs"
DATA = Path(store.__file__).parent / "data"


def unpacked_in_wasm(streams: list[bytes], tmp_path: Path) -> list[dict]:
    """For each stream: ``{"size", "sha256"}`` of what ``_xz.wasm`` unpacks it to, or ``{"error"}``."""
    missing = [what for what, gone in (("the xz wasm module", wasm_path("xz") is None),
                                       ("node", shutil.which("node") is None)) if gone]
    require_built(missing, "not built or not installed (setup.py builds the module with clang and lld)")
    source = tmp_path / "streams.bin"
    source.write_bytes(b"".join(struct.pack("<I", len(s)) + s for s in streams))
    done = subprocess.run(["node", str(HARNESS), str(wasm_path("xz")), str(source)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(got) == len(streams)
    return got


def in_python(stream: bytes) -> dict:
    """What Python's lzma makes of ``stream`` read as one whole XZ stream (as the tables' readers read it)."""
    d = lzma.LZMADecompressor(lzma.FORMAT_XZ)
    try:
        out = d.decompress(stream)
    except lzma.LZMAError as exc:
        return {"error": str(exc)}
    if not d.eof or d.unused_data:
        return {"error": "cut short" if not d.eof else "bytes after its end"}
    return {"size": len(out), "sha256": hashlib.sha256(out).hexdigest()}


def shipped_streams() -> list[bytes]:
    """Every XZ stream of the shipped tables: each compact table's header, outcomes and blocks, each solved race."""
    streams = []
    for path in sorted(DATA.rglob("*.mwc")):
        raw = path.read_bytes()
        assert raw.startswith(store.MAGIC), path
        end = raw.index(b"\n", len(store.MAGIC))
        streams.append(raw[end + 1:end + 1 + int(raw[len(store.MAGIC):end])])
        header, end = store._header(raw, str(path))
        streams.append(raw[end:end + header["outcomes"]["bytes"]])
        payload = raw[end + header["outcomes"]["bytes"]:]
        for group in header["groups"]:
            at = group["at"]
            for size in group.get("sizes") or [group["size"]]:
                streams.append(payload[at:at + size])
                at += size
    for path in sorted(DATA.glob("*.solved")):
        raw = path.read_bytes()
        streams.append(raw[raw.index(b"\n", len(SOLVED)) + 1:])
    return streams


def test_every_shipped_table_unpacks_in_wasm_as_in_python(tmp_path):
    streams = shipped_streams()
    assert len(streams) > 1000 and len(list(DATA.glob("*.solved"))) == 6
    assert unpacked_in_wasm(streams, tmp_path) == [in_python(s) for s in streams]


def test_every_check_and_many_blocks(tmp_path):
    rng = random.Random(81)
    data = [b"", b"a", bytes(rng.getrandbits(8) for _ in range(5000)), b"domino " * 40_000,
            bytes(rng.choice(b"0123") for _ in range(300_000))]
    streams = [lzma.compress(d, check=check) for d in data
               for check in (lzma.CHECK_NONE, lzma.CHECK_CRC32, lzma.CHECK_CRC64)]
    if shutil.which("xz"):      # (the xz tool writes a stream of many blocks, their sizes in their headers)
        for d in data[2:]:
            for check in ("crc32", "crc64"):
                streams.append(subprocess.run(["xz", "-c", "--block-size=4000", f"--check={check}"], input=d,
                                              capture_output=True, check=True).stdout)
    got = unpacked_in_wasm(streams, tmp_path)
    assert got == [in_python(s) for s in streams] and not any("error" in g for g in got)


def test_a_damaged_stream_is_refused_where_lzma_refuses_it(tmp_path):
    rng = random.Random(7)
    stream = lzma.compress(bytes(rng.choice(b"ab") for _ in range(2000)) * 3, check=lzma.CHECK_CRC32)
    damaged = [stream[:n] for n in range(len(stream))]                       # cut short anywhere
    damaged += [stream + b"\0\0\0\0", stream + stream]                     # other bytes after it
    for _ in range(300):                                                    # a byte changed anywhere
        at = rng.randrange(len(stream))
        damaged.append(stream[:at] + bytes([stream[at] ^ (1 << rng.randrange(8))]) + stream[at + 1:])
    damaged.append(lzma.compress(b"sha", check=lzma.CHECK_SHA256))         # a check it does not read
    got, want = unpacked_in_wasm(damaged, tmp_path), [in_python(s) for s in damaged]
    for stream_, mine, theirs in zip(damaged[:-1], got, want):
        if "error" in theirs:
            assert "error" in mine, stream_.hex()
        else:
            assert mine == theirs
    assert "error" in got[-1] and "check" in got[-1]["error"] and "error" not in want[-1]
    assert sum("error" in g for g in got) >= len(stream) + 2
