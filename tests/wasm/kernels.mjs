// Runs a compiled kernel's standalone WebAssembly module (analyzer/search/_core.wasm, ...) on the cases of a JSON
// file and prints what it computes, as JSON, for tests/test_wasm_kernels.py to hold against the CPython extension
// of the same kernel: `node tests/wasm/kernels.mjs KERNEL MODULE.wasm CASES.json`. 64-bit masks travel as decimal
// strings. Each case: a table's size, a deal's arguments and calls on it, in order (they share the table).
import { readFileSync } from 'node:fs';

const [, , kernel, modulePath, casesPath] = process.argv;
const { instance } = await WebAssembly.instantiate(readFileSync(modulePath));
const x = instance.exports;

/** Scratch memory in the module for one call's arrays, written and read through fresh views (memory.grow detaches
 * the old ones). */
class Scratch {
  constructor(bytes) { this.base = x.wasm_alloc(bytes); this.bytes = bytes; this.at = 0; }
  reset() { this.at = 0; }
  take(bytes) {
    const p = this.base + this.at;
    this.at += (bytes + 7) & ~7;
    if (this.at > this.bytes) throw new Error('scratch memory too small');
    return p;
  }
  i32s(values) { const p = this.take(4 * Math.max(values.length, 1)); new Int32Array(x.memory.buffer, p, values.length).set(values); return p; }
  u8s(values) { const p = this.take(Math.max(values.length, 1)); new Uint8Array(x.memory.buffer, p, values.length).set(values); return p; }
  u64s(values) { const p = this.take(8 * Math.max(values.length, 1)); new BigUint64Array(x.memory.buffer, p, values.length).set(values.map(BigInt)); return p; }
  room(bytes) { const p = this.take(bytes); new Uint8Array(x.memory.buffer, p, bytes).fill(0); return p; }
}
const readI32 = (p, n) => Array.from(new Int32Array(x.memory.buffer, p, n));
const readU8 = (p, n) => Array.from(new Uint8Array(x.memory.buffer, p, n));
const readU64 = (p) => new BigUint64Array(x.memory.buffer, p, 1)[0].toString();
const readText = (p) => { const b = new Uint8Array(x.memory.buffer, p); return new TextDecoder().decode(b.subarray(0, b.indexOf(0))); };
const scratch = new Scratch(1 << 20);
const MAX_STEPS = 55 * 4;

function coreError(d) {
  return { error: x.core_error_kind(d), text: readText(x.core_error_text(d)) };
}

