import type { ToolboxConfig } from '@editorjs/editorjs';
import Embed, { type EmbedData } from '@editorjs/embed';

export const EMBED_TEXTS = {
  title: 'Embed',
  label: 'Link to embed',
  placeholder: 'Paste a YouTube, Vimeo, CodePen or CodeSandbox link',
  submit: 'Embed',
  unsupported: 'This link cannot be embedded. Use a YouTube, Vimeo, CodePen or CodeSandbox link.',
} as const;

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" fill="none" viewBox="0 0 24 24"><rect width="14" height="10" x="5" y="7" stroke="currentColor" stroke-width="2" rx="2"/><path fill="currentColor" d="M11 10l3 2-3 2z"/></svg>';

/**
 * @editorjs/embed with a toolbox entry. The original only reacts to a pasted link, which cannot
 * be found from '/' and is awkward on phones; picked from the toolbox, this block first shows a
 * link field, and a link of a known service turns it into the same embed a paste makes (saved
 * as type 'embed' with the same data). A block left without a link is not saved.
 */
export class EmbedTool extends Embed {
  static get toolbox(): ToolboxConfig {
    return { icon: ICON, title: EMBED_TEXTS.title };
  }

  render(): HTMLElement {
    if (this.data.service) return super.render();
    return this.renderLinkForm();
  }

  validate(data: EmbedData): boolean {
    return Boolean(data.service && data.embed);
  }

  /** The services' link patterns, as prepared by Embed from the tool's config. */
  private static serviceFor(link: string): string | undefined {
    const services = Embed.services ?? {};
    return Object.keys(services).find((name) => services[name]?.regex.test(link));
  }

  private renderLinkForm(): HTMLElement {
    const form = document.createElement('div');
    form.className = 'ink-embed-link';
    const input = document.createElement('input');
    input.type = 'url';
    input.inputMode = 'url';
    input.className = 'ink-embed-link__input';
    input.placeholder = EMBED_TEXTS.placeholder;
    input.setAttribute('aria-label', EMBED_TEXTS.label);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ink-embed-link__button';
    button.textContent = EMBED_TEXTS.submit;
    const error = document.createElement('p');
    error.className = 'ink-embed-link__error';
    error.setAttribute('role', 'alert');
    const row = document.createElement('div');
    row.className = 'ink-embed-link__row';
    row.append(input, button);
    form.append(row, error);

    const submit = () => {
      const link = input.value.trim();
      const service = link ? EmbedTool.serviceFor(link) : undefined;
      if (!service) {
        error.textContent = EMBED_TEXTS.unsupported;
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      // The same path as a pasted link: Embed builds the embed URL and replaces this form.
      this.onPaste({ detail: { key: service, data: link } });
    };
    // Enter submits the link; Editor.js must not also read it as "new block".
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      event.stopPropagation();
      submit();
    });
    input.addEventListener('input', () => {
      error.textContent = '';
      input.removeAttribute('aria-invalid');
    });
    // Pasting into the field is the field's business, not Editor.js's block paste.
    input.addEventListener('paste', (event) => event.stopPropagation());
    button.addEventListener('click', submit);
    (this as unknown as { element: HTMLElement }).element = form;
    requestAnimationFrame(() => input.focus());
    return form;
  }
}
