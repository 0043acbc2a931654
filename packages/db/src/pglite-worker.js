// The embedded database's thread: one PGlite, driven by messages from `PGliteThread`
// (pglite-thread.ts). Plain JavaScript, so that it starts under every runner (node, tsx, vitest)
// without a TypeScript loader. Every request is `{ id, op, ... }` and is answered `{ id, ok, ... }`.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-worker.js runs as a worker thread');

/** The fields of a database error worth keeping (code, detail, constraint, …), cloneable. */
function describeError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, name: err.name, message: err.message };
}

/** Query options: the listed types are answered as the text PostgreSQL sent (the caller parses them). */
function queryOptions(request) {
  const options = {};
  if (request.rowMode) options.rowMode = request.rowMode;
  if (request.rawTypes?.length) {
    options.parsers = Object.fromEntries(request.rawTypes.map((oid) => [oid, (value) => value]));
  }
  return options;
}

const { dataDir, loadDataDir } = workerData ?? {};
const db = await PGlite.create({
  ...(dataDir ? { dataDir } : {}),
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  // 32 MB of shared buffers instead of initdb's 128 MB: opening a database sets every buffer up,
  // and the smaller pool took 0.6 s less CPU to open (1.4 s instead of 2.0 s; issue 30). A local
  // database (~25 MB after a day of use) still fits in it.
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
});

/** Open transactions by id: the PGlite transaction handle, and how to end it. */
const transactions = new Map();

/** Opens a transaction that stays open until `end`: PGlite's own, so other queries wait for it. */
function begin(txId) {
  return new Promise((started, failed) => {
    const entry = { tx: undefined, commit: undefined, rollback: undefined, done: undefined };
    entry.done = db.transaction(
      (tx) =>
        new Promise((commit, rollback) => {
          Object.assign(entry, { tx, commit, rollback });
          transactions.set(txId, entry);
          started();
        }),
    );
    entry.done.catch((err) => {
      if (!entry.tx) failed(err); // BEGIN itself failed; otherwise `end` reports the outcome
    });
  });
}

/** Commits (or rolls back) a transaction opened by `begin`; a failed commit is the caller's error. */
async function end(txId, commit) {
  const entry = transactions.get(txId);
  if (!entry) throw new Error(`No open transaction ${txId}`);
  transactions.delete(txId);
  if (commit) entry.commit();
  else entry.rollback(new Error('rolled back'));
  try {
    await entry.done;
  } catch (err) {
    if (commit) throw err;
  }
}

async function handle(request) {
  const target = request.txId ? transactions.get(request.txId)?.tx : db;
  if (!target) throw new Error(`No open transaction ${request.txId}`);
  switch (request.op) {
    case 'query':
      return target.query(request.sql, request.params, queryOptions(request));
    case 'exec':
      return target.exec(request.sql);
    case 'begin':
      return begin(request.newTxId);
    case 'commit':
      return end(request.newTxId, true);
    case 'rollback':
      return end(request.newTxId, false);
    case 'dump': {
      const file = await db.dumpDataDir(request.compression);
      return { buffer: await file.arrayBuffer(), type: file.type };
    }
    case 'close':
      return db.close();
    default:
      throw new Error(`Unknown request ${request.op}`);
  }
}

/** Answers a request; a result that cannot be posted (not cloneable) fails that request alone. */
function reply(request, result) {
  const { id } = request;
  try {
    // A dump's bytes are moved, not copied.
    port.postMessage({ id, ok: true, result }, request.op === 'dump' ? [result.buffer] : []);
  } catch (err) {
    port.postMessage({ id, ok: false, error: describeError(err) });
  }
}

port.on('message', (request) => {
  handle(request).then(
    (result) => reply(request, result),
    (err) => port.postMessage({ id: request.id, ok: false, error: describeError(err) }),
  );
});
port.postMessage({ ready: true });
