/** Shapes of connecting X accounts (docs/x.md): `POST /v1/accounts/connect`. */
import { z } from "zod";
import { timestamp } from "../schema.ts";

/** The body: nothing (the connection is the key's user's; X's consent screen picks the account). Unknown fields are ignored. */
export const startConnectInput = z.object({}).prefault({});

/** Where to send the user to approve. */
export const connectStart = z.object({
  authorize_url: z.string().meta({ description: "Open it in the browser of the person who owns the X account; valid until `expires_at`" }),
  state: z.string().meta({ description: "The one-time value X sends back to the callback with the code" }),
  callback_url: z.string().meta({ description: "Where X sends the browser back; registered as a callback URL in the operator's X app" }),
  scopes: z.array(z.string()).meta({ description: "The OAuth 2.0 scopes asked for" }),
  expires_at: timestamp.meta({ description: "The link works until then (10 minutes), once" }),
});
