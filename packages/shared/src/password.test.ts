import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from './messages.ts';
import { PASSWORD_RULES, passwordMeetsPolicy, ZCode, ZEmail, ZPassword } from './password.ts';

describe('password policy (spec §5)', () => {
  it('accepts 8 characters with a lowercase letter, an uppercase letter, a number and a symbol', () => {
    expect(passwordMeetsPolicy('Abcdef1!')).toBe(true);
    expect(passwordMeetsPolicy('Correct Horse 9')).toBe(true);
  });

  it.each([
    ['too short', 'Abcde1!'],
    ['no lowercase letter', 'ABCDEF1!'],
    ['no uppercase letter', 'abcdef1!'],
    ['no number', 'Abcdefg!'],
    ['no symbol', 'Abcdefg1'],
  ])('refuses a password with %s', (_reason, password) => {
    expect(passwordMeetsPolicy(password)).toBe(false);
  });

  it('names exactly the rule a password breaks', () => {
    const broken = PASSWORD_RULES.filter((rule) => !rule.test('abcdefgh')).map((rule) => rule.id);
    expect(broken).toEqual(['upper', 'digit', 'symbol']);
  });

  it('refuses more than 256 characters and reports the shared wording', () => {
    expect(passwordMeetsPolicy(`Aa1!${'x'.repeat(253)}`)).toBe(false);
    expect(ZPassword.safeParse('weak').error?.issues[0]?.message).toBe(FIELD_MESSAGES.passwordRules);
  });
});

describe('email and code', () => {
  it('normalises an email and refuses an invalid one', () => {
    expect(ZEmail.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(ZEmail.safeParse('not-an-email').error?.issues[0]?.message).toBe(FIELD_MESSAGES.email);
  });

  it('takes a code of exactly 6 digits', () => {
    expect(ZCode.safeParse('123456').success).toBe(true);
    expect(ZCode.safeParse('12345').success).toBe(false);
    expect(ZCode.safeParse('12345a').success).toBe(false);
  });
});
