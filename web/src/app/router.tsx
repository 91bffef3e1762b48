/**
 * The route tree, built in code (spec §2 route table). Only the pages that exist are here;
 * later issues add theirs. Unknown addresses render the root's not-found page inside the frame.
 * Route components read params and search here and hand them to the features as props, so the
 * features stay free of route ids.
 */
import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { AccountPage } from '../features/account';
import { ConfirmAccountPage, LoginPage, PasswordResetPage } from '../features/auth';
import { HomePage } from '../features/home';
import { PayPage } from '../features/pay';
import { RegisterPage, SuccessPage } from '../features/registration';
import { TeamPage } from '../features/team';
import { NotFoundPage } from './frame/not-found-page';
import { RootLayout } from './frame/root-layout';

/** `?type=<value>` when it is the expected value, else no search at all. */
function typeSearch<Value extends string>(value: Value) {
  return (search: Record<string, unknown>): { type?: Value } => (search.type === value ? { type: value } : {});
}

const rootRoute = createRootRoute({
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
  component: RegisterPage,
});

const successRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/success',
  component: SuccessPage,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: typeSearch('forgot'),
  component: function LoginRoute() {
    const { type } = loginRoute.useSearch();
    return <LoginPage forgot={type === 'forgot'} />;
  },
});

const passwordResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/passwordreset/$token/$id',
  validateSearch: typeSearch('success'),
  component: function PasswordResetRoute() {
    const { token, id } = passwordResetRoute.useParams();
    const { type } = passwordResetRoute.useSearch();
    return <PasswordResetPage token={token} id={id} success={type === 'success'} />;
  },
});

const confirmAccountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/confirm/account/$token/$id',
  validateSearch: typeSearch('success'),
  component: function ConfirmAccountRoute() {
    const { token, id } = confirmAccountRoute.useParams();
    const { type } = confirmAccountRoute.useSearch();
    return <ConfirmAccountPage token={token} id={id} success={type === 'success'} />;
  },
});

const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  component: AccountPage,
});

const teamRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/team',
  component: TeamPage,
});

const payRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pay',
  component: PayPage,
});

const routeTree = rootRoute.addChildren([
  homeRoute,
  registerRoute,
  successRoute,
  loginRoute,
  passwordResetRoute,
  confirmAccountRoute,
  accountRoute,
  teamRoute,
  payRoute,
]);

export const router = createRouter({
  routeTree,
  // Spec §2: "Scroll resets to top on each navigation". The router scrolls the window to the
  // top after every navigation by default (resetScroll); restoring old positions stays off.
  scrollRestoration: false,
  defaultPreload: 'intent',
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
