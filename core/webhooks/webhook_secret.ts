/**
 * Endpoint secrets and signatures, to the Standard Webhooks specification: a secret is
 * `whsec_` + base64 of random bytes (24 here, within the spec's 24 to 64), and a delivery is
 * signed `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` by the
 * `standardwebhooks` package, so any Standard Webhooks verifier accepts it. While a rotated
 * secret still signs, `webhook-signature` carries both signatures, space separated (the
 * specification's form for several signatures): a receiver holding either secret verifies.
 */
import { Webhook } from "standardwebhooks";

/** Random bytes in a secret. */
const SECRET_BYTES = 24;

/** A new secret, `whsec_` + base64. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The three Standard Webhooks headers of one attempt, signed with each of `secrets`. */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, new Date(timestamp * 1000), body));
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}
