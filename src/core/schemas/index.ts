/**
 * The zod schemas of Engram's data model and of every engine operation. One source of truth:
 * the engine validates its inputs with them, the native MCP tools expose them as input/output
 * schemas, and the UI uses them for its forms. Field descriptions are short because agents pay
 * for every token of a tool's schema.
 *
 * One module per subject; this index re-exports them all, so `core/schemas` is still the one import.
 */
export * from './primitives';
export * from './memory';
export * from './associations';
export * from './recall';
export * from './browse';
export * from './transfer';
