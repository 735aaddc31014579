import { useEffect, useId, useState } from "react";
import { commands, type InstallProposal, type Prompt, type ServerForm } from "../bindings";
import { Modal } from "../dialogs/Modal";
import { errorMessage } from "../errors";
import { tx, useT } from "../i18n";
import { setsText } from "./sets";

interface Props {
  proposal: InstallProposal;
  onCancel(): void;
  onAdded(name: string): void;
}

/**
 * What adding a registry server would save, before anything is: the command line or the
 * address, every variable and header (which go to the keyring), asked values typed in.
 * Saved as a server added by hand: untrusted, its identity pinned.
 */
export function InstallReview({ proposal, onCancel, onAdded }: Props) {
  const t = useT();
  const { server } = proposal;
  const [name, setName] = useState(proposal.name);
  const [answers, setAnswers] = useState<Record<string, string>>(() =>
    Object.fromEntries(proposal.prompts.map((p) => [p.id, p.input.default ?? ""])),
  );
  const [composed, setComposed] = useState<ServerForm | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    commands.composeInstall({ server, way: proposal.way, name, answers }).then(
      (form) => {
        if (!current) return;
        setComposed(form);
        setProblem(null);
      },
      (err: unknown) => {
        if (!current) return;
        setComposed(null);
        setProblem(errorMessage(err));
      },
    );
    return () => {
      current = false;
    };
  }, [server, proposal.way, name, answers]);

  const add = composed
    ? () => {
        setSaving(true);
        setFailed(null);
        commands.saveServer(null, composed).then(
          () => onAdded(composed.name),
          (err: unknown) => {
            setFailed(errorMessage(err));
            setSaving(false);
          },
        );
      }
    : undefined;

  return (
    <Modal
      className="modal-wide install-review"
      title={t("registry.install.title", { name: server.title ?? server.name })}
      subtitle={tx("registry.install.subtitle", { name: <code>{server.name}</code>, version: server.version })}
      onCancel={onCancel}
      onPrimary={saving ? undefined : add}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>
            {t("registry.install.cancel")}
          </button>
          <button type="button" className="button primary" onClick={add} disabled={!add || saving}>
            {t("registry.install.add")}
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="install-name">{t("registry.install.name")}</label>
        <input id="install-name" className="mono" value={name} spellCheck={false} onChange={(e) => setName(e.target.value)} />
      </div>
      {proposal.prompts.length > 0 && (
        <fieldset className="install-prompts">
          <legend>{t("registry.install.values")}</legend>
          {proposal.prompts.map((prompt) => (
            <PromptField
              key={prompt.id}
              prompt={prompt}
              value={answers[prompt.id] ?? ""}
              onChange={(value) => setAnswers((a) => ({ ...a, [prompt.id]: value }))}
            />
          ))}
        </fieldset>
      )}
      <section className="install-composed" aria-label={t("registry.install.saved")}>
        <h3>{t("registry.install.saved")}</h3>
        {composed ? <Composed form={composed} /> : <p className="error" role="alert">{problem}</p>}
        <p className="hint">{t("registry.install.untrusted")}</p>
      </section>
      {failed && (
        <p className="error" role="alert">
          {failed}
        </p>
      )}
    </Modal>
  );
}

function PromptField({ prompt, value, onChange }: { prompt: Prompt; value: string; onChange(value: string): void }) {
  const t = useT();
  const id = useId();
  const { input } = prompt;
  const choices = input.choices ?? [];
  return (
    <div className="field">
      <label htmlFor={id}>
        {setsText(prompt.sets)}
        {input.isRequired && <span className="tag">{t("registry.input.required")}</span>}
        {input.isSecret && <span className="tag">{t("registry.input.secret")}</span>}
      </label>
      {choices.length > 0 ? (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {!input.isRequired && <option value="">{t("registry.install.noChoice")}</option>}
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          className="mono"
          type={input.isSecret ? "password" : "text"}
          value={value}
          placeholder={input.placeholder ?? undefined}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {input.description && <span className="hint">{input.description}</span>}
    </div>
  );
}

function Composed({ form }: { form: ServerForm }) {
  const t = useT();
  const rows = form.transport === "stdio" ? form.env : form.headers;
  return (
    <dl className="registry-facts">
      {form.transport === "stdio" ? (
        <>
          <dt>{t("registry.install.command")}</dt>
          <dd className="mono install-command">{[form.command, ...form.args].join(" ")}</dd>
        </>
      ) : (
        <>
          <dt>{t("registry.install.address")}</dt>
          <dd className="mono install-command">{form.url}</dd>
          <dt>{t("registry.install.transport")}</dt>
          <dd>{form.httpMode === "legacy_sse" ? "HTTP+SSE" : "Streamable HTTP"}</dd>
        </>
      )}
      {rows.map((row) => (
        <div key={row.key} className="install-value">
          <dt className="mono">{row.key}</dt>
          <dd className="mono">{row.secret ? t("registry.install.secretKept") : row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
