import { useState, type ReactNode } from "react";
import { commands, type AgentApp, type SetupPlan } from "../bindings";
import { Modal } from "../dialogs/Modal";
import { errorMessage } from "../errors";
import { tx, useT, type MessageId } from "../i18n";

/** The apps whose configuration Switchboard can be added to, in the order offered. */
/** Their names are their own, in every language. */
export const SETUP_APPS: ReadonlyArray<{ app: AgentApp; name: string }> = [
  { app: "claudeCode", name: "Claude Code" },
  { app: "claudeDesktop", name: "Claude Desktop" },
  { app: "cursor", name: "Cursor" },
  { app: "vsCode", name: "VS Code" },
];

type Step =
  | { kind: "planning"; name: string }
  | { kind: "shown"; plan: SetupPlan; writing: boolean; error: string | null }
  | { kind: "refused"; name: string; message: string }
  | { kind: "done"; plan: SetupPlan };

/**
 * Buttons that add Switchboard, as this agent, to another app's MCP configuration file: the
 * file and the exact change show first, and only "Write the change" writes it.
 */
/** What the person does next for each app to use the entry it was given. */
const NEXT_STEP: { readonly [App in AgentApp]: MessageId } = {
  claudeCode: "agents.setup.next.claudeCode",
  claudeDesktop: "agents.setup.next.claudeDesktop",
  cursor: "agents.setup.next.cursor",
  vsCode: "agents.setup.next.vsCode",
};

export function AgentSetup({ agent }: { agent: string }) {
  const t = useT();
  const [step, setStep] = useState<Step | null>(null);
  const close = () => setStep(null);
  const plan = (app: AgentApp, name: string) => {
    setStep({ kind: "planning", name });
    commands.agentSetupPlan(agent, app).then(
      (plan) => setStep({ kind: "shown", plan, writing: false, error: null }),
      (err: unknown) => setStep({ kind: "refused", name, message: errorMessage(err) }),
    );
  };
  const write = (plan: SetupPlan) => {
    setStep({ kind: "shown", plan, writing: true, error: null });
    commands.agentSetupApply(plan).then(
      () => setStep({ kind: "done", plan }),
      (err: unknown) => setStep({ kind: "shown", plan, writing: false, error: errorMessage(err) }),
    );
  };
  return (
    <div className="agent-setup" role="group" aria-label={t("agents.setup.group", { agent })}>
      {SETUP_APPS.map(({ app, name }) => (
        <button key={app} type="button" className="button" onClick={() => plan(app, name)} disabled={step !== null}>
          {t("agents.setup.addTo", { app: name })}
        </button>
      ))}
      {step !== null && <SetupDialog agent={agent} step={step} onWrite={write} onAgain={plan} onClose={close} />}
    </div>
  );
}

function SetupDialog({
  agent,
  step,
  onWrite,
  onAgain,
  onClose,
}: {
  agent: string;
  step: Step;
  onWrite(plan: SetupPlan): void;
  onAgain(app: AgentApp, name: string): void;
  onClose(): void;
}) {
  const t = useT();
  const close = (
    <button type="button" className="button" onClick={onClose}>
      {t("agents.setup.close")}
    </button>
  );
  switch (step.kind) {
    case "planning":
      return (
        <Modal title={t("agents.setup.title", { app: step.name })} onCancel={onClose} footer={close}>
          <p className="muted">{t("agents.setup.reading", { app: step.name })}</p>
        </Modal>
      );
    case "refused":
      return (
        <Modal title={t("agents.setup.title", { app: step.name })} onCancel={onClose} footer={close}>
          <p className="setup-refused" role="alert">
            {step.message}
          </p>
        </Modal>
      );
    case "done":
      return (
        <Modal
          title={t("agents.setup.doneTitle", { app: step.plan.appName })}
          onCancel={onClose}
          onPrimary={onClose}
          footer={close}
        >
          <p role="status">{t("agents.setup.done", { path: step.plan.path, agent })}</p>
          <p>{t(NEXT_STEP[step.plan.app])}</p>
        </Modal>
      );
    case "shown": {
      const { plan, writing, error } = step;
      const write = () => onWrite(plan);
      // The sentence around the file's path, which shows as code within it.
      const path = (chunks: ReactNode[]) => <code className="setup-path">{chunks}</code>;
      const sentence = plan.exists
        ? tx("agents.setup.changes", { path: plan.path, code: path })
        : tx("agents.setup.creates", { path: plan.path, code: path });
      return (
        <Modal
          title={t("agents.setup.title", { app: plan.appName })}
          subtitle={t("agents.setup.subtitle", { agent })}
          className="modal-wide"
          onCancel={onClose}
          onPrimary={writing || error ? undefined : write}
          footer={
            <>
              <button type="button" className="button" onClick={onClose}>
                {t("agents.setup.cancel")}
              </button>
              {error ? (
                <button type="button" className="button primary" onClick={() => onAgain(plan.app, plan.appName)}>
                  {t("agents.setup.again")}
                </button>
              ) : (
                <button type="button" className="button primary" onClick={write} disabled={writing}>
                  {t("agents.setup.write")}
                </button>
              )}
            </>
          }
        >
          <p>{sentence}</p>
          <Diff diff={plan.diff} path={plan.path} />
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </Modal>
      );
    }
  }
}

/** A unified diff, each line marked as added, removed or kept; shown as text. */
function Diff({ diff, path }: { diff: string; path: string }) {
  const t = useT();
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return (
    <pre className="setup-diff" aria-label={t("agents.setup.diff", { path })}>
      {lines.map((line, i) => (
        <span key={i} className={lineClass(line)}>
          {line}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-added";
  if (line.startsWith("-")) return "diff-removed";
  return "diff-kept";
}
