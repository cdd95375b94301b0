import { describeShard } from "../support/shards.ts";

describeShard(import.meta.url);
