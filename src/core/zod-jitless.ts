/**
 * Turns off zod's compiled (`new Function`) parsers. The app's Content-Security-Policy has no
 * 'unsafe-eval', and zod probes for eval with `Function('')` on its first object parse: the probe
 * fails safely, but the browser reports it as a CSP violation. Imported once by each entry point
 * (the page, the engine worker); zod's config is global to its module instance.
 */
import { config } from 'zod';

config({ jitless: true });
