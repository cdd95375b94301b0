/** What a section shows while its query loads or when it failed. */
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { failureMessage } from "./api.ts";

export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <p aria-busy="true">Loading…</p>;
  if (query.isError)
    return (
      <p role="alert" className="error">
        {failureMessage(query.error)}
      </p>
    );
  return <>{children(query.data)}</>;
}
