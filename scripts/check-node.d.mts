// Types of scripts/check-node.mjs (plain JavaScript, so it runs on any Node before installing).
export function satisfies(version: string, range: string): boolean;
export function rangeInWords(range: string): string;
export function checkNode(version: string, range: string, platform?: string, arch?: string): string | null;
