/**
 * Signs that text was written as markdown, so offering a formatted view is worth it. Only
 * CommonMark counts: the renderer has no GFM extensions (tables and the like stay text).
 */
const MARKDOWN_SIGNS: readonly RegExp[] = [
  /^#{1,6}\s+\S/m, // heading
  /^\s*(?:[-*+]|\d+[.)])\s+\S/m, // list item
  /^\s*```/m, // fenced code
  /^>\s?\S/m, // block quote
  /\[[^\]\n]+\]\([^)\s]+\)/, // link
  /(\*\*|__)\S[^\n]*?\S?\1/, // strong emphasis
  /`[^`\n]+`/, // inline code
];

export function looksLikeMarkdown(text: string): boolean {
  return MARKDOWN_SIGNS.some((sign) => sign.test(text));
}
