import { useEffect, useState } from "react";
import { commands, type Pending_Serialize as Pending } from "../bindings";
import { errorMessage } from "../errors";
import { useHostUpdates } from "./updates";
import type { ElicitResult } from "../mcp/schema";
import { ToolCallDialog } from "../approvals/ToolCallDialog";
import { ReadDialog } from "../approvals/ReadDialog";
import { SamplingDialog } from "../approvals/SamplingDialog";
import { AgentRootsDialog } from "../approvals/AgentRootsDialog";
import { RootsDialog } from "../approvals/RootsDialog";
import { ElicitationFormDialog } from "../approvals/ElicitationFormDialog";
import { UrlElicitationDialog } from "../approvals/UrlElicitationDialog";
import { SignInDialog } from "../approvals/SignInDialog";
import { checkFolder } from "../approvals/checkFolder";
import type { PendingBase } from "../approvals/types";

interface Props {
  pending: Pending[];
  /**
   * The request the person picked in the queue; otherwise the oldest one that comes forward
   * (something the person started waits on it). Those that do not wait in the queue.
   */
  selectedId: number | null;
}

/** Shows the dialog of the request that waits, over whatever view is open. */
export function ApprovalCenter({ pending, selectedId }: Props) {
  const [failure, setFailure] = useState<{
    id: number;
    message: string;
  } | null>(null);
  const current = pending.find((p) => p.id === selectedId) ?? pending.find((p) => p.forward);
  if (!current) return null;
  const send = (answer: Promise<unknown>) =>
    answer.then(
      () => setFailure(null),
      (err: unknown) =>
        setFailure({ id: current.id, message: errorMessage(err) }),
    );
  return (
    <>
      {failure?.id === current.id && (
        <div className="approval-failure" role="alert">
          {failure.message}
        </div>
      )}
      <PendingDialog key={current.id} pending={current} send={send} />
    </>
  );
}

/** The text a model drafts for the sampling request `id`, as the host tells it, and a way to
 * start again from nothing (a new draft). */
function useDraftStream(id: number): [string, () => void] {
  const [text, setText] = useState("");
  useHostUpdates((update) => {
    if (update.kind === "sampling_draft" && update.id === id) setText((t) => t + update.text);
  });
  return [text, () => setText("")];
}

function PendingDialog({ pending, send }: { pending: Pending; send: (answer: Promise<unknown>) => void }) {
  const { question, server } = pending;
  const [streamed, restartStream] = useDraftStream(pending.id);
  const id = pending.id;
  const base: PendingBase = {
    id,
    server,
    deadlineMs: pending.deadlineMs,
    during: pending.during,
  };
  switch (question.kind) {
    case "tool_call":
      return (
        <ToolCallDialog
          request={{
            ...base,
            tool: question.tool,
            arguments: question.arguments as Record<string, unknown>,
            annotations: question.annotations,
            changed: question.changed ?? null,
            askedBy: question.askedBy,
          }}
          onAnswer={(a) =>
            send(
              commands.answerToolCall(
                id,
                server,
                a.allow,
                a.arguments as never,
                a.remember,
              ),
            )
          }
        />
      );
    case "read":
      return (
        <ReadDialog
          request={{ ...base, read: question.read, changed: question.changed ?? null, askedBy: question.askedBy }}
          onAnswer={(a) => send(commands.answerRead(id, server, a.allow, a.remember))}
        />
      );
    case "sampling":
      return (
        <SamplingDialog
          request={{
            ...base,
            params: question.params,
          }}
          onAnswer={(result) => send(commands.answerSampling(id, server, result))}
          onDecline={() => send(commands.answerSampling(id, server, null))}
          draft={(reviewed) => {
            restartStream();
            return commands.draftSampling(id, server, reviewed);
          }}
          streamed={streamed}
          stopDraft={() => void commands.stopSamplingDraft(id)}
          onAllowWithoutReview={({ provider, model }) =>
            send(commands.allowSamplingWithoutReview(server, provider, model))
          }
        />
      );
    case "elicitation": {
      const answer = (result: ElicitResult) => send(commands.answerElicitation(id, server, result));
      const params = question.params;
      return params.mode === "url" ? (
        <UrlElicitationDialog request={{ ...base, params }} onAnswer={(action) => answer({ action })} />
      ) : (
        <ElicitationFormDialog request={{ ...base, params }} onAnswer={answer} />
      );
    }
    case "roots":
      return <RootsFor base={base} send={send} />;
    case "agent_roots":
      return (
        <AgentRootsDialog
          request={{ ...base, folders: question.folders, servers: question.servers }}
          onBrowse={() => commands.pickFolder()}
          onCheck={checkFolder}
          onAnswer={(folders) => send(commands.answerAgentRoots(id, server, folders))}
        />
      );
    case "sign_in":
      return (
        <SignInDialog
          request={{
            ...base,
            issuer: question.issuer,
            issuerHost: question.issuerHost,
            resource: question.resource,
            scopes: question.scopes,
            url: question.url,
          }}
          onAnswer={(signIn) => send(commands.answerSignIn(id, server, signIn))}
        />
      );
  }
}

function RootsFor({
  base,
  send,
}: {
  base: PendingBase;
  send: (answer: Promise<unknown>) => void;
}) {
  const [initial, setInitial] = useState<string[] | null>(null);
  useEffect(() => {
    commands.serverRoots(base.server).then(setInitial, () => setInitial([]));
  }, [base.server]);
  if (initial === null) return null;
  return (
    <RootsDialog
      request={base}
      initial={initial}
      onBrowse={() => commands.pickFolder()}
      onCheck={checkFolder}
      onAnswer={(folders) =>
        send(commands.answerRoots(base.id, base.server, folders))
      }
    />
  );
}
