// The embedded database's thread: one PGlite, driven by messages from `PGliteThread`
// (pglite-thread.ts). Plain JavaScript, so that it starts under every runner (node, tsx, vitest)
// without a TypeScript loader. Every request is `{ id, op, ... }` and is answered `{ id, ok, ... }`.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

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

/**
 * The types this thread answers as the text PostgreSQL sent unless a request asks for them parsed:
 * the ones Drizzle's PGlite driver reads as text and parses itself (drizzle-orm/pglite's session:
 * timestamp, timestamptz, interval, date, their arrays and numeric[]). They are the database's own
 * parsers, set once: passed with every statement, PGlite merged them into a copy of its ~300
 * parsers per statement, ~120 µs of a ~400 µs query (issue 30).
 */
const TEXT_TYPES = new Set([1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182]);
/** The arrays among them, with their elements' types. */
const ARRAY_OF = { 1231: 1700, 1115: 1114, 1185: 1184, 1187: 1186, 1182: 1082 };
const asText = (value) => value;

/** Query options: the listed types are answered as text (the caller parses them). */
function queryOptions(request) {
  const options = {};
  if (request.rowMode) options.rowMode = request.rowMode;
  const others = request.rawTypes?.filter((oid) => !TEXT_TYPES.has(oid)) ?? [];
  if (others.length) options.parsers = Object.fromEntries(others.map((oid) => [oid, asText]));
  return options;
}

/** Parses the columns of TEXT_TYPES a request did not ask for as text, as PGlite would have. */
function parseUnrequestedText(result, request) {
  const wanted = new Set(request.rawTypes ?? []);
  result.fields.forEach((field, index) => {
    const oid = field.dataTypeID;
    if (!TEXT_TYPES.has(oid) || wanted.has(oid)) return;
    const key = request.rowMode === 'array' ? index : field.name;
    for (const row of result.rows) {
      if (row[key] !== null && row[key] !== undefined) row[key] = parseAsPGlite(row[key], oid);
    }
  });
  return result;
}

const { dataDir, loadDataDir } = workerData ?? {};
const db = await PGlite.create({
  ...(dataDir ? { dataDir } : {}),
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  // 32 MB of shared buffers instead of initdb's 128 MB: opening a database sets every buffer up,
  // and the smaller pool took 0.6 s less CPU to open (1.4 s instead of 2.0 s; issue 30). A local
  // database (~25 MB after a day of use) still fits in it.
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  // The staff lists' trigram search (migration 0018).
  extensions: { pg_trgm },
});
const defaultParsers = db.parsers;
db.parsers = { ...defaultParsers, ...Object.fromEntries([...TEXT_TYPES].map((oid) => [oid, asText])) };
/** PGlite's own parse of a value of one of TEXT_TYPES (its array parsers read the element's parser from db.parsers). */
const parseAsPGlite = (value, oid) =>
  ARRAY_OF[oid]
    ? types.arrayParser(value, (element) => types.parseType(element, ARRAY_OF[oid], defaultParsers), oid)
    : types.parseType(value, oid, defaultParsers);

/**
 * Statements outside a transaction run as named prepared statements, parsed once per thread and
 * kept by their text (Drizzle sends the same text for the same query). PGlite's `query` sends a
 * statement as six protocol messages, each its own call into PostgreSQL, which parses, analyses
 * and plans the text every time; a prepared statement is one call (bind, describe, execute, sync)
 * and PostgreSQL chooses, as for any prepared statement, between a plan for the parameters and
 * its cached generic plan (plan_cache_mode=auto, its default). Measured on this thread's CPU
 * (issue 30): a sign-in's read of the user 0.30–0.34 ms through `query`, 0.10–0.16 ms prepared;
 * its refresh token's insert 0.44–0.61 ms, 0.27–0.45 ms prepared (the user holding 1 000–3 000).
 * Statements in a transaction keep PGlite's path: one that had to be prepared again (below) would
 * find its transaction already failed.
 */
const PREPARED_LIMIT = 200;
/** Prepared statements by text, least recently used first: their name and parameter types. */
const prepared = new Map();
/** Names of statements forgotten here, closed in PostgreSQL with the next statement prepared. */
let toClose = [];
let preparedCount = 0;
const { serialize } = protocol;

function concat(parts) {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** PostgreSQL no longer has the statement (`deallocate`), or its table changed shape since. */
const isStale = (err) =>
  err?.code === '26000' || (err?.code === '0A000' && /cached plan must not change result type/.test(err.message));

/** Runs a statement outside a transaction as a prepared one, answering what `db.query` would. */
async function queryPrepared(request, options) {
  // The mutexes PGlite's `query` takes: it waits for an open transaction, then for the statement before.
  const run = () =>
    db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(() => runPrepared(request.sql, request.params ?? [], options)),
    );
  try {
    return await run();
  } catch (err) {
    // Refused before it ran: prepared again, it runs once.
    if (!isStale(err)) throw err;
    forget(request.sql);
    return run();
  }
}

function forget(sql) {
  const statement = prepared.get(sql);
  if (!statement) return;
  prepared.delete(sql);
  toClose.push(statement.name);
}

/** Prepares the statement (parse and describe) unless it was, and runs it. */
async function runPrepared(sql, params, options) {
  try {
    let statement = prepared.get(sql);
    if (statement) {
      prepared.delete(sql); // set again below: the most recently used come last
    } else {
      if (prepared.size >= PREPARED_LIMIT) forget(prepared.keys().next().value);
      const name = `connect_${++preparedCount}`;
      const closing = toClose.map((old) => serialize.close({ type: 'S', name: old }));
      toClose = [];
      const { messages } = await db.execProtocol(
        concat([
          ...closing,
          serialize.parse({ name, text: sql }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      statement = { name, types: parse.parseDescribeStatementResults(messages) };
    }
    prepared.set(sql, statement);
    // Parameters are sent as PGlite's `query` sends them: as text, by the type PostgreSQL expects.
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serializeType = db.serializers[statement.types[index]];
      return serializeType ? serializeType(param) : param.toString();
    });
    const { messages } = await db.execProtocol(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, db.parsers, options)[0];
  } catch (err) {
    // As PGlite's `query` reports it.
    if (err instanceof Error) err.query = sql;
    throw err;
  }
}

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
    case 'query': {
      const options = queryOptions(request);
      const result = request.txId
        ? await target.query(request.sql, request.params, options)
        : await queryPrepared(request, options);
      return parseUnrequestedText(result, request);
    }
    case 'exec':
      return (await target.exec(request.sql)).map((result) => parseUnrequestedText(result, request));
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
