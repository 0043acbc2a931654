import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';
import type { PortalUser } from './portal-users.ts';

/**
 * The signed-in portal user of a request. The access plugin authenticates every 'user' route
 * before its handler; this only narrows the type (a 401 should a route be declared otherwise).
 * Every service's routes ask it, so it is written once.
 */
export function callerOf(request: FastifyRequest): PortalUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
