/** Runs a network call and answers its failures with the API's codes. */
import { networkApiError, type NetworkErrorCodes } from "./network_api_error.ts";

/**
 * Awaits `call`, rethrowing a network failure as the ApiError `networkApiError` picks.
 *
 * @example
 * const user = await callNetwork(() => ctx.services.network.userByUsername(handle));
 */
export async function callNetwork<T>(call: () => Promise<T>, codes: NetworkErrorCodes = {}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw networkApiError(error, codes);
  }
}
