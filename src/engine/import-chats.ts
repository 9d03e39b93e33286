/**
 * Chat exports as memories: ChatGPT's `conversations.json` (a list of `{ title, create_time,
 * mapping, current_node }`, each message a node of a tree whose branches are edits and
 * regenerations) and Claude's `conversations.json` (a list of `{ uuid, name, chat_messages }`).
 * Each message the person or the assistant wrote becomes one memory, as a conversation turn:
 * its text as written, its time, the conversation as its session (`metadata.conversation_id`, so
 * neighbouring turns are linked and recalled together) and who said it (`metadata.speaker`).
 * ChatGPT's tree is read along the branch the conversation ended on (the one its owner saw last);
 * the messages on other branches (earlier edits, regenerated answers) are counted and listed, never
 * dropped without a word. ChatGPT's custom instructions (what the person wrote about themselves and
 * how to answer) become one memory each, however many conversations repeat them. A Claude message's
 * attached text (a file or a long paste, `attachments[].extracted_content`) and the documents
 * Claude wrote (artifacts) are turns of their own, after the message. System, tool and hidden
 * messages are not memories and are counted as such.
 */
import { cyrb53 } from '../core/canonical';
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
	/** ChatGPT messages on branches the conversation did not end on (edits, regenerations), left out. */
	offBranch: number;
	/** Attached files whose content the export does not hold (Claude's `files`, ChatGPT's images). */
	filesWithoutText: number;
	/** Claude's reasoning passages (`thinking` blocks), not shown as the answer and left out. */
	thinking?: number;
}

