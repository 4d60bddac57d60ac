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
  const Embed: unknown;
  export default Embed;
}
