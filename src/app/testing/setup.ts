import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { endSession } from '../lib/session';

configureApiClient();
// The dashboard writes figures and times in the browser's language (lib/format.ts); jsdom's is en-US.
// The tests read as a British team does, as Playwright's browser (its config) and the screenshots do.
Object.defineProperty(window.navigator, 'language', { configurable: true, get: () => 'en-GB' });
// findBy… and waitFor wait up to 4 s (1 s by default): a loaded machine renders Mantine's forms slowly.
configure({ asyncUtilTimeout: 4_000 });

afterEach(() => {
  cleanup();
  // The toast store outlives the component tree: a toast of one test must not be found by the next.
  notifications.clean();
  endSession();
  window.localStorage.clear();
  document.cookie = 'herald_csrf=; path=/; max-age=0';
  vi.unstubAllGlobals();
});

// jsdom lacks the browser APIs Mantine relies on (media queries, element resizing, scrolling).
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub implements ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;

Element.prototype.scrollIntoView = () => {};

// jsdom does not implement pseudo-elements and warns when Mantine asks for them.
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// jsdom has no FontFaceSet; Mantine's autosizing Textarea listens to it for web fonts loading.
if (!('fonts' in document)) {
  const fonts = new EventTarget();
  Object.defineProperty(document, 'fonts', { configurable: true, value: Object.assign(fonts, { ready: Promise.resolve(fonts) }) });
}
