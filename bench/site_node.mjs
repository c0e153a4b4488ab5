// Pyodide under Node, loading a site built by `domino site` as the browser's worker does (its pyodide/ folder
// and python/domino.zip), then answering the requests read from standard input (a JSON list of
// {"route", "body"}) through analyzer.site.worker.SiteApi. Prints one JSON object: the start-up's parts and
// each request's seconds (by the clock, and of the processor), the process's peak memory after it, and answer. Used by bench/bench_site.py and tests/test_site_node.py.
// As the worker does, it first instantiates the compiled kernels' WebAssembly modules the site ships (site.json's
// "wasm") into globalThis.dominoKernels, so the block search runs on _core.wasm; --no-wasm leaves them out (the
// pure-Python search).
//   node bench/site_node.mjs SITE_DIR [--no-wasm] < requests.json
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

process.on("uncaughtException", (e) => { process.stderr.write(String(e && e.message || e).slice(-2000) + "\n"); process.exit(2); });
process.on("unhandledRejection", (e) => { process.stderr.write(String(e && e.message || e).slice(-2000) + "\n"); process.exit(2); });
const site = path.resolve(process.argv[2] || "site");
const useWasm = !process.argv.includes("--no-wasm");
const requests = JSON.parse(fs.readFileSync(0, "utf8") || "[]");
const now = () => performance.now() / 1000;
const t0 = now();
const { loadPyodide } = await import(pathToFileURL(path.join(site, "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(site, "pyodide") + path.sep });
const manifest = JSON.parse(fs.readFileSync(path.join(site, "site.json"), "utf8"));
globalThis.dominoKernels = {};
for (const [kernel, file] of Object.entries(useWasm ? manifest.wasm || {} : {})) {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(site, file)));
  globalThis.dominoKernels[kernel] = instance.exports;
}
const t1 = now();
const zip = new Uint8Array(fs.readFileSync(path.join(site, "python", "domino.zip")));
pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/lib" });
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
pyodide.runPython("from analyzer.site.worker import SiteApi; api = SiteApi('/home/pyodide/records')");
const t2 = now();
const call = pyodide.globals.get("api").call;
const answers = [];
for (const { route, body } of requests) {
  const start = now(), cpu = process.cpuUsage();
  let steps = 0;
  const out = JSON.parse(call(route, JSON.stringify(body), () => { steps += 1; }));
  const seconds = now() - start, used = process.cpuUsage(cpu);
  // cpu: the process's processor time (all of Node's threads, its collector and compilers too), which the other
  // work of a shared machine does not add to as it adds to the seconds by the clock
  // peak: the process's most resident memory so far, MB (maxRSS is in kilobytes)
  answers.push({ route, seconds, cpu: (used.user + used.system) / 1e6, peak: process.resourceUsage().maxRSS / 1024,
                 progress: steps, status: out.status, data: out.data });
}
process.stdout.write(JSON.stringify({ start: { pyodide: t1 - t0, package: t2 - t1 }, answers }) + "\n");
