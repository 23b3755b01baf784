/**
 * A number literal of a typed arithmetic operator (Long, Double, Decimal128), kept as written:
 * mingo evaluates it to itself and the plain view of the pipeline does not unwrap it.
 */
export class TypedLiteral {
  constructor(readonly value: unknown) {}
}

export function unwrapLiteral(value: unknown): unknown {
  return value instanceof TypedLiteral ? value.value : value;
}
