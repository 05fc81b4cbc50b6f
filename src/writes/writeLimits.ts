/**
 * How much text a write tool takes from a model (the schema's `maxLength`): enough for any file the
 * tools read whole (50 MB, which the writer caps anyway), and for an `old_string`/`new_string` far
 * beyond what an edit needs, while every scan of them stays linear in these.
 */

/** Characters of a `write`'s `content` or a `patch`. */
export const MAX_WRITE_CHARACTERS = 10_000_000;
/** Characters of an `edit`'s `old_string` or `new_string`. */
export const MAX_EDIT_STRING_CHARACTERS = 1_000_000;
