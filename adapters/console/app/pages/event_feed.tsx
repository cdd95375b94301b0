/** The live event feed: events of the user's accounts as they happen (the event stream). */
import { useEffect, useState } from "react";
import { type ApiEvent, followEvents } from "../event_stream.ts";
import { dateTime } from "../format.ts";

/** Events kept on screen, newest first. */
const SHOWN = 50;

export function EventFeed() {
  const [events, setEvents] = useState<ApiEvent[]>([]);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const stop = new AbortController();
    followEvents((event) => setEvents((shown) => [event, ...shown].slice(0, SHOWN)), setConnected, stop.signal);
    return () => stop.abort();
  }, []);
  return (
    <section className="card" aria-labelledby="feed-title">
      <h2 id="feed-title">Live events</h2>
      <p className="muted">{connected ? "Connected: new events appear here as they happen." : "Connecting…"}</p>
      {events.length === 0 ? (
        <p>No event since this page opened.</p>
      ) : (
        <ul className="plain" aria-live="polite">
          {events.map((event) => (
            <li key={event.id} className="event">
              <code>{event.type}</code> <span className="muted">{`${dateTime(event.created_at)} · account ${event.account_id ?? "—"} · ${event.id}`}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