function coreCall(d, c, seats) {
  scratch.reset();
  const budget = c.budget ?? -1;
  const before = x.core_nodes(d);
  if (c.op === 'mtdf') {
    const out = scratch.room(4);
    const got = x.core_mtdf_at(d, scratch.u64s(c.hands), scratch.i32s(c.pips), scratch.u64s([c.K]), c.e, c.s,
      c.alpha, c.beta, c.guess ?? 0, budget, out);
    if (got < 0) return coreError(d);
    return { value: got === 1 ? null : readI32(out, 1)[0], nodes: x.core_nodes(d) - before };
  }
  if (c.op === 'plays') {
    const n = c.moves.length, values = scratch.room(4 * n), ended = scratch.room(n), over = scratch.room(4);
    const states = scratch.room(8);
    const done = x.core_plays_at(d, scratch.u64s(c.hands), scratch.i32s(c.pips), scratch.u64s([c.K]), c.e, c.s, n,
      scratch.i32s(c.moves.flat()), budget, values, ended, over, states);
    if (done < 0) return coreError(d);
    const v = readI32(values, done), e = readU8(ended, done);
    return { values: v.map((y, i) => (e[i] ? null : y)), states: readU64(states), over: readI32(over, 1)[0] === 1,
      nodes: x.core_nodes(d) - before };
  }
  if (c.op === 'line') {
    const steps = scratch.room(12 * MAX_STEPS), states = scratch.room(8), out = scratch.room(16);
    const got = x.core_line_at(d, scratch.u64s(c.hands), scratch.i32s(c.pips), scratch.u64s([c.K]), c.a, c.b, c.s,
      c.first, c.value === null ? 0 : 1, c.value ?? 0, budget, c.guess ?? 0, steps, states, out);
    if (got < 0) return coreError(d);
    const [count, over, pa, pb] = readI32(out, 4);
    const flat = readI32(steps, 3 * count);
    return { steps: Array.from({ length: count }, (_, i) => flat.slice(3 * i, 3 * i + 3)), states: readU64(states),
      over: over === 1, ends: [pa, pb], nodes: x.core_nodes(d) - before };
  }
  if (c.op === 'ends') {
    const n = c.values.length, found = scratch.room(n), hands = scratch.room(8 * 4 * n), outs = scratch.room(16 * n);
    const got = x.core_ends_at(d, scratch.u64s(c.hands), scratch.i32s(c.pips), scratch.u64s([c.K]), c.a, c.b, c.s,
      c.first, n, scratch.u8s(c.values.map((v) => (v === null ? 0 : 1))), scratch.i32s(c.values.map((v) => v ?? 0)),
      budget, found, hands, outs);
    if (got < 0) {
      const text = readText(x.core_error_text(d));
      if (text.startsWith('ends:')) return { error: `ends: ${x.core_error_count(d)} moves, not ${n} values` };
      return coreError(d);
    }
    const f = readU8(found, n), o = readI32(outs, 4 * n), k = seats;
    const masks = Array.from(new BigUint64Array(x.memory.buffer, hands, k * n), String);
    return { ends: Array.from({ length: n }, (_, i) => (f[i] ? [masks.slice(k * i, k * i + k), o[i], o[n + i],
      [o[2 * n + i], o[3 * n + i]]] : null)), nodes: x.core_nodes(d) - before };
  }
  if (c.op === 'worlds') {
    const n = c.moves.length, bits = scratch.u8s(c.moves.map((m) => m[0])), e2s = scratch.u8s(c.moves.map((m) => m[1]));
    const as = c.after ? scratch.i32s(c.after.map((m) => m[0])) : 0, bs = c.after ? scratch.i32s(c.after.map((m) => m[1])) : 0;
    const K = scratch.u64s([c.K]);
    if (x.core_worlds_ok(d, K, c.e, c.s, n, bits, e2s, as, bs) < 0) return coreError(d);
    const rows = [], lines = [];
    let over = false;
    for (const dealt of c.deals) {
      const values = scratch.room(4 * n);
      const got = x.core_world_at(d, scratch.u64s(dealt), K, c.e, c.s, n, bits, e2s, budget, values);
      if (got < 0) return coreError(d);
      if (got === 2) { over = true; break; }
      const row = got === 1 ? null : readI32(values, n);
      rows.push(row);
      if (!c.after) continue;
      if (row === null) { lines.push(null); continue; }
      const found = [];
      for (let i = 0; i < n; i++) {
        const steps = scratch.room(12 * MAX_STEPS), out = scratch.room(12);
        const r = x.core_world_line_at(d, K, c.s, c.moves[i][0], c.moves[i][1], c.after[i][0], c.after[i][1],
          c.after[i][2], row[i], budget, steps, out);
        if (r < 0) return coreError(d);
        const [count, pa, pb] = readI32(out, 3);
        const flat = readI32(steps, 3 * count);
        found.push(r === 1 ? null : [Array.from({ length: count }, (_, j) => flat.slice(3 * j, 3 * j + 3)), [pa, pb]]);
      }
      lines.push(found);
    }
    return { values: rows, over, lines: c.after ? lines : undefined, nodes: x.core_nodes(d) - before };
  }
  throw new Error(`unknown call ${c.op}`);
}

function runCore(cases) {
  return cases.map((k) => {
    scratch.reset();
    const t = x.core_table_new(k.entries);
    const g = k.deal;
    const d = x.core_deal_new(t, g.n, g.max_pip, scratch.i32s(g.sides), scratch.u64s(g.dealt), g.cu,
      scratch.i32s(g.scoring ?? []), (g.scoring ?? []).length, g.leader, g.bound, g.most, scratch.i32s(g.bonus ?? []),
      (g.bonus ?? []).length);
    let got;
    if (x.core_error_kind(d) !== 0) got = [coreError(d)];
    else got = k.calls.map((c) => coreCall(d, c, g.n));
    x.core_deal_delete(d);
    x.core_table_delete(t);
    return got;
  });
}

