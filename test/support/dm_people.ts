/**
 * People of the simulated world for the DM suites: senders (fresh accounts whose ids are
 * world people, on a chosen plan) and recipients who accept DMs or refuse them, each
 * handed out once per process so no two cases message the same person.
 */
import type { Sql } from "../../core/db/sql.ts";
import type { SimulatedNetwork } from "../../adapters/x/simulated/simulated_network.ts";

/**
 * Hands out world people: `open(n)` accept DMs from anyone; `closed()` accepts none from the
 * sender's strangers. `exclude`: people already messaged (the demo campaign's).
 */
export function dmPeople(network: SimulatedNetwork, exclude: ReadonlySet<string> = new Set()) {
  const { pop } = network.world;
  let next = pop.anchorCount + 50;
  const take = (accepts: boolean): { id: string; index: number } => {
    for (; next < pop.size; next++) {
      if (exclude.has(pop.ids[next])) continue;
      if ((pop.canDm[next] === 1) === accepts && pop.isProtected[next] === 0) return { id: pop.ids[next], index: next++ };
    }
    throw new Error("The world ran out of people for the DM suites");
  };
  return {
    open: (count: number): string[] => Array.from({ length: count }, () => take(true).id),
    /** Someone who refuses DMs from `senderId` (not in the sender's circle). */
    closed(senderId: string): string {
      const sender = pop.byId.get(senderId);
      const circle: number[] = sender === undefined ? [] : Array.from(network.world.circle(sender));
      for (;;) {
        const person = take(false);
        if (!circle.includes(person.index)) return person.id;
      }
    },
    /** A world person's handle and name. */
    profile: (id: string) => {
      const index = pop.byId.get(id) as number;
      return { handle: pop.usernames[index], name: pop.names[index] };
    },
  };
}

/** Makes a user on `plan` with one main account whose id is the world person `accountId`. */
export async function dmSenderAccount(sql: Sql, accountId: string, plan = "pro"): Promise<string> {
  const [user] = await sql<{ id: number }[]>`insert into users (name, plan) values (${`DM sender ${accountId}`}, ${plan}) returning id`;
  await sql`
    insert into accounts (id, user_id, username, name, avatar_url)
    values (${accountId}, ${user.id}, ${`dm_${accountId.slice(-8)}`}, ${"DM sender"}, ${"https://example.com/a.png"})`;
  return accountId;
}

/** Everyone some account of the database has a DM queued or sent to. */
export async function messagedPeople(sql: Sql): Promise<Set<string>> {
  const rows = await sql<{ recipient_id: string }[]>`select distinct recipient_id from dm_messages`;
  return new Set(rows.map((row) => row.recipient_id));
}
