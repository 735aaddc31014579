import { createContext, useCallback, useEffect, useState } from "react";
import { commands, events } from "../bindings";

/** The `switchboard://install` link the window shows next, and how to say it was shown. */
export interface InstallLinkState {
  link: string | null;
  shown(): void;
}

export const InstallLinkContext = createContext<InstallLinkState>({ link: null, shown: () => {} });

/**
 * Links that opened the app (or reached it since): each is taken once from the app, and
 * `onLink` is told so that the window shows the registry. One is shown at a time, the
 * newest: a second link replaces a review not yet answered.
 */
export function useInstallLinks(onLink: () => void): InstallLinkState {
  const [link, setLink] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const take = () =>
      commands.takeInstallLinks().then((links) => {
        const newest = links.at(-1);
        if (!live || newest === undefined) return;
        setLink(newest);
        onLink();
      }, () => {});
    const unlisten = events.installLinksArrived.listen(take);
    take();
    return () => {
      live = false;
      void unlisten.then((stop) => stop());
    };
  }, [onLink]);
  const shown = useCallback(() => setLink(null), []);
  return { link, shown };
}
