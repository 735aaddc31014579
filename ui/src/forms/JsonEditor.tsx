import "./forms.css";

export interface JsonEditorProps {
  id: string;
  label: string;
  text: string;
  onText(text: string): void;
  /** Shown under the editor, and marks it invalid. */
  error?: string | undefined;
  rows?: number;
}

/** A plain text area for JSON, with the reason it is refused right under it. */
export function JsonEditor({ id, label, text, onText, error, rows = 8 }: JsonEditorProps) {
  return (
    <div className="form-field">
      <label htmlFor={id}>
        <span className="form-label">{label}</span>
      </label>
      <textarea
        id={id}
        className="form-input json-editor"
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        value={text}
        onChange={(e) => onText(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        // Described by the editor rather than an alert: it changes with every keystroke.
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
