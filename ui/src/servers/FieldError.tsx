/** A field's problem, referenced by the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

/** The ids a control is described by, without the missing ones. */
export function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const present = ids.filter(Boolean).join(" ");
  return present === "" ? undefined : present;
}