/** Reads every conversation of a chat export (see chatList) into memory records. */
export function chatRecords(source: ChatSource, list: unknown[]): ChatRecords {
	const out: ChatRecords = { records: [], links: [], errors: [], skipped: 0, offBranch: 0, filesWithoutText: 0 };
	const instructions = new Set<string>();
	list.forEach((conv, i) => {
		const at = i + 1;
		if (!isRec(conv)) return out.errors.push({ conversation: at, error: 'conversation: must be an object' });
		const turns = source === 'chatgpt' ? chatgptTurns(conv, out, at, instructions) : claudeTurns(conv, out);
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
			const memoryId = `${source}-${t.id ?? `${id}-${k + 1}`}${t.part ? `-${t.part}` : ''}`.slice(0, LIMITS.idChars);
			const metadata: Rec = {
				speaker: t.speaker,
				conversation_id: id,
				[source]: { ...(title && { conversation: title }), ...(t.id && { message_id: t.id }), ...t.meta },
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

/** Every line of the not-imported list for a chat export: what was left out, counted, and why. */
export function chatNotImported(read: Pick<ChatRecords, 'skipped' | 'offBranch' | 'filesWithoutText' | 'thinking'>): string[] {
	const s = (n: number) => (n === 1 ? '' : 's');
	const out: string[] = [];
	if (read.offBranch)
		out.push(
			`${read.offBranch.toLocaleString()} message${s(read.offBranch)} on other branches: earlier versions of edited messages and regenerated answers (only the branch each conversation ended on is imported)`,
		);
	if (read.skipped) out.push(chatSkipped(read.skipped));
	if (read.filesWithoutText)
		out.push(
			`${read.filesWithoutText.toLocaleString()} attached image${s(read.filesWithoutText)} or file${s(read.filesWithoutText)} whose content the export does not hold (only the name)`,
		);
	if (read.thinking)
		out.push(`${read.thinking.toLocaleString()} passage${s(read.thinking)} of Claude's reasoning (thinking), which is not part of its answers`);
	return out;
}

interface Turn {
	text: string;
	speaker: string;
	time?: string;
	id?: string;
	/** Set on a turn that is part of a message (an attachment, an artifact): its id suffix. */
	part?: string;
	/** More about the turn, under the service's metadata key. */
	meta?: Rec;
}

/** A short stable hash of a text (53-bit, hex), for ids of records that have none in the export. */
function textHash(text: string): string {
	return cyrb53(text).toString(16);
}

/** An epoch time in seconds (ChatGPT) or an ISO string (Claude) as ISO 8601, or undefined. */
function isoOf(v: unknown): string | undefined {
	if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(Math.round(v * 1000)).toISOString();
	if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(Date.parse(v)).toISOString();
	return undefined;
}

/**
 * A message's text without the blank lines before it and the white space after it. The first
 * line keeps its indentation: trim() took it from code pasted at a message's start ("    return x"
 * under lines still indented), or from an indented file attached.
 */
function edgeTrimmed(text: string): string {
	return text.replace(/^(?:[^\S\r\n\u2028\u2029]*(?:\r\n?|[\n\u2028\u2029]))+/, '').trimEnd();
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
function chatgptTurns(conv: Rec, out: ChatRecords, at: number, instructions: Set<string>): Turn[] {
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
		out.offBranch += Object.values(mapping).filter((n) => isRec(n) && isRec(n.message) && !seen.has(n)).length;
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
		if (isRec(m.content) && m.content.content_type === 'user_editable_context') {
			customInstructions(m, out, at, instructions);
			continue;
		}
		if (isRec(m.content) && Array.isArray(m.content.parts))
			out.filesWithoutText += m.content.parts.filter((p) => isRec(p) && typeof p.text !== 'string').length;
		const hidden = isRec(m.metadata) && m.metadata.is_visually_hidden_from_conversation === true;
		const text = edgeTrimmed(chatgptText(m.content));
		if ((role !== 'user' && role !== 'assistant') || hidden || text === '') {
			out.skipped++;
			continue;
		}
		// A message to a tool (code it ran, a search it made) is kept, saying whom it was for.
		const to = typeof m.recipient === 'string' && m.recipient !== 'all' ? { recipient: m.recipient } : undefined;
		turns.push({ text, speaker: role, time: isoOf(m.create_time) ?? start, id: typeof m.id === 'string' ? m.id : undefined, meta: to });
	}
	return turns;
}

/**
 * ChatGPT's custom instructions (a hidden `user_editable_context` message at the start of each
 * conversation): what the person wrote about themselves and how ChatGPT should answer, each one
 * memory the first time its text is met. The clean texts are in the message's metadata; the
 * content's `user_profile` / `user_instructions` wrap them in ChatGPT's own preamble.
 */
function customInstructions(m: Rec, out: ChatRecords, at: number, seen: Set<string>): void {
	const data = isRec(m.metadata) && isRec(m.metadata.user_context_message_data) ? m.metadata.user_context_message_data : {};
	const content = m.content as Rec;
	const parts: [string, string, unknown][] = [
		['about_user', 'ChatGPT custom instructions: about me', data.about_user_message ?? content.user_profile],
		['about_model', 'ChatGPT custom instructions: how to respond', data.about_model_message ?? content.user_instructions],
	];
	let any = false;
	for (const [key, summary, v] of parts) {
		if (typeof v !== 'string' || v.trim() === '') continue;
		any = true;
		const text = v.trim();
		if (seen.has(`${key}\n${text}`)) continue;
		seen.add(`${key}\n${text}`);
		if (text.length > LIMITS.contentChars || loneSurrogateAt(text) >= 0) {
			out.errors.push({
				conversation: at,
				error: `custom instructions (${key}): content ${text.length > LIMITS.contentChars ? `is over the ${LIMITS.contentChars.toLocaleString()} characters a memory holds` : illFormedRule(loneSurrogateAt(text))}`,
			});
			continue;
		}
		const time = isoOf(m.create_time);
		out.records.push({
			conversation: at,
			record: {
				id: `chatgpt-${key.replace('_', '-')}-${textHash(text)}`,
				content: text,
				summary,
				source: 'chatgpt',
				tags: ['chatgpt'],
				metadata: { speaker: 'user', chatgpt: { custom_instructions: key } },
				...(time && { timestamp: time }),
			},
		});
	}
	if (!any) out.skipped++;
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
		const text = edgeTrimmed(typeof m.text === 'string' && m.text.trim() !== '' ? m.text : parts.join('\n'));
		const speaker = m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : undefined;
		const time = isoOf(m.created_at) ?? start;
		const id = typeof m.uuid === 'string' ? m.uuid : undefined;
		// A long paste or an attached text file is in the export only as its extracted text.
		const attached = (Array.isArray(m.attachments) ? m.attachments : []).filter(isRec).flatMap((a, k) => {
			const body = typeof a.extracted_content === 'string' ? edgeTrimmed(a.extracted_content) : '';
			const name = typeof a.file_name === 'string' && a.file_name.trim() !== '' ? a.file_name : 'pasted text';
			return body ? [{ text: body, part: `attachment-${k + 1}`, meta: { attachment: name } }] : [];
		});
		// Documents Claude wrote in the side panel (artifacts), whole as created.
		const artifacts = (Array.isArray(m.content) ? m.content : []).filter(isRec).flatMap((b, k) => {
			const input = b.type === 'tool_use' && isRec(b.input) ? b.input : undefined;
			const body = input && typeof input.content === 'string' ? edgeTrimmed(input.content) : '';
			const name = input && typeof input.title === 'string' ? input.title : 'artifact';
			return body ? [{ text: body, part: `artifact-${k + 1}`, meta: { artifact: name } }] : [];
		});
		out.filesWithoutText += (Array.isArray(m.files) ? m.files : []).length;
		out.thinking = (out.thinking ?? 0) + (Array.isArray(m.content) ? m.content.filter((b) => isRec(b) && b.type === 'thinking').length : 0);
		if (!speaker || (text === '' && attached.length === 0 && artifacts.length === 0)) {
			out.skipped++;
			continue;
		}
		if (text !== '') turns.push({ text, speaker, time, id });
		for (const extra of [...attached, ...artifacts]) turns.push({ ...extra, speaker, time, id });
	}
	return turns;
}
