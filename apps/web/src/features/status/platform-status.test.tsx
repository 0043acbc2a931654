import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TRuntimeConfig } from '@connect/shared';
import { PlatformStatus } from './platform-status.tsx';

const config: TRuntimeConfig = {
  productName: 'Quant Connect',
  productSlug: 'quant',
  version: '0.1.0',
  identity: {
    region: 'us-east-1',
    userPoolId: 'us-east-1_Abc',
    userPoolClientId: 'client1',
    userPoolEndpoint: 'http://x/idp',
  },
  services: ['connect', 'integrate'],
  sandboxes: { identity: true, mail: true },
};

describe('PlatformStatus', () => {
  it('shows the product, each service and the sandbox adapters once loaded', async () => {
    const health = {
      status: 'ok' as const,
      version: '0.1.0',
      database: { status: 'up' as const, kind: 'pglite' },
      services: [],
    };
    render(<PlatformStatus load={() => Promise.resolve({ config, health })} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading platform status');
    expect(await screen.findByRole('heading', { level: 1, name: 'Quant Connect' })).toBeInTheDocument();
    expect(screen.getByText('Operational')).toBeInTheDocument();
    expect(screen.getByText('/api/integrate')).toBeInTheDocument();
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    expect(screen.getByText('Up (embedded PGlite)')).toBeInTheDocument();
  });

  it('says so when the database is down', async () => {
    const health = {
      status: 'degraded' as const,
      version: '0.1.0',
      database: { status: 'down' as const, kind: 'postgres' },
      services: [],
    };
    render(<PlatformStatus load={() => Promise.resolve({ config, health })} />);
    expect(await screen.findByText('Degraded')).toBeInTheDocument();
    expect(screen.getByText('Down (PostgreSQL)')).toBeInTheDocument();
  });

  it('explains a failed load and offers a retry', async () => {
    render(<PlatformStatus load={() => Promise.reject(new Error('runtime configuration answered 502'))} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('runtime configuration answered 502');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
