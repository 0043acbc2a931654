import { LIMITS } from '@connect/shared/light';

/** A lazy route chunk that failed to load or took too long (spec §8). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('This part of the portal could not be loaded.', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Wraps a route module import: a failure, or no answer within 120 seconds, becomes a
 * ChunkLoadError that the route error page explains with a reload action.
 */
export function loadChunk<T>(importer: () => Promise<T>, timeoutMs: number = LIMITS.chunkLoadTimeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(new Error('timed out'))), timeoutMs);
    importer().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}
