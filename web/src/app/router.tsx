/**
 * The route tree, built in code (spec §2 route table). Only the pages that exist are here;
 * later issues add theirs. Unknown addresses render the root's not-found page inside the frame.
 * Route components read params and search here and hand them to the features as props, so the
 * features stay free of route ids.
 *
 * Only the home page is in the first download (the home route's JavaScript at
 * most 150 KB gzipped, tests/bench/web-size.ts). Every other page is a chunk of its own, and its
 * texts (a page namespace, resources.ts) load in the page's language in the route's loader,
 * alongside the chunk; hovering a link preloads both (defaultPreload 'intent').
 */
import {
  createRootRoute, createRoute, createRouter, lazyRouteComponent, notFound, parseSearchWith, stringifySearchWith, type RouteComponent,
} from '@tanstack/react-router';
import { useCallback, type ReactNode } from 'react';
import { HomePage } from '../features/home';
import { NotFoundPage } from './frame/not-found-page';
import { RootLayout } from './frame/root-layout';
import { RouteErrorPage } from './frame/route-error-page';
import { RoutePending } from './frame/route-pending';
import { loadPageNamespace } from './i18n';
import { prefetchEditions } from '../lib/edition';

/** `?type=<value>` when it is the expected value, else no search at all. */
function typeSearch<Value extends string>(value: Value) {
  return (search: Record<string, unknown>): { type?: Value } => (search.type === value ? { type: value } : {});
}

/**
 * `component`, a route component that reads params or search and renders the lazily loaded
 * `page`, given the page's preload: the router then loads the chunk before it renders the route
 * (and when a link to it is hovered) instead of suspending inside it.
 */
function lendPreload(component: () => ReactNode, page: { preload?: () => Promise<void> | undefined }): RouteComponent {
  return Object.assign(component, { preload: () => page.preload?.() });
}

const rootRoute = createRootRoute({
  // The site's edition is read at once: pages and form checks take its rules (lib/edition.ts).
  beforeLoad: () => prefetchEditions(),
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: HomePage,
});

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  loader: () => loadPageNamespace('registration'),
  component: lazyRouteComponent(() => import('../features/registration'), 'RegisterPage'),
  pendingComponent: RoutePending,
});

const successRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/success',
  loader: () => loadPageNamespace('registration'),
  component: lazyRouteComponent(() => import('../features/registration'), 'SuccessPage'),
  pendingComponent: RoutePending,
});

// The sign-in pages: one chunk, rendered by route components that hand them params and search.
const LoginPage = lazyRouteComponent(() => import('../features/auth'), 'LoginPage');
const PasswordResetPage = lazyRouteComponent(() => import('../features/auth'), 'PasswordResetPage');
const ConfirmAccountPage = lazyRouteComponent(() => import('../features/auth'), 'ConfirmAccountPage');

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: typeSearch('forgot'),
  loader: () => loadPageNamespace('auth'),
  component: lendPreload(function LoginRoute() {
    const { type } = loginRoute.useSearch();
    return <LoginPage forgot={type === 'forgot'} />;
  }, LoginPage),
  pendingComponent: RoutePending,
});

const passwordResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/passwordreset/$token/$id',
  validateSearch: typeSearch('success'),
  loader: () => loadPageNamespace('auth'),
  component: lendPreload(function PasswordResetRoute() {
    const { token, id } = passwordResetRoute.useParams();
    const { type } = passwordResetRoute.useSearch();
    return <PasswordResetPage token={token} id={id} success={type === 'success'} />;
  }, PasswordResetPage),
  pendingComponent: RoutePending,
});

const confirmAccountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/confirm/account/$token/$id',
  validateSearch: typeSearch('success'),
  loader: () => loadPageNamespace('auth'),
  component: lendPreload(function ConfirmAccountRoute() {
    const { token, id } = confirmAccountRoute.useParams();
    const { type } = confirmAccountRoute.useSearch();
    return <ConfirmAccountPage token={token} id={id} success={type === 'success'} />;
  }, ConfirmAccountPage),
  pendingComponent: RoutePending,
});

const AccountPage = lazyRouteComponent(() => import('../features/account'), 'AccountPage');
const STRAVA_RETURNS = ['connected', 'denied', 'error'] as const;

