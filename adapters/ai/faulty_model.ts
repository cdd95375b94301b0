/**
 * The model that always fails: what `THREADLINE_FAULTS=ai` installs, so the paths where
 * the model is down (503, full refund) are testable through the real server
 * (ARCHITECTURE: "Fault switches for tests").
 */
import type { Model } from "../../core/model/model.ts";
import { ModelUnavailableError } from "../../core/model/model_errors.ts";

/** Creates a model whose every call rejects with `ModelUnavailableError`. */
export function createFaultyModel(): Model {
  const unavailable = () => Promise.reject(new ModelUnavailableError("The AI model is unavailable (THREADLINE_FAULTS=ai)", { reason: "fault" }));
  return { engine: "faulty", generate: unavailable, generateImage: unavailable };
}
