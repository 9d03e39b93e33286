/**
 * Chat exports as memories: ChatGPT's `conversations.json` (a list of `{ title, create_time,
 * mapping, current_node }`, each message a node of a tree whose branches are edits and
 * regenerations) and Claude's `conversations.json` (a list of `{ uuid, name, chat_messages }`).
 * Each message the person or the assistant wrote becomes one memory, as a conversation turn:
 * its text as written, its time, the conversation as its session (`metadata.conversation_id`, so
 * neighbouring turns are linked and recalled together) and who said it (`metadata.speaker`).
 * ChatGPT's tree is read along the branch the conversation ended on (the one its owner saw last);
 * system, tool and hidden messages are not memories and are counted as such.
 */
import { LIMITS } from '../core/schemas';
import { illFormedRule, loneSurrogateAt } from '../core/well-formed';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which service a chat export comes from. */
export type ChatSource = 'chatgpt' | 'claude';

/** The conversations of a chat export, or undefined when `doc` is not one. */
export function chatList(doc: unknown): { source: ChatSource; list: unknown[] } | undefined {
	if (!Array.isArray(doc) || doc.length === 0) return undefined;
	if (doc.every((c) => isRec(c) && isRec(c.mapping))) return { source: 'chatgpt', list: doc };
	if (doc.every((c) => isRec(c) && Array.isArray(c.chat_messages))) return { source: 'claude', list: doc };
	return undefined;
}

/**
 * What a chat export yields: memory records (by conversation, with ids made from the service's
 * message ids, so importing the export again adds nothing), each turn's PRECEDED_BY link to the
 * one before it (what a store makes for a session's turns), refusals, and how many messages were
 * not memories.
 */
export interface ChatRecords {
	records: { conversation: number; record: Rec }[];
	links: { conversation: number; record: Rec }[];
	errors: { conversation: number; error: string }[];
	/** System, tool, hidden and empty messages left out. */
	skipped: number;
}

/** Reads every conversation of a chat export (see chatList) into memory records. */
export function chatRecords(source: ChatSource, list: unknown[]): ChatRecords {
	const out: ChatRecords = { records: [], links: [], errors: [], skipped: 0 };
	list.forEach((conv, i) => {
		const at = i + 1;
		if (!isRec(conv)) return out.errors.push({ conversation: at, error: 'conversation: must be an object' });
		const turns = source === 'chatgpt' ? chatgptTurns(conv, out) : claudeTurns(conv, out);
		const id = String((source === 'chatgpt' ? (conv.conversation_id ?? conv.id) : conv.uuid) ?? `${source}-${at}`);
		const title = typeof (conv.title ?? conv.name) === 'string' ? String(conv.title ?? conv.name) : '';
		let prev: string | undefined;
		turns.forEach((t, k) => {
			if (t.text.length > LIMITS.contentChars) {
				out.errors.push({
					conversation: at,
					error: `message ${t.id ?? ''} of "${title.slice(0, 60)}": content is ${t.text.length.toLocaleString()} characters, over the ${LIMITS.contentChars.toLocaleString()} a memory holds`,
				});
				return;
			}
			// Refused here rather than by the import's schema, so the next turn links past it.
			const bad = loneSurrogateAt(t.text);
			if (bad >= 0) {
				out.errors.push({ conversation: at, error: `message ${t.id ?? ''} of "${title.slice(0, 60)}": content ${illFormedRule(bad)}` });
				return;
			}
			const memoryId = `${source}-${t.id ?? `${id}-${k + 1}`}`.slice(0, LIMITS.idChars);
			const metadata: Rec = {
				speaker: t.speaker,
				conversation_id: id,
				[source]: { ...(title && { conversation: title }), ...(t.id && { message_id: t.id }) },
			};
			out.records.push({
				conversation: at,
				record: { id: memoryId, content: t.text, source, tags: [source], metadata, ...(t.time && { timestamp: t.time }) },
			});
			if (prev)
				out.links.push({
					conversation: at,
					record: { from: memoryId, to: prev, type: 'PRECEDED_BY', strength: 1, ...(t.time && { created_at: t.time }) },
				});
			prev = memoryId;
		});
	});
	return out;
}

