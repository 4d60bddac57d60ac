/** A flag or EXISTS(...) as read back: PostgreSQL gives booleans, SQLite 0/1 (or '1' through some drivers). */
export const truthy = (v: unknown): boolean => v === true || v === 1 || v === '1';
