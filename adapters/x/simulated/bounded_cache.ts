/**
 * A map that forgets its oldest entries past a capacity: what keeps the lazily derived
 * world's memory bounded however much of it is read.
 */

/** A bounded cache with get-or-compute. */
export interface BoundedCache<K, V> {
  get(key: K, compute: () => V): V;
  readonly size: number;
  clear(): void;
}

/**
 * Creates a cache holding at most `capacity` units, each entry weighing `weigh(value)`
 * (default 1); when full, the oldest entries go until a tenth of the capacity is free.
 */
export function createBoundedCache<K, V>(capacity: number, weigh: (value: V) => number = () => 1): BoundedCache<K, V> {
  const entries = new Map<K, { value: V; weight: number }>();
  let load = 0;
  return {
    get(key, compute) {
      const hit = entries.get(key);
      if (hit) return hit.value;
      const value = compute();
      const weight = weigh(value);
      if (load + weight > capacity) {
        for (const [old, entry] of entries) {
          entries.delete(old);
          load -= entry.weight;
          if (load + weight <= capacity * 0.9) break;
        }
      }
      entries.set(key, { value, weight });
      load += weight;
      return value;
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
      load = 0;
    },
  };
}
