/**
 * The server's tag characters (core tagsField), checked before a tag is added. Repeated here
 * because core keeps it inside the zod schema; limits.test.ts keeps both in step.
 */
export const TAG_PATTERN = /^[\p{L}\p{N}._+#-]+$/u;
export const TAG_CHARACTERS_MESSAGE = 'Tags can contain letters, numbers and . _ + # - only';

/**
 * The post limits and the publishing rule are core's own functions, so the editor says exactly
 * what the server would refuse, before anything is sent.
 */
export { CONTENT_LIMIT_MESSAGES, contentLimitProblem, PUBLISH_MESSAGES, publishProblems } from '@inkwell/core';
