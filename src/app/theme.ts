import { createTheme, Modal, Table } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  cursorType: 'pointer',
  headings: { fontWeight: '650' },
  components: {
    Table: Table.extend({ defaultProps: { verticalSpacing: 'sm', highlightOnHover: true } }),
    Modal: Modal.extend({ defaultProps: { centered: true }, styles: { title: { fontWeight: 600 } } }),
  },
});
