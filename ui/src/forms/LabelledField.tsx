import type { ReactNode } from "react";
import "./forms.css";

/** The attributes that tie a control to its error message under it. */
export function errorAria(id: string, error: string | null | undefined) {
  return error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}

/**
 * A label above a control (give the control `id` and `errorAria(id, error)`), the error under
 * it; `announce` makes the error an alert, for errors that follow an action rather than typing.
 */
export function LabelledField({
  id,
  label,
  error,
  announce = false,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | null | undefined;
  announce?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="form-field">
      <label htmlFor={id}>
        <span className="form-label">{label}</span>
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="form-error" role={announce ? "alert" : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
