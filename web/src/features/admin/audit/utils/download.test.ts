import { describe, expect, it } from 'vitest';
import { fallbackExportName, filenameFromDisposition } from './download';

describe('filenameFromDisposition', () => {
  it('reads the server\'s quoted file name', () => {
    expect(filenameFromDisposition('attachment; filename="history-2025-04-20T10-00-00-000Z.csv"', 'x')).toBe('history-2025-04-20T10-00-00-000Z.csv');
  });

  it('prefers filename* and takes a bare filename', () => {
    expect(filenameFromDisposition("attachment; filename=\"a.csv\"; filename*=UTF-8''aj%C3%A4lugu.csv", 'x')).toBe('ajälugu.csv');
    expect(filenameFromDisposition('attachment; filename=history.ndjson', 'x')).toBe('history.ndjson');
  });

  it('makes a name safe and falls back when there is none', () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"', 'x')).toBe('..-..-etc-passwd');
    expect(filenameFromDisposition(null, 'fallback.csv')).toBe('fallback.csv');
    expect(filenameFromDisposition('attachment', 'fallback.csv')).toBe('fallback.csv');
  });
});

describe('fallbackExportName', () => {
  it('writes history-<instant>.<format> as the server does', () => {
    expect(fallbackExportName('ndjson', new Date('2025-04-20T10:00:00Z'))).toBe('history-2025-04-20T10-00-00-000Z.ndjson');
  });
});
