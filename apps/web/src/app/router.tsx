import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { authApi } from '../features/auth/api';
import { RouteErrorPage } from '../features/errors/pages/RouteErrorPage';
import { SplashScreen } from '../shared/components/SplashScreen';
import { AppRoot } from './AppRoot';
import type { PagePreload } from './preload';
import type { RouteHandle } from './route-handle';
import { DEFAULT_ACCESS } from './startup-rules';
import type { AppStore } from './store';

/** A lazily loaded module's named component, so each screen is its own chunk. */
function lazyComponent<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return async () => ({ Component: (await load())[name] as ComponentType });
}

function page<M, K extends keyof M>(
  path: string,
  handle: RouteHandle,
  load: () => Promise<M>,
  name: K,
): RouteObject {
  return { path, handle, lazy: lazyComponent(load, name) };
}

/**
 * A console page's data starts with its route: the loader fires the page module's `preload` once the
 * module (which the route needs anyway) is in, and returns at once, so rendering never waits on it.
 * Only for a page the user may open: another would get refusals, and their toasts, for nothing. The
 * permission modules come with the console's chunks, not the entry's (the sign-in pages' budget).
 */
function withPreload(store: AppStore, load: () => Promise<unknown>, handle: RouteHandle) {
  return ({ request }: { request: Request }) => {
    // A module that fails to load is the route's own error to show (its `lazy`).
    preloadPage(store, load, handle, new URL(request.url)).catch(() => undefined);
    return null;
  };
}

async function preloadPage(store: AppStore, load: () => Promise<unknown>, handle: RouteHandle, url: URL) {
  const [page, { canAccess }, { abilityFor }] = await Promise.all([
    load() as Promise<{ preload?: PagePreload }>,
    import('../features/permissions/menu'),
    import('../features/permissions/ability'),
  ]);
  const user = store.getState().session.user;
  if (!page.preload || !user || !canAccess(abilityFor(user), handle.access ?? DEFAULT_ACCESS)) return;
  page.preload({ dispatch: store.dispatch, user, url });
}

const guest = (title: string): RouteHandle => ({ access: 'guest', title });
const open = (title: string): RouteHandle => ({ access: 'public', title });
const menu = (path: string, title: string): RouteHandle => ({ access: { menu: path }, title });
const signedIn = (title: string): RouteHandle => ({ title });

/** Pages outside the app shell: sign-in, public pages and error pages. */
const blankRoutes: RouteObject[] = [
  page('login', guest('Login'), () => import('../features/auth/pages/LoginPage'), 'LoginPage'),
  page('register', guest('Register'), () => import('../features/auth/pages/RegisterPage'), 'RegisterPage'),
  page('signup', guest('Sign up'), () => import('../features/auth/pages/SignupPage'), 'SignupPage'),
  page(
    'forgot-password',
    guest('Forgot password'),
    () => import('../features/auth/pages/ForgotPasswordPage'),
    'ForgotPasswordPage',
  ),
  page(
    'reset-password',
    guest('Reset password'),
    () => import('../features/auth/pages/ResetPasswordPage'),
    'ResetPasswordPage',
  ),
  page('partner', open('Partner'), () => import('../features/partner/pages/PartnerPage'), 'PartnerPage'),
  page('contact', open('Contact'), () => import('../features/public/pages/ContactPage'), 'ContactPage'),
  page(
    'privacy',
    open('Privacy policy'),
    () => import('../features/public/pages/PrivacyPage'),
    'PrivacyPage',
  ),
  // A bot's public full-page chat: no login, the bot by its uuid.
  page('chat/:uuid', open('Chat'), () => import('../features/widget/pages/WidgetPage'), 'WidgetPage'),
  page('terms', open('Terms'), () => import('../features/public/pages/TermsPage'), 'TermsPage'),
  // Meta's WhatsApp signup popup lands here; it hands the code to the console and closes.
  page(
    'whatsapp/callback',
    open('WhatsApp'),
    () => import('../features/whatsapp/pages/WhatsAppCallbackPage'),
    'WhatsAppCallbackPage',
  ),
  page('404', open('Page not found'), () => import('../features/errors/pages/NotFoundPage'), 'NotFoundPage'),
  page(
    '500',
    open('Server error'),
    () => import('../features/errors/pages/ServerErrorPage'),
    'ServerErrorPage',
  ),
];