const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  // `?strava=` (and `&reason=CODE` for an error): where Strava's authorization sends the
  // participant back (the API's callback).
  validateSearch: (search: Record<string, unknown>): { strava?: (typeof STRAVA_RETURNS)[number]; reason?: string } => {
    const found = STRAVA_RETURNS.find((value) => value === search.strava);
    if (!found) return {};
    return typeof search.reason === 'string' && /^[A-Z_]{1,64}$/.test(search.reason) ? { strava: found, reason: search.reason } : { strava: found };
  },
  // The team page's texts too: the Strava section names entry types as the entries do.
  loader: () => Promise.all([loadPageNamespace('account'), loadPageNamespace('team')]),
  component: lendPreload(function AccountRoute() {
    const { strava, reason } = accountRoute.useSearch();
    const navigate = accountRoute.useNavigate();
    const seen = useCallback(() => void navigate({ search: {}, replace: true }), [navigate]);
    return <AccountPage {...(strava ? { stravaReturn: { outcome: strava, ...(reason ? { reason } : {}) } } : {})} onStravaReturnSeen={seen} />;
  }, AccountPage),
  pendingComponent: RoutePending,
});

const teamRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/team',
  // The tables (TanStack Table) and the live stream are not needed elsewhere. The certificates'
  // texts too: the team page has their download buttons.
  loader: () => Promise.all([loadPageNamespace('team'), loadPageNamespace('certificates')]),
  component: lazyRouteComponent(() => import('../features/team'), 'TeamPage'),
  pendingComponent: RoutePending,
});

// Where a certificate's QR code leads: public.
const VerifyPage = lazyRouteComponent(() => import('../features/certificates'), 'VerifyPage');

const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify/$code',
  loader: () => loadPageNamespace('certificates'),
  component: lendPreload(function VerifyRoute() {
    const { code } = verifyRoute.useParams();
    // Another code is another page: nothing of the last answer may stay on it.
    return <VerifyPage key={code} code={code} />;
  }, VerifyPage),
  pendingComponent: RoutePending,
});

// The same page with no code yet: a field to type the one printed on a certificate.
const verifyFormRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify',
  loader: () => loadPageNamespace('certificates'),
  component: lendPreload(function VerifyFormRoute() {
    return <VerifyPage />;
  }, VerifyPage),
  pendingComponent: RoutePending,
});

const payRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pay',
  loader: () => loadPageNamespace('pay'),
  component: lazyRouteComponent(() => import('../features/pay'), 'PayPage'),
  pendingComponent: RoutePending,
});

const participantsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/participants',
  loader: () => loadPageNamespace('participants'),
  component: lazyRouteComponent(() => import('../features/participants'), 'ParticipantsPage'),
  pendingComponent: RoutePending,
});

/** A query value as text: the router parses `?amount=15` as a number, `?code=abc` as a string. */
function searchText(value: unknown): string | undefined {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? String(value) : undefined;
}

// Only on the way back from the payment service: a chunk apart from /pay's.
const PaymentResultPage = lazyRouteComponent(() => import('../features/pay/result'), 'PaymentResultPage');

const paymentResultRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/payment/$status',
  // Spec §2: status success or failed; anything else is an unknown address.
  beforeLoad: ({ params }) => {
    if (params.status !== 'success' && params.status !== 'failed') throw notFound();
  },
  validateSearch: (search: Record<string, unknown>): { amount?: string; code?: string } => ({
    amount: searchText(search.amount),
    code: searchText(search.code),
  }),
  loader: () => loadPageNamespace('pay'),
  component: lendPreload(function PaymentResultRoute() {
    const { status } = paymentResultRoute.useParams();
    const { amount, code } = paymentResultRoute.useSearch();
    return <PaymentResultPage status={status === 'success' ? 'success' : 'failed'} amount={amount} code={code} />;
  }, PaymentResultPage),
  pendingComponent: RoutePending,
});

// The console (tables, history, replay): never downloaded by non-admins' pages. Its entries tab
// also uses the team page's texts.
const AdminPage = lazyRouteComponent(() => import('../features/admin'), 'AdminPage');

