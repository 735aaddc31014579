import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessage,
  SamplingMessageContentBlock,
  ToolUseContent,
} from "../mcp/schema";
import { Modal } from "../dialogs/Modal";
import { errorMessage } from "../errors";
import { t as translate, tx, useT, type MessageId } from "../i18n";
import { LabelledField, errorAria } from "../forms/LabelledField";
import { contentKey, useActivationGuard } from "./activationGuard";
import { Countdown } from "./Countdown";
import { During } from "./During";
import { ServerName } from "./ServerName";
import { blocksOf } from "./SamplingContent";
import {
  SamplingRequestReview,
  settingsErrors,
  settingsOf,
} from "./SamplingRequestReview";
import type { PendingBase } from "./types";
import "./approvals.css";

export interface SamplingDialogProps {
  request: PendingBase & { params: CreateMessageRequestParams };
  onAnswer(result: CreateMessageResult): void;
  onDecline(): void;
  /**
   * Asks the host's model to draft the reply to the request as the person reviewed it;
   * resolves null when no model is set up (the person writes the reply).
   */
  draft?(
    reviewed: CreateMessageRequestParams,
  ): Promise<{ provider: string; model: string; result: CreateMessageResult } | null>;
  /**
   * From now on, this model's replies (the one that drafted the reply the person sent) go
   * to this server without review, whatever the server hints.
   */
  onAllowWithoutReview?(chosen: { provider: string; model: string }): void;
  /** What the model has written of its draft so far, as it comes. */
  streamed?: string;
  /** Stops the draft under way; what it wrote stays, for the person to finish. */
  stopDraft?(): void;
}

type Draft =
  | { kind: "none" }
  | { kind: "drafting" }
  | {
      kind: "done";
      provider: string;
      model: string;
      result: CreateMessageResult;
      text: string;
    }
  | { kind: "failed"; message: string }
  /** The person stopped it: what it wrote became their reply to finish. */
  | { kind: "stopped" };

/** The blocks of a reply. */
function blocksOfResult(result: CreateMessageResult): SamplingMessageContentBlock[] {
  return Array.isArray(result.content) ? result.content : [result.content];
}

