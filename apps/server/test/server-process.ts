import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect } from 'vitest';
import { openDatabase, type DbHandle } from '@connect/db';
import { totpCodeAt } from '../src/services/identity/totp.ts';

/*
 * The real server as the fault tests run it: `node --import tsx apps/server/src/server.ts` in a
 * process group of its own (with its local chains, unless DEVCHAINS=0), so that a test can kill
 * the WHOLE group with SIGKILL and start a new server on the same DATA_DIR (and database).
 */

export const ROOT = path.resolve(import.meta.dirname, '../../..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `count` different ports free on 127.0.0.1 now, held open together until all are known (asked one after another,
 * the system may hand the same port back twice, and a second anvil then fails to start).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/**
 * The server's own database on the PostgreSQL under test (DATABASE_URL; the server migrates it on
 * first start), named `<prefix>_<pid>_<random>`; '' without PostgreSQL (the server's PGlite in
 * DATA_DIR). Drop it with dropServerDatabase.
 */
export async function createServerDatabase(prefix: string): Promise<string> {
  if (!process.env.DATABASE_URL) return '';
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropServerDatabase(databaseUrl: string): Promise<void> {
  if (!databaseUrl) return;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${new URL(databaseUrl).pathname.slice(1)}" with (force)`);
  await admin.end();
}

/**
 * `node --import tsx apps/server/src/server.ts` with only `env` over a bare environment (none of
 * this process's settings), until it exits or `timeoutMs` have passed — then its whole process
 * group is killed and `exitCode` is null: for a start that must be refused, a server that started
 * is the failure.
 */
export async function runRefusedStart(env: Record<string, string>, timeoutMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(import.meta.dirname, 'fixtures/web-dist'),
      ...env,
    },
  });
  let stderr = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    output += chunk.toString('utf8');
  });
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL'); // it started (and perhaps its local chains): stop all it began
      resolve(null);
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { exitCode, stderr, output };
}

export type ServerProcessOptions = {
  dataDir: string;
  port: number;
  /** The server's database on PostgreSQL; '' or absent: its PGlite in DATA_DIR. */
  databaseUrl?: string;
  /** The local chains' ports (DEVCHAIN_PORTS). */
  chainPorts?: number[];
  /** The environment the server inherits (default: this process's). */
  inherit?: NodeJS.ProcessEnv;
  /** Settings of the test's own, over the common ones. */
  env?: Record<string, string>;
  /** Everything the server prints, as it prints it (besides `output`). */
  onOutput?: (chunk: string) => void;
};

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** What this server printed (stdout and stderr). */
  output: string[];
  /** SIGKILL to every process of the server's group (the server and its chains); waits for the server's exit. */
  killGroup(): Promise<void>;
  /** SIGTERM (graceful: the server stops its chains); after 30 s, SIGKILL to the group. */
  stop(): Promise<void>;
};

/** Starts the server in a process group of its own (detached) and waits for /api/health (90 s at most). */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env = {
    ...(options.inherit ?? process.env),
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: options.dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SIGNUP_CAPTCHA: 'off',
    RATE_LIMIT_MAX: '100000',
    IDP_RATE_LIMIT_MAX: '100000',
    ADMIN_EMAIL: 'admin@crash.test',
    ADMIN_PASSWORD: 'Crash-test-admin-1!',
    NETWORK_HEALTH_INTERVAL_S: '0',
    DEVCHAIN_PORTS: (options.chainPorts ?? []).join(','),
    DATABASE_URL: options.databaseUrl ?? '',
    WEB_DIST: path.join(import.meta.dirname, 'fixtures/web-dist'),
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output.push(text);
    options.onOutput?.(text);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  const killGroup = async () => {
    if (hasExited()) return;
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  };
  const stop = async () => {
    if (hasExited()) return;
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(30_000)]);
    if (!hasExited()) await killGroup();
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (hasExited()) throw new Error(`the server exited:\n${output.join('')}`);
    if (Date.now() > deadline) {
      await killGroup();
      throw new Error(`the server did not start:\n${output.join('')}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return { child, baseUrl, output, killGroup, stop };
}

export type Session = { email: string; password: string; headers: Record<string, string> };

/**
 * HTTP to a server process: JSON calls, and its embedded identity pool (sign-up, sign-in).
 * `baseUrl` may be a function, for a client made before the server's port is chosen.
 */
export function serverClient(baseUrl: string | (() => string)) {
  const base = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  const json = async <T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base()}${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, text };
  };
  const idp = async <T>(operation: string, body: object) => {
    const config = (await json<{ identity: { userPoolClientId: string } }>('GET', '/runtime-config.json')).body;
    const res = await fetch(`${base()}/idp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      },
      body: JSON.stringify({ ClientId: config.identity.userPoolClientId, ...body }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as T;
  };
  /** The bearer header of a signed-in user. */
  const signIn = async (email: string, password: string) => {
    const auth = await idp<{ AuthenticationResult: { AccessToken: string } }>('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    });
    return { authorization: `Bearer ${auth.AuthenticationResult.AccessToken}` };
  };
  /**
   * The bearer header of a staff user signing in for the first time, who then sets up the
   * authenticator app staff must have before any staff call (issue 32).
   */
  const signInStaff = async (email: string, password: string) => {
    const headers = await signIn(email, password);
    const AccessToken = headers.authorization.slice('Bearer '.length);
    const { SecretCode } = await idp<{ SecretCode: string }>('AssociateSoftwareToken', { AccessToken });
    await idp('VerifySoftwareToken', { AccessToken, UserCode: totpCodeAt(SecretCode, new Date()) });
    await idp('SetUserMFAPreference', { AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } });
    return headers;
  };
  /** A confirmed user over the wire (sign-up, the code mailed to the dev outbox, sign-in); `<prefix>-<uuid>@example.com`. */
  const signUp = async (prefix: string): Promise<Session> => {
    const email = `${prefix}-${randomUUID()}@example.com`;
    const password = `Pw-${randomBytes(8).toString('hex')}-1a!`;
    await idp('SignUp', { Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }] });
    const outbox = await json<{ messages: { kind: string; code: string | null }[] }>(
      'GET',
      `/api/dev/outbox?to=${encodeURIComponent(email)}`,
    );
    const code = outbox.body.messages.find((m) => m.kind === 'SIGN_UP_CODE')!.code;
    await idp('ConfirmSignUp', { Username: email, ConfirmationCode: code });
    return { email, password, headers: await signIn(email, password) };
  };
  return { json, idp, signIn, signInStaff, signUp };
}

