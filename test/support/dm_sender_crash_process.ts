/**
 * A DM sender process to kill, for the crash test of test/dm_sender.test.ts: sends account
 * `--account`'s due messages (core/dm/dm_sender.ts) on the PostgreSQL database `--url`
 * through the simulated network, and SIGKILLs itself the moment DM number `--crash-after`
 * (0-based) has landed on the network, before the sender could record it: the worst place
 * to die.
 *
 *   node --import tsx test/support/dm_sender_crash_process.ts --url URL --account ID --crash-after 2 [--lease 1]
 *
 * Prints `ready`, then `landed <n> <recipient id>` for each DM that reached the network.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../../adapters/postgres/open_database.ts";
import { openNetwork } from "../../adapters/x/open_network.ts";
import { systemClock } from "../../core/clock.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";
import { sendDueMessages } from "../../core/dm/dm_sender.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    account: { type: "string" },
    "crash-after": { type: "string" },
    lease: { type: "string", default: "1" },
  },
});
if (!values.url || !values.account || values["crash-after"] === undefined) {
  throw new Error("Usage: dm_sender_crash_process.ts --url URL --account ID --crash-after N [--lease SECONDS]");
}
const crashAfter = Number(values["crash-after"]);

const database = await openDatabase({ databaseUrl: values.url, poolSize: 2 });
const { sql } = database;
const simulated = openNetwork({ sql, clock: systemClock });
let landed = 0;
// The real network, except that this process dies right after a DM lands.
const network: SocialNetwork = {
  ...simulated,
  async sendDm(input) {
    const dm = await simulated.sendDm(input);
    process.stdout.write(`landed ${landed} ${input.recipientId}\n`);
    if (landed++ === crashAfter) process.kill(process.pid, "SIGKILL");
    return dm;
  },
};

process.stdout.write("ready\n");
await sendDueMessages({ sql, network, clock: systemClock }, values.account, { leaseSeconds: Number(values.lease) });
process.stdout.write("finished without crashing\n");
await database.close();
