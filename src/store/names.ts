/**
 * The database's name and the keys of the settings rows the engine owns, in a module of their
 * own: the threads that read IndexedDB without Dexie (the snapshot helper, the engine worker's
 * first lines) need them before the rest of the store has loaded.
 */

/** The default database name in the browser. */
export const DEFAULT_DB_NAME = 'engram';

/** Both counters live in one row: a write reads and bumps them with one request each. */
export const COUNTERS_KEY = 'sys:counters';

/** The setting naming the active embedding model (unset: the embedded one). */
export const ACTIVE_MODEL_KEY = 'active_model';
