/** What the X API v2 adapter's reads and writes share. */
import type { Clock } from "../../../core/clock.ts";
import type { XActor, XApiClient } from "./x_api_client.ts";

/** The client, the clock, and user-context auth for writes. */
export interface XApiContext {
  client: XApiClient;
  clock: Clock;
  /** `userId` with the user-context token that acts as it; rejects (NetworkRejectedError) when there is none. */
  actorFor(userId: string): Promise<XActor>;
}
