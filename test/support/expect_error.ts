/** The one assertion every suite makes of an error answer (spec: Errors). */
import assert from "node:assert/strict";

/**
 * Asserts that `answer` is the error `code` with HTTP `status`; a failure shows the body,
 * after `label` when given (the transport, the case).
 */
export function expectError(answer: { status: number; body: any }, status: number, code: string, label?: string): void {
  const shown = label === undefined ? JSON.stringify(answer.body) : `${label}: ${JSON.stringify(answer.body)}`;
  assert.equal(answer.status, status, shown);
  assert.equal(answer.body?.error?.code, code, shown);
}
