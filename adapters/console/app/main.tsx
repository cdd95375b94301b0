/** The console's entry: signed out it shows the sign-in page, signed in the console itself. */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { isSignedOutFailure } from "./api.ts";
import { Shell } from "./shell.tsx";
import { SignIn } from "./pages/sign_in.tsx";
import { currentKey, onSessionChange, signOut } from "./session.ts";
import "./styles.css";

/** A key the API stops accepting (revoked, rotated away) signs the console out. */
const onFailure = (error: unknown) => {
  if (isSignedOutFailure(error)) signOut();
};

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onFailure }),
  mutationCache: new MutationCache({ onError: onFailure }),
  defaultOptions: { queries: { retry: (count, error) => !isSignedOutFailure(error) && count < 2, staleTime: 10_000 } },
});

function Console() {
  const [key, setKey] = useState(currentKey());
  useEffect(
    () =>
      onSessionChange((next) => {
        // Nothing of one key's answers is shown under another.
        queryClient.clear();
        setKey(next);
      }),
    [],
  );
  return key ? <Shell /> : <SignIn />;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Console />
    </QueryClientProvider>
  </StrictMode>,
);
