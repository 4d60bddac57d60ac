import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import './highlight.css';

/**
 * Syntax highlighting of code blocks: highlight.js core with a handful of languages. This module
 * is imported only by CodeBlock, lazily, so blogs without code never download it.
 */
const LANGUAGES = { bash, cpp, css, diff, go, java, javascript, json, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

const AUTO_DETECT_MAX = 20_000;
const AUTO_DETECT_MIN_RELEVANCE = 5;

/** Highlighted HTML (highlight.js escapes the code), or null to show the code as plain text. */
export function highlight(code: string, language: string | undefined): { html: string; language: string } | null {
  const wanted = (language ?? '').toLowerCase();
  if (wanted && wanted !== 'plaintext' && hljs.getLanguage(wanted)) {
    return { html: hljs.highlight(code, { language: wanted, ignoreIllegals: true }).value, language: wanted };
  }
  // The editor's code tool does not record a language: guess among ours, but only when confident.
  if (code.length > AUTO_DETECT_MAX) return null;
  const guess = hljs.highlightAuto(code, Object.keys(LANGUAGES));
  if (!guess.language || guess.relevance < AUTO_DETECT_MIN_RELEVANCE) return null;
  return { html: guess.value, language: guess.language };
}
