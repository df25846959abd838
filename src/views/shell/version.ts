// The version baked in at build time from package.json (vite.config.ts `define`); the server's
// /app-config answer wins when it has come, so a stale cached shell still names the running server.
declare const __APP_VERSION__: string | undefined;

export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.3.10';
