/**
 * Stateless hashing of small integer tuples (murmur3's mixing steps). The world asks
 * "does user U reply to post P?" from both sides, the post's and the user's; hashing
 * (seed, P, U) gives both the same answer without storing anything.
 */

function mix(h: number, value: number): number {
  let v = Math.imul(value | 0, 0xcc9e2d51);
  v = (v << 15) | (v >>> 17);
  v = Math.imul(v, 0x1b873593);
  h ^= v;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of up to five integers (unused trailing parts are 0). */
export function hash32(a: number, b = 0, c = 0, d = 0, e = 0): number {
  return finish(mix(mix(mix(mix(mix(0x9747b28c, a), b), c), d), e));
}

/** The hash as a number in [0, 1). */
export function unitHash(a: number, b = 0, c = 0, d = 0, e = 0): number {
  return hash32(a, b, c, d, e) / 4294967296;
}

/** A 32-bit hash of a string (seeds from names and tokens). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = mix(h, text.charCodeAt(i));
  return finish(h);
}
