import { PGliteThread } from '@connect/db/thread';
import type { Config } from './config.ts';

export type DatabaseSettings = Pick<Config, 'databaseUrl' | 'dataDir'>;

/** The embedded database's directory (PGlite), when no DATABASE_URL is configured. */
export const embeddedDir = (config: DatabaseSettings) => `${config.dataDir}/pglite`;

/**
 * Starts the embedded database's thread, and PGlite's open on it, without loading the database
 * layer (Drizzle, pg, the schema): entry.ts starts it before anything else loads, since the open
 * (~0.55 s) is the longest step of a restart (issue 30). Nothing with DATABASE_URL.
 */
export function startEmbeddedDatabase(config: DatabaseSettings): Promise<PGliteThread> | undefined {
  return config.databaseUrl ? undefined : PGliteThread.create({ dataDir: embeddedDir(config) });
}
