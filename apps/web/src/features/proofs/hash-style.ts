/** A hash is one long word: it wraps anywhere (ns-num keeps figures on one line) and stays in the phone's width. */
export const HASH_STYLE = {
  display: "block",
  whiteSpace: "normal",
  wordBreak: "break-all",
  overflowWrap: "anywhere",
  textAlign: "start",
} as const;
