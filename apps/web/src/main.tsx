import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { applyStartupParams } from './app/startup';
import { makeStore } from './app/store';
import { authApi } from './features/auth/api';

applyStartupParams();
const store = makeStore();
// A stored session is checked now, while the page's chunks load, not once the root has rendered.
if (store.getState().session.status === 'loading') {
  store.dispatch(authApi.util.prefetch('getMe', undefined, {}));
}
const router = createAppRouter(store);

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <Providers store={store}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
