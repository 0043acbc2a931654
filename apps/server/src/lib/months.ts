/** The UTC month's start of `date` (the period a close of `date` bills begins there). */
export function monthStartOf(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}
