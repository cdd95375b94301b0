/** A list query shown as a table: loading and failure as QueryState shows them, a sentence when the list is empty. */
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { QueryState } from "./query_state.tsx";

/** A column header; `{ hidden }` names a column for screen readers only (a column of buttons). */
export type Column = string | { hidden: string };

export function QueryTable<Row>({
  query,
  columns,
  empty,
  children,
}: {
  query: UseQueryResult<{ data: readonly Row[] }>;
  columns: readonly Column[];
  /** Shown instead of the table when the list is empty; without it an empty list is an empty table. */
  empty?: string;
  /** One row's `<tr>`, with its key. */
  children: (row: Row) => ReactNode;
}) {
  return (
    <QueryState query={query}>
      {({ data }) =>
        data.length === 0 && empty !== undefined ? (
          <p>{empty}</p>
        ) : (
          <table>
            <thead>
              <tr>
                {columns.map((column) =>
                  typeof column === "string" ? (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ) : (
                    <th key={column.hidden} scope="col">
                      <span className="visually-hidden">{column.hidden}</span>
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>{data.map(children)}</tbody>
          </table>
        )
      }
    </QueryState>
  );
}
