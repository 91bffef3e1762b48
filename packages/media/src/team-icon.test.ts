import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import sharp, { type Sharp } from 'sharp';
import { MAX_IMAGE_BYTES } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { decodeDataUrl, isDataUrl, processTeamIcon } from './team-icon';

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } });

/** 40×40, left half red, right half blue. */
async function halves(): Promise<Sharp> {
  const blue = await sharp({ create: { width: 20, height: 40, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
  return sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .composite([{ input: blue, left: 20, top: 0 }]);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}

/** The RGB of one pixel of an encoded image. */
async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

describe('processTeamIcon', () => {
  it.each([
    ['PNG', () => solid(300, 120).png().toBuffer()],
    ['JPEG', () => solid(120, 300).jpeg().toBuffer()],
    ['small PNG (scaled up)', () => solid(16, 16).png().toBuffer()],
  ])('turns a %s into a 256×256 WebP', async (_name, make) => {
    const result = await processTeamIcon(await make());
    expect(result).toMatchObject({ contentType: 'image/webp', width: 256, height: 256 });
    const metadata = await sharp(result.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('is deterministic: the same upload gives the same bytes (content-addressed storage relies on it)', async () => {
    const png = await solid(100, 80).png().toBuffer();
    expect((await processTeamIcon(png)).bytes.equals((await processTeamIcon(png)).bytes)).toBe(true);
  });

  it('applies the EXIF orientation (6: turn 90° clockwise) and drops the EXIF', async () => {
    const jpeg = await (await halves()).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const { bytes } = await processTeamIcon(jpeg);
    // Stored left half (red) is shown on top once turned; unturned it would stay on the left.
    const top = await pixel(bytes, 200, 10);
    const bottom = await pixel(bytes, 50, 245);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
    const metadata = await sharp(bytes).metadata();
    expect(metadata.orientation).toBeUndefined();
    expect(metadata.exif).toBeUndefined();
  });

  it('keeps no GPS position, ICC profile, XMP or comments of the upload', async () => {
    const jpeg = await solid(64, 64).jpeg()
      .withExif({ IFD0: { Make: 'Phone', ImageDescription: 'at home' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 26/1 0/1' } })
      .withIccProfile('p3')
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
      .toBuffer();
    const input = await sharp(jpeg).metadata();
    expect(input.exif?.includes('Phone')).toBe(true);
    expect(input.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer (tag 0x8825, little-endian)
    expect(input.hasProfile).toBe(true);
    const { bytes } = await processTeamIcon(jpeg);
    const output = await sharp(bytes).metadata();
    expect(output).toMatchObject({ hasProfile: false });
    expect(output.exif).toBeUndefined();
    expect(output.xmp).toBeUndefined();
    expect(bytes.includes('Phone')).toBe(false);
  });

  it.each([
    ['a GIF', () => solid(32, 32).gif().toBuffer()],
    ['a WebP', () => solid(32, 32).webp().toBuffer()],
    ['an SVG', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')],
    ['text', async () => Buffer.from('this is not a picture, whatever its name says')],
    ['nothing', async () => Buffer.alloc(0)],
    ['a truncated PNG', async () => (await solid(64, 64).png().toBuffer()).subarray(0, 60)],
  ])('refuses %s with NOT_ALLOWED_FILE_TYPE', async (_name, make) => {
    expect(await codeOf(processTeamIcon(await make()))).toBe('NOT_ALLOWED_FILE_TYPE');
  });

  it('refuses more than 5 MiB with MAX_IMAGE_SIZE before decoding', async () => {
    // Not an image at all: the size answers first, so nothing is decoded.
    expect(await codeOf(processTeamIcon(Buffer.alloc(6 * 1024 * 1024, 1)))).toBe('MAX_IMAGE_SIZE');
    expect(await codeOf(processTeamIcon(Buffer.alloc(MAX_IMAGE_BYTES + 1)))).toBe('MAX_IMAGE_SIZE');
  });

  it('refuses a decompression bomb (a small PNG declaring 20 000 × 20 000 pixels) with MAX_IMAGE_SIZE, without decoding it', async () => {
    // A real PNG whose header is rewritten (with a valid CRC) to claim 400 megapixels.
    const png = await solid(8, 8).png().toBuffer();
    const ihdr = png.subarray(12, 29); // 'IHDR' + 13 bytes of data
    ihdr.writeUInt32BE(20_000, 4);
    ihdr.writeUInt32BE(20_000, 8);
    png.writeUInt32BE(crc32(ihdr), 29);
    expect(await sharp(png, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 20_000, height: 20_000 });
    expect(await codeOf(processTeamIcon(png))).toBe('MAX_IMAGE_SIZE');
  });
});

describe('decodeDataUrl', () => {
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const b64 = bytes.toString('base64');

  it.each(['image/png', 'image/jpeg', 'image/jpg', 'IMAGE/PNG'])('decodes data:%s;base64,…', (type) => {
    expect(decodeDataUrl(`data:${type};base64,${b64}`)).toEqual({ mediaType: type.toLowerCase(), bytes });
  });

  it('allows parameters before ;base64', () => {
    expect(decodeDataUrl(`data:image/png;name=icon.png;base64,${b64}`).bytes).toEqual(bytes);
  });

  it.each(['image/gif', 'image/webp', 'image/svg+xml', 'text/plain', ''])('refuses the declared type %j with NOT_ALLOWED_FILE_TYPE', (type) => {
    expect(() => decodeDataUrl(`data:${type};base64,${b64}`)).toThrowError(expect.objectContaining({ code: 'NOT_ALLOWED_FILE_TYPE' }));
  });

  it.each([
    'https://example.com/icon.png',
    'data:image/png,rawtext',
    'data:image/png;base64',
    `data:image/png;base64,${b64}!`,
    'data:image/png;base64,abc',
    'data:image/png;base64,ab=c',
  ])('refuses the malformed %j with INVALID_REQUEST', (text) => {
    expect(() => decodeDataUrl(text)).toThrowError(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('leaves the verdict to the content: text declared as PNG decodes, then processTeamIcon refuses it', async () => {
    const { bytes: text } = decodeDataUrl(`data:image/png;base64,${Buffer.from('hello').toString('base64')}`);
    expect(await codeOf(processTeamIcon(text))).toBe('NOT_ALLOWED_FILE_TYPE');
  });

  it('tells data URLs from references', () => {
    expect(isDataUrl('DATA:image/png;base64,')).toBe(true);
    expect(isDataUrl('/api/images/abc.webp')).toBe(false);
  });
});
