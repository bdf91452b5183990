/** The browser's IANA time zone: the user's calendar day for the sign-in until their first claim fixes it. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
