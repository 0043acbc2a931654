import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = new Date(2026, 10, 22, 12, 0, 0);
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relativeTime', () => {
  it('says just now for the last minute, and for a time a little ahead of this clock', () => {
    expect(relativeTime(ago(59_000), now)).toEqual({ key: 'justNow', count: 0 });
    expect(relativeTime(ago(-5_000), now)).toEqual({ key: 'justNow', count: 0 });
  });

  it('counts whole minutes, hours and days up to a week', () => {
    expect(relativeTime(ago(MINUTE), now)).toEqual({ key: 'minutesAgo', count: 1 });
    expect(relativeTime(ago(5 * MINUTE + 30_000), now)).toEqual({ key: 'minutesAgo', count: 5 });
    expect(relativeTime(ago(HOUR - 1), now)).toEqual({ key: 'minutesAgo', count: 59 });
    expect(relativeTime(ago(3 * HOUR), now)).toEqual({ key: 'hoursAgo', count: 3 });
    expect(relativeTime(ago(DAY), now)).toEqual({ key: 'daysAgo', count: 1 });
    expect(relativeTime(ago(7 * DAY - 1), now)).toEqual({ key: 'daysAgo', count: 6 });
  });

  it('gives the en-GB date with dots from a week on', () => {
    expect(relativeTime(new Date(2026, 10, 15, 12, 0, 0), now)).toEqual({ date: '15.11.2026' });
    expect(relativeTime(new Date(2025, 0, 5, 9, 0, 0), now)).toEqual({ date: '05.01.2025' });
  });
});
