import { describe, expect, it } from 'vitest';
import { maskEmail } from './codes.ts';

describe('code delivery destination', () => {
  it('masks the address as Cognito does', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@e***.com');
    expect(maskEmail('bob@mail.example.co.uk')).toBe('b***@m***.uk');
  });
});
