import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VAT_RATES_BP } from '@connect/shared';
import { testConfig } from '../../../test/helpers.ts';
import { createVatRegister } from './create.ts';
import { SandboxVatRegister } from './sandbox.ts';
import { ViesVatRegister } from './vies.ts';

describe('the sandbox VAT register', () => {
  const register = new SandboxVatRegister(DEFAULT_VAT_RATES_BP);

  it('knows a number of the shape, with a country of the VAT table, not ending in 000', async () => {
    expect(await register.check('DE123456789')).toBe('VALID');
    expect(await register.check('GB123456789')).toBe('VALID');
    expect(await register.check('EL123456789')).toBe('VALID'); // Greece's prefix
  });

  it('refuses the documented invalid ones: ending in 000, an unknown country, a bad shape', async () => {
    expect(await register.check('DE123456000')).toBe('INVALID');
    expect(await register.check('US123456789')).toBe('INVALID');
    expect(await register.check('DE1')).toBe('INVALID');
    expect(await register.check('DE-12345678')).toBe('INVALID');
  });

  it('is the register when VAT_CHECK_URL is not set; VIES when it is', () => {
    expect(createVatRegister(testConfig()).name).toBe('sandbox');
    expect(createVatRegister(testConfig({ VAT_CHECK_URL: 'http://127.0.0.1:9/rest-api' })).name).toBe('vies');
  });
});

describe('the VIES register, against a local stub', () => {
  let server: Server;
  let base: string;
  const requests: { url: string | undefined; body: unknown }[] = [];
  /** What the stub answers for a number: [status, body], or 'hang'. */
  const answers: Record<string, [number, unknown] | 'hang'> = {
    '123456789': [200, { countryCode: 'DE', vatNumber: '123456789', valid: true, userError: 'VALID' }],
    '999999999': [200, { countryCode: 'DE', vatNumber: '999999999', valid: false, userError: 'INVALID' }],
    '555555555': [200, { valid: false, userError: 'MS_UNAVAILABLE' }],
    '444444444': [503, { error: 'down' }],
    '333333333': 'hang',
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as { vatNumber: string };
        requests.push({ url: req.url, body });
        const answer = answers[body.vatNumber];
        if (answer === 'hang') return;
        const [status, payload] = answer ?? [200, { valid: false }];
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest-api/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts the country and the number without its prefix to check-vat-number', async () => {
    expect(await new ViesVatRegister(base).check('DE123456789')).toBe('VALID');
    expect(requests.at(-1)).toEqual({
      url: '/rest-api/check-vat-number',
      body: { countryCode: 'DE', vatNumber: '123456789' },
    });
  });

  it('maps an unknown number to INVALID', async () => {
    expect(await new ViesVatRegister(base).check('DE999999999')).toBe('INVALID');
  });

  it('maps a member state that is down, an HTTP error, a timeout and no server to UNREACHABLE', async () => {
    expect(await new ViesVatRegister(base).check('DE555555555')).toBe('UNREACHABLE');
    expect(await new ViesVatRegister(base).check('DE444444444')).toBe('UNREACHABLE');
    expect(await new ViesVatRegister(base, 200).check('DE333333333')).toBe('UNREACHABLE');
    expect(await new ViesVatRegister('http://127.0.0.1:9/rest-api').check('DE123456789')).toBe('UNREACHABLE');
  });

  it('does not ask about United Kingdom numbers (VIES has none): UNREACHABLE', async () => {
    const before = requests.length;
    expect(await new ViesVatRegister(base).check('GB123456789')).toBe('UNREACHABLE');
    expect(requests.length).toBe(before);
  });
});
