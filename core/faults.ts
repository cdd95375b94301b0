/**
 * Fault switches (`THREADLINE_FAULTS=accounts,scheduler,x,ai,counters,billing`) make a
 * named dependency fail so the fail-closed paths are testable through the real server
 * (ARCHITECTURE: "Fault switches for tests"). `billing` is Threadline's addition: it
 * makes subscription verification fail (the legacy `500 internal_error:` answer).
 */
export const FAULT_NAMES = ["accounts", "scheduler", "x", "ai", "counters", "billing"] as const;

/** A dependency that can be made to fail. */
export type FaultName = (typeof FAULT_NAMES)[number];

/** Parses a comma list of fault names; unknown names are an error so typos do not pass silently. */
export function parseFaults(text: string | undefined): ReadonlySet<FaultName> {
  const names = (text ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(FAULT_NAMES as readonly string[]).includes(name)) {
      throw new Error(`Unknown fault "${name}" in THREADLINE_FAULTS (known: ${FAULT_NAMES.join(", ")})`);
    }
  }
  return new Set(names as FaultName[]);
}
