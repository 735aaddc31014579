import { LabelledField, errorAria } from "./LabelledField";

export interface JsonEditorProps {
  id: string;
  label: string;
  text: string;
  onText(text: string): void;
  /** Shown under the editor, and marks it invalid. */
  error?: string | undefined;
  rows?: number;
}

/**
 * A plain text area for JSON, with the reason it is refused right under it (tied to the
 * editor, not an alert: it changes with every keystroke).
 */
export function JsonEditor({ id, label, text, onText, error, rows = 8 }: JsonEditorProps) {
  return (
    <LabelledField id={id} label={label} error={error}>
      <textarea
        id={id}
        className="form-input json-editor"
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        value={text}
        onChange={(e) => onText(e.target.value)}
        {...errorAria(id, error)}
      />
    </LabelledField>
  );
}
