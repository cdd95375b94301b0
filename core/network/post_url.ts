/** Links to posts and profiles on X. */

/** `https://x.com/<username>/status/<id>`. */
export function postUrl(username: string, postId: string): string {
  return `https://x.com/${username}/status/${postId}`;
}
