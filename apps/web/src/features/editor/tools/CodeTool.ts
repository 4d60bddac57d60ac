import type {
  BlockTool,
  BlockToolConstructorOptions,
  HTMLPasteEvent,
  PasteConfig,
  PasteEvent,
  SanitizerConfig,
  ToolboxConfig,
} from '@editorjs/editorjs';

/** Languages offered in the code block's select; the value is saved as data.language. */
export const CODE_LANGUAGES: [value: string, label: string][] = [
  ['plaintext', 'Plain text'],
  ['javascript', 'JavaScript'],
  ['typescript', 'TypeScript'],
  ['jsx', 'JSX'],
  ['tsx', 'TSX'],
  ['json', 'JSON'],
  ['bash', 'Bash'],
  ['shell', 'Shell'],
  ['python', 'Python'],
  ['go', 'Go'],
  ['rust', 'Rust'],
  ['java', 'Java'],
  ['c', 'C'],
  ['cpp', 'C++'],
  ['csharp', 'C#'],
  ['php', 'PHP'],
  ['ruby', 'Ruby'],
  ['sql', 'SQL'],
  ['html', 'HTML'],
  ['css', 'CSS'],
  ['yaml', 'YAML'],
  ['markdown', 'Markdown'],
  ['dockerfile', 'Dockerfile'],
];

export interface CodeData {
  code: string;
  language: string;
}

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" fill="none" viewBox="0 0 24 24"><path stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="2" d="M9 8L5 12L9 16"/><path stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="2" d="M15 8L19 12L15 16"/></svg>';

const INDENT = '  ';
let instances = 0;

/**
 * Code block saving { code, language }: a language select above a monospace textarea.
 * Tab indents and Shift+Tab outdents inside the code; Escape then Tab moves focus on, so the
 * block never traps keyboard users.
 */
export class CodeTool implements BlockTool {
  private readonly readOnly: boolean;
  private readonly wrapper: HTMLDivElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly select: HTMLSelectElement;
  private tabReleased = false;

  static get toolbox(): ToolboxConfig {
    return { icon: ICON, title: 'Code' };
  }

  static get isReadOnlySupported(): boolean {
    return true;
  }

  static get enableLineBreaks(): boolean {
    return true;
  }

  static get pasteConfig(): PasteConfig {
    return { tags: ['pre'] };
  }

  /** Code is kept verbatim (it is text in a textarea, never HTML); the language is a plain word. */
  static get sanitize(): SanitizerConfig {
    return { code: true, language: false } as unknown as SanitizerConfig;
  }

  constructor({ data, api, readOnly }: BlockToolConstructorOptions<Partial<CodeData>>) {
    this.readOnly = readOnly;
    const id = `ink-code-${++instances}`;

    this.wrapper = document.createElement('div');
    this.wrapper.className = `${api.styles.block} ink-code`;

    const bar = document.createElement('div');
    bar.className = 'ink-code__bar';
    const label = document.createElement('label');
    label.htmlFor = `${id}-language`;
    label.className = 'ink-code__label';
    label.textContent = 'Language';
    this.select = document.createElement('select');
    this.select.id = `${id}-language`;
    this.select.className = 'ink-code__select';
    for (const [value, text] of CODE_LANGUAGES) this.select.add(new Option(text, value));
    const language = typeof data?.language === 'string' ? data.language.toLowerCase() : 'plaintext';
    if (!CODE_LANGUAGES.some(([value]) => value === language)) this.select.add(new Option(language, language));
    this.select.value = language;
    this.select.disabled = readOnly;
    bar.append(label, this.select);

    this.textarea = document.createElement('textarea');
    this.textarea.className = `${api.styles.input} ink-code__textarea`;
    this.textarea.placeholder = 'Enter code';
    this.textarea.spellcheck = false;
    this.textarea.setAttribute('autocapitalize', 'off');
    this.textarea.setAttribute('autocomplete', 'off');
    this.textarea.setAttribute('aria-label', 'Code');
    this.textarea.value = typeof data?.code === 'string' ? data.code : '';
    this.textarea.readOnly = readOnly;
    this.textarea.addEventListener('keydown', (event) => this.onKeyDown(event));

    this.wrapper.append(bar, this.textarea);
  }

  render(): HTMLDivElement {
    return this.wrapper;
  }

  save(): CodeData {
    return { code: this.textarea.value, language: this.select.value || 'plaintext' };
  }

  onPaste(event: PasteEvent): void {
    if (event.type !== 'tag') return;
    const element = (event as HTMLPasteEvent).detail.data;
    this.textarea.value = element.textContent ?? '';
    const language = /language-([\w+#-]+)/.exec(element.querySelector('code')?.className ?? element.className)?.[1];
    if (language && CODE_LANGUAGES.some(([value]) => value === language)) this.select.value = language;
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (this.readOnly) return;
    if (event.key === 'Escape') {
      this.tabReleased = true;
      return;
    }
    if (event.key !== 'Tab' || this.tabReleased) {
      if (event.key !== 'Tab') this.tabReleased = false;
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    const area = this.textarea;
    const { selectionStart: start, value } = area;
    if (!event.shiftKey) {
      area.setRangeText(INDENT, start, area.selectionEnd, 'end');
    } else {
      const lineStart = value.lastIndexOf('\n', start - 1) + 1;
      if (value.startsWith(INDENT, lineStart)) {
        area.setRangeText('', lineStart, lineStart + INDENT.length, 'preserve');
        const caret = Math.max(lineStart, start - INDENT.length);
        area.setSelectionRange(caret, caret);
      }
    }
    // An InputEvent, as typing sends: Editor.js reads any other 'input' event as a list of DOM
    // mutations and threw 'e.forEach is not a function' on every Tab.
    area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
  }
}
