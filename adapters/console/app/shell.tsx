/** The signed-in console: navigation, the theme switch, sign-out, and the page of the route. */
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, Route, Router, Switch } from "wouter";
import { signOut } from "./session.ts";
import { applyTheme, currentTheme } from "./theme.ts";
import { Home } from "./pages/home.tsx";
import { LiveEvents } from "./live_events.tsx";

const Calendar = lazy(() => import("./pages/calendar.tsx"));
const Compose = lazy(() => import("./pages/compose.tsx"));
const Analytics = lazy(() => import("./pages/analytics.tsx"));
const Audience = lazy(() => import("./pages/audience.tsx"));
const Datasets = lazy(() => import("./pages/datasets.tsx"));
const Engage = lazy(() => import("./pages/engage.tsx"));
const Developers = lazy(() => import("./pages/developers.tsx"));

const PAGES = [
  { path: "/", label: "Home" },
  { path: "/calendar", label: "Calendar" },
  { path: "/compose", label: "Compose" },
  { path: "/analytics", label: "Analytics" },
  { path: "/audience", label: "Audience" },
  { path: "/datasets", label: "Datasets" },
  { path: "/engage", label: "Engage" },
  { path: "/developers", label: "Developers" },
] as const;

export function Shell() {
  const [theme, setTheme] = useState(currentTheme);
  useEffect(() => applyTheme(theme), [theme]);
  return (
    <LiveEvents>
      <Router base="/console">
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="bar">
          <strong className="brand">Threadline</strong>
          <nav aria-label="Console">
            {PAGES.map((page) => (
              <Link key={page.path} href={page.path} className={(active: boolean) => (active ? "active" : "")}>
                {page.label}
              </Link>
            ))}
          </nav>
          <div className="bar-actions">
            <button
              type="button"
              onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
              aria-label={`Switch to ${theme === "dark" ? "light" : "dark"} theme`}
            >
              {theme === "dark" ? "Light" : "Dark"}
            </button>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </header>
        <main id="main">
          <Suspense fallback={<p aria-busy="true">Loading…</p>}>
            <Switch>
              <Route path="/" component={Home} />
              <Route path="/calendar" component={Calendar} />
              <Route path="/compose" component={Compose} />
              <Route path="/analytics" component={Analytics} />
              <Route path="/audience" component={Audience} />
              <Route path="/datasets" component={Datasets} />
              <Route path="/engage" component={Engage} />
              <Route path="/developers" component={Developers} />
              <Route>
                <h1>Not found</h1>
                <p>
                  <Link href="/">Back to Home</Link>
                </p>
              </Route>
            </Switch>
          </Suspense>
        </main>
      </Router>
    </LiveEvents>
  );
}
