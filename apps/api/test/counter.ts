/** Numbers 1, 2, 3… for the names and codes a test file keeps unique: `const next = counter();`. */
export function counter(): () => number {
  let value = 0;
  return () => {
    value += 1;
    return value;
  };
}
