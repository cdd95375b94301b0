/**
 * A job that must wait rather than fail: a handler throws JobDeferral to have its job run
 * again at `retryAt` (an upstream's rate window resets then), instead of after the backoff,
 * and without spending one of its bounded attempts: waiting for a window is not a failure.
 */

/** Thrown by a handler: run the job again at `retryAt`; the attempt is given back. */
export class JobDeferral extends Error {
  readonly retryAt: Date;
  constructor(retryAt: Date, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "JobDeferral";
    this.retryAt = retryAt;
  }
}
