/** The live event feed: events of the user's accounts as they happen (the tab's event stream). */
import { dateTime } from "../format.ts";
import { useLive } from "../live_events.tsx";

export function EventFeed() {
  const { events, connected } = useLive();
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
