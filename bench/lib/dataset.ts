/**
 * The LoCoMo-shaped retrieval dev set (test/fixtures/locomo-style/dev.json): multi-session
 * conversations whose turns become memories, and questions whose gold evidence is turn ids.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Turn {
	dia_id: string;
	speaker: string;
	text: string;
}
export interface Session {
	session: number;
	date: string;
	turns: Turn[];
}
export interface Conversation {
	id: string;
	/** `tune` (constants may be chosen on it), `check` (only measured) or `heldback` (measured after deciding, never looked into). */
	split?: Split;
	speakers: string[];
	sessions: Session[];
}
export interface Question {
	conversation: string;
	question: string;
	answer: string;
	evidence: string[];
	category: string;
	/** knowledge-update: the older turns the evidence replaces (must rank below it). */
	stale?: string[];
}
export interface Dataset {
	conversations: Conversation[];
	questions: Question[];
}

export type Split = 'tune' | 'check' | 'heldback';
/** The dev splits: what the eval runs by default. */
export const SPLITS: readonly Split[] = ['tune', 'check'];
/**
 * Every split. `heldback` (heldback.json: long conversations, ~20 sessions and ~390 turns each) is measured only when
 * asked (`--split heldback`), after a change was decided on `tune` and `check`: no constant is chosen on it and its
 * per-question misses are not printed (`--misses` refuses it).
 */
export const ALL_SPLITS: readonly Split[] = ['tune', 'check', 'heldback'];

/** The default dev set's path, relative to the repository root. */
export const DEV_SET = 'test/fixtures/locomo-style/dev.json';
/** The harder conversations (instances not categories, implied facts, updates, who said what). */
export const HARD_SET = 'test/fixtures/locomo-style/hard.json';
/** The held-back long conversations (split `heldback`). */
export const HELDBACK_SET = 'test/fixtures/locomo-style/heldback.json';

/** Loads dataset files (paths relative to the current directory or absolute), merged in order. */
export function loadDataset(...paths: string[]): Dataset {
	const sets = (paths.length ? paths : [DEV_SET]).map((p) => JSON.parse(readFileSync(resolve(p), 'utf8')) as Dataset);
	return { conversations: sets.flatMap((d) => d.conversations), questions: sets.flatMap((d) => d.questions) };
}

/** The conversations of one split and their questions (a conversation without one is `tune`). */
export function splitOf(data: Dataset, split: Split): Dataset {
	const ids = new Set(data.conversations.filter((c) => (c.split ?? 'tune') === split).map((c) => c.id));
	return { conversations: data.conversations.filter((c) => ids.has(c.id)), questions: data.questions.filter((q) => ids.has(q.conversation)) };
}

/**
 * How turns become memories. `full` (the default): content `${speaker}: ${text}`, metadata
 * {dia_id, session, speaker}. The others check that recall does not depend on one harness's
 * choices: `no-session` leaves the session out of the metadata (sessions are then only implied by
 * the shared session date), `plain` also leaves the speaker out of the content (it stays in the
 * metadata).
 */
export type TurnFormat = 'full' | 'no-session' | 'plain';
export const TURN_FORMATS: readonly TurnFormat[] = ['full', 'no-session', 'plain'];

let format: TurnFormat = 'full';

/** Sets the turn format for every later `turnMemory` call (the eval's `--turns`). */
export function setTurnFormat(f: TurnFormat): void {
	format = f;
}

/**
 * A turn as the memory an agent would store: by default content is `${speaker}: ${text}` (who
 * said it is part of what was said: questions name the person), the session date is the
 * timestamp, the conversation is the scope, and metadata keeps the turn id, session and speaker.
 */
export function turnMemory(conv: Conversation, s: Session, t: Turn) {
	const metadata: Record<string, string> = { dia_id: t.dia_id, session: `${conv.id}:S${s.session}`, speaker: t.speaker };
	if (format !== 'full') delete metadata.session;
	return {
		content: format === 'plain' ? t.text : `${t.speaker}: ${t.text}`,
		timestamp: s.date,
		scope: conv.id,
		metadata,
	};
}

/**
 * The dataset with every `n` conversations merged into one, in order: one scope then holds n
 * conversations' turns, a haystack n times larger per question (the held-out conversations are
 * longer than the dev set's). Turn ids and evidence are prefixed with their conversation's id
 * and sessions renumbered, so nothing collides; each question keeps its own gold turns. With `samePair` (the eval's
 * `--same-pair`) every conversation's two speakers take the names of its pool's first conversation's, and the sessions
 * go in date order: one long chat between two people, as the held-out conversations are (names no longer tell the
 * pooled conversations apart).
 */
export function poolConversations(data: Dataset, n: number, samePair = false): Dataset {
	if (!Number.isInteger(n) || n < 1) throw new Error(`--pool: must be a whole number ≥ 1, got ${n}`);
	if (n === 1) return data;
	const splits = new Set(data.conversations.map((c) => c.split ?? 'tune'));
	if (splits.size > 1) throw new Error('--pool: pool one split at a time (--split tune or --split check)');
	// Named by split too: eval.ts stores both splits' pools in one index, and a shared scope id would put a tune pool and a
	// check pool in one haystack.
	const split = [...splits][0] ?? 'tune';
	const poolOf = new Map(data.conversations.map((c, i) => [c.id, `${split}-pool-${Math.floor(i / n) + 1}`]));
	const pools = new Map<string, Conversation>();
	// samePair: each conversation's speakers renamed to its pool's first pair (in turns, questions and answers).
	const rename = new Map<string, (text: string) => string>();
	for (const c of data.conversations) {
		const id = poolOf.get(c.id)!;
		const pool: Conversation = pools.get(id) ?? { id, split: c.split, speakers: [], sessions: [] };
		pools.set(id, pool);
		const to = samePair && pool.speakers.length ? pool.speakers : c.speakers;
		const names = c.speakers.map((from, k) => [new RegExp(`\\b${from}\\b`, 'g'), to[k] ?? from] as const);
		const r = (text: string) => names.reduce((t, [re, name]) => t.replace(re, name), text);
		rename.set(c.id, r);
		pool.speakers.push(...to.filter((s) => !pool.speakers.includes(s)));
		for (const s of c.sessions)
			pool.sessions.push({
				...s,
				session: pool.sessions.length + 1,
				turns: s.turns.map((t) => ({ ...t, speaker: r(t.speaker), text: r(t.text), dia_id: `${c.id}/${t.dia_id}` })),
			});
	}
	// Sessions in date order (a pool's conversations come from different years); session numbers follow.
	if (samePair)
		for (const pool of pools.values()) {
			pool.sessions.sort((x, y) => Date.parse(x.date) - Date.parse(y.date));
			pool.sessions.forEach((s, i) => (s.session = i + 1));
		}
	return {
		conversations: [...pools.values()],
		questions: data.questions.map((q) => ({
			...q,
			question: rename.get(q.conversation)!(q.question),
			answer: rename.get(q.conversation)!(q.answer),
			conversation: poolOf.get(q.conversation)!,
			evidence: q.evidence.map((e) => `${q.conversation}/${e}`),
			...(q.stale ? { stale: q.stale.map((e) => `${q.conversation}/${e}`) } : {}),
		})),
	};
}
