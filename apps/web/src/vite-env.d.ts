/// <reference types="vite/client" />

// An interface, not a type: Vite's ImportMetaEnv is extended by declaration merging.
interface ImportMetaEnv {
  /** Google OAuth client id; without it the Google button is not shown. */
  readonly VITE_GOOGLE_CLIENT_ID?: string;
}
