/**
 * Markdown in and out (issue 16). A separate entry point (`@inkwell/core/markdown`), not part of
 * the main index: the parser is loaded only where Markdown is used (the editor's import button
 * loads it lazily; the server's export routes), never in the web app's first load.
 */

export { MAX_MARKDOWN_BYTES, type MarkdownPost, markdownToPost } from './fromMarkdown';
export { type FrontMatter, MarkdownImportError, splitFrontMatter, writeFrontMatter } from './frontMatter';
export { blockToMarkdown, type ExportablePost, postToMarkdown } from './toMarkdown';
