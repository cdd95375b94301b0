/**
 * A small seeded generator (mulberry32) with the draws the world needs. A class, not a
 * closure bundle: the world makes one per person-day and per text, and tsx wraps every
 * closure it creates in a name-setting call that costs more than the draws.
 */

/** A deterministic stream of random draws. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Uniform in [low, high). */
  range(low: number, high: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** Log-normal with this median and log-scale spread. */
  logNormal(median: number, sigma: number): number;
  /** Poisson count with mean `lambda` (Knuth; the world's means are small). */
  poisson(lambda: number): number;
}

class Mulberry32 implements Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  range(low: number, high: number): number {
    return low + this.next() * (high - low);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let count = 0;
    for (let p = this.next(); p > limit; p *= this.next()) count++;
    return count;
  }
}

/** A generator seeded with a 32-bit integer; equal seeds give equal streams. */
export function createRandom(seed: number): Random {
  return new Mulberry32(seed);
}
