/**
 * Team icons (spec §2 team card, §5: JPEG or PNG, at most 5 MB). An upload is judged by
 * its content, never by its name or declared type, and re-encoded: what is stored and served is
 * always a 256×256 WebP that sharp produced, so no byte of the upload (EXIF, GPS position, ICC
 * profile, trailing data, a polyglot file) ever reaches another visitor.
 */
import sharp, { type Metadata } from 'sharp';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIZE_LABEL } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';

/** Side of the stored square icon, pixels (the team card shows it at most this large). */
export const TEAM_ICON_SIZE = 256;

/**
 * Most pixels (width × height, as the image header states them) an upload may have. A 5 MB file
 * can declare a huge canvas of one colour that decodes to gigabytes (a decompression bomb); 40
 * megapixels still takes any phone photo of up to 5 MB. Above it: MAX_IMAGE_SIZE — the picture is
 * too large, which is what the user can fix (a smaller export), rather than a wrong file type.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

/** An icon ready to store: WebP bytes and their pixel size. */
export interface ProcessedImage {
  bytes: Buffer;
  contentType: 'image/webp';
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
}

/** Formats accepted by content (sharp's decoder names), spec §5 ".jpg, .jpeg, .png". */
const ACCEPTED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png']);

/**
 * Turns an uploaded team icon into the stored form: EXIF orientation applied, every metadata
 * block dropped (sharp writes none unless asked), cropped to a centred square and scaled to
 * TEAM_ICON_SIZE × TEAM_ICON_SIZE, encoded as WebP.
 *
 * Checks, in order: size in bytes first (nothing is decoded for an oversized upload), then the
 * format from the content's header, then the header's pixel count, then the decode itself.
 * @param bytes the uploaded file as sent.
 * @throws DomainError('MAX_IMAGE_SIZE', '5MB') for more than MAX_IMAGE_BYTES (5 MiB) or more than
 *   MAX_INPUT_PIXELS (40 megapixels); DomainError('NOT_ALLOWED_FILE_TYPE') when the content is
 *   not a JPEG or PNG (GIF, WebP, SVG, text, anything undecodable, truncated or corrupt).
 */
export async function processTeamIcon(bytes: Buffer): Promise<ProcessedImage> {
  if (bytes.length > MAX_IMAGE_BYTES) throw new DomainError('MAX_IMAGE_SIZE', MAX_IMAGE_SIZE_LABEL);
  let metadata: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below so that it gives its own answer.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new DomainError('NOT_ALLOWED_FILE_TYPE', 'not a decodable image');
  }
  if (!ACCEPTED_FORMATS.has(metadata.format)) throw new DomainError('NOT_ALLOWED_FILE_TYPE', `content is ${metadata.format}`);
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    throw new DomainError('MAX_IMAGE_SIZE', `${metadata.width}×${metadata.height} is more than ${MAX_INPUT_PIXELS} pixels`);
  }
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(TEAM_ICON_SIZE, TEAM_ICON_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: 'image/webp', width: info.width, height: info.height };
  } catch (error) {
    // The header passed; the pixel data did not (truncated, corrupt, or a header that lied).
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new DomainError('MAX_IMAGE_SIZE', error.message);
    throw new DomainError('NOT_ALLOWED_FILE_TYPE', error instanceof Error ? error.message : 'undecodable image');
  }
}

/** Media types a data URL may declare (spec §5); `image/jpg` is common in the wild. */
const DATA_URL_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when `text` is a data URL at all (`data:` scheme, any case), well formed or not. */
export function isDataUrl(text: string): boolean {
  return /^data:/i.test(text);
}

/**
 * The bytes of a base64 data URL as a browser's FileReader.readAsDataURL makes it
 * (`data:image/png;base64,…`, `data:image/jpeg;base64,…`, also `image/jpg`; media type in any
 * case; parameters before `;base64` allowed). The declared type only filters: processTeamIcon
 * still judges the content.
 * @throws DomainError('NOT_ALLOWED_FILE_TYPE') for any other declared media type;
 *   DomainError('INVALID_REQUEST') for anything malformed (no `data:` scheme, no comma, not
 *   base64-encoded, characters outside the base64 alphabet, a length not a multiple of 4).
 */
export function decodeDataUrl(text: string): { mediaType: string; bytes: Buffer } {
  const comma = text.indexOf(',');
  if (!isDataUrl(text) || comma < 0) throw new DomainError('INVALID_REQUEST', 'not a data URL');
  const header = text.slice('data:'.length, comma).split(';').map((part) => part.trim());
  const mediaType = (header[0] ?? '').toLowerCase();
  if (header.length < 2 || header.at(-1)!.toLowerCase() !== 'base64') throw new DomainError('INVALID_REQUEST', 'data URL is not base64');
  if (!DATA_URL_TYPES.has(mediaType)) throw new DomainError('NOT_ALLOWED_FILE_TYPE', `declared ${mediaType || 'no media type'}`);
  const data = text.slice(comma + 1);
  // Buffer.from(…, 'base64') skips what it cannot read; check first so garbage is refused.
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw new DomainError('INVALID_REQUEST', 'malformed base64');
  return { mediaType, bytes: Buffer.from(data, 'base64') };
}
