import { mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';

/**
 * The embedded database (PGlite) on a thread of its own. PGlite runs PostgreSQL compiled to
 * WebAssembly: every statement runs synchronously on the thread that calls it, so in-process it
 * held the server's event loop for 0.3–3 ms per statement, and a request's other work (parsing,
 * signing, answers from a chain) waited behind it. Here the server's thread only posts the
 * statement and gets the rows back, as with a PostgreSQL server.
 *
 * It offers the part of PGlite's client that Drizzle and `openDatabase` use — `query`, `exec`,
 * `transaction`, `dumpDataDir`, `close` — with the same behaviour: one connection, statements in
 * order, and a transaction holds the database until it ends (other statements wait for it).
 * Value parsers given to `query` run on this side, over the text PostgreSQL answered.
 */

type Parser = (value: string, typeId: number) => unknown;
export type ThreadQueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, Parser> };

type Request =
  | { op: 'query'; sql: string; params?: unknown[]; rowMode?: 'array' | 'object'; rawTypes?: number[]; txId?: number }
  | { op: 'exec'; sql: string; txId?: number }
  | { op: 'begin' | 'commit' | 'rollback'; newTxId: number }
  | { op: 'dump'; compression: 'gzip' | 'none' | 'auto' }
  | { op: 'close' };
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> };

/** An error of the database thread, with PostgreSQL's fields (code, detail, constraint, …) kept. */
function toError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'Database error'));
  Object.assign(error, fields);
  return error;
}

/** Runs the caller's parsers over the columns of their types (the thread answered them as text). */
function applyParsers(result: Results<unknown>, parsers: Record<number, Parser>, rowMode: 'array' | 'object') {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const key = rowMode === 'array' ? index : field.name;
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = parse(value as string, field.dataTypeID);
    }
  });
}

export class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private readonly ready: Promise<void>;
  private nextId = 1;
  private nextTxId = 1;
  private stopped: Error | null = null;
  private closing: Promise<void> | null = null;
  #closed = false;

  /** Starts the thread and its database (a data directory, a dump to load, or empty in memory). */
  static async create(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGliteThread> {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    const thread = new PGliteThread(options.dataDir, await options.loadDataDir?.arrayBuffer());
    await thread.ready;
    return thread;
  }

  private constructor(dataDir: string | undefined, loadDataDir: ArrayBuffer | undefined) {
    this.worker = new Worker(new URL('./pglite-worker.js', import.meta.url), {
      workerData: { dataDir, loadDataDir },
      ...(loadDataDir ? { transferList: [loadDataDir] } : {}),
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', () => {
        this.worker.on('message', (reply: Reply) => this.settle(reply));
        // Like the in-process database, an idle one does not keep the process alive (see request).
        this.worker.unref();
        resolve();
      });
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`The database thread stopped (exit code ${code})`)));
    });
    this.worker.on('error', (err) => this.stop(err));
    this.worker.on('messageerror', (err) => this.stop(err));
    this.worker.on('exit', (code) => this.stop(new Error(`The database thread stopped (exit code ${code})`)));
  }

  /** True once `close` has finished, or once the thread has stopped (every statement then fails). */
  get closed(): boolean {
    return this.#closed;
  }

  query<T>(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<Results<T>> {
    return this.queryIn(undefined, sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.request({ op: 'exec', sql }) as Promise<Results[]>;
  }

  /**
   * Runs `work` in a transaction: committed when it resolves, rolled back when it throws or calls
   * `rollback` (at once; its later statements then fail). Until it ends, every other statement
   * waits, as with PGlite's own.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const txId = this.nextTxId++;
    await this.request({ op: 'begin', newTxId: txId });
    let ended = false;
    const end = (op: 'commit' | 'rollback') => {
      ended = true;
      return this.request({ op, newTxId: txId });
    };
    const open = () => (ended ? Promise.reject(new Error('Transaction is closed')) : null);
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: ThreadQueryOptions) =>
        open() ?? this.queryIn<R>(txId, sql, params, options),
      exec: (sql: string) => open() ?? (this.request({ op: 'exec', sql, txId }) as Promise<Results[]>),
      rollback: async () => {
        if (!ended) await end('rollback');
      },
      get closed() {
        return ended;
      },
    };
    let result: T;
    try {
      result = await work(tx as unknown as Transaction);
    } catch (err) {
      if (!ended) await end('rollback').catch(() => undefined);
      throw err;
    }
    if (!ended) await end('commit');
    return result;
  }

  /** The data directory as a tarball (tests build their template database from it). */
  async dumpDataDir(compression: 'gzip' | 'none' | 'auto' = 'auto'): Promise<Blob> {
    const { buffer, type } = (await this.request({ op: 'dump', compression })) as { buffer: ArrayBuffer; type: string };
    // The type tells PGlite a gzipped dump from a plain tarball when it is loaded.
    return new Blob([buffer], { type });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.stopped) await this.request({ op: 'close' });
      } finally {
        this.stopped ??= new Error('The database is closed');
        await this.worker.terminate();
        this.#closed = true;
      }
    })();
    return this.closing;
  }

  /** For Drizzle's PGlite driver, which expects PGlite's client. */
  asPGlite(): PGlite {
    return this as unknown as PGlite;
  }

  private async queryIn<T>(
    txId: number | undefined,
    sql: string,
    params: unknown[] | undefined,
    options: ThreadQueryOptions | undefined,
  ): Promise<Results<T>> {
    const parsers = options?.parsers;
    const rowMode = options?.rowMode ?? 'object';
    const result = (await this.request({
      op: 'query',
      sql,
      params,
      rowMode,
      ...(parsers ? { rawTypes: Object.keys(parsers).map(Number) } : {}),
      ...(txId ? { txId } : {}),
    })) as Results<T>;
    if (parsers) applyParsers(result as Results<unknown>, parsers, rowMode);
    return result;
  }

  private request(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Throws when a parameter cannot be copied to the thread (a function, say): nothing is out.
      this.worker.postMessage({ id, ...request });
      // Keeps the process alive while a statement is out (an unref'd thread would not).
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
  }

  private settle(reply: Reply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(toError(reply.error));
  }

  /** The thread is gone (closed, crashed): every statement still out fails, and so does every later one. */
  private stop(err: Error): void {
    this.stopped ??= err;
    this.#closed = true;
    for (const waiter of this.pending.values()) waiter.reject(this.stopped);
    this.pending.clear();
  }
}
