import { localStorageColorSchemeManager } from '@mantine/core';

/**
 * Where the chosen colour scheme (light, dark, or auto: the system's) is remembered. public/color-scheme.js
 * reads the same key before the first paint, so a dark page never flashes white while the code loads.
 */
export const COLOR_SCHEME_STORAGE_KEY = 'herald.color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });
