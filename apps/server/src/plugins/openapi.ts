import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * OpenAPI document generated from the zod route schemas, with Swagger UI at /api/docs and the
 * JSON document at /api/docs/json.
 */
export const openapiPlugin = fp<{ productName: string; version: string }>(
  async (app, options) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `${options.productName} API`,
          version: options.version,
          description:
            'Every service is mounted at /api/{service}. Errors are RFC 9457 problem details; validation failures list `invalidParams: [{name, reason}]`. Send the identity pool access token as `Authorization: Bearer <token>`.',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    // Swagger UI's own routes are registered in this scope and declared public here, in one place.
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
        route.schema = { ...route.schema, hide: true };
      });
      // No CSP of Swagger UI's own: the site's (plugins/security.ts) covers these pages too. Swagger
      // UI's default forbade the style attributes its React views set as they render, so every
      // visit logged violations; the site's CSP allows inline styles (as MUI needs) and nothing
      // else beyond its own origin. No validator badge either: it would send the document's address
      // to validator.swagger.io (and the CSP would refuse its image).
      await docs.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });
    });
  },
  { name: 'openapi' },
);
