/**
 * The dot product of `vector` with the row of `matrix` that starts at `offset` (as long as
 * `vector`). Four sums side by side: each add waits only for its own sum's last one, about
 * twice as fast as one running sum over the 192 dimensions of a sentence vector.
 */
export function dotProduct(vector: Float32Array, matrix: Float32Array, offset: number): number {
  const dims = vector.length;
  const whole = dims - (dims % 4);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (let at = offset; i < whole; i += 4, at += 4) {
    a += vector[i]! * matrix[at]!;
    b += vector[i + 1]! * matrix[at + 1]!;
    c += vector[i + 2]! * matrix[at + 2]!;
    d += vector[i + 3]! * matrix[at + 3]!;
  }
  for (; i < dims; i++) a += vector[i]! * matrix[offset + i]!;
  return a + b + c + d;
}