/** Pages inside the app shell; each declares what it needs (default: read Home). */
function shellRoutes(store: AppStore): RouteObject[] {
  const shellPage = <M, K extends keyof M>(
    path: string,
    handle: RouteHandle,
    load: () => Promise<M>,
    name: K,
  ): RouteObject => ({ ...page(path, handle, load, name), loader: withPreload(store, load, handle) });
  return [
    shellPage('home', signedIn('Home'), () => import('../features/home/pages/HomePage'), 'HomePage'),
    shellPage(
      'acl',
      signedIn('Access Control'),
      () => import('../features/permissions/pages/AclPage'),
      'AclPage',
    ),
    // Everyone manages their own profile and layout; the menu entry still follows the Profile subject.
    shellPage(
      'profile',
      signedIn('Profile'),
      () => import('../features/profile/pages/ProfilePage'),
      'ProfilePage',
    ),
    shellPage(
      'settings',
      signedIn('Settings'),
      () => import('../features/settings/pages/SettingsPage'),
      'SettingsPage',
    ),
    shellPage(
      'roles',
      menu('/roles', 'Users'),
      () => import('../features/roles/pages/RolesPage'),
      'RolesPage',
    ),
    shellPage(
      'bot',
      menu('/bot', 'Manage Bots'),
      () => import('../features/bots/pages/BotsPage'),
      'BotsPage',
    ),
    shellPage(
      'bot/new',
      menu('/bot', 'Create bot'),
      () => import('../features/bots/pages/BotWizardPage'),
      'BotWizardPage',
    ),
    shellPage(
      'bot/:botId',
      menu('/bot', 'Bot'),
      () => import('../features/bots/pages/BotDetailPage'),
      'BotDetailPage',
    ),
    shellPage(
      'bot/:botId/playground',
      menu('/bot', 'Playground'),
      () => import('../features/playground/pages/PlaygroundPage'),
      'PlaygroundPage',
    ),
    shellPage(
      'bot/llm-settings',
      menu('/bot', 'LLM settings'),
      () => import('../features/llm/pages/LlmSettingsPage'),
      'LlmSettingsPage',
    ),
    // Knowledge a bot is trained on: the same permission as Manage Bots.
    shellPage(
      'bot/knowledge/files',
      menu('/bot', 'Files'),
      () => import('../features/files/pages/FileGroupsPage'),
      'FileGroupsPage',
    ),
    shellPage(
      'bot/knowledge/websites',
      menu('/bot', 'Websites'),
      () => import('../features/crawler/pages/WebsitesPage'),
      'WebsitesPage',
    ),
    shellPage(
      'bot/knowledge/notion',
      menu('/bot', 'Notion'),
      () => import('../features/notion/pages/NotionPage'),
      'NotionPage',
    ),
    shellPage(
      'bot/knowledge/qna',
      menu('/bot', 'Q&A'),
      () => import('../features/qna/pages/QnaPage'),
      'QnaPage',
    ),
    shellPage(
      'inbox',
      menu('/inbox', 'Support Inbox'),
      () => import('../features/inbox/pages/InboxPage'),
      'InboxPage',
    ),
    shellPage(
      'leads',
      menu('/leads', 'Leads'),
      () => import('../features/leads/pages/LeadsPage'),
      'LeadsPage',
    ),
    shellPage(
      'analytics',
      menu('/analytics', 'Analytics'),
      () => import('../features/analytics/pages/AnalyticsPage'),
      'AnalyticsPage',
    ),
    shellPage(
      'subscriptions',
      menu('/subscriptions', 'Subscriptions'),
      () => import('../features/billing/pages/SubscriptionsPage'),
      'SubscriptionsPage',
    ),
    shellPage(
      'upgrade',
      menu('/upgrade', 'Upgrade'),
      () => import('../features/billing/pages/UpgradePage'),
      'UpgradePage',
    ),
    shellPage(
      'admin',
      menu('/admin', 'Admin Dashboard'),
      () => import('../features/admin/pages/AdminPage'),
      'AdminPage',
    ),
    // Plans and add-ons on offer: platform admins only, the same rule as the Admin Dashboard.
    shellPage(
      'admin/plans',
      menu('/admin', 'Plans and add-ons'),
      () => import('../features/billing/pages/AdminPlansPage'),
      'AdminPlansPage',
    ),
    // Affiliate partners, balances and payouts: platform admins only.
    shellPage(
      'admin/partners',
      menu('/admin', 'Partners'),
      () => import('../features/partner/pages/AdminPartnersPage'),
      'AdminPartnersPage',
    ),
    shellPage(
      'capability',
      menu('/capability', 'Capability Demos'),
      () => import('../features/admin/pages/CapabilityPage'),
      'CapabilityPage',
    ),
    // Everything under /integrations follows the Integrations entry's rule (read Manage Bots), so a
    // role without it gets the not-authorised page, not the page's failing calls.
    shellPage(
      'integrations/shopify/callback',
      menu('/integrations', 'Shopify'),
      () => import('../features/integrations/pages/ShopifyCallbackPage'),
      'ShopifyCallbackPage',
    ),
    // A connected online store: the same rule as the Integrations page.
    shellPage(
      'integrations/stores/:platform/:id',
      menu('/integrations', 'Store'),
      () => import('../features/stores/pages/StorePage'),
      'StorePage',
    ),
    shellPage(
      'whatsapp/*',
      menu('/whatsapp', 'WhatsApp'),
      () => import('../features/whatsapp/pages/WhatsAppPage'),
      'WhatsAppPage',
    ),
    // The operators' guides the Integrations cards link to.
    shellPage(
      'help/:slug',
      menu('/integrations', 'Guide'),
      () => import('../features/integrations/pages/HelpPage'),
      'HelpPage',
    ),
    shellPage(
      'integrations/*',
      menu('/integrations', 'Integrations'),
      () => import('../features/integrations/pages/IntegrationsPage'),
      'IntegrationsPage',
    ),
  ];
}

