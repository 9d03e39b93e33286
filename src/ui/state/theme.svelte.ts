/**
 * Light / dark / system theme. Stored in localStorage (read by an inline script in index.html
 * before the first paint) and applied as `data-theme` on <html>.
 */

/** The person's theme choice. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'engram.theme';

/** The current theme choice; `set` persists and applies it. */
export class Theme {
	choice = $state<ThemeChoice>('system');

	constructor() {
		const saved = safeRead();
		if (saved === 'light' || saved === 'dark') this.choice = saved;
	}

	/** Whether dark colours are showing now (the choice, or the system's for 'system'). */
	get isDark(): boolean {
		if (this.choice !== 'system') return this.choice === 'dark';
		return matchMedia('(prefers-color-scheme: dark)').matches;
	}

	set(choice: ThemeChoice): void {
		this.choice = choice;
		try {
			if (choice === 'system') localStorage.removeItem(KEY);
			else localStorage.setItem(KEY, choice);
		} catch {
			// Storage can be blocked (private mode); the choice still applies for this session.
		}
		if (choice === 'system') delete document.documentElement.dataset.theme;
		else document.documentElement.dataset.theme = choice;
	}
}

function safeRead(): string | null {
	try {
		return localStorage.getItem(KEY);
	} catch {
		return null;
	}
}
