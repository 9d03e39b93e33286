/**
 * What the parts of a running sync share (controller.ts builds it once per controller): the
 * engine, the device id, the databases and key of the current run, the map, the status and the
 * one queue every task that touches the mirror or the map goes through.
 */
import type { EngineApi, SyncRecord } from '../engine/types';
import type { SyncServer } from './connection';
import { inScopes } from './records';
import type { SyncMap } from './sync-map';
import type { SyncStatusTracker } from './status';

/** What the controller needs of the engine (the page's comlink proxy is one). */
export type SyncEngine = Pick<EngineApi, 'syncRecords' | 'recordSyncConflict' | 'applySyncRecords' | 'delete' | 'subscribe' | 'setSetting' | 'history'>;

/** The parts of PouchDB used here (pouchdb-browser's default export). */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type PouchCtor = new (name: string, opts?: Record<string, unknown>) => any;

/** Where the time goes (ms), for bench/sync.ts: added to by the incoming and outgoing paths. */
export interface SyncTimings {
	apply: number;
	open: number;
	import: number;
	write: number;
	reconcile: number;
	batches: number;
	docs: number;
}

/**
 * The shared state of one controller. `local`, `remote`, `key` and `server` are set while sync
 * runs and `local`, `remote` and `key` are cleared when it stops: every part reads them at the
 * moment it needs them, so work queued before a stop sees that it stopped.
 */
export interface SyncContext {
	readonly engine: SyncEngine;
	/** This device's id, stamped on every record it writes. */
	readonly device: string;
	/** The mirror: a PouchDB database in this browser. */
	local: any;
	/** The server's database, as a PouchDB remote. */
	remote: any;
	key: CryptoKey | undefined;
	server: SyncServer | undefined;
	readonly map: SyncMap;
	readonly status: SyncStatusTracker;
	readonly timings: SyncTimings;
	/** Runs `fn` after every task queued before it; a failure goes to the status as an error. */
	serial<T>(fn: () => Promise<T>): Promise<T>;
	/** Sends these memories' records again (a merge made while applying, which the server lacks). */
	resend(ids: string[]): void;
	/** Changes made here that the server has not received yet (the status's `pending` while offline or paused). */
	waiting(): number;
	/** Both directions are caught up with nothing waiting: old versions may go from the mirror (compaction.ts). */
	caughtUp(): void;
	/**
	 * Every incoming batch is applied (one that had failed, a full disk, went through when read
	 * again): if replication is idle, the status says what holds now (the error a failed batch
	 * left goes; nothing else would clear it, since replication caught up says nothing more).
	 */
	recovered(): void;
	/** Changes the mirror's feed delivered that are not applied yet (incoming.ts `unapplied`): not "synced" while so. */
	unapplied(): boolean;
}

/** Whether a record belongs to the scopes this device syncs (all of them when none were chosen). */
export function inScope(ctx: SyncContext, r: SyncRecord): boolean {
	return inScopes(r.scope, ctx.server?.scopes);
}
