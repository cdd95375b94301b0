/**
 * Calendar: scheduled, sent and failed posts by month, week, day or as a list, in the account's
 * queue time zone (luxon's named zones: a post at 09:00 stays at 09:00 across a daylight-saving
 * change). Drag a post to move it; the calendar then shows the time the API answered. Open one
 * to see its parts, media, tags, status and error, and to move it to drafts or delete it. The
 * account's best times to post and its queue slots are marked in the week and day views.
 */
import type { EventClickArg, EventDropArg, EventInput, EventSourceFuncArg } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin from "@fullcalendar/interaction";
import listPlugin from "@fullcalendar/list";
import luxonPlugin from "@fullcalendar/luxon3";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useRef, useState } from "react";
import { api, failureMessage } from "../api.ts";
import { PostPanel } from "./post_panel.tsx";
import { useLiveEvents } from "../live_events.tsx";

/** Posts read per page while filling a visible range. */
const PAGE = 100;
/** The most pages one range reads (10,000 posts), so a huge month cannot stall the page. */
const MAX_PAGES = 100;

type Post = Awaited<ReturnType<typeof api.scheduledPosts.list.query>>["data"][number];

export default function Calendar() {
  const settings = useQuery({ queryKey: ["queue-settings"], queryFn: () => api.queue.get.query({}) });
  const best = useQuery({ queryKey: ["best-times"], queryFn: () => api.analytics.bestTimes.query({}) });
  const calendar = useRef<FullCalendar>(null);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<string>();
  const [notice, setNotice] = useState<{ text: string; error?: boolean }>();
  // A post scheduled, sent, failed or deleted elsewhere (another tab, the API, the publisher) redraws the calendar.
  useLiveEvents((event) => {
    if (event.type.startsWith("post.")) calendar.current?.getApi().refetchEvents();
  });
  const events = useCallback(async (range: EventSourceFuncArg): Promise<EventInput[]> => {
    const posts: Post[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await api.scheduledPosts.list.query({ from: range.start.toISOString(), to: range.end.toISOString(), limit: PAGE, page });
      posts.push(...answer.data);
      if (!answer.pagination.has_more) break;
    }
    return posts.filter((post) => post.scheduled_for).map(toEvent);
  }, []);
  // Stable sources: a new array or function would make the calendar fetch again on every render.
  const sources = useMemo(
    () => [events, bestTimeEvents(best.data?.data), queueSlotEvents(settings.data?.data.slots ?? [])],
    [events, best.data, settings.data],
  );
  if (settings.isPending) return <p aria-busy="true">Loading…</p>;
  const timeZone = settings.data?.data.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  const moved = async (info: EventDropArg) => {
    const to = info.event.start;
    if (!to) return info.revert();
    try {
      const { data } = await api.scheduledPosts.update.mutate({ id: info.event.id, scheduled_for: to.toISOString() });
      // The API's answer is the truth: show its time, not the drop's.
      info.event.setStart(data.scheduled_for ?? to);
      setNotice({
        text: `Moved to ${new Date(data.scheduled_for ?? to).toLocaleString(undefined, { dateStyle: "full", timeStyle: "short", timeZone })} (${timeZone})`,
      });
      queryClient.invalidateQueries({ queryKey: ["post", info.event.id] });
    } catch (error) {
      info.revert();
      setNotice({ text: failureMessage(error), error: true });
    }
  };

  return (
    <>
      <h1>Calendar</h1>
      <p className="muted">{`Times in ${timeZone}, the queue's time zone. Drag a scheduled post to move it.`}</p>
      <p role="status" className={notice?.error ? "error" : "ok"}>
        {notice?.text}
      </p>
      <div className="calendar">
        <FullCalendar
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin, luxonPlugin]}
          timeZone={timeZone}
          initialView="dayGridMonth"
          headerToolbar={{ start: "prev,next today", center: "title", end: "dayGridMonth,timeGridWeek,timeGridDay,listWeek" }}
          buttonIcons={false}
          buttonText={{ prev: "Previous", next: "Next", today: "Today", month: "Month", week: "Week", day: "Day", list: "List" }}
          // Blocks in the accent colour (readable on every theme) instead of dots in the text colour.
          eventDisplay="block"
          // A day cell is named by its date link; its events are its content, not its label.
          dayCellDidMount={({ el }) => el.removeAttribute("aria-labelledby")}
          eventSources={sources}
          editable
          eventDurationEditable={false}
          eventDrop={moved}
          eventClick={(info: EventClickArg) => {
            info.jsEvent.preventDefault();
            setOpen(info.event.id);
          }}
          height="auto"
        />
      </div>
      {open && (
        <PostPanel
          id={open}
          timeZone={timeZone}
          onClose={() => setOpen(undefined)}
          onChanged={() => {
            calendar.current?.getApi().refetchEvents();
          }}
        />
      )}
    </>
  );
}

/**
 * The best times to post as shaded hours of every week (week and day views). They are read in the
 * queue's time zone, the calendar's own, so each repeats at its weekday and hour there.
 */
function bestTimeEvents(best: Awaited<ReturnType<typeof api.analytics.bestTimes.query>>["data"] | undefined): EventInput[] {
  return (best?.best ?? []).map((slot) => ({
    groupId: "best-times",
    title: "Best time to post",
    // FullCalendar counts weekdays from Sunday = 0; the API's are ISO (Monday = 1 ... Sunday = 7).
    daysOfWeek: [slot.weekday % 7],
    startTime: `${String(slot.hour).padStart(2, "0")}:00`,
    endTime: `${String(slot.hour + 1).padStart(2, "0")}:00`,
    display: "background",
    classNames: ["best-time"],
  }));
}

/** Minutes a queue slot is drawn over (a slot is an instant; this makes it visible). */
const SLOT_MINUTES = 15;

/** The queue's weekly slots as marked times of the week and day views (days: 0 = Sunday, as the calendar counts). */
function queueSlotEvents(slots: readonly { time: string; days: number[] }[]): EventInput[] {
  return slots.map((slot) => {
    const [hours, minutes] = slot.time.split(":").map(Number);
    const end = hours * 60 + minutes + SLOT_MINUTES;
    return {
      groupId: "queue-slots",
      title: "Queue slot",
      daysOfWeek: slot.days,
      startTime: slot.time,
      endTime: `${String(Math.floor(end / 60)).padStart(2, "0")}:${String(end % 60).padStart(2, "0")}`,
      display: "background",
      classNames: ["queue-slot"],
    };
  });
}

/** A post as the calendar draws it: only a scheduled post can be dragged. */
function toEvent(post: Post): EventInput {
  const text = post.title ?? post.parts[0]?.text ?? "";
  return {
    id: post.id,
    title: `${post.parts.length > 1 ? `(${post.parts.length}) ` : ""}${text.slice(0, 60) || "Media post"}`,
    start: post.scheduled_for!,
    allDay: false,
    editable: post.status === "scheduled",
    classNames: [`post-${post.status}`],
  };
}
