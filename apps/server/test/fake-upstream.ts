import { createServer, type Server } from 'node:http';

/** Answers every JSON-RPC call with a result, so the gateway forwards without a chain. */
export function fakeUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = null;
      }
      const answer = (call: unknown) => ({
        jsonrpc: '2.0',
        id: (call as { id?: unknown } | null)?.id ?? null,
        result: '0x1',
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(server)));
}
