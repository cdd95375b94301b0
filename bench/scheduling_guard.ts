import type { RoutesUnderTest } from "./routes_under_test.ts";
import type { GuardFigure } from "./guard_figures.ts";
export async function guardScheduling(_routes: RoutesUnderTest, _signal: AbortSignal): Promise<GuardFigure[]> {
  return [];
}
