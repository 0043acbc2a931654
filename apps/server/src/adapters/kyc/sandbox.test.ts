import { describe, expect, it } from 'vitest';
import { SandboxKycProvider } from './sandbox.ts';

describe('sandbox identity verifier', () => {
  it('follows the applicant → token → check → result lifecycle, settling after the delay', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const sandbox = new SandboxKycProvider(3_000, () => now);
    const { applicantId } = await sandbox.createApplicant();
    expect(applicantId).toMatch(/^sandbox-applicant-/);
    const { token } = await sandbox.sdkToken(applicantId);
    expect(token).toMatch(/^sandbox-sdk-/);
    const { checkId } = await sandbox.createCheck({
      applicantId,
      sandbox: { documentFirstName: 'Ada', documentLastName: 'Lovelace', outcome: 'clear' },
    });
    const stored = {
      checkId,
      createdAt: new Date(now),
      sandboxOutcome: 'clear' as const,
      documentFirstName: 'Ada',
      documentLastName: 'Lovelace',
    };
    expect(sandbox.dueAt(stored).toISOString()).toBe('2026-11-23T10:00:03.000Z');
    expect((await sandbox.retrieveCheck(stored)).status).toBe('in_progress');
    now += 3_000;
    expect(await sandbox.retrieveCheck(stored)).toEqual({
      checkId,
      status: 'complete',
      result: 'clear',
      documentFirstName: 'Ada',
      documentLastName: 'Lovelace',
    });
    expect(await sandbox.retrieveCheck({ ...stored, sandboxOutcome: 'consider' })).toMatchObject({
      result: 'consider',
    });
  });

  it('refuses unknown applicants and checks without the tester’s input', async () => {
    const sandbox = new SandboxKycProvider(0);
    await expect(sandbox.sdkToken('someone-else')).rejects.toMatchObject({ status: 404 });
    const { applicantId } = await sandbox.createApplicant();
    await expect(sandbox.createCheck({ applicantId })).rejects.toMatchObject({ status: 422 });
    expect(sandbox.verifyWebhook()).toBeNull();
  });
});
