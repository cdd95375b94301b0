#!/usr/bin/env node
/** The installed `threadline` binary (compiled to dist/ by `npm run build`; from source, `npm run cli`). */
import "./main.ts";
