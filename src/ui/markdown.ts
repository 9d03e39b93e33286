/**
 * Renders memory content (Markdown written by agents, therefore untrusted) to safe HTML.
 * marked turns Markdown into HTML; DOMPurify removes every script vector (event handlers,
 * javascript: URLs, <script>, <iframe>, <form>, SVG tricks). Remote images are not loaded —
 * a memory must not be able to make the app fetch from outside (tracking pixels, offline
 * promise) — they become links instead.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

let hooked = false;

/** Rewrites links to open outside the app and removes remote images; installed once. */
function installHooks(): void {
	if (hooked) return;
	hooked = true;
	DOMPurify.addHook('afterSanitizeAttributes', (node) => {
		if (node.tagName === 'A') {
			node.setAttribute('target', '_blank');
			node.setAttribute('rel', 'noopener noreferrer nofollow');
		}
		if (node.tagName === 'IMG') {
			const src = node.getAttribute('src') ?? '';
			if (!src.startsWith('data:image/')) replaceRemoteImage(node as HTMLImageElement, src);
		}
	});
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

/**
 * Markdown → sanitised HTML, safe to assign to innerHTML. Synchronous; GitHub-flavoured
 * Markdown with line breaks kept (memories are often short notes, not documents).
 */
export function renderMarkdown(source: string): string {
	installHooks();
	const html = marked.parse(source, { async: false, gfm: true, breaks: true }) as string;
	return DOMPurify.sanitize(html, {
		USE_PROFILES: { html: true },
		FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
		FORBID_ATTR: ['style'],
	});
}

/** Plain text of a Markdown string, for one-line previews (no HTML at all). */
export function plainText(source: string): string {
	return source
		.replace(/^```.*$/gm, ' ')
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
		.replace(/(\*\*|__|~~|`)/g, '')
		// Single * or _ around words (emphasis), but not inside words like snake_case.
		.replace(/(^|[\s(])[*_](\S(?:.*?\S)?)[*_](?=[\s).,;:!?]|$)/gm, '$1$2')
		.replace(/\s*\|\s*/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}
