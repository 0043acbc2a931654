import { describe, expect, it } from 'vitest';
import { passwordMeetsPolicy } from '@connect/shared';
import { assertPasswordPolicy, generateTemporaryPassword, hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with argon2id at OWASP parameters and verifies', async () => {
    const hash = await hashPassword('Correct-Horse-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Correct-Horse-1')).toBe(true);
    expect(await verifyPassword(hash, 'correct-horse-1')).toBe(false);
    expect(await verifyPassword('unusable', 'Correct-Horse-1')).toBe(false);
  });

  it('generates temporary passwords that meet the policy and avoid look-alikes', () => {
    const passwords = Array.from({ length: 200 }, () => generateTemporaryPassword());
    for (const password of passwords) {
      expect(passwordMeetsPolicy(password)).toBe(true);
      expect(password).toHaveLength(16);
      expect(password).not.toMatch(/[0O1lI'" ]/);
    }
    expect(new Set(passwords).size).toBe(passwords.length);
  });

  it('names the first rule a password breaks, in Cognito’s words', () => {
    expect(() => assertPasswordPolicy('Sh0rt!')).toThrow(
      'Password did not conform with policy: Password not long enough',
    );
    expect(() => assertPasswordPolicy('nouppercase1!')).toThrow('Password must have uppercase characters');
    expect(() => assertPasswordPolicy('NoSymbols123')).toThrow('Password must have symbol characters');
    expect(() => assertPasswordPolicy('Good-Pass-1')).not.toThrow();
  });
});
