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
 * A turn as the memory an agent would store: content is `${speaker}: ${text}` (who said it is
 * part of what was said: questions name the person), the session date is the timestamp, the
 * conversation is the scope, and metadata keeps the turn id, session and speaker.
 */
export function turnMemory(conv: Conversation, s: Session, t: Turn) {
	return {
		content: `${t.speaker}: ${t.text}`,
		timestamp: s.date,
		scope: conv.id,
		metadata: { dia_id: t.dia_id, session: `${conv.id}:S${s.session}`, speaker: t.speaker },
	};
}
