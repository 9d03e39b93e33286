/**
 * Imported by the Node benchmark in a fresh process to time boot plus module loading (the first
 * part of a cold start); the database part is timed in-process, since fake-indexeddb does not
 * persist across processes.
 */
import '../../src/engine/engine';
import '../../src/engine/embedder';
import 'fake-indexeddb';
