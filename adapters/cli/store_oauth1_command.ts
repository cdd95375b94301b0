/**
 * `threadline accounts x-oauth1 --user <id>`: stores an account's OAuth 1.0a access token and
 * secret (docs/x.md, "OAuth 1.0a tokens"). They are read from the environment
 * (`X_ACCESS_TOKEN`, `X_ACCESS_TOKEN_SECRET`) so they stay out of the shell's history and the
 * process list; X checks them (`GET /2/users/me`, signed with them and `X_CONSUMER_KEY` /
 * `X_CONSUMER_SECRET`) before they are stored sealed. The answer names the account, never a token.
 */
import type { Services } from "../../core/context.ts";
import { storeXOAuth1Token } from "../../core/accounts/store_oauth1_token.ts";
import { resumeAccountPublishing } from "../../core/scheduling/publish_pause.ts";
import { configFromEnv } from "../runtime/config.ts";
import { oauth1IdentityOf } from "../x/x_oauth1_identity.ts";
import { type Args, integerFlag } from "./args.ts";

/** Checks and stores the OAuth 1.0a token in the environment for user `--user`; answers the account it acts as. */
export async function storeOAuth1Command(services: Services, args: Args, env: Record<string, string | undefined> = process.env) {
  const userId = integerFlag(args, "user");
  if (userId === undefined) throw new Error("--user is required");
  const config = configFromEnv(env);
  if (!config.xConsumerKey || !config.xConsumerSecret) throw new Error("Storing an OAuth 1.0a token needs X_CONSUMER_KEY and X_CONSUMER_SECRET");
  const verify = oauth1IdentityOf({
    baseUrl: config.xApiBaseUrl,
    consumer: { key: config.xConsumerKey, secret: config.xConsumerSecret },
    timeoutMs: config.xApiTimeoutMs,
  });
  const stored = await storeXOAuth1Token(services, { userId, token: env.X_ACCESS_TOKEN ?? "", secret: env.X_ACCESS_TOKEN_SECRET ?? "" }, verify);
  // Posts that waited for the account to be connected again publish now (docs/x.md).
  await resumeAccountPublishing(services, stored.account_id);
  return stored;
}