/** What the messages of a chat export that are not memories were, for the not-imported list. */
export function chatSkipped(n: number): string {
	return `${n.toLocaleString()} system, tool, hidden or empty message${n === 1 ? '' : 's'} (not something anyone said)`;
}

interface Turn {
	text: string;
	speaker: string;
	time?: string;
	id?: string;
}

/** An epoch time in seconds (ChatGPT) or an ISO string (Claude) as ISO 8601, or undefined. */
function isoOf(v: unknown): string | undefined {
	if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(Math.round(v * 1000)).toISOString();
	if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(Date.parse(v)).toISOString();
	return undefined;
}

/** The text parts of a ChatGPT message's content (strings; images and files are not text). */
function chatgptText(content: unknown): string {
	if (!isRec(content)) return '';
	if (typeof content.text === 'string') return content.text;
	const parts = Array.isArray(content.parts) ? content.parts : [];
	return parts
		.map((p) => (typeof p === 'string' ? p : isRec(p) && typeof p.text === 'string' ? p.text : ''))
		.filter((p) => p.trim() !== '')
		.join('\n');
}

/** The messages of one ChatGPT conversation, along the branch it ended on, oldest first. */
function chatgptTurns(conv: Rec, out: ChatRecords): Turn[] {
	const mapping = conv.mapping as Record<string, unknown>;
	let nodes: Rec[] = [];
	const current = typeof conv.current_node === 'string' ? mapping[conv.current_node] : undefined;
	if (isRec(current)) {
		const seen = new Set<unknown>();
		for (let n: unknown = current; isRec(n) && !seen.has(n); n = typeof n.parent === 'string' ? mapping[n.parent] : undefined) {
			seen.add(n);
			nodes.push(n);
		}
		nodes.reverse();
	} else {
		// No end node: every message, by time.
		nodes = Object.values(mapping).filter(isRec);
		const time = (n: Rec) => (isRec(n.message) && typeof n.message.create_time === 'number' ? n.message.create_time : 0);
		nodes.sort((a, b) => time(a) - time(b));
	}
	const turns: Turn[] = [];
	const start = isoOf(conv.create_time);
	for (const n of nodes) {
		const m = n.message;
		if (!isRec(m)) continue;
		const role = isRec(m.author) ? m.author.role : undefined;
		const hidden = isRec(m.metadata) && m.metadata.is_visually_hidden_from_conversation === true;
		const text = chatgptText(m.content).trim();
		if ((role !== 'user' && role !== 'assistant') || hidden || text === '') {
			out.skipped++;
			continue;
		}
		turns.push({ text, speaker: role, time: isoOf(m.create_time) ?? start, id: typeof m.id === 'string' ? m.id : undefined });
	}
	return turns;
}

/** The messages of one Claude conversation, oldest first. */
function claudeTurns(conv: Rec, out: ChatRecords): Turn[] {
	const turns: Turn[] = [];
	const start = isoOf(conv.created_at);
	for (const m of conv.chat_messages as unknown[]) {
		if (!isRec(m)) {
			out.skipped++;
			continue;
		}
		const parts = Array.isArray(m.content)
			? m.content.filter((p) => isRec(p) && p.type === 'text' && typeof p.text === 'string').map((p) => (p as Rec).text as string)
			: [];
		const text = (typeof m.text === 'string' && m.text.trim() !== '' ? m.text : parts.join('\n')).trim();
		const speaker = m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : undefined;
		if (!speaker || text === '') {
			out.skipped++;
			continue;
		}
		turns.push({ text, speaker, time: isoOf(m.created_at) ?? start, id: typeof m.uuid === 'string' ? m.uuid : undefined });
	}
	return turns;
}
