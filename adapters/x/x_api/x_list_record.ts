/** X API v2 list objects as the port's NetworkList. */
import type { NetworkList } from "../../../core/network/network_records.ts";
import type { XList } from "./x_api_types.ts";
import { isoTime } from "./x_text.ts";

/** The list an X list object describes. */
export function listFromX(list: XList): NetworkList {
  return {
    id: list.id,
    name: list.name,
    description: list.description ?? "",
    ownerId: list.owner_id ?? "",
    private: list.private ?? false,
    memberCount: list.member_count ?? 0,
    followerCount: list.follower_count ?? 0,
    createdAt: isoTime(list.created_at, 0),
  };
}
