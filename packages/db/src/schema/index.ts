export * from './portal.ts';
export * from './identity.ts';
