/** Light or dark: the system's choice until the user picks one, remembered on this browser. */
const STORAGE_NAME = "threadline.theme";

export type Theme = "light" | "dark";

/** The theme in force. */
export function currentTheme(): Theme {
  const chosen = localStorage.getItem(STORAGE_NAME);
  if (chosen === "light" || chosen === "dark") return chosen;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Applies `theme` to the page and remembers it. */
export function applyTheme(theme: Theme): void {
  localStorage.setItem(STORAGE_NAME, theme);
  document.documentElement.dataset.theme = theme;
}
