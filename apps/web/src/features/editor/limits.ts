import { TAG_MESSAGES } from '@inkwell/core';

/** The server's tag characters (core's TAG_PATTERN, used by tagsField), checked before a tag is added. */
export { TAG_PATTERN } from '@inkwell/core';
export const TAG_CHARACTERS_MESSAGE = TAG_MESSAGES.characters;

/**
 * The post limits and the publishing rule are core's own functions, so the editor says exactly
 * what the server would refuse, before anything is sent.
 */
export { CONTENT_LIMIT_MESSAGES, contentLimitProblem, PUBLISH_MESSAGES, publishProblems } from '@inkwell/core';
