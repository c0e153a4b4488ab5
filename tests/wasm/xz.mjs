// Unpacks XZ streams on analyzer/equity/_xz.wasm, in Node: `node tests/wasm/xz.mjs MODULE STREAMS`, STREAMS a file of
// streams, each a 4-byte little-endian length and the stream. Prints one line of JSON a stream: {"size", "sha256"} of
// the bytes unpacked, or {"error": the module's reason}.
import crypto from "crypto";
import fs from "fs";

const { instance } = await WebAssembly.instantiate(fs.readFileSync(process.argv[2]), {});
const x = instance.exports;
const all = fs.readFileSync(process.argv[3]);
const text = (at) => Buffer.from(new Uint8Array(x.memory.buffer, at, 200)).toString("latin1").split("\0")[0];
for (let pos = 0; pos < all.length;) {
  const n = all.readUInt32LE(pos), data = all.subarray(pos + 4, pos + 4 + n);
  pos += 4 + n;
  const at = x.wasm_alloc(Math.max(n, 1));
  new Uint8Array(x.memory.buffer, at, n).set(data);
  const size = Number(x.xz_size(at, n));
  if (size < 0) { console.log(JSON.stringify({error: text(x.xz_error_text())})); x.wasm_free(at); continue; }
  const out = x.wasm_alloc(Math.max(size, 1));
  const got = Number(x.xz_unpack(at, n, out, size));
  console.log(JSON.stringify(got < 0 ? {error: text(x.xz_error_text())}
                                     : {size: got, sha256: crypto.createHash("sha256").update(new Uint8Array(x.memory.buffer, out, got)).digest("hex")}));
  x.wasm_free(out);
  x.wasm_free(at);
}
