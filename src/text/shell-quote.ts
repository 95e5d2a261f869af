/**
 * Quotes a value for a POSIX shell command in the notes. Plain words stay as they are, for
 * readable copy-paste; anything else is single-quoted, so no value from a definition can end the
 * word, start another command or expand a variable.
 */
export const shellQuote = (s: string): string => (/^[A-Za-z0-9@%+=:,./_-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
