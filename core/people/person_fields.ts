/**
 * The person fields every member row shares (spec: Contact list member): contacts, contact
 * list members, audience members and leads all show a person the same way, from one shape
 * and one mapper.
 */
import { z } from "zod";

/** The shared fields of a person row. */
export const personFields = {
  x_user_id: z.string(),
  username: z.string(),
  name: z.string(),
  avatar_url: z.string(),
  location: z.string(),
  followers_count: z.number().int(),
  following_count: z.number().int(),
  engaged_count: z.number().int().meta({ description: "Replies plus reposts to the account in the last 90 days" }),
};

/** The stored columns the person fields come from. */
export interface PersonColumns {
  x_user_id: string;
  username: string;
  name: string;
  avatar_url: string;
  location: string;
  followers_count: number;
  following_count: number;
  engaged_count: number;
}

/** The person fields of a stored row. */
export function personOf(row: PersonColumns): z.infer<z.ZodObject<typeof personFields>> {
  return {
    x_user_id: row.x_user_id,
    username: row.username,
    name: row.name,
    avatar_url: row.avatar_url,
    location: row.location,
    followers_count: row.followers_count,
    following_count: row.following_count,
    engaged_count: row.engaged_count,
  };
}
