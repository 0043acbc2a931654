import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
};

type FakeCheck = {
  id: string;
  applicant_id: string;
  status: string;
  result: string | null;
  report_names: string[];
  firstName: string | null;
  lastName: string | null;
};

/**
 * A stand-in for Onfido API v3.6 on a local port, for tests only: it answers the five calls the
 * adapter makes, refuses requests without the expected token the way Onfido does (401), and
 * records every request so tests can check what was sent.
 */
export class FakeOnfido {
  readonly requests: RecordedRequest[] = [];
  readonly applicants = new Map<string, { first_name: string; last_name: string; email: string }>();
  readonly checks = new Map<string, FakeCheck>();
  /** Set to answer every request with this status (a provider outage). */
  failWith: number | undefined;
  private server: Server | undefined;

  constructor(readonly apiToken: string) {}

  get baseUrl(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('fake Onfido is not listening');
    return `http://127.0.0.1:${address.port}/v3.6`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Onfido finishing a check: its result and the names read from the document. */
  complete(checkId: string, outcome: { result: 'clear' | 'consider'; firstName: string; lastName: string }) {
    const check = this.checks.get(checkId);
    if (!check) throw new Error(`no fake check ${checkId}`);
    Object.assign(check, {
      status: 'complete',
      result: outcome.result,
      firstName: outcome.firstName,
      lastName: outcome.lastName,
    });
  }

  private async handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    this.requests.push({
      method: request.method ?? '',
      path: `${url.pathname}${url.search}`,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body,
    });
    if (this.failWith) return { status: this.failWith, body: { error: { type: 'internal_server_error' } } };
    if (request.headers.authorization !== `Token token=${this.apiToken}`) {
      return { status: 401, body: { error: { type: 'authorization_error', message: 'Authorization error' } } };
    }
    const path = url.pathname.replace(/^\/v3\.6/, '');
    if (request.method === 'POST' && path === '/applicants') {
      const { first_name, last_name, email } = body as { first_name: string; last_name: string; email: string };
      if (!first_name || !last_name) return { status: 422, body: { error: { type: 'validation_error' } } };
      const id = randomUUID();
      this.applicants.set(id, { first_name, last_name, email });
      return { status: 201, body: { id, first_name, last_name, email, created_at: new Date().toISOString() } };
    }
    if (request.method === 'POST' && path === '/sdk_token') {
      const { applicant_id } = body as { applicant_id: string };
      if (!this.applicants.has(applicant_id)) return { status: 422, body: { error: { type: 'validation_error' } } };
      return { status: 200, body: { token: `sdk.${applicant_id}.${randomUUID()}` } };
    }
    if (request.method === 'POST' && path === '/checks') {
      const { applicant_id, report_names } = body as { applicant_id: string; report_names: string[] };
      if (!this.applicants.has(applicant_id)) return { status: 422, body: { error: { type: 'validation_error' } } };
      const check: FakeCheck = {
        id: randomUUID(),
        applicant_id,
        status: 'in_progress',
        result: null,
        report_names,
        firstName: null,
        lastName: null,
      };
      this.checks.set(check.id, check);
      return { status: 201, body: this.checkBody(check) };
    }
    const checkMatch = /^\/checks\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && checkMatch) {
      const check = this.checks.get(decodeURIComponent(checkMatch[1]!));
      if (!check) return { status: 404, body: { error: { type: 'resource_not_found' } } };
      return { status: 200, body: this.checkBody(check) };
    }
    if (request.method === 'GET' && path === '/reports') {
      const check = this.checks.get(url.searchParams.get('check_id') ?? '');
      if (!check) return { status: 404, body: { error: { type: 'resource_not_found' } } };
      return {
        status: 200,
        body: {
          reports: check.report_names.map((name) => ({
            id: `${check.id}-${name}`,
            name,
            status: check.status === 'complete' ? 'complete' : 'awaiting_data',
            result: check.result,
            properties:
              name === 'document' && check.firstName ? { first_name: check.firstName, last_name: check.lastName } : {},
          })),
        },
      };
    }
    return { status: 404, body: { error: { type: 'resource_not_found' } } };
  }

  private checkBody(check: FakeCheck) {
    return {
      id: check.id,
      applicant_id: check.applicant_id,
      status: check.status,
      result: check.result,
      report_ids: check.report_names.map((name) => `${check.id}-${name}`),
      created_at: new Date().toISOString(),
    };
  }
}
