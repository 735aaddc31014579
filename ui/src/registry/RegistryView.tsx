import { useContext, useEffect, useState } from "react";
import { commands, type RegistryServer } from "../bindings";
import { errorMessage } from "../errors";
import { InstallLinkContext } from "../host/installLinks";
import { tx, useT } from "../i18n";
import { RegistryBrowser } from "./RegistryBrowser";

/** Browse the registry; a `switchboard://install` link opens the review of the server it names. */
export function RegistryView() {
  const t = useT();
  const { link, shown } = useContext(InstallLinkContext);
  const [linked, setLinked] = useState<RegistryServer | null>(null);
  const [refused, setRefused] = useState<{ link: string; why: string } | null>(null);

  useEffect(() => {
    if (!link) return;
    shown();
    setRefused(null);
    commands.installLinkServer(link).then(setLinked, (err: unknown) => setRefused({ link, why: errorMessage(err) }));
  }, [link, shown]);

  return (
    <>
      {refused && (
        <div className="link-refused" role="alert">
          <p>{tx("registry.link.refused", { link: <code>{refused.link}</code>, why: refused.why })}</p>
          <button type="button" onClick={() => setRefused(null)}>
            {t("registry.link.dismiss")}
          </button>
        </div>
      )}
      <RegistryBrowser linked={linked} onLinkedShown={() => setLinked(null)} />
    </>
  );
}
