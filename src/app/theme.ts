import { createTheme, Modal, Table } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  cursorType: 'pointer',
  headings: { fontWeight: '650' },
  components: {
    Table: Table.extend({ defaultProps: { verticalSpacing: 'sm', highlightOnHover: true } }),
    // A table wider than the screen scrolls sideways: focusable, so the keyboard can scroll it too
    // (a read-only table, with no buttons or links to tab into, could not be scrolled otherwise).
    TableScrollContainer: Table.ScrollContainer.extend({ defaultProps: { tabIndex: 0 } }),
    Modal: Modal.extend({ defaultProps: { centered: true }, styles: { title: { fontWeight: 600 } } }),
  },
});
