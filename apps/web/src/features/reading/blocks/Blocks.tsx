import type { Block, ListItem } from '@inkwell/core';
import { CheckSquare, ExternalLink, Square } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { isHttpUrl, isSafeImageSrc } from '../../../lib/urls';
import { isAllowedEmbed } from '../embeds';
import { SafeHtml, textOf } from '../SafeHtml';
import { CodeBlock } from './CodeBlock';

/** Any block as it may arrive: a known type, or something this version cannot show. */
type AnyBlock = Block | { id?: string; type: string; data?: unknown; tunes?: unknown };

const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-presentation';

/** Stub for unknown or broken blocks (SPEC.md 8). */
export function BlockStub() {
  return (
    <div
      role="note"
      data-block-stub=""
      className="my-6 rounded-xl border border-dashed border-red-300 bg-red-50 px-5 py-4 dark:border-red-500/40 dark:bg-red-500/10"
    >
      <p className="font-semibold text-red-800 dark:text-red-300">Error</p>
      <p className="mt-1 text-sm text-red-700 dark:text-red-300/80">The block can not be displayed correctly.</p>
    </div>
  );
}

/** One bad block shows the stub instead of breaking the whole page. */
class BlockBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <BlockStub /> : this.props.children;
  }
}

const HEADER_CLASSES: Record<number, string> = {
  2: 'mt-10 mb-4 text-2xl font-bold tracking-tight text-gray-900 sm:text-3xl dark:text-gray-50',
  3: 'mt-8 mb-3 text-xl font-bold text-gray-900 sm:text-2xl dark:text-gray-50',
  4: 'mt-6 mb-2 text-lg font-semibold text-gray-900 sm:text-xl dark:text-gray-100',
};

function HeaderBlock({ text, level }: { text: string; level: number }) {
  const clamped = Math.min(4, Math.max(2, Math.round(Number(level)) || 3)) as 2 | 3 | 4;
  const Tag = `h${clamped}` as const;
  return <SafeHtml as={Tag} html={text} className={HEADER_CLASSES[clamped]} />;
}

const LIST_STYLES = {
  ordered: ['list-decimal', 'list-[lower-alpha]', 'list-[lower-roman]'],
  unordered: ['list-disc', 'list-[circle]', 'list-[square]'],
};

function ListItems({ style, items, depth }: { style: string; items: ListItem[]; depth: number }) {
  if (style === 'checklist') {
    return (
      <ul className={depth === 0 ? 'my-5 space-y-1.5' : 'mt-1.5 ml-6 space-y-1.5'}>
        {items.map((item, i) => {
          const checked = item.meta?.checked === true;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: list items have no ids and are never reordered here.
            <li key={i}>
              <span className="flex items-start gap-2">
                {checked ? (
                  <CheckSquare size={18} className="mt-1 shrink-0 text-indigo-600 dark:text-indigo-400" aria-label="Done" />
                ) : (
                  <Square size={18} className="mt-1 shrink-0 text-gray-400" aria-label="Not done" />
                )}
                <SafeHtml html={item.content} className={checked ? 'text-gray-500 line-through dark:text-gray-400' : undefined} />
              </span>
              {item.items?.length > 0 && <ListItems style={style} items={item.items} depth={depth + 1} />}
            </li>
          );
        })}
      </ul>
    );
  }
  const ordered = style === 'ordered';
  const Tag = ordered ? 'ol' : 'ul';
  const styles = ordered ? LIST_STYLES.ordered : LIST_STYLES.unordered;
  return (
    <Tag
      className={`${styles[depth % 3]} ${depth === 0 ? 'my-5' : 'mt-1.5'} space-y-1.5 pl-6 marker:text-gray-400 dark:marker:text-gray-500`}
    >
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items have no ids and are never reordered here.
        <li key={i} className="pl-1">
          <SafeHtml html={item.content} />
          {item.items?.length > 0 && <ListItems style={style} items={item.items} depth={depth + 1} />}
        </li>
      ))}
    </Tag>
  );
}

function normaliseItems(items: unknown): ListItem[] {
  if (!Array.isArray(items)) throw new Error('list items');
  return items.map((item) =>
    typeof item === 'string' ? { content: item, items: [] } : { ...item, items: normaliseItems(item?.items ?? []) },
  );
}

