/**
 * The OAuth 2.0 scopes a connection asks for, each for what Threadline does with it (X's
 * developer documentation, fundamentals/authentication/oauth-2-0/authorization-code.mdx,
 * "Scopes"): `offline.access` is what makes X issue a refresh token; without it the account
 * would need connecting again every two hours.
 */
export const X_SCOPES = [
  // Reading posts: analytics, received replies, the content sync.
  "tweet.read",
  // Publishing posts, threads, reposts and deleting them.
  "tweet.write",
  // The connected account itself (`/2/users/me`) and profile lookups.
  "users.read",
  // Refresh tokens: staying connected past the access token's two hours.
  "offline.access",
  // Uploading images, GIFs and video for posts.
  "media.write",
  // DM campaigns: reading conversations and sending.
  "dm.read",
  "dm.write",
  // The audience index: followers and following.
  "follows.read",
  // X lists as contact lists and lead sources.
  "list.read",
] as const;
