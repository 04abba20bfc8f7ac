/** The product's mark, drawn inline so it needs no request and takes the theme's colours. */
export function Mark(props: { size?: number }) {
  const size = props.size ?? 28;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" class="mark">
      <rect width="32" height="32" rx="7" class="mark-tile" />
      <path d="M8 10h16M8 16h16M8 22h10" class="mark-lines" stroke-width="3" stroke-linecap="round" />
      <circle cx="23" cy="22" r="2.5" class="mark-dot" />
    </svg>
  );
}
