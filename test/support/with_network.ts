/** Swapping the social network of a running harness for one test (dependency injection, not a module mock). */
import type { Services } from "../../core/context.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";

/** Runs `body` with `services.network` replaced by `network`, restoring it afterwards. */
export async function withNetwork<T>(services: Services, network: SocialNetwork, body: () => Promise<T>): Promise<T> {
  const original = services.network;
  services.network = network;
  try {
    return await body();
  } finally {
    services.network = original;
  }
}
