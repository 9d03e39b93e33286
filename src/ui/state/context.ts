/**
 * The app's dependencies, handed to components through Svelte context so no component builds its
 * own engine client or imports the worker plumbing.
 */
import { createContext } from 'svelte';
import type { EngineProxy } from './engine-proxy';
import type { Router } from './router.svelte';
import type { Toasts } from './toasts.svelte';
import type { Live } from './live.svelte';
import type { Tasks } from './tasks.svelte';
import type { Connections } from './connections.svelte';
import type { Theme } from './theme.svelte';
import type { Pwa } from './pwa.svelte';
import type { Search } from './search.svelte';
import type { Selection } from './selection.svelte';

/** Everything a screen may need. */
export interface AppContext {
	engine: EngineProxy;
	router: Router;
	toasts: Toasts;
	live: Live;
	tasks: Tasks;
	connections: Connections;
	theme: Theme;
	pwa: Pwa;
	search: Search;
	selection: Selection;
}

const [getApp, setApp] = createContext<AppContext>();

/** Reads the app context (call during component initialisation). */
export const useApp = getApp;
/** Provides the app context (the root component calls it once). */
export const provideApp = setApp;
