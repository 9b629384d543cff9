// Before the first paint: the colour scheme chosen in the dashboard (src/app/color-scheme.ts), else
// the system's, so a dark page never flashes white while the dashboard's code loads. A file, not an
// inline script: the Content-Security-Policy allows scripts of this origin only.
try {
  const chosen = window.localStorage.getItem('herald.color-scheme');
  const dark = chosen === 'dark' || (chosen !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
} catch {
  // No storage (a locked-down browser): the dashboard decides once it runs.
}
