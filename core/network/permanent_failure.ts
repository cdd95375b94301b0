/**
 * Permanent versus retryable failures of the SocialNetwork port, judged once for every
 * caller that retries network work (the post and article publishers, the DM sender): a
 * permanent failure ends the work with a reason, any other is worth a retry.
 */
import { NetworkBadRequestError, NetworkNotFoundError, NetworkPrivateError, NetworkRejectedError } from "./network_errors.ts";

/**
 * The network answered that this work can never succeed as it is (refused, a post it
 * answers is gone, the account cannot be found): retrying would only fail again.
 * Unreachable, timed out, rate limited or an unexpected answer are worth a retry.
 */
export function isPermanentFailure(error: unknown): boolean {
  return (
    error instanceof NetworkRejectedError ||
    error instanceof NetworkNotFoundError ||
    error instanceof NetworkPrivateError ||
    error instanceof NetworkBadRequestError
  );
}
