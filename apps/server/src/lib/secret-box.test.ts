import { describe, expect, it } from 'vitest';
import { SealedSecretError, SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  it('opens what it sealed', () => {
    const box = new SecretBox('one key');
    expect(box.open(box.seal('plain'))).toBe('plain');
    expect(box.opens(box.seal('plain'))).toBe(true);
  });

  it('names what another key sealed and says SECRET_KEY changed, instead of node:crypto\'s "Unsupported state"', () => {
    const sealed = new SecretBox('the earlier key').seal('plain');
    const box = new SecretBox('another key');
    expect(box.opens(sealed)).toBe(false);
    let error: unknown;
    try {
      box.open(sealed, 'the QNT deposit seed');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SealedSecretError);
    expect((error as Error).message).toBe(
      'SECRET_KEY does not open the QNT deposit seed: it was sealed with another SECRET_KEY (SECRET_KEY has changed ' +
        "since, or another node's differs: every node of an installation must have the same SECRET_KEY). " +
        'Start again with the SECRET_KEY it was sealed with.',
    );
  });
});
