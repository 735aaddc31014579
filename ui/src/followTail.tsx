import { useLayoutEffect, useRef, useState, type ReactNode, type UIEvent } from "react";
import { useT } from "./i18n";

/** How close to the bottom still counts as "at the bottom", in pixels. */
const BOTTOM_SLACK = 16;

/**
 * A scrolled list that follows its newest lines while the person is at its bottom, and stops
 * when they scroll up to read, offering "Jump to latest". `shown` is what the list draws.
 */
export function useFollowTail(shown: unknown): {
  listRef: React.RefObject<HTMLDivElement | null>;
  onScroll: (e: UIEvent<HTMLDivElement>) => void;
  jumpToLatest: ReactNode;
} {
  const t = useT();
  const [following, setFollowing] = useState(true);
  const listRef = useRef<HTMLDivElement>(null);
  const toBottom = () => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  };
  useLayoutEffect(() => {
    const el = listRef.current;
    if (following) toBottom();
    // Filtered down to less than a screenful, there is nothing left to jump to.
    else if (el && el.scrollHeight <= el.clientHeight + BOTTOM_SLACK) setFollowing(true);
  }, [shown, following]);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK);
  };
  const jumpToLatest = following ? null : (
    <button
      type="button"
      className="jump-latest"
      onClick={() => {
        setFollowing(true);
        toBottom();
      }}
    >
      {t("host.followTail.jumpToLatest")}
    </button>
  );
  return { listRef, onScroll, jumpToLatest };
}
