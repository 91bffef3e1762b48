/**
 * The route tree, built in code (spec §2 route table). Only the pages that exist are here;
 * later issues add theirs. Unknown addresses render the root's not-found page inside the frame.
 */
import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { HomePage } from '../features/home';
import { NotFoundPage } from './frame/not-found-page';
import { RootLayout } from './frame/root-layout';

const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: HomePage,
});

const routeTree = rootRoute.addChildren([homeRoute]);

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
