const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Header relative time (SPEC.md 9): 'Just now' under a minute, then m, h, d, mo, y ago. */
export function relativeTime(date: string | Date, now: Date = new Date()): string {
  const diff = Math.max(0, now.getTime() - new Date(date).getTime());
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h ago`;
  if (diff < MONTH) return `${Math.floor(diff / DAY)}d ago`;
  if (diff < YEAR) return `${Math.floor(diff / MONTH)}mo ago`;
  return `${Math.floor(diff / YEAR)}y ago`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function ordinal(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return `${day}th`;
  const suffix = { 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

/** Post date helper (SPEC.md 9): 'n unit(s) ago' under 7 days, else '21st November 2026'. */
export function postDate(date: string | Date, now: Date = new Date()): string {
  const d = new Date(date);
  const diff = Math.max(0, now.getTime() - d.getTime());
  if (diff < 7 * DAY) {
    const units: [number, string][] = [
      [DAY, 'day'],
      [HOUR, 'hour'],
      [MINUTE, 'minute'],
    ];
    for (const [size, name] of units) {
      const n = Math.floor(diff / size);
      if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
    }
    const s = Math.floor(diff / 1000);
    return `${s} second${s === 1 ? '' : 's'} ago`;
  }
  return postDay(d);
}

/**
 * A post's date as a day (SPEC.md 9's form past a week), e.g. '21st November 2026': what the
 * server-rendered pages show, since a cached page cannot say '3 days ago' for long.
 */
export function postDay(date: string | Date): string {
  const d = new Date(date);
  return `${ordinal(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
}

/** Member Since card: long date, e.g. 'November 21, 2026'. */
export function longDate(date: string | Date): string {
  const d = new Date(date);
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
}

/** "Scheduled for 25 Nov 2026, 10:30": a scheduled post's time in the reader's own time zone. */
export function scheduledFor(date: string | Date): string {
  return `Scheduled for ${new Date(date).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
}
