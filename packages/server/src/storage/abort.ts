/** Thrown inside a storage transaction to roll it back with the reason the caller is told. */
export class Abort extends Error {
  constructor(readonly reason: 'not_found' | 'conflict' | 'idempotency_race') {
    super(reason);
  }
}
