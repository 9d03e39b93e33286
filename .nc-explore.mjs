// throwaway: not committed
import { launchBrowser, startPreview } from './test/e2e/helpers.ts';
