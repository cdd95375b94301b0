/**
 * DMs on the simulated network. A person accepts DMs from anyone when their settings
 * allow it (most do), otherwise only from accounts they engage with (whose circle
 * holds them), as X's "followers only" setting behaves.
 */
import { NetworkNotFoundError, NetworkRejectedError } from "../../../core/network/network_errors.ts";
import type { NetworkDm, Page, PageRequest } from "../../../core/network/network_records.ts";
import type { SendDmInput } from "../../../core/network/social_network.ts";
import { keysetPage, pageSize, readTimeCursor } from "./paging.ts";
import { peopleByIds, requirePerson } from "./people.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { isoTime } from "./time_units.ts";
import { dmByToken, dmsOfUser, insertDm, nextWriteSeq, type DmRow } from "./written_queries.ts";

const DM_BASE = 1_890_000_000_000_000_000n;

/** Sends a DM. */
export async function sendDm(ctx: SimulatedContext, input: SendDmInput): Promise<NetworkDm> {
  const sender = await requirePerson(ctx, input.senderId);
  const [recipient] = await peopleByIds(ctx, [input.recipientId]);
  if (!recipient) throw new NetworkNotFoundError("dm", input.recipientId, `Cannot find user "${input.recipientId}" on X`);
  if (input.senderId === input.recipientId) throw new NetworkRejectedError("invalid", "An account cannot DM itself");
  if (input.text.trim() === "" || input.text.length > 10_000) throw new NetworkRejectedError("invalid", "A DM needs 1 to 10,000 characters");
  if (input.token !== undefined) {
    const existing = await dmByToken(ctx.sql, input.senderId, input.token);
    if (existing) return dmOf(existing);
  }
  const { world } = ctx;
  if (recipient.kind === "world" && !world.pop.canDm[recipient.index]) {
    const engaged = sender.kind === "world" && world.circle(sender.index).includes(recipient.index);
    if (!engaged) throw new NetworkRejectedError("dm_closed", `User "${input.recipientId}" does not accept DMs from this account`);
  }
  const now = ctx.clock.now();
  const seq = await nextWriteSeq(ctx.sql);
  const row = await insertDm(ctx.sql, {
    seq,
    dm_id: String(DM_BASE + BigInt(seq)),
    sender_id: input.senderId,
    recipient_id: input.recipientId,
    text: input.text,
    client_token: input.token ?? null,
    created_at: new Date(now),
  });
  const stored = row ?? (input.token === undefined ? undefined : await dmByToken(ctx.sql, input.senderId, input.token));
  if (!stored) throw new NetworkRejectedError("invalid", "The DM could not be stored");
  return dmOf(stored);
}

/** DMs a person sent or received, newest first. */
export async function directMessagesPage(ctx: SimulatedContext, userId: string, options: PageRequest = {}): Promise<Page<NetworkDm>> {
  const limit = pageSize(options.limit, 50, 100);
  const cursor = readTimeCursor(options.cursor);
  const rows = await dmsOfUser(ctx.sql, userId, cursor ?? { ms: Date.UTC(9999, 0, 1), id: "" }, limit + 1);
  return keysetPage(
    rows.map((row) => ({ ms: row.created_at.getTime(), id: row.dm_id, row })),
    limit,
    (item) => dmOf(item.row),
  );
}

function dmOf(row: DmRow): NetworkDm {
  return { id: row.dm_id, senderId: row.sender_id, recipientId: row.recipient_id, text: row.text, createdAt: isoTime(row.created_at.getTime()) };
}
