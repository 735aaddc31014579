import { useId } from "react";
import { useT } from "../i18n";
import { CompletionInput } from "./CompletionInput";
import "./explorer.css";

export interface ArgumentField {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

interface Props {
  fields: ArgumentField[];
  values: Record<string, string>;
  onValues(values: Record<string, string>): void;
  complete(arg: string, value: string): Promise<string[]>;
}

/** The named string arguments of a prompt or template, each with the server's completions. */
export function ArgumentFields({ fields, values, onValues, complete }: Props) {
  const t = useT();
  const idPrefix = useId();
  if (fields.length === 0) return null;
  return (
    <div className="argument-fields">
      {fields.map((field, index) => (
        <CompletionInput
          key={field.name}
          id={`${idPrefix}-${index}`}
          label={field.label}
          value={values[field.name] ?? ""}
          onChange={(value) => onValues({ ...values, [field.name]: value })}
          complete={(value) => complete(field.name, value)}
          required={field.required}
          {...(field.description ? { description: field.description } : {})}
        />
      ))}
      {fields.some((field) => field.required) && <p className="muted">{t("explorer.arguments.required")}</p>}
    </div>
  );
}

/** Whether every required field has something in it. */
export function requiredFilled(fields: ArgumentField[], values: Record<string, string>): boolean {
  return fields.every((field) => !field.required || (values[field.name] ?? "").trim() !== "");
}
