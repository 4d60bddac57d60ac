import { randomBytes } from 'node:crypto';

export interface MultipartFilePart {
  /** Form field name, e.g. 'image' or 'images' (repeat the name for several files). */
  field: string;
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

/**
 * A multipart/form-data body built by hand for app.inject, as a browser's FormData would send it.
 * Field values that are not strings are JSON-encoded (content, tags, existingImages).
 *
 *   const { payload, headers } = multipartBody({ title: 'Hi' }, [{ field: 'image', filename: 'a.png', content: png }]);
 *   await t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...bearer(token) } });
 */
export function multipartBody(
  fields: Record<string, unknown> = {},
  files: MultipartFilePart[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----InkwellTest${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const quote = (s: string) => s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${text}\r\n`));
  }
  for (const file of files) {
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(payload.length) } };
}
