/**
 * Page size rules of every list, reports included (docs/api-conventions.md: 1..100, default 15). Kept free
 * of zod so the dashboard's list pages can read them without loading the whole contract.
 */
export const PER_PAGE_DEFAULT = 15;
export const PER_PAGE_MAX = 100;
