import type { FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, tooLarge } from '../../lib/errors';
import { inputProblem } from '../../lib/input-guard';
import { tooLargeError } from './image-processing';

export interface UploadedFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  buffer: Buffer;
}

export interface MultipartBody {
  /** Text fields; a repeated name keeps its last value. */
  fields: Record<string, string>;
  /** Files in arrival order; empty file inputs (no name, no bytes) are skipped. */
  files: UploadedFile[];
}

const FIELD_SIZE = 1024 * 1024;

/**
 * Options for the one global @fastify/multipart registration (app.ts). No attachFieldsToBody:
 * handlers read parts themselves through readMultipart, so nothing is buffered for routes
 * that do not ask for it. The global bodyLimit does not apply to multipart, these caps do.
 */
export function multipartOptions(uploadMaxBytes: number): FastifyMultipartOptions {
  return {
    throwFileSizeLimit: true,
    limits: { fileSize: uploadMaxBytes, files: 20, fields: 50, fieldSize: FIELD_SIZE, fieldNameSize: 100, parts: 80, headerPairs: 100 },
  };
}

/**
 * Reads a whole multipart body into memory with caps, for the uploads and blogs routes.
 * Limit breaches become 413 and malformed bodies 400 with a message, never a 500.
 */
export async function readMultipart(request: FastifyRequest, opts: { maxFiles: number }): Promise<MultipartBody> {
  const maxBytes = request.server.services.config.uploadMaxBytes;
  if (!request.isMultipart()) throw badRequest('Expected a multipart/form-data body');
  const fields: Record<string, string> = Object.create(null);
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts({ limits: { files: opts.maxFiles } })) {
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge(`The field "${part.fieldname}" is too large`);
        const problem = inputProblem(part.fieldname) ?? inputProblem(String(part.value));
        if (problem) throw badRequest(problem);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const buffer = await part.toBuffer();
      // toBuffer throws on truncation; checked again so a changed plugin default cannot let a cut-off file through.
      if (part.file.truncated) throw tooLargeError(maxBytes);
      if (!part.filename && buffer.length === 0) continue;
      files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, buffer });
    }
  } catch (err) {
    throw mapMultipartError(err, maxBytes, opts.maxFiles);
  }
  return { fields: { ...fields }, files };
}

function mapMultipartError(err: unknown, maxBytes: number, maxFiles: number): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLargeError(maxBytes);
    case 'FST_FILES_LIMIT':
      return tooLarge(maxFiles === 1 ? 'Only one file can be uploaded at a time' : `At most ${maxFiles} files can be uploaded at once`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return tooLarge('The form has too many fields');
    case 'FST_PROTO_VIOLATION':
      return badRequest('The form has a field name that is not allowed');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('A form field declared as JSON is not valid JSON');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest('Expected a multipart/form-data body');
    default:
      // busboy's parse errors ("Unexpected end of form", "Malformed part header") and premature close.
      return badRequest('The upload could not be read. Please try again.');
  }
}