function armsCall(d, c, first) {
  scratch.reset();
  if (c.op === 'search') {
    const value = scratch.room(4), nodes = scratch.room(8);
    const got = x.arms_search_at(d, scratch.u64s(c.hands), scratch.i32s(c.arms), c.arms.length, c.s, c.alpha, c.beta,
      c.budget, value, nodes);
    if (got < 0) return { error: x.arms_error_kind(d), text: readText(x.arms_error_text(d)) };
    return { value: got === 1 ? null : readI32(value, 1)[0], nodes: new Float64Array(x.memory.buffer, nodes, 1)[0] };
  }
  const steps = scratch.room(16 * 55 * 4), out = scratch.room(12), nodes = scratch.room(8);
  const got = x.arms_line_at(d, scratch.u64s(c.hands), scratch.i32s(c.arms), c.arms.length, c.s, first.value,
    c.limit, c.spent, steps, out, nodes);
  if (got < 0) return { error: x.arms_error_kind(d), text: readText(x.arms_error_text(d)) };
  const [count, probed, after] = readI32(out, 3);
  const flat = readI32(steps, 4 * count);
  return { steps: got === 1 ? null : Array.from({ length: count }, (_, i) => flat.slice(4 * i, 4 * i + 4)),
    nodes: new Float64Array(x.memory.buffer, nodes, 1)[0], after: probed ? after : null };
}

function runArms(cases) {
  return cases.map((k) => {
    scratch.reset();
    const g = k.search;
    const described = g.described ?? [];
    const d = x.arms_new(g.n, g.max_pip, g.french, g.branch, scratch.i32s(g.maximiser), scratch.i32s(g.opponent),
      g.scoring, g.param, scratch.i32s(g.sides), k.entries, scratch.i32s(described), described.length, g.leader);
    const got = [];
    if (x.arms_error_kind(d) !== 0) got.push({ error: x.arms_error_kind(d), text: readText(x.arms_error_text(d)) });
    else {
      for (const c of k.calls) {
        if (c.op === 'line' && got[0].value === null) continue;
        got.push(armsCall(d, c, got[0]));
      }
    }
    x.arms_delete(d);
    return got;
  });
}

const DRAW_STEPS = 55 * 5 + 8;

function drawError(d) { return { error: x.draw_error_kind(d), text: readText(x.draw_error_text(d)) }; }

function drawSteps(p, count) {
  const flat = readI32(p, 5 * count);
  return Array.from({ length: count }, (_, i) => flat.slice(5 * i, 5 * i + 5));
}

