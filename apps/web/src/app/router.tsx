import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { authApi } from '../features/auth/api';
import { RouteErrorPage } from '../features/errors/pages/RouteErrorPage';
import { SplashScreen } from '../shared/components/SplashScreen';
import { AppRoot } from './AppRoot';
import type { RouteHandle } from './route-handle';
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
const shellRoutes: RouteObject[] = [
  page('home', signedIn('Home'), () => import('../features/home/pages/HomePage'), 'HomePage'),
  page('acl', signedIn('Access Control'), () => import('../features/permissions/pages/AclPage'), 'AclPage'),
  // Everyone manages their own profile and layout; the menu entry still follows the Profile subject.
  page('profile', signedIn('Profile'), () => import('../features/profile/pages/ProfilePage'), 'ProfilePage'),
  page(
    'settings',
    signedIn('Settings'),
    () => import('../features/settings/pages/SettingsPage'),
    'SettingsPage',
  ),
  page('roles', menu('/roles', 'Users'), () => import('../features/roles/pages/RolesPage'), 'RolesPage'),
  page('bot', menu('/bot', 'Manage Bots'), () => import('../features/bots/pages/BotsPage'), 'BotsPage'),
  page(
    'bot/new',
    menu('/bot', 'Create bot'),
    () => import('../features/bots/pages/BotWizardPage'),
    'BotWizardPage',
  ),
  page(
    'bot/:botId',
    menu('/bot', 'Bot'),
    () => import('../features/bots/pages/BotDetailPage'),
    'BotDetailPage',
  ),
  page(
    'bot/:botId/playground',
    menu('/bot', 'Playground'),
    () => import('../features/playground/pages/PlaygroundPage'),
    'PlaygroundPage',
  ),
  page(
    'bot/llm-settings',
    menu('/bot', 'LLM settings'),
    () => import('../features/llm/pages/LlmSettingsPage'),
    'LlmSettingsPage',
  ),
  // Knowledge a bot is trained on: the same permission as Manage Bots.
  page(
    'bot/knowledge/files',
    menu('/bot', 'Files'),
    () => import('../features/files/pages/FileGroupsPage'),
    'FileGroupsPage',
  ),
  page(
    'bot/knowledge/websites',
    menu('/bot', 'Websites'),
    () => import('../features/crawler/pages/WebsitesPage'),
    'WebsitesPage',
  ),
  page(
    'bot/knowledge/notion',
    menu('/bot', 'Notion'),
    () => import('../features/notion/pages/NotionPage'),
    'NotionPage',
  ),
  page('bot/knowledge/qna', menu('/bot', 'Q&A'), () => import('../features/qna/pages/QnaPage'), 'QnaPage'),
  page(
    'inbox',
    menu('/inbox', 'Support Inbox'),
    () => import('../features/inbox/pages/InboxPage'),
    'InboxPage',
  ),
  page('leads', menu('/leads', 'Leads'), () => import('../features/leads/pages/LeadsPage'), 'LeadsPage'),
  page(
    'analytics',
    menu('/analytics', 'Analytics'),
    () => import('../features/analytics/pages/AnalyticsPage'),
    'AnalyticsPage',
  ),
  page(
    'subscriptions',
    menu('/subscriptions', 'Subscriptions'),
    () => import('../features/billing/pages/SubscriptionsPage'),
    'SubscriptionsPage',
  ),
  page(
    'upgrade',
    menu('/upgrade', 'Upgrade'),
    () => import('../features/billing/pages/UpgradePage'),
    'UpgradePage',
  ),
  page(
    'admin',
    menu('/admin', 'Admin Dashboard'),
    () => import('../features/admin/pages/AdminPage'),
    'AdminPage',
  ),
  // Plans and add-ons on offer: platform admins only, the same rule as the Admin Dashboard.
  page(
    'admin/plans',
    menu('/admin', 'Plans and add-ons'),
    () => import('../features/billing/pages/AdminPlansPage'),
    'AdminPlansPage',
  ),
  // Affiliate partners, balances and payouts: platform admins only.
  page(
    'admin/partners',
    menu('/admin', 'Partners'),
    () => import('../features/partner/pages/AdminPartnersPage'),
    'AdminPartnersPage',
  ),
  page(
    'capability',
    menu('/capability', 'Capability Demos'),
    () => import('../features/admin/pages/CapabilityPage'),
    'CapabilityPage',
  ),
  // Everything under /integrations follows the Integrations entry's rule (read Manage Bots), so a
  // role without it gets the not-authorised page, not the page's failing calls.
  page(
    'integrations/shopify/callback',
    menu('/integrations', 'Shopify'),
    () => import('../features/integrations/pages/ShopifyCallbackPage'),
    'ShopifyCallbackPage',
  ),
  // A connected online store: the same rule as the Integrations page.
  page(
    'integrations/stores/:platform/:id',
    menu('/integrations', 'Store'),
    () => import('../features/stores/pages/StorePage'),
    'StorePage',
  ),
  page(
    'whatsapp/*',
    menu('/whatsapp', 'WhatsApp'),
    () => import('../features/whatsapp/pages/WhatsAppPage'),
    'WhatsAppPage',
  ),
  // The operators' guides the Integrations cards link to.
  page(
    'help/:slug',
    menu('/integrations', 'Guide'),
    () => import('../features/integrations/pages/HelpPage'),
    'HelpPage',
  ),
  page(
    'integrations/*',
    menu('/integrations', 'Integrations'),
    () => import('../features/integrations/pages/IntegrationsPage'),
    'IntegrationsPage',
  ),
];

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
      { lazy: lazyComponent(() => import('../layouts/AppLayout'), 'AppLayout'), children: shellRoutes },
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
