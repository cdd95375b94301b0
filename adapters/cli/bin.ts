#!/usr/bin/env -S node --import tsx
/** The installed `threadline` binary. */
import "./main.ts";
