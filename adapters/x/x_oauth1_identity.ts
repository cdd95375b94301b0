/**
 * Who an OAuth 1.0a access token acts as: `GET /2/users/me` signed with it and the app's API key
 * and secret (adapters/x/x_api/x_oauth1.ts), for storing the token (core/accounts/store_oauth1_token.ts).
 */
import { systemClock } from "../../core/clock.ts";
import type { XIdentity } from "../../core/ports/x_oauth.ts";
import { createXApiClient } from "./x_api/x_api_client.ts";
import type { XConsumer, XOAuth1Token } from "./x_api/x_oauth1.ts";

/** How to reach X to check a token. */
export interface OAuth1IdentitySettings {
  /** The API root (`X_API_BASE_URL`, default `https://api.x.com`). */
  baseUrl?: string;
  consumer: XConsumer;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Answers `verify(token)`: the X account `token` acts as; X's refusal is a NetworkUpstreamError with status 401. */
export function oauth1IdentityOf(settings: OAuth1IdentitySettings): (token: XOAuth1Token) => Promise<XIdentity> {
  const client = createXApiClient({
    baseUrl: settings.baseUrl ?? "https://api.x.com",
    bearerToken: "",
    consumer: settings.consumer,
    fetch: settings.fetch ?? globalThis.fetch,
    timeoutMs: settings.timeoutMs ?? 10_000,
    clock: systemClock,
  });
  return async (token) => {
    const { data } = await client.data<{ id: string; username: string; name?: string; profile_image_url?: string }>({
      path: "/2/users/me",
      query: { "user.fields": "profile_image_url" },
      actingAs: { userId: "me", oauth1: token },
      subject: { resource: "user", ref: "me" },
    });
    return {
      id: data.id,
      username: data.username,
      name: data.name ?? data.username,
      avatarUrl: data.profile_image_url ?? `https://x.com/${data.username}/photo`,
    };
  };
}
