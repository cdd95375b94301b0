/**
 * The idempotency state a request carries while it runs under a reserved `Idempotency-Key`
 * (spec: Idempotency). Reserved and stored by core/idempotency/idempotency.ts; handlers read
 * it for their atomic phases (core/idempotency/record_phase.ts).
 */

/** A request running under a reserved key (handlers use it for atomic phases). */
export interface IdempotentRun {
  ownerId: string;
  key: string;
  /** The last committed phase of an earlier attempt that died, or `started`. */
  recoveryPoint: string;
  phaseData: Record<string, unknown>;
}
