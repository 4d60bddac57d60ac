/** Editor.js tools that ship without type declarations. */
declare module '@editorjs/marker' {
  const Marker: unknown;
  export default Marker;
}

declare module '@editorjs/text-variant-tune' {
  const TextVariantTune: unknown;
  export default TextVariantTune;
}

/** Ships types, but its package.json "exports" does not point at them. */
declare module '@editorjs/embed' {
  export interface EmbedData {
    service: string;
    source: string;
    embed: string;
    width?: number;
    height?: number;
    caption?: string;
  }
  /** The parts of the tool that EmbedTool extends (see its dist/index.d.ts). */
  export default class Embed {
    constructor(options: unknown);
    get data(): EmbedData;
    set data(data: EmbedData);
    render(): HTMLElement;
    save(): EmbedData;
    onPaste(event: { detail: { key: string; data: string } }): void;
    static services: Record<string, { regex: RegExp }>;
  }
}
