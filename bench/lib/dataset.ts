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
	speakers: string[];
	sessions: Session[];
}
export interface Question {
	conversation: string;
	question: string;
	answer: string;
	evidence: string[];
	category: string;
}
export interface Dataset {
	conversations: Conversation[];
	questions: Question[];
}

/** The default dev set's path, relative to the repository root. */
export const DEV_SET = 'test/fixtures/locomo-style/dev.json';

/** Loads a dataset file (path relative to the current directory or absolute). */
export function loadDataset(path = DEV_SET): Dataset {
	return JSON.parse(readFileSync(resolve(path), 'utf8')) as Dataset;
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
