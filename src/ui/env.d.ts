/// <reference types="svelte" />
/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/vanillajs" />

/** The app's version from package.json (vite.config.ts `define`). */
declare const __APP_VERSION__: string;
