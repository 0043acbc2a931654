export * from './portal.ts';
export * from './identity.ts';
export * from './developer-hub.ts';
export * from './tokens.ts';
export * from './platform.ts';
export * from './ledger.ts';
export * from './events.ts';
export * from './plans.ts';
