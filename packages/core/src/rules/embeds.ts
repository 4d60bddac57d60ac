/**
 * Embed services accepted in embed blocks. The server rebuilds the iframe URL from the
 * source link with these patterns (it never trusts a client-sent embed URL); the editor
 * offers the same list. Each embed is rendered in a sandboxed iframe.
 */
export interface EmbedService {
  name: string;
  regex: RegExp;
  embedUrl: (match: RegExpMatchArray) => string;
  width: number;
  height: number;
}

export const EMBED_SERVICES: EmbedService[] = [
  {
    name: 'youtube',
    regex: /^https?:\/\/(?:www\.|m\.)?(?:youtube\.com\/(?:watch\?(?:[^#]*&)?v=|embed\/|shorts\/)|youtu\.be\/)([A-Za-z0-9_-]{11})/,
    embedUrl: (m) => `https://www.youtube-nocookie.com/embed/${m[1]}`,
    width: 580,
    height: 320,
  },
  {
    name: 'vimeo',
    regex: /^https?:\/\/(?:www\.|player\.)?vimeo\.com\/(?:video\/)?(\d+)/,
    embedUrl: (m) => `https://player.vimeo.com/video/${m[1]}?title=0&byline=0`,
    width: 580,
    height: 320,
  },
  {
    name: 'codepen',
    regex: /^https?:\/\/codepen\.io\/([A-Za-z0-9_-]+)\/(?:pen|embed)\/([A-Za-z0-9]+)/,
    embedUrl: (m) => `https://codepen.io/${m[1]}/embed/${m[2]}?height=300&theme-id=0&default-tab=css,result&embed-version=2`,
    width: 600,
    height: 300,
  },
  {
    name: 'codesandbox',
    regex: /^https?:\/\/codesandbox\.io\/(?:s|embed|p\/sandbox)\/([A-Za-z0-9_-]+)/,
    embedUrl: (m) => `https://codesandbox.io/embed/${m[1]}`,
    width: 600,
    height: 400,
  },
  {
    name: 'stackblitz',
    regex: /^https?:\/\/stackblitz\.com\/edit\/([A-Za-z0-9_-]+)/,
    embedUrl: (m) => `https://stackblitz.com/edit/${m[1]}?embed=1`,
    width: 600,
    height: 400,
  },
  {
    name: 'instagram',
    regex: /^https?:\/\/(?:www\.)?instagram\.com\/p\/([A-Za-z0-9_-]+)/,
    embedUrl: (m) => `https://www.instagram.com/p/${m[1]}/embed`,
    width: 400,
    height: 505,
  },
  {
    name: 'twitter',
    regex: /^https?:\/\/(?:www\.)?(?:twitter|x)\.com\/([A-Za-z0-9_]+)\/status\/(\d+)/,
    embedUrl: (m) => `https://twitframe.com/show?url=${encodeURIComponent(`https://twitter.com/${m[1]}/status/${m[2]}`)}`,
    width: 600,
    height: 300,
  },
];

/** The embed for a source link, or null when no known service matches. */
export function resolveEmbed(source: string): { service: string; embed: string; width: number; height: number } | null {
  for (const s of EMBED_SERVICES) {
    const m = source.trim().match(s.regex);
    if (m) return { service: s.name, embed: s.embedUrl(m), width: s.width, height: s.height };
  }
  return null;
}

/** Origins an embed iframe may load from (for CSP frame-src and render-time checks). */
export const EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
  'https://codepen.io',
  'https://codesandbox.io',
  'https://stackblitz.com',
  'https://www.instagram.com',
  'https://twitframe.com',
];
