// The app's mark (public/icons/icon.svg) drawn inline: as an <img> it was one more request beside the
// page's own on the first load, the same file the favicon asks for.
export function AppMark({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" className="shrink-0">
      <rect width="64" height="64" rx="12.8" fill="#4f46e5" />
      <g
        transform="translate(6.4 6.4) scale(0.512)"
        fill="none"
        stroke="#fff"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <rect x="18" y="14" width="64" height="78" rx="8" strokeWidth="7" />
        <rect x="36" y="6" width="28" height="16" rx="5" fill="#4f46e5" strokeWidth="7" />
        <path d="M30 42l5 5 9-10M52 43h18M30 64l5 5 9-10M52 65h18" strokeWidth="6" />
      </g>
    </svg>
  );
}
