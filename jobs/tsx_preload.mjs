/**
 * Preload of every bree worker thread (`--import` in the worker's execArgv): lets the
 * thread run TypeScript. On Node 20 tsx's loader hooks apply only to the thread that
 * registered them, so a worker thread started from a tsx-run server cannot import a `.ts`
 * file ("Unknown file extension") until it registers tsx itself (ARCHITECTURE: Jobs).
 * JavaScript, because it is what makes TypeScript loadable.
 */
import { register } from "tsx/esm/api";

register();
