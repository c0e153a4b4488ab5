// Runs a Python script in Pyodide under Node with a site built by `domino site` loaded as its worker loads it (the
// compiled kernels' WebAssembly modules instantiated into globalThis.dominoKernels first, then python/domino.zip on
// sys.path): `node tests/wasm/pyodide_run.mjs SITE_DIR SCRIPT.py INPUT`. The script finds the file INPUT in
// /home/pyodide/input.json and leaves its answer, a string, in the global OUTPUT, which is printed.
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

process.on("unhandledRejection", (e) => { process.stderr.write(String(e && e.message || e).slice(-3000) + "\n"); process.exit(2); });
const site = path.resolve(process.argv[2]);
const script = fs.readFileSync(process.argv[3], "utf8");
const manifest = JSON.parse(fs.readFileSync(path.join(site, "site.json"), "utf8"));
globalThis.dominoKernels = {};
for (const [kernel, file] of Object.entries(manifest.wasm || {})) {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(site, file)));
  globalThis.dominoKernels[kernel] = instance.exports;
}
const { loadPyodide } = await import(pathToFileURL(path.join(site, "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(site, "pyodide") + path.sep });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(path.join(site, "python", "domino.zip"))), "zip",
  { extractDir: "/home/pyodide/lib" });
// the lazy files (the equity tables) where the worker makes them, read from the site's folder
for (const [arcname, file] of Object.entries(manifest.lazy || {})) {
  pyodide.FS.mkdirTree(path.posix.dirname("/home/pyodide/lib/" + arcname));
  pyodide.FS.writeFile("/home/pyodide/lib/" + arcname, fs.readFileSync(path.join(site, file)));
}
pyodide.FS.writeFile("/home/pyodide/input.json", fs.readFileSync(process.argv[4]));
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
try {
  pyodide.runPython(script);
} catch (e) {
  process.stderr.write(String(e && e.message || e).slice(-3000) + "\n");
  process.exit(1);
}
process.stdout.write(String(pyodide.globals.get("OUTPUT")) + "\n");
