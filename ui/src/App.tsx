import { useState } from "react";
import { Sidebar } from "./shell/Sidebar";
import { StatusBar } from "./shell/StatusBar";
import { VIEWS, type ViewId } from "./views";

export function App() {
  const [current, setCurrent] = useState<ViewId>("servers");
  const view = VIEWS.find((v) => v.id === current) ?? VIEWS[0];
  const Body = view.component;
  return (
    <div className="app">
      <Sidebar current={view.id} onSelect={setCurrent} />
      <main className="content" aria-labelledby="view-title">
        <header className="content-header">
          <h1 id="view-title">{view.label}</h1>
          <p className="muted">{view.summary}</p>
        </header>
        <Body />
      </main>
      <StatusBar />
    </div>
  );
}
