/**
 * Ridge regression on standardised features, the viral score's per-counter model
 * (supplement: Content, viral-score). A post history is small (tens of posts) and
 * noisy, so the penalty pulls every coefficient toward "no effect" unless the history
 * shows one consistently; a feature that never varies gets no coefficient at all.
 */

/** A fitted model: `predict(x)` answers the estimate for a raw feature row. */
export interface RidgeModel {
  intercept: number;
  /** Per feature, on the standardised scale (0 where the feature never varied). */
  coefficients: number[];
  means: number[];
  scales: number[];
  /** Whether the feature varied in the data (a constant feature has no coefficient). */
  active: boolean[];
}

/** Fits `y ~ X` with penalty `lambda` on the standardised coefficients. */
export function fitRidge(rows: readonly number[][], y: readonly number[], lambda: number): RidgeModel {
  const n = rows.length;
  const p = rows[0]?.length ?? 0;
  const means = Array.from({ length: p }, (_, j) => rows.reduce((sum, row) => sum + row[j], 0) / Math.max(n, 1));
  const scales = means.map((mean, j) => Math.sqrt(rows.reduce((sum, row) => sum + (row[j] - mean) ** 2, 0) / Math.max(n, 1)));
  const active = scales.map((scale) => scale > 1e-9);
  const yMean = y.reduce((sum, value) => sum + value, 0) / Math.max(n, 1);
  const z = rows.map((row) => row.map((value, j) => (active[j] ? (value - means[j]) / scales[j] : 0)));
  // Normal equations (Z'Z + lambda I) b = Z'(y - mean y), solved by Gaussian elimination.
  const a = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => z.reduce((sum, row) => sum + row[i] * row[j], 0) + (i === j ? lambda : 0)));
  const b = Array.from({ length: p }, (_, i) => z.reduce((sum, row, k) => sum + row[i] * (y[k] - yMean), 0));
  const coefficients = solve(a, b).map((value, j) => (active[j] ? value : 0));
  return { intercept: yMean, coefficients, means, scales: scales.map((scale, j) => (active[j] ? scale : 1)), active };
}

/** The standardised value of each feature of `row` (0 = the history's average). */
export function standardise(model: RidgeModel, row: readonly number[]): number[] {
  return row.map((value, j) => (model.active[j] ? (value - model.means[j]) / model.scales[j] : 0));
}

/** The model's estimate for `row`. */
export function predictRidge(model: RidgeModel, row: readonly number[]): number {
  return standardise(model, row).reduce((sum, value, j) => sum + value * model.coefficients[j], model.intercept);
}

/** Solves `a x = b` with partial pivoting (`a` is positive definite here, thanks to the penalty). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(m[row][col]) > Math.abs(m[pivot][col])) pivot = row;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    const lead = m[col][col] || 1e-12;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = m[row][col] / lead;
      for (let k = col; k <= n; k++) m[row][k] -= factor * m[col][k];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

/** The `q` quantile (0 to 1) of `values`, linear between ranks. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}
