/**
 * The sandbox bank's pages: the checkout page where the payer picks a bank (when the
 * order names none) and succeeds or fails, and the banks' logo badges. Self-contained HTML and SVG
 * (inline styles, no scripts, no external requests), in the order's language.
 */
import { euroText } from '@sinilill/domain';

/** A bank of the sandbox's setup. */
export interface SandboxBank {
  code: string;
  name: string;
}

/** What the checkout page shows. */
export interface CheckoutView {
  orderId: string;
  reference: string;
  amountCents: number;
  locale: 'et' | 'en';
  /** The merchant's name (config: the store). */
  merchant: string;
  description: string;
  /** The chosen bank, or null: the page offers `banks` to choose from. */
  bank: SandboxBank | null;
  banks: readonly SandboxBank[];
  /** The signed checkout session, posted back with the outcome. */
  session: string;
}

const TEXTS = {
  et: {
    title: 'Testpank',
    notice: 'See on Sinilille testpank: päris raha ei liigu. Vali, kas makse õnnestub või ebaõnnestub.',
    merchant: 'Saaja',
    amount: 'Summa',
    reference: 'Tellimuse kood',
    description: 'Selgitus',
    bank: 'Pank',
    chooseBank: 'Vali pank',
    succeed: 'Maksa',
    fail: 'Katkesta makse',
  },
  en: {
    title: 'Test bank',
    notice: 'This is Sinilill’s test bank: no real money moves. Choose whether the payment succeeds or fails.',
    merchant: 'Payee',
    amount: 'Amount',
    reference: 'Order code',
    description: 'Description',
    bank: 'Bank',
    chooseBank: 'Choose a bank',
    succeed: 'Pay',
    fail: 'Cancel the payment',
  },
} as const;

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** "15,00 €" in Estonian, "€15.00" in English (cents exact, no float formatting). */
export function formatAmount(cents: number, locale: 'et' | 'en'): string {
  const text = euroText(cents);
  return locale === 'et' ? `${text.replace('.', ',')}\u00a0€` : `€${text}`;
}

/** The checkout page (a complete HTML document) of one order. */
export function checkoutPage(view: CheckoutView): string {
  const t = TEXTS[view.locale];
  const e = escapeHtml;
  const bankRow = view.bank
    ? `<dt>${t.bank}</dt><dd data-testid="sandbox-bank">${e(view.bank.name)}</dd>`
    : '';
  const bankChoice = view.bank
    ? ''
    : `<p><label for="method">${t.chooseBank}</label><br><select id="method" name="method" required data-testid="sandbox-method">
${view.banks.map((b) => `<option value="${e(b.code)}">${e(b.name)}</option>`).join('\n')}
</select></p>`;
  return `<!doctype html>
<html lang="${view.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title} – ${e(view.merchant)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f3f5f8;color:#1a1a1a}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin:0 0 .5rem}
p.notice{background:#fff8d6;border-left:4px solid #b38600;padding:.5rem .75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}
dt{font-weight:600}dd{margin:0}
.actions{display:flex;gap:1rem;flex-wrap:wrap;margin-top:1.5rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:2px solid #005bb5;cursor:pointer}
button.pay{background:#005bb5;color:#fff}
button.fail{background:#fff;color:#a4001d;border-color:#a4001d}
button:focus-visible,select:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
select{font-size:1rem;padding:.3rem;margin-top:.3rem}
</style>
</head>
<body>
<main>
<h1>${t.title}</h1>
<p class="notice">${t.notice}</p>
<dl>
<dt>${t.merchant}</dt><dd data-testid="sandbox-merchant">${e(view.merchant)}</dd>
<dt>${t.amount}</dt><dd data-testid="sandbox-amount">${formatAmount(view.amountCents, view.locale)}</dd>
<dt>${t.reference}</dt><dd data-testid="sandbox-reference">${e(view.reference)}</dd>
<dt>${t.description}</dt><dd>${e(view.description)}</dd>
${bankRow}
</dl>
<form method="post" action="/api/payment/sandbox/checkout/${encodeURIComponent(view.orderId)}">
<input type="hidden" name="session" value="${e(view.session)}">
${bankChoice}
<div class="actions">
<button type="submit" class="pay" name="outcome" value="succeed" data-testid="sandbox-succeed">${t.succeed}</button>
<button type="submit" class="fail" name="outcome" value="fail" formnovalidate data-testid="sandbox-fail">${t.fail}</button>
</div>
</form>
</main>
</body>
</html>
`;
}

/** A bank's logo: a rounded badge with its name, colours derived from the code (no external assets). */
export function logoSvg(bank: SandboxBank): string {
  let hash = 0;
  for (const c of bank.code) hash = (hash * 31 + c.charCodeAt(0)) % 360;
  const name = escapeHtml(bank.name);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="64" viewBox="0 0 160 64" role="img" aria-label="${name}">
<rect x="1" y="1" width="158" height="62" rx="10" fill="hsl(${hash} 60% 35%)"/>
<text x="80" y="38" font-family="system-ui,sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">${name}</text>
</svg>
`;
}

/** The page for a checkout session that is forged, expired or of another order (both languages). */
export function invalidSessionPage(): string {
  return `<!doctype html>
<html lang="et">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Testpank / Test bank</title></head>
<body>
<main>
<h1>Testpank</h1>
<p>See makse seanss ei kehti või on aegunud. Alusta makset uuesti.</p>
<p lang="en">This payment session is not valid or has expired. Please start the payment again.</p>
</main>
</body>
</html>
`;
}
