/**
 * The server's tag characters (core tagsField), checked before a tag is added. Repeated here
 * because core keeps it inside the zod schema; limits.test.ts keeps both in step.
 */
export const TAG_PATTERN = /^[\p{L}\p{N}._+#-]+$/u;
export const TAG_CHARACTERS_MESSAGE = 'Tags can contain letters, numbers and . _ + # - only';
