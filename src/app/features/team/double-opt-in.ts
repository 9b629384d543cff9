/** How the double opt-in setting reads, as a sentence (the summary for non-admins, the saved notice). */
export const describeDoubleOptIn = (on: boolean) =>
  on
    ? 'A number that texts a keyword without having agreed before is asked to reply YES, and joins only after YES within 48 hours.'
    : 'A keyword adds a number to its groups at once.';
