import { EMBED_SERVICES } from '@inkwell/core';

/** A custom service in the format of @editorjs/embed (see its README, "Add more services"). */
export interface EditorEmbedService {
  regex: RegExp;
  embedUrl: string;
  html: string;
  width: number;
  height: number;
  id: (groups: string[]) => string;
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The embed tool's services, generated from core EMBED_SERVICES (the server rebuilds every
 * embed from its source link with the same list and refuses others):
 * - regex: core's pattern, extended to the end of the link, because Editor.js accepts a pasted
 *   pattern only when it matches the whole text (query strings such as `&t=10s` included);
 * - embedUrl: the whole URL comes from `id`, built by core's embedUrl from the match groups;
 * - html: a sandboxed iframe; the tool sets its src to the embed URL.
 */
export function editorEmbedServices(): Record<string, EditorEmbedService | boolean> {
  const services: Record<string, EditorEmbedService | boolean> = {};
  for (const service of EMBED_SERVICES) {
    services[service.name] = {
      regex: new RegExp(`${service.regex.source}\\S*$`, service.regex.flags.replace('g', '')),
      embedUrl: '<%= remote_id %>',
      html: `<iframe class="ink-embed__frame" width="${service.width}" height="${service.height}" title="${escapeAttr(
        `Embedded ${service.name} content`,
      )}" frameborder="0" allowfullscreen sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" referrerpolicy="strict-origin-when-cross-origin" loading="lazy"></iframe>`,
      width: service.width,
      height: service.height,
      id: (groups) => service.embedUrl(['', ...groups] as unknown as RegExpMatchArray),
    };
  }
  // @editorjs/embed keeps all of its built-in services unless at least one is switched on with
  // `true`; a name it does not know switches them all off, leaving only the services above.
  services.inkwellOnly = true;
  return services;
}