function drawCall(d, c, n) {
  scratch.reset();
  if (c.op === 'worlds') {
    const nr = c.roots.length, roots = scratch.i32s(c.roots.flat()), rows = [], lines = [];
    let over = false;
    for (let w = 0; w < c.hands.length; w++) {
      const row = scratch.room(4 * nr), rest = scratch.room(4 * nr);
      const got = x.draw_world_at(d, scratch.u64s(c.hands[w]), scratch.u64s(c.orders[w]), c.mover, c.k, nr, roots,
        c.limit, row, rest);
      if (got < 0) return drawError(d);
      if (got === 1) { over = true; break; }
      const values = readI32(row, nr), rests = readI32(rest, nr);
      rows.push(values);
      if (!c.lines) continue;
      const found = [];
      for (let i = 0; i < nr; i++) {
        const steps = scratch.room(20 * DRAW_STEPS), out = scratch.room(12);
        const r = x.draw_root_line_at(d, scratch.u64s(c.hands[w]), c.mover, scratch.i32s(c.roots[i]), c.k, rests[i],
          c.limit, steps, out);
        if (r < 0) return drawError(d);
        const [count, bl, br] = readI32(out, 3);
        found.push(r === 1 ? null : [drawSteps(steps, count), bl, br]);
      }
      lines.push(found);
    }
    return c.lines ? [rows, over, lines] : [rows, over];
  }
  const hands = scratch.u64s(c.hands), state = scratch.i32s(c.state);
  if (c.op === 'search') {
    const value = scratch.room(4), nodes = scratch.room(8);
    const got = x.draw_search_at(d, hands, state, c.alpha, c.beta, c.budget, value, nodes);
    if (got < 0) return drawError(d);
    return [got === 1 ? null : readI32(value, 1)[0], new Float64Array(x.memory.buffer, nodes, 1)[0]];
  }
  if (c.op === 'line') {
    const steps = scratch.room(20 * DRAW_STEPS), out = scratch.room(20), nodes = scratch.room(8);
    const got = x.draw_line_at(d, hands, state, c.value, c.limit, c.spent, steps, out, nodes);
    if (got < 0) return drawError(d);
    const [count, probed, after, bl, br] = readI32(out, 5);
    return [got === 1 ? null : drawSteps(steps, count), new Float64Array(x.memory.buffer, nodes, 1)[0],
      probed ? after : null, bl, br];
  }
  const nv = c.values === null ? -1 : c.values.length, size = x.draw_end_bytes();
  const has = scratch.u8s((c.values ?? []).map((v) => (v === null ? 0 : 1)));
  const values = scratch.i32s((c.values ?? []).map((v) => v ?? 0));
  const out = scratch.room(size * Math.max(nv, 1));
  if (x.draw_ends_at(d, hands, state, c.value, nv, has, values, c.limit, out) < 0) return drawError(d);
  return Array.from({ length: Math.max(nv, 1) }, (_, i) => {
    const at = out + i * size, found = readI32(at, 1)[0];
    if (!found) return null;
    const h = Array.from(new BigUint64Array(x.memory.buffer, at + 8, 4)).slice(0, n).map(String);
    const rest = readI32(at + 40, 8);
    return [...h, ...rest.slice(0, 4), ...rest.slice(4, 4 + n)];
  });
}

function runDraw(cases) {
  return cases.map((k) => {
    scratch.reset();
    const g = k.search;
    const d = x.draw_new(g.n, g.max_pip, scratch.u64s(g.order), g.order.length, g.limit, g.until, g.scores,
      scratch.i32s(g.maximiser), scratch.i32s(g.described), g.described.length, g.entries, g.leader,
      g.bound === null ? 0 : 1, g.bound === null ? 0 : Number(g.bound[0]), g.bound === null ? -1 : g.bound[1],
      g.run ? 1 : 0);
    const got = x.draw_error_kind(d) !== 0 ? [drawError(d)] : k.calls.map((c) => drawCall(d, c, g.n));
    x.draw_delete(d);
    return got;
  });
}

// The race solver: each call's arrays copied into the module, the export called, the answer and the arrays after it.
const TYPED = { q: BigInt64Array, l: BigInt64Array, d: Float64Array, i: Int32Array, I: Uint32Array, B: Uint8Array, b: Int8Array };

