import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import { messageFromError } from './problem.ts';

describe('messageFromError (spec §8 message rule)', () => {
  it('prefers the first invalid-parameter reason', () => {
    const body = {
      detail: 'The request is invalid.',
      invalidParams: [
        { name: 'firstName', reason: 'This field is required.' },
        { name: 'lastName', reason: 'Must be at most 100 characters.' },
      ],
    };
    expect(messageFromError(body)).toBe('This field is required.');
  });

  it('falls back to the detail, then the message', () => {
    expect(messageFromError({ invalidParams: [], detail: 'Not yours.' })).toBe('Not yours.');
    expect(messageFromError({ invalidParams: [{ name: 'x', reason: '' }], detail: 'Detail.' })).toBe('Detail.');
    expect(messageFromError({ message: 'Legacy message.' })).toBe('Legacy message.');
    expect(messageFromError({ detail: '', message: 'Legacy message.' })).toBe('Legacy message.');
  });

  it('answers the generic message of spec §8 when nothing usable is there', () => {
    expect(messageFromError(undefined)).toBe(MESSAGES.generic);
    expect(messageFromError('Internal Server Error')).toBe(MESSAGES.generic);
    expect(messageFromError({ invalidParams: 'nope', detail: 42 })).toBe(MESSAGES.generic);
    expect(messageFromError({}, 'Something went wrong, please close and try again.')).toBe(
      'Something went wrong, please close and try again.',
    );
  });
});