/** The sign-in pages show Google's button when the server has a client id: asked with the route. */
const withAuthConfig = (store: AppStore) => (route: RouteObject) =>
  (route.handle as RouteHandle).access === 'guest'
    ? {
        ...route,
        loader: () => {
          store.dispatch(authApi.util.prefetch('authConfig', undefined, {}));
          return null;
        },
      }
    : route;

const routes = (store: AppStore): RouteObject[] => [
  {
    element: <AppRoot />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <SplashScreen />,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      {
        lazy: lazyComponent(() => import('../layouts/BlankLayout'), 'BlankLayout'),
        children: blankRoutes.map(withAuthConfig(store)),
      },
      {
        lazy: lazyComponent(() => import('../layouts/AppLayout'), 'AppLayout'),
        children: shellRoutes(store),
      },
      { path: '*', handle: open('Page not found'), element: <Navigate to="/404" replace /> },
    ],
  },
];

export function createAppRouter(store: AppStore) {
  const tree = routes(store);
  preloadOnHover(tree);
  return createBrowserRouter(tree);
}

/**
 * A link pointed at (or focused) starts loading its page's chunks, so the click finds them loaded.
 * Calling a route's `lazy` only imports its module (with the chunks it needs, through Vite's
 * preload map); the router's own later call gets the module the browser already has.
 */
function preloadOnHover(tree: RouteObject[]): void {
  const started = new Set<string>();
  const onPoint = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    if (started.has(link.pathname)) return;
    started.add(link.pathname);
    for (const match of matchRoutes(tree, link.pathname) ?? []) {
      if (typeof match.route.lazy === 'function') void match.route.lazy().catch(() => undefined);
    }
  };
  document.addEventListener('mouseover', onPoint, { passive: true });
  document.addEventListener('focusin', onPoint, { passive: true });
}
