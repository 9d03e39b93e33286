/**
 * The database's name and the keys of the settings rows the engine owns, in a module of their
 * own: the threads that read IndexedDB without Dexie (the snapshot helper, the engine worker's
 * first lines) need them before the rest of the store has loaded.
 */

/** The default database name in the browser. */
export const DEFAULT_DB_NAME = 'engram';

/** Both counters live in one row: a write reads and bumps them with one request each. */
export const COUNTERS_KEY = 'sys:counters';

/** The setting holding the seq counter as it was at the last wipe (see `markSeqsWiped`). */
export const WIPED_SEQ_KEY = 'sys:seq_at_wipe';

/** The setting naming the active embedding model (unset: the embedded one). */
export const ACTIVE_MODEL_KEY = 'active_model';

/**
 * The embedded model's id (engine/embedder `DEFAULT_MODEL_ID`). Its vectors are the ones nearly
 * every row holds, so the store indexes the other models only (see store/vectors.ts): the index
 * of every row's models cost each stored memory an index entry for what every row has. Renaming
 * the model needs a schema version that re-derives `other_models` on the rows.
 */
export const EMBEDDED_MODEL_ID = 'engram/glove-sif-100d';
