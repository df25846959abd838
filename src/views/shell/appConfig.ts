import { useEffect, useState } from 'react';
import { api } from '../../api/client';

// Public settings the server hands the client (GET /app-config): the version and the external
// dashboards of the sidebar. Asked once per page load; while unknown (or offline) the dashboards
// stay hidden, exactly as when they are not configured.

export interface AppConfig {
  version: string;
  analyticsUrl: string | null;
  statisticsUrl: string | null;
}

let pending: Promise<AppConfig | null> | null = null;
/** The answer once it has come: a layout mounted after it renders it at once, without a second render. */
let loaded: AppConfig | null = null;

/** Asks once per page load (the start-up asks beside the sign-in's restore, earlyCalls.ts). */
export function loadAppConfig(): Promise<AppConfig | null> {
  pending ??= api.get<AppConfig>('/app-config').then(
    (c) => (loaded = c),
    () => {
      pending = null; // try again on the next mount (the network may be back)
      return null;
    },
  );
  return pending;
}

export function useAppConfig(): AppConfig | null {
  const [config, setConfig] = useState<AppConfig | null>(loaded);
  useEffect(() => {
    let alive = true;
    void loadAppConfig().then((c) => alive && setConfig(c));
    return () => {
      alive = false;
    };
  }, []);
  return config;
}
