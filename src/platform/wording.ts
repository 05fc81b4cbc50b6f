/**
 * The few words every answer shares, in one place: counts with their noun, and a line of code or
 * of a model's text cut to fit. Areas word their own answers; these they all agree on.
 */

/** `1 file`, `3 files` (`pluralForm` for irregular nouns). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** `12,480 lines`: as `plural`, with the count's thousands grouped (for counts that run large). */
export function groupedPlural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}

/** How much of a line of code an answer shows. */
export const LINE_TEXT_WIDTH = 160;

/** A line cut at `width` characters (the last one `…`), its indentation kept (a diff's line, say). */
export function clipLine(text: string, width = LINE_TEXT_WIDTH): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** A line of code as answers show it: trimmed, cut at `width` with `…`. */
export function clipLineText(text: string, width = LINE_TEXT_WIDTH): string {
  return clipLine(text.trim(), width);
}

/** Text on one line: runs of white space become one space, cut at `cap` with `…`. */
export function oneLine(text: string, cap: number): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > cap ? `${collapsed.slice(0, cap)}…` : collapsed;
}

/** Text a model wrote, made fit for one line of a card: control characters and line breaks become spaces, cut at `max`. */
export function singleLine(text: string, max: number): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
