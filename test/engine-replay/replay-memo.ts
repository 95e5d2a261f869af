import { createHash } from 'node:crypto';
import type { Fleet } from './controllers';
import { Revision } from './revision';

/**
 * Replays by what they start from, for the worker: many tests replay the same first install of
 * the same revision on the same fresh fleet before their own event. A replay is a function of its
 * fleet, its previous result, its revision and its options (nothing in it reads a clock, a random
 * number or anything outside those), so a replay that starts from a state already replayed ends
 * where that one ended: the fleet is given that end state (a deep copy of it, its own objects) and
 * the result a copy. The copies are made from a snapshot nobody holds, so what a test does to its
 * fleet never reaches another test's (replay-memo.test.ts).
 *
 * A state is compared by its whole object graph (`graphKey`): every object, Map, Set and class
 * instance reachable from the fleet and the previous result, and a revision by its files. A closure
 * in that graph is state we cannot read, so such a replay is not memoized, except two the replay
 * itself makes and whose behaviour its state decides: a server's `serviceAnswers` (its fleet's
 * webhook Services, bound when the fleet is built) and an engine run's `log` (into the log of the
 * replay that made it, which no one reads any more).
 */
const KNOWN_CLOSURES = new Set(['serviceAnswers', 'log']);

/** The revision's files, hashed once per Revision object. */
const revisionHashes = new WeakMap<Revision, string>();
function revisionHash(r: Revision): string {
  let h = revisionHashes.get(r);
  if (h === undefined) {
    const hash = createHash('sha256');
    for (const [path, content] of r.files) hash.update(`${path}\0${content}\0`);
    revisionHashes.set(r, (h = hash.digest('hex')));
  }
  return h;
}

/** Closures whose state is all in the graph (`closureOverGraph`): a memo hit keeps the fleet's own. */
const overGraph = new WeakSet<object>();

/**
 * Declares a closure a fleet holds (a controller, a wrapped admission) as one whose state is all
 * reachable from the fleet (`Fleet.addControllers` with its state), so a replay of that fleet can
 * be memoized: a hit fills the very objects the closure holds.
 */
export function closureOverGraph<F extends (...args: never[]) => unknown>(f: F): F {
  overGraph.add(f);
  return f;
}

const opaque = (v: object): boolean => ArrayBuffer.isView(v) || v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet;

/**
 * A hash of everything reachable from `root`, and its objects in the order first met (so two equal
 * graphs pair their objects by index); undefined when the graph holds a closure other than the
 * known ones, or something we do not read (a typed array, a promise). Shared structure and cycles
 * are numbered in that order, so equal graphs built the same way hash equal.
 */
export function graphKey(root: unknown): { readonly key: string; readonly order: readonly object[] } | undefined {
  const ids = new Map<object, number>();
  const order: object[] = [];
  const out: string[] = [];
  const walk = (v: unknown, key: string): boolean => {
    if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint') {
      out.push(String(v));
      return true;
    }
    if (typeof v === 'string') {
      out.push(JSON.stringify(v));
      return true;
    }
    if (typeof v === 'function') {
      out.push('f');
      return KNOWN_CLOSURES.has(key) || overGraph.has(v);
    }
    if (typeof v !== 'object') return false;
    if (v instanceof Revision) {
      out.push(`R${revisionHash(v)}`);
      return true;
    }
    const seen = ids.get(v);
    if (seen !== undefined) {
      out.push(`@${seen}`);
      return true;
    }
    ids.set(v, ids.size);
    order.push(v);
    if (opaque(v)) return false;
    if (Array.isArray(v)) {
      out.push('[');
      for (const x of v) if (!walk(x, key)) return false;
      out.push(']');
      return true;
    }
    if (v instanceof Map) {
      out.push('M{');
      for (const [k, x] of v) if (!walk(k, key) || !walk(x, key)) return false;
      out.push('}');
      return true;
    }
    if (v instanceof Set) {
      out.push('S{');
      for (const x of v) if (!walk(x, key)) return false;
      out.push('}');
      return true;
    }
    out.push(`${(Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name ?? ''}{`);
    for (const [k, x] of Object.entries(v)) {
      out.push(JSON.stringify(k), ':');
      if (!walk(x, k)) return false;
    }
    out.push('}');
    return true;
  };
  if (!walk(root, '')) return undefined;
  return { key: createHash('sha256').update(out.join(',')).digest('hex'), order };
}

