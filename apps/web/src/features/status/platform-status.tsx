import { useEffect, useState } from 'react';
import type { TRuntimeConfig } from '@connect/shared';

type Health = {
  status: 'ok' | 'degraded';
  version: string;
  database: { status: 'up' | 'down'; kind: string };
  services: string[];
};

type State =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; config: TRuntimeConfig; health: Health };

export type PlatformStatusProps = {
  load: () => Promise<{ config: TRuntimeConfig; health: Health }>;
};

/**
 * The platform status page: what this deployment runs (services, identity pool, sandboxes) and
 * whether its database answers. The portal's signed-in screens build on the same runtime config.
 */
export function PlatformStatus({ load }: PlatformStatusProps) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let isCurrent = true;
    load()
      .then((result) => isCurrent && setState({ kind: 'ready', ...result }))
      .catch(
        (error: unknown) =>
          isCurrent && setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
      );
    return () => {
      isCurrent = false;
    };
  }, [load]);

  if (state.kind === 'loading') {
    return (
      <main className="page" aria-busy="true">
        <p role="status">Loading platform status…</p>
      </main>
    );
  }
  if (state.kind === 'error') {
    return (
      <main className="page">
        <h1>Platform status</h1>
        <p role="alert">The server could not be reached: {state.message}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </main>
    );
  }

  const { config, health } = state;
  const isHealthy = health.status === 'ok';
  return (
    <main className="page">
      <header className="page-header">
        <h1>{config.productName}</h1>
        <p className="lead">Platform status of this deployment, version {health.version}.</p>
      </header>
      <section className="card" aria-labelledby="health-heading">
        <h2 id="health-heading">Health</h2>
        <dl>
          <dt>Overall</dt>
          <dd>
            <span className={`chip ${isHealthy ? 'chip-success' : 'chip-error'}`}>
              {isHealthy ? 'Operational' : 'Degraded'}
            </span>
          </dd>
          <dt>Database</dt>
          <dd>
            {health.database.status === 'up' ? 'Up' : 'Down'} (
            {health.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="services-heading">
        <h2 id="services-heading">Services</h2>
        <ul className="services">
          {config.services.map((service) => (
            <li key={service}>
              <code>/api/{service}</code>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="identity-heading">
        <h2 id="identity-heading">Identity pool</h2>
        <dl>
          <dt>Pool</dt>
          <dd>
            <code>{config.identity.userPoolId}</code>{' '}
            {config.sandboxes.identity ? (
              <span className="chip">Sandbox</span>
            ) : (
              <span className="chip">AWS Cognito</span>
            )}
          </dd>
          <dt>App client</dt>
          <dd>
            <code>{config.identity.userPoolClientId}</code>
          </dd>
          <dt>Email</dt>
          <dd>{config.sandboxes.mail ? <span className="chip">Sandbox outbox</span> : 'SMTP'}</dd>
        </dl>
      </section>
      <nav aria-label="Developer links" className="links">
        <a href="/api/docs">API reference (OpenAPI)</a>
      </nav>
    </main>
  );
}