const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  // Kept as written: the console says when it names no tab (a stale or mistyped link) rather
  // than quietly showing another one.
  validateSearch: (search: Record<string, unknown>): { tab?: string } => (typeof search.tab === 'string' ? { tab: search.tab } : {}),
  loader: () => Promise.all([loadPageNamespace('admin'), loadPageNamespace('adminAudit'), loadPageNamespace('team')]),
  component: lendPreload(function AdminRoute() {
    const { tab } = adminRoute.useSearch();
    const navigate = adminRoute.useNavigate();
    return <AdminPage tab={tab} onTabChange={(next) => void navigate({ search: { tab: next }, replace: true })} />;
  }, AdminPage),
  pendingComponent: RoutePending,
});

const historyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/history',
  loader: () => loadPageNamespace('history'),
  component: lazyRouteComponent(() => import('../features/history'), 'HistoryPage'),
  pendingComponent: RoutePending,
});

// A closed edition's archive page; a year that is not a number is not a page.
const ArchivedEditionPage = lazyRouteComponent(() => import('../features/history'), 'ArchivedEditionPage');
const archivedEditionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/history/$year',
  beforeLoad: ({ params }) => {
    if (!/^\d{4}$/.test(params.year)) throw notFound();
  },
  loader: () => loadPageNamespace('history'),
  component: lendPreload(function ArchivedEditionRoute() {
    const { year } = archivedEditionRoute.useParams();
    return <ArchivedEditionPage year={Number(year)} />;
  }, ArchivedEditionPage),
  pendingComponent: RoutePending,
});

const guideRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/guide',
  loader: () => loadPageNamespace('guide'),
  component: lazyRouteComponent(() => import('../features/guide'), 'GuidePage'),
  pendingComponent: RoutePending,
});

const sponsorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sponsor',
  loader: () => loadPageNamespace('sponsors'),
  component: lazyRouteComponent(() => import('../features/sponsors'), 'SponsorsPage'),
  pendingComponent: RoutePending,
});

const newsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/news',
  loader: () => loadPageNamespace('news'),
  component: lazyRouteComponent(() => import('../features/news'), 'NewsPage'),
  pendingComponent: RoutePending,
});

const privacyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy',
  loader: () => loadPageNamespace('privacy'),
  component: lazyRouteComponent(() => import('../features/privacy'), 'PrivacyPage'),
  pendingComponent: RoutePending,
});

// The prize draw anyone can check: public.
const drawRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/loos',
  loader: () => loadPageNamespace('draw'),
  component: lazyRouteComponent(() => import('../features/draw'), 'DrawPage'),
  pendingComponent: RoutePending,
});

// The unsubscribe link of announcement mails: public, no login.
const UnsubscribePage = lazyRouteComponent(() => import('../features/unsubscribe'), 'UnsubscribePage');
const unsubscribeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unsubscribe/$token',
  loader: () => loadPageNamespace('unsubscribe'),
  component: lendPreload(function UnsubscribeRoute() {
    const { token } = unsubscribeRoute.useParams();
    return <UnsubscribePage token={token} />;
  }, UnsubscribePage),
  pendingComponent: RoutePending,
});

const routeTree = rootRoute.addChildren([
  homeRoute,
  participantsRoute,
  registerRoute,
  successRoute,
  loginRoute,
  passwordResetRoute,
  confirmAccountRoute,
  accountRoute,
  teamRoute,
  verifyRoute,
  verifyFormRoute,
  payRoute,
  paymentResultRoute,
  historyRoute,
  archivedEditionRoute,
  adminRoute,
  guideRoute,
  sponsorRoute,
  newsRoute,
  privacyRoute,
  drawRoute,
  unsubscribeRoute,
]);

export const router = createRouter({
  routeTree,
  // Spec §2: "Scroll resets to top on each navigation". The router scrolls the window to the
  // top after every navigation by default (resetScroll); restoring old positions stays off.
  scrollRestoration: false,
  defaultPreload: 'intent',
  // Every unknown address, at whatever depth, gets the not-found page inside the frame; a route
  // that fails (a chunk that did not load, a page that threw) gets a message with a way on, in
  // the page's language, instead of a blank page.
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: RouteErrorPage,
  // Every search value of this site is plain text (?type=forgot, ?tab=users, ?amount=15.00,
  // ?code=…): kept as written. The router's default JSON-parses values, which turns
  // ?amount=15.00 into the number 15 and writes it back as ?amount=%2215%22.
  parseSearch: parseSearchWith((value) => value),
  stringifySearch: stringifySearchWith(JSON.stringify),
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
