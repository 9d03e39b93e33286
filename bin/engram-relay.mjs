#!/usr/bin/env node
// engram-relay: the package's bin. Plain Node ESM that registers tsx and runs relay/main.ts, so the
// relay works right after `npm ci` with no build step (`npx engram-relay`, `npm run relay`).
import { register } from 'tsx/esm/api';

register();
await import(new URL('../relay/main.ts', import.meta.url).href);
