import { useMemo, useState } from "react";
import type { ElicitRequestFormParams, ElicitResult } from "../mcp/schema";
import { Modal } from "../dialogs/Modal";
import { tx, useT } from "../i18n";
import { SchemaForm, defaultsOf, validate } from "../forms/SchemaForm";
import { propertiesOf } from "../forms/schemaModel";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { During } from "./During";
import { ServerName } from "./ServerName";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface ElicitationFormDialogProps {
  request: PendingBase & { params: ElicitRequestFormParams };
  onAnswer(result: ElicitResult): void;
}

type Content = NonNullable<ElicitResult["content"]>;

/** Only the form's own fields, with the kinds of value an answer may hold. */
function contentOf(schema: ElicitRequestFormParams["requestedSchema"], value: Record<string, unknown>): Content {
  const content: Content = {};
  for (const [name] of propertiesOf(schema)) {
    const v = value[name];
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") content[name] = v;
    else if (Array.isArray(v) && v.every((item) => typeof item === "string")) content[name] = v;
  }
  return content;
}

/** A server asks the person to fill in a form; nothing goes back before the answers fit it. */
export function ElicitationFormDialog({ request, onAnswer }: ElicitationFormDialogProps) {
  const t = useT();
  const { message, requestedSchema } = request.params;
  const [value, setValue] = useState(() => defaultsOf(requestedSchema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const guard = useActivationGuard(
    useMemo(
      () => contentKey(request.id, request.server, request.params),
      [request.id, request.server, request.params],
    ),
  );

  const change = (next: Record<string, unknown>) => {
    setValue(next);
    // After a refused submit, messages follow the fixes as they are typed.
    if (tried) setErrors(validate(requestedSchema, next));
  };
  const submit = () => {
    const problems = validate(requestedSchema, value);
    setErrors(problems);
    setTried(true);
    if (Object.keys(problems).length === 0) onAnswer({ action: "accept", content: contentOf(requestedSchema, value) });
  };
  const count = Object.keys(errors).length;

  return (
    <Modal
      title={tx("requests.form.title", { server: <ServerName name={request.server} /> })}
      subtitle={
        <>
          <During during={request.during} />
          <Countdown deadlineMs={request.deadlineMs} outcome="cancelled" />
        </>
      }
      onCancel={() => onAnswer({ action: "cancel" })}
      onPrimary={guard.primary(submit)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer({ action: "cancel" })}>
            {t("requests.action.cancel")}
          </button>
          <button type="button" className="button" onClick={() => onAnswer({ action: "decline" })}>
            {t("requests.action.decline")}
          </button>
          <button type="button" className="button primary" {...guard.accepting()} onClick={submit}>
            {t("requests.form.submit")}
          </button>
        </>
      }
    >
      <section className="approval-section" aria-label={t("requests.message.label", { server: request.server })}>
        <p className="server-message">{message}</p>
      </section>
      <p className="approval-note">{t("requests.form.note", { server: request.server })}</p>
      {tried && count > 0 && (
        <p className="approval-alert" role="alert">
          {t("requests.form.problems", { count })}
        </p>
      )}
      <SchemaForm
        schema={requestedSchema}
        value={value}
        onChange={change}
        errors={errors}
        idPrefix={`elicit-${request.id}`}
        allowRaw={false}
      />
    </Modal>
  );
}
