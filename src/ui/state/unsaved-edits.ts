/**
 * Edits of a memory left unsaved when the person went to another screen (a sidebar link, the
 * browser's back button), by memory id, with the memory as the edit began (what a save is
 * checked against). Back on that memory's page the editor opens again with them: leaving the page
 * used to drop them without a word. Kept for the tab's life only; Save or Cancel forgets them.
 */
import type { Memory } from '../../core/schemas';
import type { MemoryDraft } from '../memory-draft';

export const unsavedEdits = new Map<string, { draft: MemoryDraft; base: Memory }>();
