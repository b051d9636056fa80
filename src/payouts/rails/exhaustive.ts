/** The default branch of an exhaustive `switch` over a union: a case left out does not compile. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
