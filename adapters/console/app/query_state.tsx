/** What a section shows while its query loads or when it failed, and how a failed call is told. */
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { failureMessage } from "./api.ts";

/** A failed call's message and code, announced; nothing when there is no failure. */
export function Failure({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {failureMessage(error)}
    </p>
  );
}

export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <p aria-busy="true">Loading…</p>;
  if (query.isError) return <Failure error={query.error} />;
  return <>{children(query.data)}</>;
}