function raceCall(c) {
  scratch.reset();
  const arrays = [];
  const put = (a) => {
    const T = TYPED[a.t], bytes = T.BYTES_PER_ELEMENT * Math.max(a.v.length, 1);
    const p = x.wasm_alloc(bytes);
    const view = new T(x.memory.buffer, p, a.v.length);
    view.set(T === BigInt64Array ? a.v.map(BigInt) : a.v);
    arrays.push({ p, T, n: a.v.length });
    return p;
  };
  const args = c.args.map((a) => (a !== null && typeof a === 'object' && 't' in a ? put(a) : a));
  const len = (i) => c.args[i].v.length;
  const shape = (g, b) => [c.args[g].tuple.length, scratch.u64s(c.args[g].tuple), scratch.u64s(c.args[b].tuple)];
  const out = scratch.room(16), dbl = () => new Float64Array(x.memory.buffer, out, 2);
  const op = c.op;
  let result, kind = 0;
  if (op === 'live') {
    kind = x.race_live_at(args[0], ...shape(1, 2), args[3], args[4], out);
    result = dbl()[0];
  } else if (op === 'close') {
    const results = Number(c.args[3].v[args[0]]);
    kind = x.race_close_at(args[0], ...shape(1, 2), args[3], args[4], args[5], args[6], results, args[7], out);
    result = dbl()[0];
  } else if (op === 'back') {
    const results = Number(c.args[3].v[args[0]]);
    kind = x.race_back_at(args[0], ...shape(1, 2), args[3], args[4], args[5], args[6], results, args[7], args[8], out);
    result = [dbl()[0], dbl()[1]];
  } else if (op === 'reached') {
    const results = Number(c.args[3].v[args[0]]);
    kind = x.race_reached_at(args[0], ...shape(1, 2), args[4], results, args[5], out);
    result = dbl()[0];
  } else if (op === 'sweep') {
    const sides = args[0], results = Number(c.args[4].v[args[1]]), sweeps = scratch.room(4);
    kind = x.race_sweep_at(sides, args[1], ...shape(2, 3), args[4], args[5], args[6], args[7], args[8], results, args[9],
      len(9) / sides, args[10], args[11], args[12], args[13], sweeps, out);
    result = [readI32(sweeps, 1)[0], dbl()[0]];
  } else if (op === 'one_hand') {
    const n = c.args[4].tuple.length;
    const got = x.race_one_hand_at(args[0], len(0), args[1], len(1), args[2], len(2), args[3], len(3), n,
      scratch.i32s(c.args[4].tuple), scratch.i32s(c.args[5].tuple), args[6], args[7], args[8], len(8), args[9], len(9),
      args[10], len(10), out);
    if (got < 0) kind = 1;
    result = got === 1 ? Array.from(new Float64Array(x.memory.buffer, out, n)) : null;
  } else if (op === 'between') {
    const n = c.args[5].tuple.length, sum = scratch.room(8 * n);
    const at = c.args.length > 12 && c.args[12] !== null ? scratch.i32s(c.args[12].tuple) : 0;
    const got = x.race_between_at(args[0], len(0), args[1], len(1), args[2], len(2), args[3], len(3), n,
      scratch.i32s(c.args[4].tuple), scratch.i32s(c.args[5].tuple), args[6], args[7], args[8], len(8), args[9], len(9),
      args[10], len(10), args[11], len(11), at, sum);
    if (got < 0) kind = 1;
    result = got === 1 ? Array.from(new Float64Array(x.memory.buffer, sum, n)) : null;
  } else if (op === 'undiff') {
    x.race_undiff_at(args[0], len(0), scratch.i32s(c.args[1].tuple), c.args[1].tuple.length);
    result = null;
  } else if (op === 'place') {
    const sides = args[3];
    x.race_place_at(args[0], args[1], args[2], sides, len(1) / sides / args[2], args[4]);
    result = null;
  } else if (op === 'find') {
    const columns = args[1], got = scratch.room(8 * columns);
    const found = x.race_find_at(args[0], len(0) / (4 * columns), columns, args[2], got);
    result = found ? Array.from(new BigInt64Array(x.memory.buffer, got, columns - 1), Number) : null;
  } else {
    throw new Error(`unknown call ${op}`);
  }
  if (kind !== 0) result = { error: kind, text: readText(x.race_error_text()) };
  const after = arrays.map(({ p, T, n }) => Array.from(new T(x.memory.buffer, p, n), T === BigInt64Array ? Number : (v) => v));
  for (const { p } of arrays) x.wasm_free(p);
  return { result, after };
}

// The CFR+ kernel: each run made of its arrays (ints as they are, doubles as their 64 bits in hex) in one block the run
// takes (the table of addresses, the item counts, the arrays: analyzer/hidden/_cfr_wasm.c), then called as the
// extension was; each answer's doubles as their bits (hex), an error as its kind and text.
const hexDouble = (h) => new DataView(Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16)).buffer).getFloat64(0, true);
function bitsOf(p, n) {
  const bytes = new Uint8Array(x.memory.buffer, p, 8 * n);
  return Array.from({ length: n }, (_, i) => Array.from(bytes.subarray(8 * i, 8 * i + 8), (b) => b.toString(16).padStart(2, '0')).join(''));
}

