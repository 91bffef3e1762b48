/**
 * Certificates and share images: a bilingual PDF certificate per
 * participant and per team with a QR code and a signed short code that /verify/{code} checks
 * against the read models, and a team's 1200×630 PNG share image of its progress on the route
 * with the public team-progress page that carries it as its Open Graph image.
 */
export { certificateCode, normaliseCertificateCode, readCertificateCode, type CertificateSubject } from './code';
export { certificatePdf, printable, type CertificateContent } from './pdf';
export { shareImagePng, shareSvg, SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, type ShareFigures } from './share-image';
export { escapeHtml, progressPageHtml, PROGRESS_PAGE_CSP, type ProgressPageContent } from './share-page';
export { formatCount, formatDates, formatKm, LANGUAGES, TEXTS, type Language } from './texts';
