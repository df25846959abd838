// The dictionary groups built into one chunk per language (vite.config.ts): nearly every page shows
// them (the start-up's two, the forms' messages, the shell's menus and update toast), and on a slow
// network one request of 4 KB costs less than four of 1 KB. Plain data: the build config reads it.
export const BASE_CHUNK_GROUPS = ['common', 'errors', 'validation', 'shell'] as const;
