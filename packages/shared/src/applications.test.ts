import { describe, expect, it } from 'vitest';
import {
  APPLICATION_MESSAGES,
  ZApplicationsQuery,
  ZCallbackUrl,
  ZApplicationName,
  ZCreateApplicationRequest,
} from './applications.ts';

const reasons = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe('application rules (spec §5)', () => {
  it('names: required, at most 49 characters, no special characters', () => {
    expect(reasons(ZApplicationName.safeParse('  '))).toEqual([APPLICATION_MESSAGES.nameRequired]);
    expect(reasons(ZApplicationName.safeParse('a'.repeat(50)))).toEqual([APPLICATION_MESSAGES.nameTooLong]);
    expect(ZApplicationName.safeParse('a'.repeat(49)).success).toBe(true);
    for (const bad of ['Payments!', 'a/b', 'x<script>', 'emoji 🚀', 'semi;colon']) {
      expect(reasons(ZApplicationName.safeParse(bad)), bad).toEqual([APPLICATION_MESSAGES.nameSpecialCharacters]);
    }
    for (const good of ['Payments API', 'orders_v2', 'Zahlungs-Dienst', 'Café 2026']) {
      expect(ZApplicationName.safeParse(good).success, good).toBe(true);
    }
    expect(ZApplicationName.parse('  Trimmed  ')).toBe('Trimmed');
  });

  it('callback URLs: required, absolute, https only', () => {
    expect(reasons(ZCallbackUrl.safeParse(''))).toEqual([APPLICATION_MESSAGES.callbackRequired]);
    for (const bad of [
      'http://example.com',
      'example.com/cb',
      'ftp://example.com',
      'https://',
      'javascript:alert(1)',
    ]) {
      expect(reasons(ZCallbackUrl.safeParse(bad)), bad).toEqual([APPLICATION_MESSAGES.callbackInvalid]);
    }
    expect(ZCallbackUrl.safeParse('https://example.com/oauth/callback?x=1').success).toBe(true);
  });

  it('needs at least one network and removes repeated ones', () => {
    const base = { name: 'App', callbackUrl: 'https://example.com', applicationType: 'testnet' };
    expect(reasons(ZCreateApplicationRequest.safeParse({ ...base, networkIds: [] }))).toEqual([
      APPLICATION_MESSAGES.networksRequired,
    ]);
    const id = '11111111-1111-4111-8111-111111111111';
    const parsed = ZCreateApplicationRequest.parse({ ...base, networkIds: [id, id.toUpperCase()] });
    expect(parsed.networkIds).toEqual([id]);
    expect(parsed.testnetSigning).toBe(false);
  });

  it('list queries take only the spec’s page sizes', () => {
    expect(ZApplicationsQuery.parse({}).size).toBe(10);
    for (const size of ['5', '10', '50', '100']) expect(ZApplicationsQuery.safeParse({ size }).success).toBe(true);
    for (const size of ['7', '0', '101']) expect(ZApplicationsQuery.safeParse({ size }).success).toBe(false);
    expect(ZApplicationsQuery.parse({ page: '-3' }).page).toBe(0);
  });
});
