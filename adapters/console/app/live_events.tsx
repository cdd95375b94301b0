/**
 * One event stream per signed-in tab, shared by every page: each event refreshes the answers it
 * makes stale (a `lead.found` the lead inbox, a `post.*` the calendar and failures), and the
 * Developers page shows the latest events. A page with its own view to refresh (the calendar)
 * listens with `useLiveEvents`.
 */
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { type ApiEvent, followEvents } from "./event_stream.ts";

/** Events kept for the feed, newest first. */
const KEPT = 50;

/** The query keys (prefixes) each event type's family makes stale. */
const STALE: Record<string, readonly (readonly string[])[]> = {
  post: [["posts"], ["post"], ["me"]],
  article: [["posts"]],
  lead: [["leads"], ["agents"], ["contact-lists"]],
  dataset: [["datasets"], ["dataset"], ["dataset-rows"]],
  dm: [["dm-campaigns"]],
  dm_campaign: [["dm-campaigns"]],
  credits: [["me"]],
  account: [["accounts"]],
  webhook: [["webhooks"]],
};

interface Live {
  events: ApiEvent[];
  connected: boolean;
  listen(listener: (event: ApiEvent) => void): () => void;
}

const LiveContext = createContext<Live>({ events: [], connected: false, listen: () => () => {} });

/** Refreshes what an event makes stale. */
function invalidate(queryClient: QueryClient, event: ApiEvent): void {
  for (const queryKey of STALE[event.type.split(".")[0]] ?? []) queryClient.invalidateQueries({ queryKey: [...queryKey] });
}

export function LiveEvents({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<ApiEvent[]>([]);
  const [connected, setConnected] = useState(false);
  const listeners = useRef(new Set<(event: ApiEvent) => void>());
  useEffect(() => {
    const stop = new AbortController();
    followEvents(
      (event) => {
        setEvents((kept) => [event, ...kept].slice(0, KEPT));
        invalidate(queryClient, event);
        for (const listener of listeners.current) listener(event);
      },
      setConnected,
      stop.signal,
    );
    return () => stop.abort();
  }, [queryClient]);
  const listen = useCallback((listener: (event: ApiEvent) => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);
  return <LiveContext.Provider value={{ events, connected, listen }}>{children}</LiveContext.Provider>;
}

/** The latest events and whether the stream is connected. */
export function useLive(): Pick<Live, "events" | "connected"> {
  const { events, connected } = useContext(LiveContext);
  return { events, connected };
}

/** Calls `listener` for each event while the component is mounted. */
export function useLiveEvents(listener: (event: ApiEvent) => void): void {
  const { listen } = useContext(LiveContext);
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    return listen((event) => latest.current(event));
  }, [listen]);
}