function ImageBlock({ data }: { data: Extract<Block, { type: 'image' }>['data'] }) {
  const url = data.file?.url;
  if (!isSafeImageSrc(url)) return <BlockStub />;
  const image = (
    <img
      src={url}
      alt={textOf(data.caption)}
      loading="lazy"
      decoding="async"
      className={`mx-auto h-auto ${data.withBackground ? 'max-h-[28rem] max-w-full sm:max-w-[70%]' : 'w-full'} ${
        data.withBorder ? 'border border-gray-200 dark:border-gray-700' : ''
      } ${data.withBackground ? 'rounded-md' : 'rounded-xl'}`}
    />
  );
  return (
    <figure
      className={`my-8 ${data.stretched ? 'lg:-mx-24' : ''}`}
      data-with-border={data.withBorder || undefined}
      data-with-background={data.withBackground || undefined}
      data-stretched={data.stretched || undefined}
    >
      {data.withBackground ? <div className="rounded-xl bg-gray-100 p-4 sm:p-8 dark:bg-gray-800/70">{image}</div> : image}
      {data.caption && (
        <SafeHtml as="figcaption" html={data.caption} className="mt-3 text-center text-sm text-gray-500 dark:text-gray-400" />
      )}
    </figure>
  );
}

function EmbedBlock({ data }: { data: Extract<Block, { type: 'embed' }>['data'] }) {
  const width = Number(data.width) || 580;
  const height = Number(data.height) || 320;
  const service = String(data.service ?? 'embed');
  return (
    <figure className="my-8">
      {isAllowedEmbed(data.embed) ? (
        <div
          className="mx-auto w-full overflow-hidden rounded-xl bg-gray-100 dark:bg-gray-800"
          style={{ aspectRatio: `${width} / ${height}`, maxWidth: width < 500 ? width : undefined }}
        >
          <iframe
            src={data.embed}
            title={`${service.charAt(0).toUpperCase()}${service.slice(1)} embed`}
            sandbox={EMBED_SANDBOX}
            allow="encrypted-media; fullscreen; picture-in-picture"
            allowFullScreen
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
            className="h-full w-full border-0"
          />
        </div>
      ) : isHttpUrl(data.source) ? (
        <a
          href={data.source.trim()}
          target="_blank"
          rel="noopener noreferrer nofollow ugc"
          className="inline-flex max-w-full items-center gap-2 break-all rounded-lg border border-gray-200 px-4 py-3 text-sm dark:border-gray-700"
        >
          <ExternalLink size={16} aria-hidden="true" className="shrink-0" />
          {data.source.trim()}
        </a>
      ) : (
        <BlockStub />
      )}
      {data.caption && (
        <SafeHtml as="figcaption" html={data.caption} className="mt-3 text-center text-sm text-gray-500 dark:text-gray-400" />
      )}
    </figure>
  );
}

function QuoteBlock({ data }: { data: Extract<Block, { type: 'quote' }>['data'] }) {
  const centered = data.alignment === 'center';
  return (
    <figure className={`my-8 ${centered ? 'text-center' : 'border-l-4 border-indigo-500 pl-5 dark:border-indigo-400'}`}>
      <blockquote>
        <SafeHtml as="p" html={data.text} className="text-xl leading-relaxed text-gray-900 italic dark:text-gray-100" />
      </blockquote>
      {data.caption && (
        <figcaption className="mt-3 text-sm text-gray-500 dark:text-gray-400">
          — <SafeHtml as="cite" html={data.caption} className="not-italic" />
        </figcaption>
      )}
    </figure>
  );
}

