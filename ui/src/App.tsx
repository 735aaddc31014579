import { Suspense, useCallback, useState } from "react";
import { Sidebar } from "./shell/Sidebar";
import { StatusBar } from "./shell/StatusBar";
import { VIEWS, viewLabel, viewSummary, type ViewId } from "./shell/views";
import { useLocale } from "./i18n";
import { useDesktopChoices } from "./settings/useDesktopChoices";
import { ApprovalCenter } from "./host/ApprovalCenter";
import { QueuedNotice } from "./host/QueuedNotice";
import { ApprovalsContext } from "./host/approvalsContext";
import { usePending } from "./host/pending";
import { useShowRequest } from "./host/updates";
import { useWithdrawn } from "./host/withdrawn";
import { ExplorerStoreProvider } from "./explorer/kept";
import { InstallLinkContext, useInstallLinks } from "./host/installLinks";

export function App() {
  useDesktopChoices();
  useLocale();
  const [current, setCurrent] = useState<ViewId>("servers");
  const pending = usePending();
  const [withdrawn, dismissWithdrawn] = useWithdrawn(pending);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const installLink = useInstallLinks(useCallback(() => setCurrent("registry"), []));
  useShowRequest(setSelectedId);
  const view = VIEWS.find((v) => v.id === current) ?? VIEWS[0];
  const Body = view.component;
  return (
    <ApprovalsContext.Provider value={{ pending, selectedId, select: setSelectedId }}>
      <ExplorerStoreProvider>
        <div className="app">
          <Sidebar current={view.id} onSelect={setCurrent} badges={{ approvals: pending.length }} />
          <main className="content" aria-labelledby="view-title">
            <header className="content-header">
              <h1 id="view-title">{viewLabel(view.id)}</h1>
              <p className="muted">{viewSummary(view.id)}</p>
            </header>
            {/* A view loads on its first opening (see shell/views.ts): a moment without it. */}
            <Suspense fallback={null}>
              <InstallLinkContext.Provider value={installLink}>
                <Body />
              </InstallLinkContext.Provider>
            </Suspense>
          </main>
          <StatusBar />
        </div>
        <QueuedNotice
          pending={pending}
          selectedId={selectedId}
          onReview={setSelectedId}
          onShowAll={() => setCurrent("approvals")}
          withdrawn={withdrawn}
          onDismissWithdrawn={dismissWithdrawn}
        />
        <ApprovalCenter pending={pending} selectedId={selectedId} />
      </ExplorerStoreProvider>
    </ApprovalsContext.Provider>
  );
}
