import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBillingDetails, ZBillingDetailsResponse } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { customer, type Session } from '../account-plan/test-support.ts';

const DETAILS = {
  companyName: 'Acme Widgets Ltd',
  addressLine1: '1 High Street',
  addressLine2: '',
  city: 'London',
  postcode: 'EC1A 1AA',
  country: 'gb',
  registrationNumber: '01234567',
  vatNumber: '',
  website: 'https://acme.example',
  telephone: '+44 20 1234 5678',
  email: 'accounts@acme.example',
};

const put = (t: TestContext, user: Session, body: object) =>
  t.app.inject({ method: 'PUT', url: '/api/connect/user/billing-details', headers: user.headers, payload: body });
const read = async (t: TestContext, user: Session) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/connect/user/billing-details', headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return ZBillingDetailsResponse.parse(res.json());
};

describe('billing details with the sandbox VAT register', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers none until saved, then what was saved (normalised)', async () => {
    const user = await customer(t);
    expect(await read(t, user)).toEqual({ details: null });
    const res = await put(t, user, DETAILS);
    expect(res.statusCode, res.body).toBe(200);
    const saved = ZBillingDetails.parse(res.json());
    expect(saved).toMatchObject({ country: 'GB', addressLine2: null, vatNumber: null, vatNumberStatus: 'NONE' });
    expect((await read(t, user)).details).toEqual(saved);
    // Saving again replaces them.
    const again = ZBillingDetails.parse((await put(t, user, { ...DETAILS, city: 'Leeds' })).json());
    expect((await read(t, user)).details).toEqual(again);
    expect(again.city).toBe('Leeds');
  });

  it('refuses bad fields with invalidParams', async () => {
    const user = await customer(t);
    for (const [field, value] of [
      ['companyName', ''],
      ['addressLine1', '   '],
      ['city', ''],
      ['country', 'GBR'],
      ['vatNumber', '123'],
      ['email', 'not-an-email'],
      ['companyName', 'x'.repeat(201)],
    ] as const) {
      const res = await put(t, user, { ...DETAILS, [field]: value });
      expect(res.statusCode, `${field}=${value}`).toBe(400);
      expect(res.json().invalidParams.map((p: { name: string }) => p.name)).toContain(field);
    }
    expect((await read(t, user)).details).toBeNull();
  });

  it('keeps a VAT number the register knows as VALID and refuses one it does not (422 on vatNumber)', async () => {
    const user = await customer(t);
    const valid = await put(t, user, { ...DETAILS, country: 'DE', vatNumber: 'de 123.456.789' });
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json()).toMatchObject({ vatNumber: 'DE123456789', vatNumberStatus: 'VALID' });
    const unknown = await put(t, user, { ...DETAILS, country: 'DE', vatNumber: 'DE123456000' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, 'VAT_NUMBER_INVALID']);
    expect(unknown.json().invalidParams[0].name).toBe('vatNumber');
    // The refused number was not stored.
    expect((await read(t, user)).details?.vatNumber).toBe('DE123456789');
  });
});

describe('billing details when the VAT register cannot be reached', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Nothing listens on port 9 (discard): VIES is unreachable.
    t = await createTestApp({ VAT_CHECK_URL: 'http://127.0.0.1:9/rest-api' });
  });
  afterAll(() => t?.close());

  it('stores the number UNCHECKED', async () => {
    const user = await customer(t);
    const res = await put(t, user, { ...DETAILS, country: 'FR', vatNumber: 'FR12345678901' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ vatNumber: 'FR12345678901', vatNumberStatus: 'UNCHECKED' });
  });
});
