import type { Language } from '@sinilill/contracts';

/** Small flag of the language's country: Estonia for Estonian, the United Kingdom for English. */
export function Flag({ lang, width = 24 }: { lang: Language; width?: number }) {
  const height = (width * 2) / 3;
  if (lang === 'et') {
    return (
      <svg width={width} height={height} viewBox="0 0 33 21" aria-hidden="true" focusable="false">
        <rect width="33" height="7" fill="#0072ce" />
        <rect y="7" width="33" height="7" fill="#000" />
        <rect y="14" width="33" height="7" fill="#fff" />
        <rect x="0.5" y="0.5" width="32" height="20" fill="none" stroke="rgba(0,0,0,.25)" />
      </svg>
    );
  }
  return (
    <svg width={width} height={height} viewBox="0 0 60 40" aria-hidden="true" focusable="false">
      <clipPath id="flag-uk-clip">
        <rect width="60" height="40" />
      </clipPath>
      <g clipPath="url(#flag-uk-clip)">
        <rect width="60" height="40" fill="#012169" />
        <path d="M0 0L60 40M60 0L0 40" stroke="#fff" strokeWidth="8" />
        <path d="M0 0L60 40M60 0L0 40" stroke="#c8102e" strokeWidth="3" />
        <path d="M30 0V40M0 20H60" stroke="#fff" strokeWidth="12" />
        <path d="M30 0V40M0 20H60" stroke="#c8102e" strokeWidth="7" />
      </g>
    </svg>
  );
}
