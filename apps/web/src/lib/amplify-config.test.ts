import { Amplify } from 'aws-amplify';
import { ConsoleLogger } from 'aws-amplify/utils';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { configureAmplify } from './amplify-auth.ts';

const identity = { region: 'us-east-1', userPoolId: 'us-east-1_Test', userPoolClientId: 'client' };

describe('configureAmplify (issue 11: the portal at any host, a clean console)', () => {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it('sends the embedded pool’s wire protocol to the origin the portal was opened at', () => {
    configureAmplify({ ...identity, userPoolEndpoint: '/idp' });
    expect(Amplify.getConfig().Auth?.Cognito.userPoolEndpoint).toBe(`${window.location.origin}/idp`);
  });

  it('leaves AWS Cognito without an endpoint of its own', () => {
    configureAmplify(identity);
    expect(Amplify.getConfig().Auth?.Cognito.userPoolEndpoint).toBeUndefined();
  });

  it('does not warn that the embedded pool is a custom endpoint, and keeps Amplify’s later warnings', () => {
    configureAmplify({ ...identity, userPoolEndpoint: '/idp' });
    expect(warn).not.toHaveBeenCalled();
    new ConsoleLogger('Auth').warn('a later warning');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
