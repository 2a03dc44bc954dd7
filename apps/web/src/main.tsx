import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { applyStartupParams } from './app/startup';
import { makeStore } from './app/store';

applyStartupParams();
const store = makeStore();
const router = createAppRouter();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <Providers store={store}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
