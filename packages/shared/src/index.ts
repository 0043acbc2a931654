export * from './constants.ts';
export * from './messages.ts';
export * from './problem.ts';
export * from './password.ts';
export * from './user.ts';
export * from './content.ts';
export * from './routes.ts';
export * from './runtime-config.ts';
