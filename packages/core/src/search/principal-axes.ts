/**
 * The `count` principal axes of `rows` (core's build, scripts/sentence-vectors.mjs): the unit
 * directions, orthogonal to one another, along which the rows vary most, most first. A table
 * of word vectors projected onto them keeps most of how its words differ in fewer dimensions,
 * and every dot product of a search costs that many fewer multiplications. Found by subspace
 * iteration on the rows' covariance: a block of vectors, a few more than asked for, multiplied
 * by it and made orthonormal again, `iterations` times, from a fixed start (the same rows give
 * the same axes on every build).
 */
export function principalAxes(rows: readonly ArrayLike<number>[], count: number, iterations = 40): Float64Array[] {
  const dims = rows[0]?.length ?? 0;
  const wanted = Math.min(count, dims);
  if (wanted <= 0) return [];
  const covariance = covarianceOf(rows, dims);
  // The extra vectors take the slow part of the convergence, that of the axes just past the last wanted.
  const block = Math.min(dims, wanted + 16);
  let seed = 1;
  const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647 - 0.5;
  let axes: Float64Array[] = Array.from({ length: block }, () => Float64Array.from({ length: dims }, next));
  orthonormalise(axes);
  for (let i = 0; i < iterations; i++) {
    axes = axes.map((axis) => times(covariance, axis));
    orthonormalise(axes);
  }
  const variance = axes.map((axis) => dot(axis, times(covariance, axis)));
  return axes
    .map((axis, i) => ({ axis, variance: variance[i]! }))
    .sort((a, b) => (a.variance > b.variance ? -1 : a.variance < b.variance ? 1 : 0))
    .slice(0, wanted)
    .map(({ axis }) => axis);
}

/** `row`'s coordinates along `axes`. */
export function projectOnto(row: ArrayLike<number>, axes: readonly Float64Array[]): Float64Array {
  return Float64Array.from(axes, (axis) => dot(axis, row));
}

/** The rows' covariance (about their mean), `dims` × `dims`, row after row. */
function covarianceOf(rows: readonly ArrayLike<number>[], dims: number): Float64Array {
  const mean = new Float64Array(dims);
  for (const row of rows) for (let d = 0; d < dims; d++) mean[d]! += row[d]! / rows.length;
  const covariance = new Float64Array(dims * dims);
  const centred = new Float64Array(dims);
  for (const row of rows) {
    for (let d = 0; d < dims; d++) centred[d] = row[d]! - mean[d]!;
    for (let a = 0; a < dims; a++) {
      const ca = centred[a]!;
      for (let b = a, at = a * dims + a; b < dims; b++, at++) covariance[at]! += ca * centred[b]!;
    }
  }
  for (let a = 0; a < dims; a++) {
    for (let b = a; b < dims; b++) {
      const value = covariance[a * dims + b]! / Math.max(1, rows.length - 1);
      covariance[a * dims + b] = value;
      covariance[b * dims + a] = value;
    }
  }
  return covariance;
}

function times(matrix: Float64Array, vector: Float64Array): Float64Array {
  const dims = vector.length;
  const out = new Float64Array(dims);
  for (let a = 0; a < dims; a++) {
    let sum = 0;
    for (let b = 0, at = a * dims; b < dims; b++, at++) sum += matrix[at]! * vector[b]!;
    out[a] = sum;
  }
  return out;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}

/** Gram–Schmidt, in place: each vector made orthogonal to those before it, then of unit length. */
function orthonormalise(vectors: Float64Array[]): void {
  vectors.forEach((v, i) => {
    for (let j = 0; j < i; j++) {
      const u = vectors[j]!;
      const along = dot(v, u);
      for (let d = 0; d < v.length; d++) v[d]! -= along * u[d]!;
    }
    const norm = Math.sqrt(dot(v, v)) || 1;
    for (let d = 0; d < v.length; d++) v[d]! /= norm;
  });
}
