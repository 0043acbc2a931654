import { describe, expect, it } from 'vitest';
import { MESSAGES, PROBLEMS } from '@connect/shared/light';
import { ApiError } from './api-client.ts';
import {
  invalidParamsOf,
  isApplicationNameTaken,
  isProblem,
  isUnknownToken,
  messageForCode,
  problemCodeOf,
  problemMessage,
  problemRedirectOf,
} from './problems.ts';

/** A refusal as the server answers it: status, title and detail from the catalogue, plus the code. */
const refusal = (code: keyof typeof PROBLEMS, extra: object = {}) =>
  new ApiError(PROBLEMS[code].status, {
    status: PROBLEMS[code].status,
    title: 'Conflict',
    code,
    detail: PROBLEMS[code].message,
    ...extra,
  });

describe('problems (codes decide what the SPA shows and does)', () => {
  it('reads the code of a failed request, and of a problem body', () => {
    expect(problemCodeOf(refusal('TOKEN_QUOTA_REACHED'))).toBe('TOKEN_QUOTA_REACHED');
    expect(problemCodeOf({ status: 404, code: 'TOKEN_NOT_FOUND' })).toBe('TOKEN_NOT_FOUND');
    expect(refusal('NETWORKS_NOT_CONFIGURED').code).toBe('NETWORKS_NOT_CONFIGURED');
  });

  it('has no code for an answer without one, or with a code the catalogue does not know', () => {
    expect(problemCodeOf(new ApiError(0, { detail: MESSAGES.generic }))).toBeNull();
    expect(problemCodeOf(new ApiError(409, { code: 'SOMETHING_NEW', detail: 'x' }))).toBeNull();
    expect(problemCodeOf(new Error('boom'))).toBeNull();
    expect(problemCodeOf(undefined)).toBeNull();
  });

  it('decides by code, never by the message: the same text under another code is another problem', () => {
    expect(isProblem(refusal('APPLICATION_EXISTS'), 'APPLICATION_EXISTS', 'APPLICATION_NAME_EXISTS')).toBe(true);
    const sameText = new ApiError(409, { status: 409, detail: PROBLEMS.TOKEN_QUOTA_REACHED.message });
    expect(isProblem(sameText, 'TOKEN_QUOTA_REACHED')).toBe(false);
    expect(problemRedirectOf(sameText)).toBeNull();
  });

  it('sends the user on for the guards of spec §5', () => {
    expect(problemRedirectOf(refusal('NETWORKS_NOT_CONFIGURED'))).toBe('configureNetworks');
    expect(problemRedirectOf(refusal('TOKEN_QUOTA_REACHED'))).toBe('quotaReached');
    expect(problemRedirectOf(refusal('IDENTITY_VERIFICATION_REQUIRED'))).toBe('verifyIdentity');
    expect(problemRedirectOf(refusal('IDENTITY_VERIFICATION_PENDING'))).toBe('verifyIdentity');
    expect(problemRedirectOf(refusal('INSUFFICIENT_CREDITS'))).toBeNull();
    expect(problemRedirectOf(new Error('offline'))).toBeNull();
  });

  it('knows a taken application name and an unknown token by their codes', () => {
    expect(isApplicationNameTaken(refusal('APPLICATION_EXISTS'))).toBe(true);
    expect(isApplicationNameTaken(refusal('APPLICATION_NAME_EXISTS'))).toBe(true);
    expect(isApplicationNameTaken(refusal('APPLICATION_QUOTA_REACHED'))).toBe(false);
    expect(isUnknownToken(refusal('TOKEN_NOT_FOUND'))).toBe(true);
    expect(isUnknownToken(refusal('INVALID_REQUEST'))).toBe(true);
    expect(isUnknownToken(refusal('INTERNAL_ERROR'))).toBe(false);
  });

  it('shows the first field reason, else the detail, else the generic message (spec §8)', () => {
    const withReasons = refusal('INVALID_REQUEST', {
      detail: 'd',
      invalidParams: [
        { name: 'name', reason: 'first reason' },
        { name: 'url', reason: 'second reason' },
      ],
    });
    expect(problemMessage(withReasons)).toBe('first reason');
    expect(problemMessage(refusal('TOKEN_NOT_EDITABLE'))).toBe(PROBLEMS.TOKEN_NOT_EDITABLE.message);
    expect(problemMessage(new ApiError(500, { status: 500, requestId: 'r-1' }))).toBe(MESSAGES.generic);
    expect(problemMessage(new TypeError('x is undefined'))).toBe(MESSAGES.generic);
  });

  it('gives the catalogue’s message for a code, worded as the spec words it', () => {
    expect(messageForCode('NETWORKS_NOT_CONFIGURED')).toBe(
      'Please configure your networks before you can deploy tokens',
    );
    expect(messageForCode('APPLICATION_NAME_EXISTS')).toBe('This application name already exists!');
  });

  it('lists the field errors of a refusal, ignoring malformed entries', () => {
    const error = refusal('INVALID_REQUEST', {
      invalidParams: [{ name: 'tokenName', reason: 'Please enter a token name' }, { name: 7 }, null],
    });
    expect(invalidParamsOf(error)).toEqual([{ name: 'tokenName', reason: 'Please enter a token name' }]);
    expect(invalidParamsOf(refusal('TOKEN_NOT_FOUND'))).toEqual([]);
    expect(invalidParamsOf(new Error('x'))).toEqual([]);
  });
});
