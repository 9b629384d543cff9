import { createTheme, darken, DEFAULT_THEME, lighten, luminance, Modal, Table, type CSSVariablesResolver } from '@mantine/core';

/**
 * WCAG AA asks 4.5:1 of normal text against its background; a little above it, so that rounding and
 * blending never take a colour under.
 */
const AA = 4.6;

function contrast(foreground: string, background: string): number {
  const [lighter, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** `color`, darkened (for a light background) or lightened (for a dark one) by steps of 5% until it reads on every background. */
function readable(color: string, backgrounds: readonly string[], towards: 'darker' | 'lighter'): string {
  for (let step = 0; step < 20; step += 1) {
    const candidate = step === 0 ? color : towards === 'darker' ? darken(color, step * 0.05) : lighten(color, step * 0.05);
    if (backgrounds.every((background) => contrast(candidate, background) >= AA)) return candidate;
  }
  return towards === 'darker' ? DEFAULT_THEME.black : DEFAULT_THEME.white;
}

const { colors, white } = DEFAULT_THEME;
const { gray, dark } = colors;
/** Every palette but `dark` (the dark scheme's greys, not a colour of its own). */
const PALETTES = Object.entries(colors).filter(([name]) => name !== 'dark');

/** Where text sits in each scheme: cards and the body, the page behind them, table rows on hover. */
const LIGHT_SURFACES = [white, gray[0], gray[1]] as const;
const DARK_SURFACES = [dark[7], dark[8], dark[6]] as const;

/**
 * The colours Mantine derives from each palette, made to reach AA in both schemes: coloured text
 * (`c="red"`, errors, links, outline buttons), the text of light variants (badges, alerts, the
 * active navbar entry) on their tinted background, and white text on filled buttons and badges.
 * Mantine's own shades miss it in places (white on indigo.6 is 4.3:1, teal.9 on teal.1 4.3:1,
 * red.6 text 3.3:1, yellow.9 3:1, indigo.4 on a dark card 4.6:1 but 4:1 on a dark input).
 */
function paletteVariables(scheme: 'light' | 'dark'): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of PALETTES) {
    if (scheme === 'light') {
      // Gray's 9 is near black: its 7 reads already.
      const text = readable(name === 'gray' ? shades[7] : shades[9], [...LIGHT_SURFACES, shades[1]], 'darker');
      const filled = [shades[7], shades[8]].find((shade) => contrast(white, shade) >= AA) ?? readable(shades[9], [white], 'darker');
      Object.assign(variables, {
        // Light variants (badges, alerts) on the palest shade: dimmed text inside an alert reads too.
        [`--mantine-color-${name}-light`]: shades[0],
        [`--mantine-color-${name}-light-hover`]: shades[1],
        [`--mantine-color-${name}-text`]: text,
        [`--mantine-color-${name}-light-color`]: text,
        [`--mantine-color-${name}-outline`]: text,
        [`--mantine-color-${name}-filled`]: filled,
        [`--mantine-color-${name}-filled-hover`]: darken(filled, 0.1),
      });
    } else {
      const text = readable(shades[4], DARK_SURFACES, 'lighter');
      const filled = [shades[8], shades[9]].find((shade) => contrast(white, shade) >= AA) ?? readable(shades[9], [white], 'darker');
      Object.assign(variables, {
        [`--mantine-color-${name}-text`]: text,
        [`--mantine-color-${name}-outline`]: text,
        [`--mantine-color-${name}-filled`]: filled,
        [`--mantine-color-${name}-filled-hover`]: darken(filled, 0.1),
      });
    }
  }
  return variables;
}

/**
 * Mantine's colour variables, raised to AA (see `paletteVariables`), and the dashboard's own
 * surfaces: `--herald-page` behind the cards, `--herald-phone-*` for the message previews.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...paletteVariables('light'),
    // Mantine's gray.6 is 3.3:1 on white, 3.1:1 on the page's gray.0; it reads inside a light alert too.
    '--mantine-color-dimmed': readable(gray[6], [...LIGHT_SURFACES, ...PALETTES.map(([, shades]) => shades[0])], 'darker'),
    '--mantine-color-error': 'var(--mantine-color-red-text)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-text)',
    '--herald-page': gray[0],
    '--herald-phone-screen': gray[1],
    '--herald-phone-bubble': white,
    '--herald-scroll-shadow': 'rgba(0, 0, 0, 0.16)',
  },
  dark: {
    ...paletteVariables('dark'),
    // Mantine's dark.2 is 4:1 on the dark body.
    '--mantine-color-dimmed': readable(dark[2], DARK_SURFACES, 'lighter'),
    '--mantine-color-error': 'var(--mantine-color-red-text)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-text)',
    '--herald-page': dark[8],
    '--herald-phone-screen': dark[8],
    '--herald-phone-bubble': dark[6],
    '--herald-scroll-shadow': 'rgba(0, 0, 0, 0.6)',
  },
});

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  headings: { fontWeight: '650' },
  components: {
    Table: Table.extend({ defaultProps: { verticalSpacing: 'sm', highlightOnHover: true } }),
    // A table wider than the screen scrolls sideways: focusable, so the keyboard can scroll it too
    // (a read-only table, with no buttons or links to tab into, could not be scrolled otherwise).
    TableScrollContainer: Table.ScrollContainer.extend({ defaultProps: { tabIndex: 0 } }),
    // Mantine's close button has no name of its own: a modal that names it better passes closeButtonProps.
    Modal: Modal.extend({ defaultProps: { centered: true, closeButtonProps: { 'aria-label': 'Close' } }, styles: { title: { fontWeight: 600 } } }),
  },
});
