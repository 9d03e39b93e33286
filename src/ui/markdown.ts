/**
 * Renders memory content (Markdown written by agents, therefore untrusted) to safe HTML.
 * marked turns Markdown into HTML; DOMPurify removes every script vector (event handlers,
 * javascript: URLs, <script>, <iframe>, <form>, SVG tricks). Nothing in stored text may make the
 * app fetch from outside (tracking pixels, the offline promise): remote images become links, and
 * media elements (`video`, `audio`, `source`, `track`) and the attributes that load by themselves
 * (`srcset`, `poster`, `background`) are removed. An image inside the text (`data:image/…`) loads
 * nothing, but it can be a picture of anything, a notice from the app, a sign-in form: it is shown
 * only when clicked (in a `<details>` named by its alt text), and then kept small.
 *
 * Every path here is linear in the input. marked is quadratic or worse on some inputs (a line of
 * 250k spaces, `**a` repeated, nesting thousands deep overflows its stack), so text over the
 * limits below is shown as plain, escaped text instead of being parsed as Markdown.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** What may be parsed as Markdown; anything bigger or deeper is shown as plain text. */
export const MARKDOWN_LIMITS = {
	/** Total characters. */
	chars: 20_000,
	/** Characters in one line. */
	lineChars: 2_000,
	/** Container markers (`>`, list bullets) opening one line. */
	depth: 10,
	/** Columns of leading whitespace (indented lists nest too). */
	indent: 100,
};

/** Tags that load media by themselves; never rendered. */
const MEDIA_TAGS = ['video', 'audio', 'source', 'track', 'picture'];
/** Attributes that make the browser fetch without a click. */
const LOADING_ATTRS = ['srcset', 'poster', 'background', 'ping', 'lowsrc', 'dynsrc'];

let hooked = false;

/** Classes the renderer itself sets (see markdownToHtml and replaceRemoteImage). */
const RENDERER_CLASSES = new Set(['plain-note', 'plain-text', 'remote-image', 'inline-image']);

/** The notes naming a disguised link's real target (class link-target), which stored text cannot imitate. */
const targetNotes = new WeakSet<Node>();