function TableBlock({ data }: { data: Extract<Block, { type: 'table' }>['data'] }) {
  if (!Array.isArray(data.content)) throw new Error('table content');
  const [head, ...body] = data.withHeadings ? data.content : [undefined, ...data.content];
  const cell = 'border border-gray-200 px-3 py-2 text-left align-top dark:border-gray-700';
  return (
    <div className="my-8 overflow-x-auto rounded-lg">
      <table className="w-full border-collapse text-sm sm:text-base">
        {head && (
          <thead className="bg-gray-50 dark:bg-gray-800/60">
            <tr>
              {head.map((text, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: table cells are positional.
                <SafeHtml key={i} as="th" html={text} className={`${cell} font-semibold text-gray-900 dark:text-gray-100`} />
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {body.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: table rows are positional.
            <tr key={r} className="even:bg-gray-50/60 dark:even:bg-gray-800/30">
              {(row ?? []).map((text, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: table cells are positional.
                <SafeHtml key={i} as="td" html={text} className={cell} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Delimiter() {
  return (
    <hr className="my-10 h-auto overflow-visible border-0 text-center leading-none text-gray-400 select-none before:text-2xl before:tracking-[0.75em] before:content-['***'] dark:text-gray-500" />
  );
}

function BlockBody({ block }: { block: AnyBlock }) {
  const b = block as Block;
  switch (b.type) {
    case 'paragraph':
      return <SafeHtml as="p" html={b.data.text} className="my-5" />;
    case 'header':
      return <HeaderBlock text={b.data.text} level={b.data.level} />;
    case 'list':
      return <ListItems style={b.data.style} items={normaliseItems(b.data.items)} depth={0} />;
    case 'image':
      return <ImageBlock data={b.data} />;
    case 'embed':
      return <EmbedBlock data={b.data} />;
    case 'code':
      if (typeof b.data.code !== 'string') throw new Error('code');
      return <CodeBlock code={b.data.code} language={b.data.language} />;
    case 'quote':
      return <QuoteBlock data={b.data} />;
    case 'delimiter':
      return <Delimiter />;
    case 'table':
      return <TableBlock data={b.data} />;
    default:
      return <BlockStub />;
  }
}

const VARIANT_CLASSES: Record<string, string> = {
  'call-out':
    'my-6 rounded-xl border border-indigo-200 bg-indigo-50 px-5 py-1 shadow-sm dark:border-indigo-500/30 dark:bg-indigo-500/10 [&>*]:my-3',
  citation: 'my-6 border-l-2 border-gray-300 pl-4 text-base text-gray-600 italic dark:border-gray-600 dark:text-gray-400 [&>*]:my-2',
  details: 'text-sm text-gray-500 dark:text-gray-400',
};

/** One block with its text-variant tune (call-out box, citation, details). */
function BlockView({ block }: { block: AnyBlock }) {
  if (!block || typeof block !== 'object' || !block.data || typeof block.data !== 'object') return <BlockStub />;
  const variant = (block.tunes as { textVariant?: string } | undefined)?.textVariant ?? '';
  const body = (
    <BlockBoundary>
      <BlockBody block={block} />
    </BlockBoundary>
  );
  const classes = VARIANT_CLASSES[variant];
  return classes ? (
    <div className={classes} data-variant={variant}>
      {body}
    </div>
  ) : (
    body
  );
}

/** Inline marks inside block text: links, marker, inline code. */
const INLINE_STYLES =
  '[&_a]:font-medium [&_a]:text-indigo-600 [&_a]:underline [&_a]:decoration-indigo-300 [&_a]:underline-offset-2 [&_a:hover]:decoration-2 dark:[&_a]:text-indigo-400 dark:[&_a]:decoration-indigo-500/50 ' +
  '[&_mark]:rounded-sm [&_mark]:bg-yellow-200 [&_mark]:px-0.5 [&_mark]:text-inherit dark:[&_mark]:bg-yellow-400/30 ' +
  '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-gray-100 [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.875em] [&_:not(pre)>code]:text-pink-700 dark:[&_:not(pre)>code]:bg-gray-800 dark:[&_:not(pre)>code]:text-pink-300';

/** The rendered content of a blog: every Editor.js block type the editor produces (SPEC.md 3). */
export function BlogBlocks({ blocks }: { blocks: AnyBlock[] }) {
  return (
    <div
      data-blog-content=""
      className={`text-lg leading-8 wrap-anywhere text-gray-800 dark:text-gray-200 [&>:first-child]:mt-0 ${INLINE_STYLES}`}
    >
      {blocks.map((block, index) => (
        <BlockView key={block?.id ?? index} block={block} />
      ))}
    </div>
  );
}
