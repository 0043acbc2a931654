import { problem } from '../../lib/errors.ts';
import type { App } from '../../types.ts';
import { rateLimitedBody, type Decision } from './decision.ts';
import { PROBLEMS } from '@connect/shared';
import { fastPathDecision, fastPathRelayError, replayBody } from './fast-path.ts';
import { bodyDocumentedOnly, GATEWAY_SCHEMA } from './schemas.ts';
import type { GatewayService } from './service.ts';

/** `POST /api/gateway/{networkId}`: JSON-RPC forwarded to the network's RPC endpoint, as decision.ts decides. */
export async function gatewayRoute(app: App, service: GatewayService) {
  // The body is forwarded as it came; it is parsed only to decide (decision.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_r, body, done) =>
    done(null, body),
  );
  const { decider } = service;

  app.post(
    '/api/gateway/:networkId',
    {
      // Limited per account and network by the decision, not by the portal's per-address limit.
      // Machine-to-machine JSON: the browser security headers (CSP and friends) protect nothing here.
      config: { access: 'public', rateLimit: false, securityHeaders: false },
      // A body the fast path already read comes from there.
      preParsing: (request, _reply, payload, done) => done(null, replayBody(request.raw, payload)),
      validatorCompiler: bodyDocumentedOnly,
      schema: GATEWAY_SCHEMA,
    },
    async (request, reply) => {
      // A forward the fast path made that the network did not answer: its problem (502, 504).
      const failed = fastPathRelayError(request.raw);
      if (failed) throw failed;
      // The usual request is decided from this node's memory: nothing is awaited until the forward.
      let decision = fastPathDecision(request.raw);
      if (!decision) {
        const pending = decider.admit(request.headers.authorization, request.params.networkId);
        const admission = pending instanceof Promise ? await pending : pending;
        decision =
          admission.kind === 'refuse' ? admission : decider.decide(admission, request.body as unknown as Buffer);
      }
      const decided: Decision = decision instanceof Promise ? await decision : decision;
      switch (decided.kind) {
        case 'refuse':
          if (decided.headers) reply.headers(decided.headers);
          // A 429 (rate limit, spending cap) is answered as JSON-RPC errors, as hosted providers do.
          if (PROBLEMS[decided.code].status === 429)
            return reply
              .code(429)
              .type('application/json; charset=utf-8')
              .send(rateLimitedBody(decided, request.body as unknown as Buffer | undefined));
          throw problem(decided.code, { detail: decided.detail, extensions: decided.extensions });
        case 'answer':
          return reply.header('x-gateway-cache', 'hit').type('application/json; charset=utf-8').send(decided.answer);
      }
      const answer = await service.relay(decided);
      if (!answer) return reply.code(204).send();
      return reply.code(answer.status).type(answer.contentType).send(answer.body);
    },
  );
}