/** The text parts of a drafted reply, joined. */
function textOf(result: CreateMessageResult): string {
  return blocksOfResult(result)
    .map((b) => (b.type === "text" ? b.text : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** A tool call the model drafted, its arguments as the person may edit them (JSON text). */
interface DraftedCall {
  id: string;
  name: string;
  input: string;
}

function callsOf(result: CreateMessageResult): DraftedCall[] {
  return blocksOfResult(result)
    .filter((b): b is ToolUseContent => b.type === "tool_use")
    .map((b) => ({ id: b.id, name: b.name, input: JSON.stringify(b.input, null, 2) }));
}

/** What is wrong with a call's arguments as typed, if anything (call it while rendering). */
function inputError(input: string): string | null {
  try {
    const value: unknown = JSON.parse(input);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? null
      : translate("approvals.sampling.notObject");
  } catch {
    return translate("approvals.sampling.notJson");
  }
}

/** The reply the person sends: their text and the tool calls they kept, and why it stops. */
function replyOf(text: string, calls: DraftedCall[], model: string): CreateMessageResult {
  const uses: ToolUseContent[] = calls.map((c) => ({
    type: "tool_use",
    id: c.id,
    name: c.name,
    input: JSON.parse(c.input) as ToolUseContent["input"],
  }));
  const content: SamplingMessageContentBlock[] = [...(text.trim() === "" ? [] : [{ type: "text" as const, text }]), ...uses];
  return {
    role: "assistant",
    content: uses.length === 0 ? { type: "text", text } : content,
    model,
    stopReason: uses.length === 0 ? "endTurn" : "toolUse",
  };
}

/** The request as the person reviewed it in step 1. */
function reviewedParams(
  params: CreateMessageRequestParams,
  messages: SamplingMessage[],
  settings: ReturnType<typeof settingsOf>,
): CreateMessageRequestParams {
  const stops = settings.stopSequences.split("\n").filter((s) => s !== "");
  const {
    systemPrompt: _s,
    temperature: _t,
    stopSequences: _x,
    ...rest
  } = params;
  return {
    ...rest,
    messages,
    maxTokens: Number(settings.maxTokens),
    ...(settings.systemPrompt === ""
      ? {}
      : { systemPrompt: settings.systemPrompt }),
    ...(settings.temperature.trim() === ""
      ? {}
      : { temperature: Number(settings.temperature) }),
    ...(stops.length > 0 ? { stopSequences: stops } : {}),
  };
}

const STEPS: readonly MessageId[] = [
  "approvals.sampling.step.request",
  "approvals.sampling.step.write",
  "approvals.sampling.step.review",
];

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/**
 * A server asks for a model's reply. The person reads the request; once they approve it,
 * the host's model drafts the reply (with no model set up, or if they prefer, they write
 * it themselves); they check it before it goes back.
 */
export function SamplingDialog({
  request,
  onAnswer,
  onDecline,
  draft,
  onAllowWithoutReview,
  streamed = "",
  stopDraft,
}: SamplingDialogProps) {
  const t = useT();
  const { params } = request;
  const idPrefix = `sampling-${request.id}`;
  const [step, setStep] = useState(0);
  const [messages, setMessages] = useState<SamplingMessage[]>(params.messages);
  const [settings, setSettings] = useState(() => settingsOf(params));
  const [reply, setReply] = useState("");
  const [calls, setCalls] = useState<DraftedCall[]>([]);
  const [model, setModel] = useState("human");
  const [tried, setTried] = useState(false);
  const [drafted, setDrafted] = useState<Draft>({ kind: "none" });
  const [always, setAlways] = useState(false);
  const asked = useRef(0);
  const body = useRef<HTMLDivElement>(null);
  const guard = useActivationGuard(
    useMemo(
      () => contentKey(request.id, request.server, params),
      [request.id, request.server, params],
    ),
  );

  const settingProblems = settingsErrors(settings);
  const replyError = reply.trim() === "" && calls.length === 0 ? t("approvals.sampling.replyMissing") : null;
  const callErrors = calls.map((c) => inputError(c.input));
  const modelError =
    model.trim() === "" ? t("approvals.sampling.modelMissing") : null;
  const stepOk =
    step === 0
      ? Object.keys(settingProblems).length === 0
      : !replyError && !modelError && callErrors.every((e) => e === null);

  // Each new step starts on its first field, as the dialog did when it opened.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    body.current?.querySelector<HTMLElement>("textarea, input")?.focus();
  }, [step]);

  const startDraft = () => {
    if (!draft) return;
    const mine = ++asked.current;
    setDrafted({ kind: "drafting" });
    draft(reviewedParams(params, messages, settings)).then(
      (got) => {
        if (mine !== asked.current) return;
        if (!got) {
          setDrafted({ kind: "none" });
          return;
        }
        const result = got.result;
        const text = textOf(result);
        setDrafted({
          kind: "done",
          provider: got.provider,
          model: got.model,
          result,
          text,
        });
        setReply(text);
        setCalls(callsOf(result));
        setModel(result.model || got.model);
      },
      (err: unknown) => {
        if (mine !== asked.current) return;
        setDrafted({ kind: "failed", message: errorMessage(err) });
      },
    );
  };

  const stop = () => {
    asked.current++;
    stopDraft?.();
    setDrafted({ kind: "stopped" });
    setReply(streamed);
    setCalls([]);
    setModel("human");
  };

  const writeMyself = () => {
    asked.current++;
    setDrafted({ kind: "none" });
    setReply("");
    setCalls([]);
    setModel("human");
  };

  const next = () => {
    setTried(true);
    if (!stepOk) return;
    setTried(false);
    if (step === 0) startDraft();
    if (step < 2) setStep(step + 1);
    else {
      // A draft sent as it came keeps all of it (its stop reason, whatever it said).
      const untouched =
        drafted.kind === "done" &&
        reply === drafted.text &&
        model.trim() === drafted.result.model &&
        JSON.stringify(calls) === JSON.stringify(callsOf(drafted.result));
      onAnswer(untouched ? drafted.result : replyOf(reply, calls, model.trim()));
      if (always && drafted.kind === "done")
        onAllowWithoutReview?.({
          provider: drafted.provider,
          model: drafted.model,
        });
    }
  };
  const show = (error: string | null) => (tried ? error : null);

  return (
    <Modal
      className="modal-wide"
      title={tx("approvals.sampling.title", { server: <ServerName name={request.server} /> })}
      subtitle={
        <>
          <During during={request.during} />
          <Countdown deadlineMs={request.deadlineMs} outcome="declined" />
        </>
      }
      onCancel={onDecline}
      onPrimary={guard.primary(next)}
      footer={
        <>
          <button type="button" className="button danger" onClick={onDecline}>
            {t("approvals.sampling.decline")}
          </button>
          <span className="spacer" />
          {step > 0 && (
            <button
              type="button"
              className="button"
              onClick={() => setStep(step - 1)}
            >
              {t("approvals.sampling.back")}
            </button>
          )}
          <button
            type="button"
            className="button primary"
            {...guard.accepting()}
            onClick={next}
          >
            {step === 0
              ? t("approvals.sampling.nextWrite")
              : step === 1
                ? t("approvals.sampling.nextReview")
                : t("approvals.sampling.send")}
          </button>
        </>
      }
    >
      <ol className="steps" aria-label={t("approvals.sampling.steps")}>
        {STEPS.map((name, i) => (
          <li key={name} aria-current={i === step ? "step" : undefined}>
            {i + 1}. {t(name)}
          </li>
        ))}
      </ol>
      <div ref={body} className="modal-body-step">
        <h3 className="step-title">
          {t("approvals.sampling.stepOf", {
            step: step + 1,
            steps: STEPS.length,
            name: t(STEPS[step] ?? "approvals.sampling.step.request"),
          })}
        </h3>
        {step === 0 && (
          <SamplingRequestReview
            idPrefix={idPrefix}
            params={params}
            messages={messages}
            onMessages={setMessages}
            settings={settings}
            onSettings={setSettings}
            errors={settingProblems}
          />
        )}
        {step === 1 && (
          <>
            {drafted.kind === "drafting" && (
              <>
                <p className="approval-note" role="status">
                  {t("approvals.sampling.drafting")}
                </p>
                {streamed !== "" && (
                  <pre className="sampling-streaming" aria-label={t("approvals.sampling.streamed")}>
                    {streamed}
                  </pre>
                )}
                {stopDraft && (
                  <button type="button" className="button" onClick={stop}>
                    {t("approvals.sampling.stop")}
                  </button>
                )}
              </>
            )}
            {drafted.kind === "stopped" && (
              <p className="approval-note" role="status">
                {t("approvals.sampling.stopped")}
              </p>
            )}
            {drafted.kind === "done" && (
              <p className="approval-note" role="status">
                {t("approvals.sampling.drafted", {
                  model: drafted.model,
                  provider: drafted.provider,
                  server: request.server,
                })}
              </p>
            )}
            {drafted.kind === "failed" && (
              <p className="approval-note" role="alert">
                {t("approvals.sampling.draftFailed", { message: drafted.message })}
              </p>
            )}
            {(drafted.kind === "drafting" || drafted.kind === "done") && (
              <button type="button" className="button" onClick={writeMyself}>
                {t("approvals.sampling.writeMyself")}
              </button>
            )}
            {(drafted.kind === "none" || drafted.kind === "failed") && (
              <p className="approval-note">
                {t(
                  draft && drafted.kind === "none" && asked.current > 0
                    ? "approvals.sampling.youWrite"
                    : "approvals.sampling.write",
                  { server: request.server, maxTokens: settings.maxTokens },
                )}
              </p>
            )}
            <Transcript
              messages={messages}
              systemPrompt={settings.systemPrompt}
            />
          </>
        )}
        {step === 2 && (
          <p className="approval-note">
            {calls.length === 0
              ? tx("approvals.sampling.final", { server: request.server, reason: "endTurn", code })
              : tx("approvals.sampling.finalWithCalls", { server: request.server, reason: "toolUse", code })}
          </p>
        )}
        {step === 2 && drafted.kind === "done" && onAllowWithoutReview && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={always}
              onChange={(e) => setAlways(e.target.checked)}
            />{" "}
            {t("approvals.sampling.always", {
              server: request.server,
              model: drafted.model,
              provider: drafted.provider,
            })}
          </label>
        )}
        {step > 0 && (
          <>
            <LabelledField
              id={`${idPrefix}-reply`}
              label={step === 1 ? t("approvals.sampling.yourReply") : t("approvals.sampling.replyToSend")}
              error={show(replyError)}
            >
              <textarea
                id={`${idPrefix}-reply`}
                className="form-input"
                rows={8}
                value={reply}
                onChange={(e) => setReply(e.target.value)}
                {...errorAria(`${idPrefix}-reply`, show(replyError))}
              />
            </LabelledField>
            {calls.map((call, i) => (
              <fieldset key={call.id} className="sampling-call" aria-label={t("approvals.sampling.call", { name: call.name })}>
                <legend>{tx("approvals.sampling.modelCalls", { name: call.name, code })}</legend>
                <LabelledField id={`${idPrefix}-call-${i}`} label={t("approvals.sampling.callArguments", { name: call.name })} error={callErrors[i] ?? null}>
                  <textarea
                    id={`${idPrefix}-call-${i}`}
                    className="form-input mono"
                    rows={Math.min(10, call.input.split("\n").length + 1)}
                    value={call.input}
                    onChange={(e) => setCalls(calls.map((c, j) => (j === i ? { ...c, input: e.target.value } : c)))}
                    {...errorAria(`${idPrefix}-call-${i}`, callErrors[i] ?? null)}
                  />
                </LabelledField>
                <button type="button" className="button small" onClick={() => setCalls(calls.filter((_, j) => j !== i))}>
                  {t("approvals.sampling.leaveOut")}
                </button>
              </fieldset>
            ))}
            <LabelledField
              id={`${idPrefix}-model`}
              label={t("approvals.sampling.modelName")}
              error={show(modelError)}
            >
              <input
                id={`${idPrefix}-model`}
                className="form-input"
                value={model}
                onChange={(e) => setModel(e.target.value)}
                {...errorAria(`${idPrefix}-model`, show(modelError))}
              />
            </LabelledField>
          </>
        )}
      </div>
    </Modal>
  );
}

/** The conversation as reviewed in step 1, to reply to. */
function Transcript({
  messages,
  systemPrompt,
}: {
  messages: SamplingMessage[];
  systemPrompt: string;
}) {
  const t = useT();
  return (
    <section className="transcript" aria-label={t("approvals.sampling.conversation")}>
      {systemPrompt.trim() !== "" && (
        <p>
          <strong>system:</strong> {systemPrompt}
        </p>
      )}
      {messages.map((message, i) => (
        <p key={i}>
          <strong>{message.role}:</strong>{" "}
          {blocksOf(message)
            .map((block) =>
              block.type === "text" ? block.text : `[${block.type}]`,
            )
            .join(" ")}
        </p>
      ))}
    </section>
  );
}