/**
 * One fault test's server, made in its describe: a DATA_DIR of its own (`connect-<name>-…`), the
 * ports and (on PostgreSQL) the database `connect_<name>_…` chosen by prepare() in the test, the
 * server started on them again after each kill, stopped and its database dropped after the tests.
 */
export function faultTestServer(name: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `connect-${name}-`));
  let port = 0;
  let databaseUrl = '';
  let server: ServerProcess | undefined;
  /** What every server of the test printed. */
  const output: string[] = [];
  const base = () => `http://127.0.0.1:${port}`;

  /** Copies of a killed server's PGlite directory (withDatabase), removed with the rest. */
  const snapshots: string[] = [];

  afterAll(async () => {
    await server?.stop();
    await dropServerDatabase(databaseUrl);
    // Each run's PGlite files are 50–60 MB: leave nothing behind.
    for (const dir of [dataDir, ...snapshots]) rmSync(dir, { recursive: true, force: true });
  });

  return {
    dataDir,
    output,
    base,
    client: serverClient(base),
    get databaseUrl() {
      return databaseUrl;
    },
    /** The server started last. */
    get server(): ServerProcess {
      if (!server) throw new Error('no server started');
      return server;
    },
    /** Chooses the server's port and `more` others (returned: the chains', a sandbox's) and creates the database. */
    async prepare(more: number): Promise<number[]> {
      const [serverPort = 0, ...others] = await freePorts(1 + more);
      port = serverPort;
      databaseUrl = await createServerDatabase(`connect_${name.replaceAll('-', '_')}`);
      return others;
    },
    /** The database of the stopped server (its PGlite in DATA_DIR without PostgreSQL); close it after. */
    openDatabase: () => openDatabase(databaseUrl ? { databaseUrl } : { dataDir: path.join(dataDir, 'pglite') }),
    /**
     * `work` on the database of the stopped or killed server, closed after. With `copy`, a PGlite
     * directory is read from a copy, so the next server recovers the killed one's files itself.
     */
    async withDatabase<T>(work: (dbh: DbHandle) => Promise<T>, options: { copy: boolean }): Promise<T> {
      let dir = path.join(dataDir, 'pglite');
      if (!databaseUrl && options.copy) {
        const copy = mkdtempSync(path.join(os.tmpdir(), `connect-${name}-db-`));
        snapshots.push(copy);
        cpSync(dir, copy, { recursive: true });
        dir = copy;
      }
      const dbh = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: dir });
      try {
        return await work(dbh);
      } finally {
        await dbh.close();
      }
    },
    /** Starts a server on the test's DATA_DIR, port and database. */
    async start(options: Omit<ServerProcessOptions, 'dataDir' | 'port' | 'databaseUrl' | 'onOutput'> = {}) {
      server = await startServerProcess({
        ...options,
        dataDir,
        port,
        databaseUrl,
        onOutput: (chunk) => output.push(chunk),
      });
      return server;
    },
  };
}

/**
 * This process's environment without its QNT and RPC settings: a server that inherits it takes QNT
 * with the local token server.ts deploys on its local Ethereum testnet, nowhere else.
 */
export const withoutQntSettings = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('QNT_') && !key.startsWith('NETWORK_RPC_')),
  );

/** A JSON-RPC call to the local chain on `port` (an error answer throws, naming the method). */
export async function chainRpc<T>(port: number, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