/**
 * A deep copy of an object graph: arrays, Maps, Sets, plain objects and class instances (with their
 * prototype), shared structure and cycles kept. Functions and Revisions (immutable) are kept by
 * reference. `into` maps objects of the graph to existing objects of the same shape that take
 * their place: each is emptied and given the copied contents of the one it stands for, but keeps
 * its own functions (the closures bound to it) where the other has one. Returns the copy and
 * every object's copy.
 */
export function cloneGraph<T>(root: T, into: ReadonlyMap<object, object> = new Map()): { copy: T; copies: ReadonlyMap<object, unknown> } {
  const copies = new Map<object, unknown>(into);
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || v instanceof Revision) return v;
    const known = copies.get(v);
    if (known !== undefined) return known;
    if (opaque(v)) throw new Error(`cloneGraph: cannot copy a ${v.constructor.name}`);
    const out: object = Array.isArray(v) ? [] : v instanceof Map ? new Map() : v instanceof Set ? new Set() : Object.create(Object.getPrototypeOf(v) as object);
    copies.set(v, out);
    fill(v, out);
    return out;
  };
  /** a function where the target has one at the same place stays the target's */
  const pick = (x: unknown, own: unknown): unknown => (typeof x === 'function' && typeof own === 'function' ? own : copy(x));
  const fill = (from: object, to: object): void => {
    if (Array.isArray(from)) {
      const own = [...(to as unknown[])];
      (to as unknown[]).length = 0;
      from.forEach((x, i) => (to as unknown[]).push(pick(x, own[i])));
    } else if (from instanceof Map) {
      const target = to as Map<unknown, unknown>;
      const own = new Map(target);
      target.clear();
      for (const [k, x] of from) {
        const key = copy(k);
        target.set(key, pick(x, own.get(key)));
      }
    } else if (from instanceof Set) {
      const target = to as Set<unknown>;
      target.clear();
      for (const x of from) target.add(copy(x));
    } else {
      const target = to as Record<string, unknown>;
      for (const k of Object.keys(target)) if (!(k in from)) delete target[k];
      for (const [k, x] of Object.entries(from)) target[k] = pick(x, target[k]);
    }
  };
  for (const [from, to] of into) fill(from, to);
  return { copy: copy(root) as T, copies };
}

interface Snapshot<R> {
  /** the end state, which nobody holds */
  readonly state: { readonly fleet: Fleet; readonly result: R };
  /** its objects that were there at the start, by their index in the start's `order` */
  readonly starting: ReadonlyMap<object, number>;
}

const MEMO = new Map<string, Snapshot<unknown>>();

/** Counts for the worker, read by replay-memo.test.ts. */
export const memoStats = { hits: 0, misses: 0, unkeyed: 0 };

let off = 0;
/** `run()` with every replay in it replayed, none taken from the memo (replay-memo.test.ts compares the two). */
export function withoutMemo<T>(run: () => T): T {
  off++;
  try {
    return run();
  } finally {
    off--;
  }
}

/**
 * `run()` on `fleet`, or, when a replay started from an equal state before, that replay's end:
 * every object there at the start and still there at the end (the fleet, its clusters, their
 * stores, the state a controller's closure holds …) is the same object, filled with a copy of
 * what it held at that end, and the new ones are copies. `start` is everything else the replay
 * reads. A replay that goes on from a previous result is not memoized: its key would cost about
 * what the memo saves, and tests share first installs, not what follows.
 */
export function memoized<R extends { readonly fleet: Fleet }>(fleet: Fleet, start: { readonly previous?: unknown }, run: () => R): R {
  const graph = off > 0 || start.previous !== undefined ? undefined : graphKey([fleet, start]);
  if (graph === undefined) {
    memoStats.unkeyed++;
    return run();
  }
  const snapshot = MEMO.get(graph.key) as Snapshot<R> | undefined;
  if (snapshot) {
    memoStats.hits++;
    const into = new Map<object, object>();
    for (const [o, i] of snapshot.starting) into.set(o, graph.order[i]!);
    return cloneGraph(snapshot.state, into).copy.result;
  }
  memoStats.misses++;
  const result = run();
  const { copy, copies } = cloneGraph({ fleet, result });
  const starting = new Map<object, number>();
  graph.order.forEach((o, i) => {
    const c = copies.get(o);
    if (c !== undefined) starting.set(c as object, i);
  });
  MEMO.set(graph.key, { state: copy, starting });
  return result;
}
