/**
 * The product's mark and name as the server's own pages show them (the explorer's top bar, the icon of the sign-in
 * pages). The dashboard draws the same mark (packages/dashboard/src/ui/mark.tsx, public/mark.svg).
 */
export const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2563eb"/>' +
  '<path d="M8 10h16M8 16h16M8 22h10" stroke="#fff" stroke-width="3" stroke-linecap="round"/>' +
  '<circle cx="23" cy="22" r="2.5" fill="#fbbf24"/></svg>';

/** The mark with the name beside it, white text for a dark bar. */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 190 32" width="190" height="32" role="img" aria-label="dataplatform">' +
  '<rect width="32" height="32" rx="7" fill="#2563eb"/>' +
  '<path d="M8 10h16M8 16h16M8 22h10" stroke="#fff" stroke-width="3" stroke-linecap="round"/>' +
  '<circle cx="23" cy="22" r="2.5" fill="#fbbf24"/>' +
  '<text x="42" y="23" fill="#fff" font-family="system-ui, sans-serif" font-size="20" font-weight="700">dataplatform</text></svg>';
