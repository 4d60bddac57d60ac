/**
 * Editor.js and its tools. This module is only reached through a dynamic import (see
 * BlockEditor.tsx), so Editor.js lands in its own chunk, loaded on the editor screens only.
 */
import Delimiter from '@editorjs/delimiter';
import EditorJS, { type LogLevels, type OutputData, type ToolConstructable, type ToolSettings } from '@editorjs/editorjs';
import Header from '@editorjs/header';
import ImageTool from '@editorjs/image';
import InlineCode from '@editorjs/inline-code';
import List from '@editorjs/list';
import Marker from '@editorjs/marker';
import Paragraph from '@editorjs/paragraph';
import Quote from '@editorjs/quote';
import Table from '@editorjs/table';
import TextVariantTune from '@editorjs/text-variant-tune';
import Underline from '@editorjs/underline';
import { DEFAULT_HEADER_LEVEL, HEADER_LEVELS } from '@inkwell/core';
import { CodeTool } from './CodeTool';
import { EmbedTool } from './EmbedTool';
import { editorEmbedServices } from './embedServices';
import { nameToolbarButtons } from './namedButtons';
import '../editor.css';
// Before any editor exists: keys pressed outside the editor stay there.
import './outsideKeys';

export const EDITOR_PLACEHOLDER = 'Write your story here...';
export const EDITOR_MIN_HEIGHT = 300;

/** The Editor.js image tool's uploader protocol: resolves { success: 1, file: { url, ... } }. */
export interface ImageUploader {
  uploadByFile(file: Blob): Promise<{ success: number; file: { url: string } & Record<string, unknown> }>;
  uploadByUrl(url: string): Promise<{ success: number; file: { url: string } & Record<string, unknown> }>;
}

export interface CreateEditorOptions {
  holder: HTMLElement;
  data?: OutputData;
  uploader: ImageUploader;
  readOnly?: boolean;
  onChange?: () => void;
}

const tool = (constructable: unknown) => constructable as ToolConstructable;

export function editorTools(uploader: ImageUploader): Record<string, ToolConstructable | ToolSettings> {
  return {
    paragraph: {
      class: tool(Paragraph),
      inlineToolbar: true,
      tunes: ['textVariant'],
      config: { preserveBlank: false },
    },
    header: {
      class: tool(Header),
      inlineToolbar: true,
      shortcut: 'CMD+SHIFT+H',
      config: { levels: [...HEADER_LEVELS], defaultLevel: DEFAULT_HEADER_LEVEL, placeholder: 'Heading' },
    },
    list: {
      class: tool(List),
      inlineToolbar: true,
      shortcut: 'CMD+SHIFT+L',
      config: { defaultStyle: 'unordered' },
    },
    image: {
      class: tool(ImageTool),
      config: {
        uploader,
        types: 'image/png, image/jpeg, image/gif, image/webp, image/avif',
        captionPlaceholder: 'Caption',
        features: { border: true, background: true, stretch: true, caption: 'optional' },
      },
    },
    // Reachable from the toolbox (a link field) as well as by pasting a link.
    embed: {
      class: tool(EmbedTool),
      inlineToolbar: true,
      config: { services: editorEmbedServices() },
    },
    // The built-in code tool saves { code } only; ours adds the language select.
    code: { class: tool(CodeTool), shortcut: 'CMD+SHIFT+K' },
    quote: {
      class: tool(Quote),
      inlineToolbar: true,
      shortcut: 'CMD+SHIFT+O',
      config: { quotePlaceholder: 'Enter a quote', captionPlaceholder: 'Quote’s author' },
    },
    delimiter: tool(Delimiter),
    table: { class: tool(Table), inlineToolbar: true, config: { rows: 2, cols: 2 } },
    marker: { class: tool(Marker), shortcut: 'CMD+SHIFT+M' },
    underline: { class: tool(Underline), shortcut: 'CMD+U' },
    inlineCode: { class: tool(InlineCode), shortcut: 'CMD+SHIFT+C' },
    textVariant: tool(TextVariantTune),
  };
}

export function createEditor({ holder, data, uploader, readOnly = false, onChange }: CreateEditorOptions): EditorJS {
  nameToolbarButtons(holder);
  return new EditorJS({
    holder,
    data: data?.blocks.length ? data : undefined,
    tools: editorTools(uploader),
    defaultBlock: 'paragraph',
    placeholder: EDITOR_PLACEHOLDER,
    minHeight: EDITOR_MIN_HEIGHT,
    inlineToolbar: ['bold', 'italic', 'link', 'marker', 'underline', 'inlineCode'],
    autofocus: false,
    readOnly,
    logLevel: 'ERROR' as LogLevels,
    onChange: () => onChange?.(),
  });
}