function cfrRun(c) {
  const count = c.arrays.length;
  let at = 8 * count;
  const offsets = c.arrays.map((a, i) => { const o = at; at += (Number(c.items[i]) * a.length + 7) & ~7; return o; });
  const block = x.wasm_alloc(Math.max(at, 8));
  new Int32Array(x.memory.buffer, block, count).set(offsets.map((o) => block + o));
  new Int32Array(x.memory.buffer, block + 4 * count, count).set(c.arrays.map((a) => a.length));
  c.arrays.forEach((a, i) => {
    const T = { 4: Int32Array, 8: Float64Array, 2: Uint16Array, 1: Uint8Array }[c.items[i]];
    new T(x.memory.buffer, block + offsets[i], a.length).set(c.items[i] === '8' ? a.map(hexDouble) : a);
  });
  const r = x.cfr_new(c.range, block, c.nh0, c.nh1, c.size, c.forced[0], c.forced[1]);
  if (x.cfr_error_kind(r)) {
    const error = [x.cfr_error_kind(r), readText(x.cfr_error_text(r))];
    x.cfr_delete(r);
    return error;
  }
  const out = c.calls.map((call) => {
    scratch.reset();
    if (call.op === 'iterate') { x.cfr_iterate_at(r, call.count); return undefined; }
    if (call.op === 'force') { x.cfr_force_at(r, call.set, call.move, call.keep || 0); return undefined; }
    if (call.op === 'threads') return x.cfr_threads_at(r, call.count);
    if (call.op === 'held') return x.cfr_held_at(r);
    if (call.op === 'bracket') { const p = scratch.room(16); x.cfr_bracket_at(r, p); return bitsOf(p, 2); }
    if (call.op === 'hand_values') {
      const n = x.cfr_hands(r), p = scratch.room(8 * n + 8);
      x.cfr_hand_values_at(r, p);
      return bitsOf(p, n);
    }
    if (call.op === 'set_average') {
      const p = scratch.room(8 * call.width + 8), kind = x.cfr_set_average_at(r, call.set, call.width, p);
      return kind ? [kind, readText(x.cfr_error_text(r))] : bitsOf(p, call.width);
    }
    const n = x.cfr_size(r), p = scratch.room(8 * n + 8);
    x.cfr_average_at(r, p);
    return bitsOf(p, n);
  });
  x.cfr_delete(r);
  return out.map((v) => (v === undefined ? null : v));
}

// The range tree's build (analyzer/hidden/_ranges_kernel.h): each case's hands (64-bit masks), state, scoring and norm
// (its 64 bits in hex) as the extension's ``build`` takes them; each array built (ints as they are, the table's doubles
// as their bits in hex) and the size, or the error's kind and text (null: past the cap).
const BUILD_ITEMS = '444444442424214214484241';
function cfrBuild(c) {
  scratch.reset();
  const d = x.rb_new(scratch.u64s(c.mask0), c.mask0.length, scratch.u64s(c.mask1), c.mask1.length, scratch.i32s(c.state),
    scratch.i32s(c.scoring), c.scoring.length, hexDouble(c.norm), c.max_nodes, c.max_bytes);
  const kind = x.rb_error_kind(d);
  let out = null;
  if (kind && kind !== 100) out = [kind, readText(x.rb_error_text(d))];
  else if (!kind) {
    out = { size: x.rb_size(d), arrays: Array.from(BUILD_ITEMS, (item, k) => {
      const p = x.rb_array(d, k), n = x.rb_items(d, k);
      if (item === '8') return bitsOf(p, n);
      if (item === '2') return Array.from(new Uint16Array(x.memory.buffer, p, n));
      return item === '1' ? Array.from(new Uint8Array(x.memory.buffer, p, n)) : readI32(p, n);
    }) };
  }
  x.rb_delete(d);
  return out;
}

const RUN = { core: runCore, arms: runArms, draw: runDraw, race: (calls) => calls.map(raceCall), cfr: (runs) => runs.map(cfrRun),
  cfrbuild: (cases) => cases.map(cfrBuild) };
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const started = process.hrtime.bigint();
const results = RUN[kernel](cases);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(JSON.stringify({ results, seconds }));