/** Blocks whose base direction follows their own first strong letter (a note may mix Arabic and English paragraphs). */
const BIDI_BLOCKS = new Set(['P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'TD', 'TH', 'DT', 'DD']);

/**
 * Rewrites links to open outside the app, removes remote images and lets each block take its
 * direction from its text (dir="auto", so right-to-left notes read from the right); installed once.
 */
function installHooks(): void {
	if (hooked) return;
	hooked = true;
	DOMPurify.addHook('afterSanitizeAttributes', (node) => {
		// The app's own classes (hash included, read from the public build) would let stored text
		// dress itself as a notification fixed over the page or as a button: only a code block's
		// language and the renderer's own classes stay.
		if (node.hasAttribute('class')) {
			const kept = [...node.classList].filter(
				(c) => /^language-[\w+#-]{1,40}$/.test(c) || RENDERER_CLASSES.has(c) || (c === 'link-target' && targetNotes.has(node)),
			);
			if (kept.length) node.setAttribute('class', kept.join(' '));
			else node.removeAttribute('class');
		}
		if (node.tagName === 'A') {
			node.setAttribute('target', '_blank');
			node.setAttribute('rel', 'noopener noreferrer nofollow');
			const href = node.getAttribute('href');
			if (href !== null && !node.classList.contains('remote-image')) {
				// The link's own title could name another address: hovering shows the real one.
				node.setAttribute('title', href);
				const target = linkDisguise(node.textContent ?? '', href);
				if (target !== undefined) {
					const note = node.ownerDocument.createElement('span');
					note.className = 'link-target';
					note.textContent = ` (goes to ${target})`;
					targetNotes.add(note);
					node.after(note);
				}
			}
		}
		if (node.tagName === 'IMG') {
			const src = node.getAttribute('src') ?? '';
			if (!src.startsWith('data:image/')) replaceRemoteImage(node as HTMLImageElement, src);
			else if (!hidden.has(node)) hideInlineImage(node as HTMLImageElement);
		}
		if (BIDI_BLOCKS.has(node.tagName)) node.setAttribute('dir', 'auto');
	});
}

/** The host a link's text names when it reads as a web address or a domain ("bank.com", "https://bank.com/login"). */
function namedHost(text: string): string | undefined {
	const t = text.trim();
	if (!/^(?:https?:\/\/)?[^\s/?#]+\.[^\s/?#.]{2,}(?:[/?#]\S*)?$/i.test(t)) return undefined;
	try {
		return new URL(/^https?:\/\//i.test(t) ? t : `http://${t}`).hostname;
	} catch {
		return undefined;
	}
}

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * Where a link really goes, when its text hides it: the text reads as an address or a domain
 * other than the target's host (`[https://bank.com](https://evil.example)`), or the target
 * carries a user name before its host (`https://bank.com@evil.example`) or a punycode label
 * (a look-alike host such as `bаnk.com` with a Cyrillic а). undefined when the text tells the
 * truth or names no address ("click here", whose target the title shows on hover).
 */
export function linkDisguise(text: string, href: string): string | undefined {
	let url: URL | undefined;
	try {
		url = new URL(href);
	} catch {
		url = undefined;
	}
	const web = url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:');
	if (web && (url!.username !== '' || url!.password !== '' || /(^|\.)xn--/.test(url!.hostname))) return url!.hostname;
	const named = namedHost(text);
	if (named === undefined) return undefined;
	if (!web) return href.length > 60 ? `${href.slice(0, 59)}…` : href;
	return bare(named) === bare(url!.hostname) ? undefined : url!.hostname;
}

/** Swaps a remote image for a plain link to it, so nothing loads unless the person clicks. */
function replaceRemoteImage(img: HTMLImageElement, src: string): void {
	const link = img.ownerDocument.createElement('a');
	link.textContent = `🖼 ${img.getAttribute('alt') || 'image'}`;
	if (/^https?:/i.test(src)) link.setAttribute('href', src);
	link.setAttribute('target', '_blank');
	link.setAttribute('rel', 'noopener noreferrer nofollow');
	link.className = 'remote-image';
	img.replaceWith(link);
}

/** The images hideInlineImage has put away (the sanitiser walks on into the `<details>` and meets each again). */
const hidden = new WeakSet<Node>();

/** Puts an image from the text behind a click: a closed `<details>` whose summary names it, the image inside. */
function hideInlineImage(img: HTMLImageElement): void {
	hidden.add(img);
	const doc = img.ownerDocument;
	const box = doc.createElement('details');
	box.className = 'inline-image';
	const summary = doc.createElement('summary');
	summary.textContent = `🖼 ${img.getAttribute('alt') || 'image'} (an image in this memory: click to show it)`;
	const frame = doc.createElement('div');
	img.replaceWith(box);
	frame.append(img);
	box.append(summary, frame);
}

/**
 * Why `source` is too big or too deep to parse as Markdown, or undefined when it can be parsed.
 * One pass over the text.
 */
export function markdownRefusal(source: string): string | undefined {
	const L = MARKDOWN_LIMITS;
	if (source.length > L.chars) return `longer than ${L.chars.toLocaleString('en')} characters`;
	let start = 0;
	while (start <= source.length) {
		let end = source.indexOf('\n', start);
		if (end === -1) end = source.length;
		if (end - start > L.lineChars) return `a line is longer than ${L.lineChars.toLocaleString('en')} characters`;
		if (containerDepth(source, start, end) > L.depth) return 'nested too deeply';
		start = end + 1;
	}
	return undefined;
}

/** Counts the container markers opening a line (and treats deep indentation as deep nesting). */
function containerDepth(s: string, from: number, to: number): number {
	let depth = 0;
	let indent = 0;
	let i = from;
	while (i < to) {
		const c = s[i]!;
		if (c === ' ' || c === '\t') {
			indent += c === '\t' ? 4 : 1;
			if (indent > MARKDOWN_LIMITS.indent) return Infinity;
			i++;
		} else if (c === '>') {
			depth++;
			i++;
		} else if ((c === '-' || c === '*' || c === '+') && (s[i + 1] === ' ' || s[i + 1] === '\t')) {
			depth++;
			i++;
		} else {
			let j = i;
			while (j < to && j - i < 10 && s[j]! >= '0' && s[j]! <= '9') j++;
			if (j === i || (s[j] !== '.' && s[j] !== ')') || (s[j + 1] !== ' ' && s[j + 1] !== '\t')) break;
			depth++;
			i = j + 1;
		}
	}
	return depth;
}

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

/**
 * Markdown → HTML, not yet sanitised (marked's output, or the text escaped in a
 * `<p class="plain-text">` when `markdownRefusal` refuses it). Linear time.
 */
export function markdownToHtml(source: string): string {
	const refused = markdownRefusal(source);
	if (refused === undefined) return marked.parse(source, { async: false, gfm: true, breaks: true }) as string;
	const text = source.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
	return `<p class="plain-note">Shown as plain text: ${refused} to format safely.</p><p class="plain-text">${text}</p>`;
}

/**
 * Markdown → sanitised HTML, safe to assign to innerHTML. Synchronous; GitHub-flavoured
 * Markdown with line breaks kept (memories are often short notes, not documents).
 */
export function renderMarkdown(source: string): string {
	installHooks();
	return DOMPurify.sanitize(markdownToHtml(source), {
		USE_PROFILES: { html: true },
		FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', ...MEDIA_TAGS],
		FORBID_ATTR: ['style', ...LOADING_ATTRS],
		// ids and names are prefixed with "user-content-": stored text cannot take an id the app
		// uses (`memory-title`, `main`) nor clobber a global.
		SANITIZE_NAMED_PROPS: true,
	});
}

/**
 * Plain text of a Markdown string, for one-line previews (no HTML at all). Linear time: every
 * pattern below either has one quantifier per run of characters or a bounded one.
 */
export function plainText(source: string): string {
	return (
		source
			.replace(/^```[^\n]*$/gm, ' ')
			// Brackets exclude each other, so no start position rescans another's text.
			.replace(/!\[([^\][\n]{0,500})\]\([^()\s]{0,2000}\)/g, '$1')
			.replace(/\[([^\][\n]{0,500})\]\([^()\s]{0,2000}\)/g, '$1')
			.replace(/^[ \t]{0,3}(?:#{1,6}|>|[-*+]|\d{1,9}[.)])[ \t]+/gm, '')
			.replace(/\*\*|__|~~|`/g, '')
			// Single * or _ around words (emphasis), but not inside words like snake_case. The text
			// inside holds no * or _, so each run is scanned from one start only.
			.replace(/(^|[\s(])[*_]([^*_\s](?:[^*_\n]*[^*_\s])?)[*_](?=[\s).,;:!?]|$)/gm, '$1$2')
			.replace(/\|/g, ' ')
			.replace(/\s+/g, ' ')
			.trim()
	);
}
